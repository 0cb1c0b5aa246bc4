/// ICU's answers for short normalization segments (a letter and its marks,
/// a compatibility character), remembered by their bytes: text repeats the
/// same few (é, ệ, ﬁ, …), and a look-up here costs far less than a call to
/// ICU. A segment runs from one normalization boundary to the next, so its
/// normal form depends on its own bytes alone and the remembered answer is
/// the one ICU gives.
///
///     let cache = SegmentCache()
///     // bytes "e\u{301}" at `pointer`:
///     if let found = cache.lookUp(pointer, count: 3) { /* found: "é", 2 bytes */ }
///     else { cache.store(pointer, count: 3, answer: icuResult, length: 2) }
///
/// A slot per hash of the bytes (the newest answer wins). Look-ups and stores
/// are O(``longestKey`` + ``longestAnswer``). Not for sharing between threads.
final class SegmentCache {
  /// The longest segment remembered, in bytes.
  static let longestKey = 16
  /// The longest answer remembered, in bytes.
  static let longestAnswer = 64

  /// Slots: key length, answer length, the key (16 bytes, zero-padded) and the answer.
  private static let slotBits: UInt64 = 10
  private static let slotCount = 1 << slotBits
  private static let stride = 96
  private static let keyOffset = 16
  private static let answerOffset = 32

  private let slots: UnsafeMutableRawPointer

  init() {
    let size = Self.slotCount * Self.stride
    slots = .allocate(byteCount: size, alignment: 16)
    // Key length 0 marks an empty slot (no segment is empty).
    slots.initializeMemory(as: UInt8.self, repeating: 0, count: size)
  }

  deinit { slots.deallocate() }

  /// The key's two words, zero-padded, and the slot it goes in.
  @inline(__always)
  private static func key(_ bytes: UnsafePointer<UInt8>, count: Int) -> (UInt64, UInt64, Int) {
    var words: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &words) { $0.baseAddress?.copyMemory(from: bytes, byteCount: count) }
    let mixed =
      (words.0 &* 0x9E37_79B9_7F4A_7C15) ^ (words.1 &+ UInt64(count)) &* 0xC2B2_AE3D_27D4_EB4F
    // The top bits, which every bit of the key reaches.
    return (words.0, words.1, Int(truncatingIfNeeded: mixed &>> (64 - slotBits)))
  }

  /// The answer remembered for the `count` bytes at `bytes` (at most
  /// ``longestKey``): where it is and its length, valid until the next store.
  @inline(__always)
  func lookUp(_ bytes: UnsafePointer<UInt8>, count: Int) -> UnsafeBufferPointer<UInt8>? {
    let (first, second, index) = Self.key(bytes, count: count)
    let slot = slots + index &* Self.stride
    guard slot.load(as: UInt8.self) == UInt8(count),
      slot.load(fromByteOffset: Self.keyOffset, as: UInt64.self) == first,
      slot.load(fromByteOffset: Self.keyOffset + 8, as: UInt64.self) == second
    else { return nil }
    let length = Int(slot.load(fromByteOffset: 1, as: UInt8.self))
    return UnsafeBufferPointer(
      start: (slot + Self.answerOffset).assumingMemoryBound(to: UInt8.self), count: length)
  }

  /// Remembers `answer` (at most ``longestAnswer`` bytes) for the `count`
  /// bytes at `bytes` (at most ``longestKey``).
  func store(_ bytes: UnsafePointer<UInt8>, count: Int, answer: UnsafeBufferPointer<UInt8>) {
    guard count > 0, count <= Self.longestKey, answer.count <= Self.longestAnswer,
      let source = answer.baseAddress
    else { return }
    let (first, second, index) = Self.key(bytes, count: count)
    let slot = slots + index &* Self.stride
    slot.storeBytes(of: UInt8(count), as: UInt8.self)
    slot.storeBytes(of: UInt8(answer.count), toByteOffset: 1, as: UInt8.self)
    slot.storeBytes(of: first, toByteOffset: Self.keyOffset, as: UInt64.self)
    slot.storeBytes(of: second, toByteOffset: Self.keyOffset + 8, as: UInt64.self)
    (slot + Self.answerOffset).copyMemory(from: source, byteCount: answer.count)
  }
}
