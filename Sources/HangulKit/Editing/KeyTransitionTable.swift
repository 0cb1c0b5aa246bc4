/// An automaton's steps as a dense table, filled from the automaton itself
/// as the input reaches them: each state the input has reached is a row, each
/// key class a column, and an entry names the next state and which of its
/// state's few writes the step writes. A run of keys then costs two table
/// loads and one store per key (``LineEditor/typeKeyRun(_:from:actions:scratch:)``);
/// the automaton itself (``SyllableComposer``, ``LayoutComposer``) only runs
/// the first time a state meets a key class, so the table cannot disagree with it.
///
///     var table = KeyTransitionTable(width: 34, start: CompositionState())
///     var state = table.index(of: CompositionState())   // 0
///     table.entries[state * 34 + 2]   // 0: not known yet
///     _ = table.resolve(state: &state, keyClass: 2) { syllable, bytes in ... }   // fills it
///
/// A known step is O(1). Memory is bounded by ``byteBudget``: when the rows
/// are full the table starts over.
struct KeyTransitionTable<State: Hashable & Sendable>: Sendable {
  /// Entries per row: the key classes.
  let width: Int
  /// The most states (rows) kept before the table starts over.
  let stateLimit: Int
  /// Row after row, `width` entries each; 0 where the step is not known yet.
  /// An entry is ``knownFlag`` | write slot << ``slotShift`` | next state.
  private(set) var entries: [UInt16] = []
  /// ``slotsPerState`` writes per state: slot 0 writes nothing, the others
  /// up to 3 bytes (little-endian) with their count in the top byte, or
  /// ``longCount`` in the top byte and the offset of a longer write in
  /// ``longWrites`` (a length byte, then the bytes).
  private(set) var writes: [UInt32] = []
  private(set) var longWrites: [UInt8] = [0]
  /// The state of each row.
  private var states: [State] = []
  /// Open addressing from a state's hash to its index + 1 (0: empty slot).
  private var slots: [UInt16]
  /// The state of row 0 (the empty syllable), kept across a start-over.
  private let start: State
  /// What a step being worked out writes (kept to spare an allocation per step).
  private var stepBytes: [UInt8] = []
  /// How many times the table started over.
  private(set) var startOvers = 0

  /// The bytes the table may take at most, beyond its states (a few hundred
  /// KiB: the programs keep their peak memory under 16 MiB).
  static var byteBudget: Int { 320 * 1024 }
  /// Set in every known entry.
  static var knownFlag: UInt16 { 0x8000 }
  /// The next state's index in an entry's low bits.
  static var stateMask: UInt16 { 0x1FFF }
  /// Where the write slot starts in an entry.
  static var slotShift: UInt16 { 13 }
  /// The count byte of a write held in ``longWrites``.
  static var longCount: UInt32 { 0xFF }
  /// Writes kept per state (slot 0 included).
  static var slotsPerState: Int { 4 }

  /// A table of `width` key classes whose row 0 is `start`; `stateLimit`
  /// lowers the number of rows below what ``byteBudget`` allows.
  init(width: Int, start: State, stateLimit: Int = .max) {
    self.width = max(width, 1)
    self.start = start
    let perState =
      self.width * MemoryLayout<UInt16>.stride + Self.slotsPerState * MemoryLayout<UInt32>.stride
    self.stateLimit = max(4, min(stateLimit, Self.byteBudget / perState, Int(Self.stateMask)))
    var slotCount = 16
    while slotCount < self.stateLimit * 2 { slotCount <<= 1 }
    slots = [UInt16](repeating: 0, count: slotCount)
  }

  /// The number of rows (states) the table holds now.
  var stateCount: Int { states.count }

  /// The state of a row.
  @inline(__always)
  func state(at index: Int) -> State {
    states[index]
  }

  /// The index of `state`'s row, added (with unknown steps) if it is new;
  /// `hint` is an index to try first.
  mutating func index(of state: State, hint: Int = 0) -> Int {
    if states.isEmpty { add(start) }
    if hint < states.count, states[hint] == state { return hint }
    if states[0] == state { return 0 }
    if let found = find(state) { return found }
    if states.count >= stateLimit { clear() }
    return add(state)
  }

