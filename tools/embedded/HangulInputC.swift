// The C interface of HangulInput (tools/embedded/hangul_input.h), for hosts
// that are not Swift: a web page through WebAssembly, a C program. Built with
// HangulInput in Embedded Swift by tools/embedded/build.sh; it only passes
// calls on to a HangulInputContext and keeps its strings NUL-terminated.

import HangulInput

/// A growable NUL-terminated byte buffer that the context writes into
/// directly (no allocation once it has grown).
struct CString: ByteAppending {
  var base: UnsafeMutablePointer<UInt8>
  var capacity = 64
  var count = 0

  init() {
    base = .allocate(capacity: capacity)
    base[0] = 0
  }

  mutating func append(_ byte: UInt8) {
    if count + 1 == capacity {
      let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
      grown.update(from: base, count: count)
      base.deallocate()
      base = grown
      capacity *= 2
    }
    base[count] = byte
    count += 1
    base[count] = 0
  }

  mutating func clear() {
    count = 0
    base[0] = 0
  }
}

/// What a `HangulInput *` points to.
struct CInputContext {
  var context: HangulInputContext
  var commit = CString()
  var preedit = CString()
}

private func unbox(_ pointer: UnsafeMutableRawPointer) -> UnsafeMutablePointer<CInputContext> {
  pointer.assumingMemoryBound(to: CInputContext.self)
}

@_cdecl("hangul_input_new")
public func hangulInputNew(
  _ id: UnsafePointer<CChar>?, _ options: UInt32, _ multitapTimeout: Double
) -> UnsafeMutableRawPointer? {
  guard let id else { return nil }
  let flags = ComposerOptions(
    doubleStroke: options & 1 != 0, bareClusters: options & 2 == 0,
    extendedVowels: options & 4 != 0, backspace: options & 8 != 0 ? .keystroke : .jamo,
    autoReorder: options & 16 != 0)
  guard
    let context = HangulInputContext(
      keyboardID: String(cString: id), options: flags,
      multitapTimeout: multitapTimeout < 0 ? nil : multitapTimeout)
  else { return nil }
  let box = UnsafeMutablePointer<CInputContext>.allocate(capacity: 1)
  box.initialize(to: CInputContext(context: context))
  return UnsafeMutableRawPointer(box)
}

@_cdecl("hangul_input_delete")
public func hangulInputDelete(_ input: UnsafeMutableRawPointer?) {
  guard let input else { return }
  let box = unbox(input)
  box.pointee.commit.base.deallocate()
  box.pointee.preedit.base.deallocate()
  box.deinitialize(count: 1)
  box.deallocate()
}

@_cdecl("hangul_input_process")
public func hangulInputProcess(_ input: UnsafeMutableRawPointer, _ key: UInt32) -> Int32 {
  guard let scalar = Unicode.Scalar(key) else { return 0 }
  return unbox(input).pointee.context.process(InputKey(scalar)) ? 1 : 0
}

@_cdecl("hangul_input_process_at")
public func hangulInputProcessAt(_ input: UnsafeMutableRawPointer, _ key: UInt32, _ time: Double)
  -> Int32
{
  guard let scalar = Unicode.Scalar(key) else { return 0 }
  return unbox(input).pointee.context.process(InputKey(scalar), at: time) ? 1 : 0
}

@_cdecl("hangul_input_backspace")
public func hangulInputBackspace(_ input: UnsafeMutableRawPointer) -> Int32 {
  unbox(input).pointee.context.backspace() ? 1 : 0
}

@_cdecl("hangul_input_flush")
public func hangulInputFlush(_ input: UnsafeMutableRawPointer) {
  unbox(input).pointee.context.flush()
}

@_cdecl("hangul_input_reset")
public func hangulInputReset(_ input: UnsafeMutableRawPointer) {
  unbox(input).pointee.context.reset()
}

@_cdecl("hangul_input_delete_count")
public func hangulInputDeleteCount(_ input: UnsafeMutableRawPointer) -> Int32 {
  Int32(clamping: unbox(input).pointee.context.deleteCount)
}

@_cdecl("hangul_input_commit")
public func hangulInputCommit(_ input: UnsafeMutableRawPointer) -> UnsafePointer<UInt8> {
  let box = unbox(input)
  box.pointee.commit.clear()
  for byte in box.pointee.context.commitUTF8 { box.pointee.commit.append(byte) }
  return UnsafePointer(box.pointee.commit.base)
}

@_cdecl("hangul_input_preedit")
public func hangulInputPreedit(_ input: UnsafeMutableRawPointer) -> UnsafePointer<UInt8> {
  let box = unbox(input)
  box.pointee.preedit.clear()
  box.pointee.context.writePreedit(into: &box.pointee.preedit)
  return UnsafePointer(box.pointee.preedit.base)
}
