// The nesting a JSONRecordSplitter is inside: one frame per open object or array.

extension JSONRecordSplitter {
  /// An open object or array: its kind, what may come next, and its role.
  struct Frame: Sendable {
    var isObject: Bool
    var state: State
    var role: Role
  }

  /// What may come next in a frame.
  enum State: UInt8, Sendable {
    case nameOrEnd, name, colon, value, commaOrEndObject
    case valueOrEnd, element, commaOrEndArray
  }

  /// What a frame is to the splitter: an envelope, the array that holds
  /// records, or anything else.
  enum Role: UInt8, Sendable {
    case plain, envelope, records
  }

  /// The nesting, with the innermost frame kept out of the array (it changes with every token).
  struct FrameStack: Sendable {
    private var outer: [Frame] = []
    private var top = Frame(isObject: false, state: .value, role: .plain)
    private(set) var count = 0

    var isEmpty: Bool {
      @inline(__always) get { count == 0 }
    }
    var last: Frame? {
      @inline(__always) get { count == 0 ? nil : top }
    }
    var first: Frame? { count == 0 ? nil : count == 1 ? top : outer[0] }
    /// The innermost frame (meaningful only when the stack is not empty).
    var innermost: Frame {
      @inline(__always) get { top }
      @inline(__always) set { top = newValue }
    }

    subscript(index: Int) -> Frame {
      @inline(__always) get { index == count - 1 ? top : outer[index] }
      @inline(__always) set {
        if index == count - 1 { top = newValue } else { outer[index] = newValue }
      }
    }

    @inline(__always)
    mutating func append(_ frame: Frame) {
      if count > 0 { outer.append(top) }
      top = frame
      count += 1
    }

    @inline(__always)
    mutating func removeLast() {
      count -= 1
      if count > 0 { top = outer.removeLast() }
    }

    mutating func removeLast(_ number: Int) {
      for _ in 0..<number { removeLast() }
    }

    mutating func removeAll() {
      outer.removeAll()
      count = 0
    }

    func lastIndex(where predicate: (Frame) -> Bool) -> Int? {
      var index = count - 1
      while index >= 0 {
        if predicate(self[index]) { return index }
        index -= 1
      }
      return nil
    }
  }

  /// Where the outermost open object or array starts (for the message when the input ends inside it).
  struct LineColumn: Sendable, Equatable {
    var line = 1
    var column = 1
  }
}
