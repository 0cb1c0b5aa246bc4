/// Normalization of a run longer than ``UnicodeNormalizer/longestSegment``
/// bytes with no normalization boundary in it (hundreds of combining marks
/// on one letter), exactly as ICU normalizes it whole, in time linear in the
/// run.
///
/// ICU puts combining marks in canonical order by insertion: on a run out of
/// order that takes time quadratic in the run (80,000 marks alternating
/// classes 230 and 220: 15 s; 500,000: minutes), while on a run already in
/// order it is linear (500,000 marks: 0.07 s). So each character is
/// decomposed by ICU alone (NFD, or NFKD for the compatibility forms:
/// `unorm2_getDecomposition`, no reordering), the marks are put in canonical
/// order here (each run of non-starters sorted by combining class, stably:
/// UAX #15), and ICU normalizes that to the form.
///
///     // a, then 3,000 times U+0301 (class 230) and U+0316 (class 220)
///     CanonicalOrdering.normalize(run, count: run.count, with: nfc, into: sink)
///     // á, then 3,000 U+0316, then 2,999 U+0301: what ICU writes for the whole run
///
/// Time O(n) in the run, memory a few times the run.
enum CanonicalOrdering {
  /// Normalizes the valid UTF-8 `input[..<count]` with `normalizer` into `sink`.
  static func normalize(
    _ input: UnsafePointer<UInt8>, count: Int, with normalizer: ICUNormalizer,
    into sink: ByteSink
  ) {
    let compatibility = normalizer.form == .nfkc || normalizer.form == .nfkd
    guard let decomposer = try? ICUNormalizer(compatibility ? .nfkd : .nfd) else { return }
    var scalars = decomposed(input, count: count, by: decomposer)
    sort(&scalars, by: normalizer)
    var units: [UInt16] = []
    units.reserveCapacity(scalars.count + scalars.count / 8)
    for value in scalars {
      if value < 0x1_0000 {
        units.append(UInt16(value))
      } else {
        units.append(UInt16(0xD7C0 + (value >> 10)))
        units.append(UInt16(0xDC00 | value & 0x3FF))
      }
    }
    let workspace = ICUWorkspace()
    units.withUnsafeBufferPointer { buffer in
      guard let result = workspace.normalize(buffer, with: normalizer) else { return }
      workspace.appendUTF8(result, to: sink)
    }
  }

  /// The scalars of `input`'s full decomposition by `decomposer`, each
  /// character's in turn (not reordered).
  static func decomposed(
    _ input: UnsafePointer<UInt8>, count: Int, by decomposer: ICUNormalizer
  ) -> [UInt32] {
    var scalars: [UInt32] = []
    scalars.reserveCapacity(count / 2 + 8)
    let bytes = UnsafeBufferPointer(start: input, count: count)
    var position = 0
    while position < count {
      guard case .scalar(let value, let length) = UTF8Stream.step(bytes, at: position) else {
        // Not expected (callers pass UTF-8): kept as U+FFFD, as ICUWorkspace does.
        scalars.append(0xFFFD)
        position += 1
        continue
      }
      if value < 0x80 {
        scalars.append(value)
      } else {
        decomposer.appendDecomposition(of: value, to: &scalars)
      }
      position += length
    }
    return scalars
  }

  /// Sorts each run of non-starters in `scalars` by combining class,
  /// stably, by counting (the classes are below 256).
  static func sort(_ scalars: inout [UInt32], by normalizer: ICUNormalizer) {
    var classes: [UInt8] = []
    var sorted: [UInt32] = []
    var index = 0
    while index < scalars.count {
      guard normalizer.combiningClass(of: scalars[index]) != 0 else {
        index += 1
        continue
      }
      // A run of non-starters, in order already unless a class goes down.
      classes.removeAll(keepingCapacity: true)
      var end = index
      var ordered = true
      while end < scalars.count {
        let combiningClass = normalizer.combiningClass(of: scalars[end])
        guard combiningClass != 0 else { break }
        if let last = classes.last, combiningClass < last { ordered = false }
        classes.append(combiningClass)
        end += 1
      }
      if !ordered {
        var starts = [Int](repeating: 0, count: 257)
        for combiningClass in classes { starts[Int(combiningClass) + 1] += 1 }
        for value in 1...256 { starts[value] += starts[value - 1] }
        sorted.removeAll(keepingCapacity: true)
        sorted.append(contentsOf: repeatElement(0, count: classes.count))
        for (offset, combiningClass) in classes.enumerated() {
          sorted[starts[Int(combiningClass)]] = scalars[index + offset]
          starts[Int(combiningClass)] += 1
        }
        scalars.replaceSubrange(index..<end, with: sorted)
      }
      index = end
    }
  }

  /// Whether the non-starters of the valid UTF-8 `input[..<count]` are in
  /// canonical order, as in every normalization form (a run out of order is
  /// in none; the verifier asks ICU about the rest, in linear time then).
  static func isOrdered(
    _ input: UnsafePointer<UInt8>, count: Int, by normalizer: ICUNormalizer
  ) -> Bool {
    let bytes = UnsafeBufferPointer(start: input, count: count)
    var previous: UInt8 = 0
    var position = 0
    while position < count {
      guard case .scalar(let value, let length) = UTF8Stream.step(bytes, at: position) else {
        previous = 0
        position += 1
        continue
      }
      let combiningClass = value < 0x300 ? 0 : normalizer.combiningClass(of: value)
      if combiningClass != 0, combiningClass < previous { return false }
      previous = combiningClass
      position += length
    }
    return true
  }
}
