#if canImport(Glibc)
  import Glibc
#endif
import HangulKit
import Testing

/// Paths as bytes: how messages show them, and that a path holding NUL names no file.
@Suite("File paths")
struct FilePathTests {
  static let shown: [(bytes: [UInt8], text: String)] = [
    (Array("한.txt".utf8), "한.txt"), ([0xFF, 0x2E], "\\xFF."), ([0x61, 0x0A, 0x62], "a\\x0Ab"),
    (Array("a\\xFF".utf8), "a\\\\xFF"), ([0xE1, 0x84], "\\xE1\\x84"), ([0x7F], "\\x7F"),
  ]

  @Test("messages show every byte on one line, unambiguously", arguments: shown)
  func description(bytes: [UInt8], text: String) {
    #expect(FilePath(bytes: bytes).description == text)
  }

  @Test("a path holding NUL fails with EINVAL instead of naming the file before the NUL")
  func nul() {
    let path = FilePath(bytes: Array("/etc/passwd".utf8) + [0] + Array("x".utf8))
    #expect(path.open(O_RDONLY) == -1)
    #expect(errno == EINVAL)
    #expect(path.status() == nil)
  }

  @Test(
    "depth counts names", arguments: [("a/b/c", 3), ("/a", 1), (".", 1), ("/", 0), ("a//b/", 2)])
  func depth(path: String, depth: Int) {
    #expect(FilePath(path).depth == depth)
  }
}
