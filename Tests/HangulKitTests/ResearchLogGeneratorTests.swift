import Foundation
import Testing

@testable import HangulKit

/// Random Korean lines typed as an Inputlog IDFX log (virtual keys on the
/// 2-set keyboard, 한/영 around Latin letters) and as a Translog-II log
/// (jamo inserts), with slips corrected by Backspace inside a syllable
/// and across a committed one, replay to the line.
@Suite("Research log generator")
struct ResearchLogGeneratorTests {
  /// One key of a generated log.
  enum Key {
    /// A jamo key.
    case jamo(Jamo)
    /// A character typed as itself (Latin letters in English mode).
    case character(Character)
    case space
    case backspace(deleting: String)
    case hangulMode
  }

  /// Lines of random syllables (compound vowels and finals), spaces,
  /// digits, punctuation and Latin words: 1,000, or 20,000 with HANGUL_LONG_TESTS=1.
  static func lines() -> [String] {
    let count = ProcessInfo.processInfo.environment["HANGUL_LONG_TESTS"] == "1" ? 20_000 : 1_000
    var random = SeededGenerator(seed: 29)
    var lines: [String] = []
    while lines.count < count {
      var line = ""
      for _ in 0..<Int.random(in: 1...12, using: &random) {
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
          line += [" ", ".", "1", "?", "&", "<", "\"", "!"][Int.random(in: 0..<8, using: &random)]
        case 1: line += ["Hi", "abc", "Z"][Int.random(in: 0..<3, using: &random)]
        default:
          let initial = UInt32.random(in: 0..<19, using: &random)
          let vowel = UInt32.random(in: 0..<21, using: &random)
          let final =
            Bool.random(using: &random) ? 0 : UInt32.random(in: 1..<28, using: &random)
          if let syllable = Unicode.Scalar(0xAC00 + (initial * 21 + vowel) * 28 + final) {
            line.unicodeScalars.append(syllable)
          }
        }
      }
      lines.append(line)
    }
    return lines
  }

  /// The keys that type `line`, with slips: a ㅁ after a syllable without
  /// final taken back by Backspace, and after a space a syllable typed,
  /// committed by a space and deleted by two Backspaces.
  static func keys(of line: String, random: inout SeededGenerator) -> [Key] {
    var keys: [Key] = []
    var english = false
    for character in line {
      let scalar = character.unicodeScalars.first ?? " "
      if let syllable = HangulSyllable(scalar) {
        if english {
          keys.append(.hangulMode)
          english = false
        }
        keys += Decomposer.keys(of: scalar).map(Key.jamo)
        if syllable.final == nil, Int.random(in: 0..<4, using: &random) == 0 {
          keys += Decomposer.keys(of: "ㅁ").map(Key.jamo) + [.backspace(deleting: "ㅁ")]
        }
      } else if character == " " {
        keys.append(.space)
        if !english, Int.random(in: 0..<3, using: &random) == 0 {
          keys += Decomposer.keys(of: "각").map(Key.jamo)
          keys += [.space, .backspace(deleting: " "), .backspace(deleting: "각")]
        }
      } else if character.isLetter {
        if !english {
          keys.append(.hangulMode)
          english = true
        }
        keys.append(.character(character))
      } else {
        keys.append(.character(character))
      }
    }
    return keys
  }

  static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: "\"", with: "&quot;")
  }

  /// The 2-set key of each jamo: its QWERTY letter (upper case with Shift).
  static let twoSetLetters: [Jamo: UInt8] = {
    var letters: [Jamo: UInt8] = [:]
    for ascii in Array(UInt8(ascii: "A")...UInt8(ascii: "Z"))
      + Array(UInt8(ascii: "a")...UInt8(ascii: "z"))
    {
      if let jamo = Keyboard.twoSet.jamo(forASCII: ascii), letters[jamo] == nil || ascii >= 0x61 {
        letters[jamo] = ascii
      }
    }
    return letters
  }()

  static func idfx(_ keys: [Key]) -> String {
    var log = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n<log>\n"
    for (index, key) in keys.enumerated() {
      let (name, value): (String, String)
      switch key {
      case .jamo(let jamo):
        let ascii = twoSetLetters[jamo] ?? UInt8(ascii: "?")
        name = "VK_" + String(Unicode.Scalar(ascii)).uppercased()
        value = String(Unicode.Scalar(ascii))
      case .character(let character) where character.isLetter && character.isASCII:
        (name, value) = ("VK_" + character.uppercased(), String(character))
      case .character(let character): (name, value) = ("NONE", String(character))
      case .space: (name, value) = ("VK_SPACE", " ")
      case .backspace: (name, value) = ("VK_BACK", "&#x8;")
      case .hangulMode: (name, value) = ("VK_HANGUL", "")
      }
      let shown = value == "&#x8;" ? value : escaped(value)
      log += #"<event id="\#(index)" type="keyboard"><part type="winlog">"#
      log += "<startTime>\(index * 90)</startTime><key>\(name)</key><value>\(shown)</value>"
      log += "</part></event>\n"
    }
    return log + "</log>\n"
  }

  static func translog(_ keys: [Key]) -> String {
    var log = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n<LogFile>\n  <Events>\n"
    for (index, key) in keys.enumerated() {
      let time = #"Time="\#(index * 90)""#
      switch key {
      case .jamo(let jamo):
        log += #"    <Key \#(time) Type="insert" Value="\#(jamo.scalar)" />"# + "\n"
      case .character(let character):
        log += #"    <Key \#(time) Type="insert" Value="\#(escaped(String(character)))" />"# + "\n"
      case .space:
        log += #"    <Key \#(time) Type="insert" Value=" " />"# + "\n"
      case .backspace(let deleted):
        log += #"    <Key \#(time) Text="\#(deleted)" Type="delete" Value="[Back]" />"# + "\n"
      case .hangulMode: break  // Translog-II logs what is inserted, not the input mode
      }
    }
    return log + "  </Events>\n</LogFile>\n"
  }

  @Test("each generated log replays to its line", arguments: XMLLogFormat.allCases)
  func replay(format: XMLLogFormat) {
    var random = SeededGenerator(seed: 0x2929)
    var failures = 0
    for line in Self.lines() {
      let keys = Self.keys(of: line, random: &random)
      let log = format == .idfx ? Self.idfx(keys) : Self.translog(keys)
      let run = ResearchLogTests.replay(log, format: format, block: 97)
      if run.output != line + "\n" || !run.errors.isEmpty || !run.warnings.isEmpty {
        failures += 1
        if failures <= 3 {
          Issue.record(
            "\(line.debugDescription) gave \(run.output.debugDescription) \(run.errors) \(run.warnings)"
          )
        }
      }
    }
    #expect(failures == 0)
  }
}
