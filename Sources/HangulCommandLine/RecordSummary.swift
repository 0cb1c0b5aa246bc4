/// The closing line of `hangul-reviews import` and `export`, in one wording:
///
///     recordSummary(read: 5, ("imported", 4), ("rejected", 1))
///     // "read 5 records, imported 4, rejected 1"
///     recordSummary(read: 1, ("exported", 1), ("skipped", 0))
///     // "read 1 record, exported 1, skipped 0"
package func recordSummary(read: Int, _ outcomes: (String, Int)...) -> String {
  (["read \(read) record\(read == 1 ? "" : "s")"] + outcomes.map { "\($0.0) \($0.1)" })
    .joined(separator: ", ")
}