  /// Works out the step from state `index` on `keyClass` with `step` (which
  /// acts on the state and appends what it writes) and stores it. Returns
  /// `false` when the step cannot be tabulated (it writes more than 3 bytes,
  /// or a fourth different write from its state): the caller takes it the
  /// general way.
  /// If the table had to start over, `index` moves to the state's new row.
  mutating func resolve(
    state index: inout Int, keyClass: Int, step: (inout State, inout [UInt8]) -> Void
  ) -> Bool {
    let source = states[index]
    var state = source
    var bytes = stepBytes
    bytes.removeAll(keepingCapacity: true)
    step(&state, &bytes)
    stepBytes = bytes
    var word = UInt32(bytes.count) << 24
    // Whether a long write goes at the end of ``longWrites``.
    var appendsLong = false
    if bytes.count > 3 {
      // Held in ``longWrites``: its offset, and count ``longCount``. The
      // state's steps that write the same bytes (a syllable that is not one
      // precomposed character, committed by any key) share one slot.
      guard bytes.count < 256 else { return false }
      if let shared = longSlotWord(holding: bytes, of: index) {
        word = shared
      } else {
        guard longWrites.count < 1 << 24 else { return false }
        word = Self.longCount << 24 | UInt32(longWrites.count)
        appendsLong = true
      }
    } else {
      for (position, byte) in bytes.enumerated() { word |= UInt32(byte) << (8 * UInt32(position)) }
    }
    guard var slot = freeSlot(for: word, of: index) else { return false }
    var next = state == start ? 0 : find(state)
    if next == nil, states.count >= stateLimit {
      // Full: start over with the two states this step joins.
      clear()
      index = self.index(of: source)
      next = state == start ? 0 : find(state)
      slot = bytes.isEmpty ? 0 : 1
      appendsLong = bytes.count > 3
    }
    if appendsLong {
      word = Self.longCount << 24 | UInt32(longWrites.count)
      longWrites.append(UInt8(bytes.count))
      longWrites.append(contentsOf: bytes)
    }
    let nextIndex = next ?? add(state)
    writes[index * Self.slotsPerState + slot] = word
    entries[index * width + keyClass] =
      Self.knownFlag | UInt16(slot) << Self.slotShift | UInt16(nextIndex)
    return true
  }

  /// The word of a slot of state `index` whose long write (in
  /// ``longWrites``) is `bytes`, if there is one. O(``slotsPerState`` × its length).
  private func longSlotWord(holding bytes: [UInt8], of index: Int) -> UInt32? {
    let base = index * Self.slotsPerState
    for slot in 1..<Self.slotsPerState {
      let word = writes[base + slot]
      guard word >> 24 == Self.longCount else { continue }
      let offset = Int(word & 0xFF_FFFF)
      guard Int(longWrites[offset]) == bytes.count else { continue }
      if longWrites[(offset + 1)..<(offset + 1 + bytes.count)].elementsEqual(bytes) { return word }
    }
    return nil
  }

  /// The slot of state `index` that holds `word`, or a free one; `nil` when
  /// all are taken by other writes.
  private func freeSlot(for word: UInt32, of index: Int) -> Int? {
    guard word != 0 else { return 0 }
    let base = index * Self.slotsPerState
    for slot in 1..<Self.slotsPerState where writes[base + slot] == word || writes[base + slot] == 0
    {
      return slot
    }
    return nil
  }

  /// Writes a word of ``writes`` through `out` at `written` (which moves on).
  /// The caller reserves 4 bytes beyond the last write.
  @inline(__always)
  static func put(
    _ word: UInt32, longWrites: UnsafePointer<UInt8>, to out: UnsafeMutablePointer<UInt8>,
    at written: inout Int
  ) {
    let count = word >> 24
    if count != longCount {
      UnsafeMutableRawPointer(out + written).storeBytes(of: word.littleEndian, as: UInt32.self)
      written &+= Int(truncatingIfNeeded: count)
      return
    }
    let offset = Int(truncatingIfNeeded: word & 0xFF_FFFF)
    let length = Int(longWrites[offset])
    (out + written).update(from: longWrites + offset + 1, count: length)
    written &+= length
  }

  private func find(_ state: State) -> Int? {
    let mask = slots.count - 1
    var slot = state.hashValue & mask
    while true {
      let stored = Int(slots[slot])
      if stored == 0 { return nil }
      if states[stored - 1] == state { return stored - 1 }
      slot = (slot + 1) & mask
    }
  }

  @discardableResult
  private mutating func add(_ state: State) -> Int {
    let mask = slots.count - 1
    var slot = state.hashValue & mask
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    if entries.isEmpty {
      // Reserved once: the pages are touched only as rows are added.
      entries.reserveCapacity(stateLimit * width)
      writes.reserveCapacity(stateLimit * Self.slotsPerState)
      states.reserveCapacity(stateLimit)
    }
    states.append(state)
    slots[slot] = UInt16(states.count)
    entries.append(contentsOf: repeatElement(0, count: width))
    writes.append(contentsOf: repeatElement(0, count: Self.slotsPerState))
    return states.count - 1
  }

  private mutating func clear() {
    startOvers += 1
    entries.removeAll(keepingCapacity: true)
    writes.removeAll(keepingCapacity: true)
    states.removeAll(keepingCapacity: true)
    longWrites.removeAll(keepingCapacity: true)
    longWrites.append(0)
    for slot in slots.indices { slots[slot] = 0 }
    add(start)
  }
}
