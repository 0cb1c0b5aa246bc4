import HangulInput
import Testing

/// The built-in keyboards as HangulInput has them, with no XML reader: the
/// data generated from keyboards/*.xml (HangulKitTests checks that it equals
/// what the reader makes of the files).
@Suite("Built-in keyboards")
struct BuiltInKeyboardTests {
  @Test("every id has a layout of that id, in --list-keyboards order")
  func everyID() throws {
    #expect(
      Keyboard.builtInIDs == [
        "2", "2y", "32", "39", "3f", "3s", "3y", "ro", "ahn", "cheonjiin", "naratgeul", "sky2",
      ])
    for id in Keyboard.builtInIDs {
      let layout = try #require(KeyboardLayout(builtIn: id))
      #expect(layout.id == id)
      #expect(!layout.name.isEmpty)
      #expect(layout.koreanName != nil)
      #expect((layout.type == .keypad) == !layout.keypad.isEmpty)
    }
    #expect(KeyboardLayout(builtIn: "4") == nil)
    #expect(Keyboard(builtIn: "hangul-keyboard-2.xml") == nil)
  }

  @Test("the 2-set keyboard has jamo labels and its tables")
  func twoSet() throws {
    let keyboard = try #require(Keyboard(builtIn: "2"))
    #expect(keyboard == .twoSet)
    #expect(keyboard.hasJamoLabels)
    #expect(keyboard.jamo(forASCII: UInt8(ascii: "r")) == Jamo("ㄱ"))
    #expect(keyboard.vowelCombinations.count == 7)
    #expect(keyboard.finalCombinations.count == 11)
  }
}
