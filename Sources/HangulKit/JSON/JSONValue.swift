/// A JSON value as RFC 8259 defines it, keeping what a round trip needs:
/// object members in their order (duplicates included) and each number as
/// it was spelled.
///
///     let value = try JSONParser.parse(Array(#"{"key":"ㄱ","t":1.50}"#.utf8))
///     value["key"]?.stringValue   // "ㄱ"
///     value["t"]                  // .number("1.50")
package indirect enum JSONValue: Equatable, Sendable {
  case object([Member])
  case array([JSONValue])
  case string(String)
  /// A number, spelled as in the input (`0`, `1.50`, `1e3`).
  case number(String)
  case bool(Bool)
  case null

  /// An object member.
  package struct Member: Equatable, Sendable {
    package var name: String
    package var value: JSONValue

    package init(_ name: String, _ value: JSONValue) {
      self.name = name
      self.value = value
    }
  }

  /// The value of the first member called `name`, if this is an object that has one.
  package subscript(name: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.name == name }?.value
  }

  /// The string, if this is a string.
  package var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The number's spelling, if this is a number.
  package var numberSpelling: String? {
    if case .number(let spelling) = self { return spelling }
    return nil
  }

  /// What kind of value this is, as messages name it.
  package var kindName: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number: "a number"
    case .bool: "a boolean"
    case .null: "null"
    }
  }
}
