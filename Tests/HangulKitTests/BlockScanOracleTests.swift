import HangulKit
import TestSupport
import Testing

/// The block scans against a code point by code point walk, on random
/// bytes: what they pass, valid or not (leads cut short, stray and missing
/// continuation bytes, the code points next to each range, a lead right
/// after a lead), with every start offset and every end near a block's.
@Suite("Verification block scans, byte by byte")
struct BlockScanOracleTests {
  /// What a scan passes besides ASCII: three-byte code points in `ranges`.
  struct Kind: CustomStringConvertible, Sendable {
    var name: String
    var jamo: Bool
    var syllables: Bool
    var composed: Bool
    var description: String { name }

    var ranges: [ClosedRange<UInt32>] {
      var ranges: [ClosedRange<UInt32>] = []
      if jamo { ranges.append(0x1100...0x11FF) }
      if syllables { ranges.append(0xAC00...0xD77F) }
      if composed { ranges.append(0x3100...0x31FF) }
      return ranges
    }
  }

  static let kinds = [
    Kind(name: "jamo", jamo: true, syllables: false, composed: false),
    Kind(name: "syllables", jamo: false, syllables: true, composed: false),
    Kind(name: "jamo and syllables", jamo: true, syllables: true, composed: false),
    Kind(name: "composed", jamo: false, syllables: true, composed: true),
  ]

  /// Pieces of bytes: what the scans pass, what is next to it, and what is
  /// not UTF-8.
  static let pieces: [[UInt8]] = [
    Array("a".utf8), Array(" ".utf8), [0x0A], [0x0A, 0x0A], Array("가".utf8), Array("힣".utf8),
    Array("\u{D77F}".utf8), Array("\u{D780}".utf8), Array("\u{AC00}".utf8),
    Array("\u{ABFF}".utf8), Array("\u{1100}".utf8), Array("\u{11FF}".utf8),
    Array("\u{1200}".utf8), Array("\u{10FF}".utf8), Array("\u{3100}".utf8),
    Array("\u{31FF}".utf8), Array("\u{3200}".utf8), Array("\u{30FF}".utf8), Array("“".utf8),
    Array("é".utf8), Array("👍".utf8), [0xEA], [0xEA, 0xB0], [0xED, 0x9E], [0xE1, 0x84],
    [0xE3, 0x84], [0x80], [0xBF], [0xB0, 0x80], [0xFF], [0xC3], [0xED, 0xA0, 0x80],
    [0xE0, 0x80, 0x80], [0xEA, 0xEA, 0xB0, 0x80], [0xEB, 0x41, 0x80], [0xEB, 0x80, 0x41],
  ]

  /// Where the walk from `start` stops: the first code point that is not
  /// ASCII nor a whole three-byte code point in `ranges`.
  static func walk(_ bytes: [UInt8], from start: Int, _ ranges: [ClosedRange<UInt32>]) -> (
    stop: Int, starts: Set<Int>
  ) {
    var position = start
    var starts: Set<Int> = [start]
    while position < bytes.count {
      if bytes[position] < 0x80 {
        position += 1
      } else if position + 2 < bytes.count, bytes[position] & 0xF0 == 0xE0,
        bytes[position + 1] & 0xC0 == 0x80, bytes[position + 2] & 0xC0 == 0x80,
        case let value = UInt32(bytes[position] & 0x0F) << 12
          | UInt32(bytes[position + 1] & 0x3F) << 6 | UInt32(bytes[position + 2] & 0x3F),
        ranges.contains(where: { $0.contains(value) })
      {
        position += 3
      } else {
        break
      }
      starts.insert(position)
    }
    return (position, starts)
  }

