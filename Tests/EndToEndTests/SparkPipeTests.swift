import Foundation
import Testing

/// What `spark/check_local.py` needs that is missing here, or nil: `.ci/run`
/// installs Java (`openjdk-17-jre-headless`) and makes `.venv-ci/` with PySpark.
let sparkMissing: String? = {
  let python = repositoryFile(".venv-ci/bin/python")
  guard FileManager.default.isExecutableFile(atPath: python.path) else {
    return ".venv-ci/bin/python is missing (.ci/run makes it: python3 -m venv .venv-ci"
      + " && .venv-ci/bin/pip install -r spark/requirements.txt)"
  }
  let java = ["/usr/bin/java", "/usr/local/bin/java"]
  guard java.contains(where: FileManager.default.isExecutableFile(atPath:)) else {
    return "java is missing (apt-get install openjdk-17-jre-headless)"
  }
  let found = try? Executable("hangul-compose").shell("'\(python.path)' -c 'import pyspark'")
  guard found?.status == 0 else { return "PySpark is not installed in .venv-ci" }
  return nil
}()

/// The Korean corpus beside the repository, when there is one.
let sharedCorpus: URL? = [
  repositoryRoot.appendingPathComponent("../shared/corpus/ko-prose.txt"),
  URL(fileURLWithPath: "/work/shared/corpus/ko-prose.txt"),
].first { FileManager.default.fileExists(atPath: $0.path) }

/// The README's Spark job, run by `spark/check_local.py` in one local Spark
/// session on 4 partitions: for each of hangul-normalize, hangul-decompose
/// --to jamo, hangul-compose --keys qwerty and hangul-reviews import, the
/// job's output is byte for byte one process's; lines that are not UTF-8 come
/// back as rejects; the traps the job documents are real.
@Suite("Spark pipe")
struct SparkPipeTests {
  @Test(
    "spark/hangul_pipe.py on 4 partitions writes what one process writes",
    .enabled(if: sparkMissing == nil, Comment(rawValue: sparkMissing ?? "")))
  func localMode() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let python = repositoryFile(".venv-ci/bin/python").path
    let binaries = Executable("hangul-compose").url.deletingLastPathComponent().path
    let corpus = sharedCorpus.map { " --corpus '\($0.path)'" } ?? ""
    // LANG=C: the JVM's default charset is US-ASCII, the trap the job avoids.
    let result = try Executable("hangul-compose").shell(
      "LANG=C LC_ALL=C '\(python)' '\(repositoryFile("spark/check_local.py").path)'"
        + " --bin '\(binaries)' --work '\(folder.path)'\(corpus)")
    let report = result.text
    #expect(result.status == 0, "\(report)\n\(result.stderr.suffix(4000))")
    #expect(report.contains("0 failed"), "\(report)")
    #expect(!report.contains("FAILED"), "\(report)")
  }
}
