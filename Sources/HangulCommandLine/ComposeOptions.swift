import ArgumentParser
import HangulKit

/// The automaton's options, shared by `hangul-compose` and `hangul-reviews import`.
package struct ComposeOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The keyboard: a built-in id (see --list-keyboards) or a keyboard file.",
      valueName: "id|file"),
    completion: .list(Keyboard.builtInIDs))
  package var keyboard = "2"

  @Flag(help: "List the built-in keyboards (id, type, name) and exit.")
  package var listKeyboards = false

  @Option(help: "How keys are written: jamo (ㄱ ㅏ …) or qwerty (key positions of the keyboard).")
  package var keys: KeyEncoding = .jamo

  @Flag(help: "Make a tense consonant from the same consonant typed twice (ㄱㄱ → ㄲ).")
  package var doubleStroke = false

  @Flag(help: "Keep two consonants apart until a vowel comes (ㄱㅅ stays ㄱㅅ, not ㄳ).")
  package var noBareClusters = false

  @Flag(help: "Combine a vowel with a following ㅣ as phone keyboards do (ㅏㅣ → ㅐ).")
  package var extendedVowels = false

  @Flag(help: "Put a jamo typed out of order in its place (ㅏㄱ → 가), as libhangul's AUTO_REORDER.")
  package var autoReorder = false

  @Option(help: "What Backspace undoes: jamo (one composition step) or keystroke (the last key).")
  package var backspace: ComposerOptions.Backspace = .jamo

  package init() {}

  /// The options as the library takes them.
  package var composerOptions: ComposerOptions {
    ComposerOptions(
      doubleStroke: doubleStroke, bareClusters: !noBareClusters, extendedVowels: extendedVowels,
      backspace: backspace, autoReorder: autoReorder)
  }

  /// Whether `--keyboard auto` asks for the keyboard a browser log's composition data agree with.
  package var guessesKeyboard: Bool { keyboard.lowercased() == "auto" }

  package func validate() throws {
    if !listKeyboards { _ = try loadKeyboard() }
  }

  /// The keyboard `--keyboard` names; a usage error when it cannot be loaded,
  /// or when `--keys jamo` is asked of a keyboard whose keys have no jamo labels.
  package func loadKeyboard() throws -> Keyboard {
    // `auto` is hangul-compose's, for browser event logs: 2-set until the log is read.
    if guessesKeyboard { return .twoSet }
    let loaded = try Keyboard.named(byOption: keyboard)
    if keys == .jamo, !InputAutomaton.takesJamoLabels(loaded) {
      throw ValidationError(
        "keyboard '\(ProgramArguments.shortened(keyboard))' (\(loaded.layout.type.rawValue)) "
          + "has no jamo keys; use --keys qwerty")
    }
    return loaded
  }

  /// Writes `--list-keyboards` to standard output; a write error is
  /// reported and ends the program with 74.
  package static func writeKeyboardList(_ diagnostics: Diagnostics) throws {
    if let failure = StandardStream(descriptor: 1).writeReportingFailure(Array(keyboardList.utf8)),
      failure != .brokenPipe
    {
      diagnostics.report(failure.description)
      throw ExitCode(failure.exitStatus)
    }
  }

  /// The text of `--list-keyboards`: one line per built-in keyboard, its id,
  /// type and names.
  package static var keyboardList: String {
    // Columns as wide as their longest entry, so a keyboard file added with a
    // long id keeps the table aligned.
    let layouts = Keyboard.builtIn.map(\.layout)
    let idWidth = layouts.map { $0.id.unicodeScalars.count }.max() ?? 0
    let typeWidth = layouts.map { $0.type.rawValue.unicodeScalars.count }.max() ?? 0
    return layouts.map { layout in
      let id = layout.id.padding(to: idWidth)
      let type = layout.type.rawValue.padding(to: typeWidth + 1)
      let korean = layout.koreanName.map { "\($0) " } ?? ""
      return "\(id) \(type) \(korean)(\(layout.name))\n"
    }.joined()
  }
}

extension Keyboard {
  /// The keyboard a `--keyboard` value names: a built-in id, in any case
  /// (`3F` is `3f`), else a keyboard file, its path the exact bytes given.
  /// A usage error when it cannot be loaded; a name that is neither an id
  /// nor a file gets the list of ids.
  package static func named(byOption value: String) throws -> Keyboard {
    if let id = builtInIDs.first(where: { $0.lowercased() == value.lowercased() }) {
      do {
        return try Keyboard(id: id)
      } catch {
        throw ValidationError(error.description)
      }
    }
    let path = FilePath(bytes: ProgramArguments.bytes(of: value))
    do {
      return try Keyboard(file: path)
    } catch {
      if path.status() == nil, SystemCalls.errorNumber == SystemCalls.noEntry,
        !path.bytes.contains(UInt8(ascii: "/"))
      {
        throw ValidationError(
          "unknown keyboard '\(ProgramArguments.shortened(value))'; the built-in ones are "
            + builtInIDs.joined(separator: ", ")
            + " (see --list-keyboards); a keyboard file is named by its path, such as ./my.xml")
      }
      throw ValidationError("\(error.description) (keyboard files: see hangul-keyboard(5))")
    }
  }
}

extension String {
  fileprivate func padding(to width: Int) -> String {
    let count = unicodeScalars.count
    return count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