  @Test(
    "a block scan passes exactly what the walk passes, up to its last block; it is not begun where it would stop at once",
    arguments: kinds)
  func againstWalk(kind: Kind) {
    var random = SeededGenerator(seed: 0xB1_0C5C &+ UInt64(kind.name.utf8.count))
    for round in 0..<1500 {
      // Mostly what the scan passes, so that it runs through blocks, with
      // one piece of anything in a few places.
      var bytes: [UInt8] = Array("ab".utf8)
      let length = Int.random(in: 0...120, using: &random)
      let passed = kind.ranges
      while bytes.count < length {
        if Int.random(in: 0..<12, using: &random) == 0 {
          bytes += Self.pieces[Int.random(in: 0..<Self.pieces.count, using: &random)]
        } else if Bool.random(using: &random) {
          bytes.append(Bool.random(using: &random) ? 0x20 : 0x0A)
        } else {
          let range = passed[Int.random(in: 0..<passed.count, using: &random)]
          let value = UInt32.random(in: range, using: &random)
          bytes += Array(String(Unicode.Scalar(value)!).utf8)
        }
      }
      for start in 0..<max(0, bytes.count - 15) {
        // A lead the scan does not pass, in the 16 bytes at `start`.
        let other = bytes[start..<start + 16].contains {
          $0 >= 0xC0 && !(kind.jamo && $0 == 0xE1)
            && !(kind.syllables && (0xEA...0xED).contains($0))
        }
        let found = bytes.withUnsafeBufferPointer {
          BlockScan.holdsOtherLead(
            $0.baseAddress! + start, jamo: kind.jamo, syllables: kind.syllables)
        }
        if !kind.composed { #expect(found == other, "round \(round), start \(start): \(bytes)") }
      }
      for start in 2..<max(2, bytes.count) {
        let (expectedStop, starts) = Self.walk(bytes, from: start, kind.ranges)
        var last = start
        var separators = 0
        let stop = bytes.withUnsafeBufferPointer { buffer in
          kind.composed
            ? BlockScan.passComposed(buffer.baseAddress!, buffer.count, from: start)
            : BlockScan.passStable(
              buffer.baseAddress!, buffer.count, from: start, separator: 0x0A, jamo: kind.jamo,
              syllables: kind.syllables, last: &last, separators: &separators)
        }
        // It stops where the walk does, or earlier at a code point start
        // within the last 20 bytes (or at the start: a lead before it).
        let context = "round \(round), start \(start): \(bytes)"
        #expect(starts.contains(stop), "\(context)")
        #expect(stop <= expectedStop, "\(context)")
        let leadBefore = bytes[start - 1] & 0xF0 == 0xE0 || bytes[start - 2] & 0xF0 == 0xE0
        if stop < expectedStop, !leadBefore {
          #expect(stop + 20 > bytes.count, "\(context)")
        }
        guard !kind.composed, stop > start else { continue }
        #expect(separators == bytes[start..<stop].filter { $0 == 0x0A }.count, "\(context)")
        #expect(last == stop - (bytes[stop - 1] < 0x80 ? 1 : 3), "\(context)")
      }
    }
  }

  /// Pieces for the scan of decomposed output: modern groups' jamo one by
  /// one, and the jamo next to their ranges (old initials, vowels and
  /// finals), syllables, and bytes that are not UTF-8.
  static let groupPieces: [[UInt8]] = [
    Array("a".utf8), Array(" ".utf8), [0x0A], Array("가".utf8), Array("\u{1100}".utf8),
    Array("\u{1112}".utf8), Array("\u{1113}".utf8), Array("\u{1161}".utf8),
    Array("\u{1175}".utf8), Array("\u{1176}".utf8), Array("\u{1160}".utf8),
    Array("\u{11A8}".utf8), Array("\u{11C2}".utf8), Array("\u{11C3}".utf8),
    Array("\u{11A7}".utf8), Array("\u{115F}".utf8), Array("é".utf8), [0xE1], [0xE1, 0x84],
    [0xE1, 0x85], [0x80], [0xFF], [0xE1, 0x84, 0x41],
  ]

  /// Where the walk over modern groups (an initial U+1100–U+1112, a vowel
  /// U+1161–U+1175, perhaps a final U+11A8–U+11C2) and ASCII stops (at
  /// the start of the last group when it has no final), and the starts of
  /// what it passed.
  static func walkGroups(_ bytes: [UInt8], from start: Int) -> (stop: Int, starts: Set<Int>) {
    func jamo(_ at: Int, _ range: ClosedRange<UInt32>) -> Bool {
      guard at + 2 < bytes.count, bytes[at] == 0xE1, bytes[at + 1] & 0xC0 == 0x80,
        bytes[at + 2] & 0xC0 == 0x80
      else { return false }
      let value = 0x1000 | UInt32(bytes[at + 1] & 0x3F) << 6 | UInt32(bytes[at + 2] & 0x3F)
      return range.contains(value)
    }
    var position = start
    var starts: Set<Int> = [start]
    // Where the last group passed starts when it has no final: the scan
    // leaves such a group to its caller (what stopped it may be a final).
    var open: Int?
    while position < bytes.count {
      if bytes[position] < 0x80 {
        open = nil
        position += 1
      } else if jamo(position, 0x1100...0x1112), jamo(position + 3, 0x1161...0x1175) {
        open = nil
        if jamo(position + 6, 0x11A8...0x11C2) {
          position += 9
        } else {
          open = position
          position += 6
        }
      } else {
        break
      }
      starts.insert(position)
    }
    // Unless an initial's lane passes there (it looks at the vowel's
    // first two bytes only): the stop is then in the next group.
    let initialLane =
      jamo(position, 0x1100...0x1112) && position + 4 < bytes.count
      && bytes[position + 3] == 0xE1 && bytes[position + 4] == 0x85
    return (initialLane ? position : open ?? position, starts)
  }

  @Test("the scan of decomposed output passes exactly the modern groups the walk passes")
  func groupsAgainstWalk() {
    var random = SeededGenerator(seed: 0x6_20_0C5)
    for round in 0..<1500 {
      var bytes: [UInt8] = Array("ab".utf8)
      let length = Int.random(in: 0...150, using: &random)
      while bytes.count < length {
        if Int.random(in: 0..<10, using: &random) == 0 {
          bytes += Self.groupPieces[Int.random(in: 0..<Self.groupPieces.count, using: &random)]
        } else if Int.random(in: 0..<3, using: &random) == 0 {
          bytes.append(Bool.random(using: &random) ? 0x20 : 0x0A)
        } else {
          var group = [
            UInt32.random(in: 0x1100...0x1112, using: &random),
            UInt32.random(in: 0x1161...0x1175, using: &random),
          ]
          if Bool.random(using: &random) {
            group.append(UInt32.random(in: 0x11A8...0x11C2, using: &random))
          }
          for value in group { bytes += Array(String(Unicode.Scalar(value)!).utf8) }
        }
      }
      for start in 3..<max(3, bytes.count) {
        let (expectedStop, starts) = Self.walkGroups(bytes, from: start)
        let stop = bytes.withUnsafeBufferPointer {
          BlockScan.passGroups($0.baseAddress!, $0.count, from: start)
        }
        let context = "round \(round), start \(start): \(bytes)"
        #expect(starts.contains(stop), "\(context)")
        #expect(stop <= expectedStop, "\(context)")
        // Earlier only in its last bytes, or at once after a lead or an
        // initial or vowel (which the first lanes would lean on).
        let leansBack =
          bytes[start - 1] == 0xE1 || bytes[start - 2] == 0xE1
          || bytes[start - 3] == 0xE1 && (0x84...0x85).contains(bytes[start - 2])
        if stop < expectedStop, !(leansBack && stop == start) {
          #expect(stop + 30 > bytes.count, "\(context)")
        }
      }
    }
  }
}
