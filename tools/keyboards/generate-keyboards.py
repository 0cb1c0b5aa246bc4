#!/usr/bin/env python3
"""Writes Sources/HangulInput/Keyboard/BuiltInKeyboards.swift from the files in
keyboards/: the built-in keyboards as Swift data (key maps, combination
tables, keypad rules), so that HangulInput needs no XML parser.

Usage: tools/keyboards/generate-keyboards.py [--check]   (from anywhere)

It reads the files as HangulKit's KeyboardFileParser reads a keyboard file
(hangul-keyboard(5)): `include` in place, a `combination` table replacing the
one before it, the first rule given for a pair winning, only tables with id 0
used, numbers written as C writes them. Two tests keep it honest: every
generated layout equals what the XML parser makes of its file, and the
generated file equals what this script writes now (--check exits 1 when it
does not, and prints nothing else).
"""
import pathlib
import sys
import xml.etree.ElementTree as ElementTree

ORDER = ["2", "2y", "32", "39", "3f", "3s", "3y", "ro", "ahn", "cheonjiin", "naratgeul", "sky2"]
TYPES = {
    "jamo": "jamo", "jamo-yet": "jamoYet", "jaso": "jaso", "jaso-yet": "jasoYet",
    "romaja": "romaja", "keypad": "keypad",
}
ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
FOLDER = ROOT / "keyboards"
OUTPUT = ROOT / "Sources/HangulInput/Keyboard/BuiltInKeyboards.swift"


def number(text):
    """A number as C's strtoul with base 0 reads it: 0x1100, 4352 or 010400."""
    text = text.lstrip(" \t")
    if text[:2] in ("0x", "0X"):
        return int(text[2:], 16)
    if text.startswith("0") and len(text) > 1:
        return int(text[1:], 8)
    return int(text, 10)


def numbers(text):
    return [number(word) for word in text.split(" ") if word]


class Layout:
    def __init__(self):
        self.id = ""
        self.name = ""
        self.korean_name = None
        self.type = None
        self.keys = {}
        self.combinations = {}
        self.cycles = {}
        self.strokes = {}
        self.key_names = {}

    def read(self, path, is_root):
        element = ElementTree.parse(path).getroot()
        self.element(element, path, is_root)

    def element(self, element, path, is_root, section=None):
        tag = element.tag
        attributes = element.attrib
        if tag == "include":
            self.read(path.parent / attributes["file"], is_root=False)
            return
        if tag == "hangul-keyboard":
            assert is_root, f"{path}: an included file cannot hold a hangul-keyboard"
            self.id = attributes["id"]
            self.type = TYPES[attributes["type"]]
        elif tag == "name":
            language = attributes.get("{http://www.w3.org/XML/1998/namespace}lang")
            if language is None:
                self.name = element.text or ""
            elif language.startswith("ko"):
                self.korean_name = element.text or ""
        elif tag == "map":
            section = ("map", number(attributes.get("id", "0")) == 0)
        elif tag == "combination":
            used = number(attributes.get("id", "0")) == 0
            if used:
                self.combinations = {}
            section = ("combination", used)
        elif tag == "item":
            kind, used = section
            if kind == "map" and used:
                key = number(attributes["key"])
                self.keys[key] = number(attributes["value"])
                if "name" in attributes:
                    self.key_names[key] = attributes["name"]
            elif kind == "combination" and used:
                pair = (number(attributes["first"]), number(attributes["second"]))
                self.combinations.setdefault(pair, number(attributes["result"]))
        elif tag == "cycle":
            self.cycles[number(attributes["key"])] = numbers(attributes["values"])
        elif tag == "stroke":
            start = tuple(numbers(attributes.get("from", "")))
            self.strokes[(start, number(attributes["key"]))] = numbers(attributes["to"])
        for child in element:
            self.element(child, path, is_root, section)


def combination_file(name):
    """The rules of a file that holds one combination table and nothing else."""
    root = ElementTree.parse(FOLDER / name).getroot()
    assert root.tag == "combination" and number(root.attrib.get("id", "0")) == 0, name
    assert all(child.tag == "item" for child in root), name
    layout = Layout()
    layout.element(root, FOLDER / name, is_root=False)
    return layout.combinations


def hex_list(values, indent, per_line=8):
    """Swift array elements, `per_line` to a line."""
    lines = []
    for start in range(0, len(values), per_line):
        lines.append(indent + ", ".join(f"0x{value:04X}" for value in values[start:start + per_line]) + ",")
    return "\n".join(lines)


def swift_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def combination_elements(combinations):
    flat = []
    for (first, second), result in sorted(combinations.items()):
        flat += [first, second, result]
    return flat


def keyboard_function(layout, shared):
    name = f"keyboard{layout.id[0].upper()}{layout.id[1:]}" if layout.id[0].isalpha() else f"keyboard{layout.id}"
    keys = []
    for key, value in sorted(layout.keys.items()):
        keys += [key, value]
    lines = [
        f"  /// {layout.name} ({layout.id}).",
        f"  private static func {name}() -> KeyboardLayout {{",
        "    let keys: [UInt32] = [",
        hex_list(keys, "      ", 8),
        "    ]",
    ]
    combinations = combination_elements(layout.combinations)
    shared_name = next((n for n, rules in shared.items() if rules == layout.combinations), None)
    if shared_name:
        lines.append(f"    let combinations = {shared_name}")
    elif combinations:
        lines += ["    let combinations: [UInt32] = [", hex_list(combinations, "      ", 9), "    ]"]
    else:
        lines.append("    let combinations: [UInt32] = []")
    korean = swift_string(layout.korean_name) if layout.korean_name is not None else "nil"
    has_rules = bool(layout.cycles or layout.strokes or layout.key_names)
    lines.append(
        f"    {'var layout =' if has_rules else 'return'} make(id: {swift_string(layout.id)}, name: {swift_string(layout.name or layout.id)}, "
        f"koreanName: {korean}, type: .{layout.type}, keys: keys, combinations: combinations)")
    for key, values in sorted(layout.cycles.items()):
        lines.append(f"    layout.keypad.cycles[0x{key:02X}] = [{', '.join(f'0x{v:04X}' for v in values)}]")
    for (start, key), target in sorted(layout.strokes.items(), key=lambda item: (item[0][1], item[0][0])):
        lines.append(
            f"    layout.keypad.strokes[KeypadRules.Stroke(from: [{', '.join(f'0x{v:04X}' for v in start)}], "
            f"key: 0x{key:02X})] = [{', '.join(f'0x{v:04X}' for v in target)}]")
    for key, key_name in sorted(layout.key_names.items()):
        lines.append(f"    layout.keypad.keyNames[0x{key:02X}] = {swift_string(key_name)}")
    if has_rules:
        lines.append("    return layout")
    lines.append("  }")
    return name, "\n".join(lines)


def generate():
    combination_files = sorted(p.name for p in FOLDER.glob("hangul-combination-*.xml"))
    shared = {}
    for file_name in combination_files:
        stem = file_name[len("hangul-combination-"):-len(".xml")]
        shared[f"combination{stem[0].upper()}{stem[1:]}"] = combination_file(file_name)
    keyboards = []
    for keyboard_id in ORDER:
        layout = Layout()
        layout.read(FOLDER / f"hangul-keyboard-{keyboard_id}.xml", is_root=True)
        assert layout.id == keyboard_id, keyboard_id
        keyboards.append(layout)
    others = sorted(
        p.name for p in FOLDER.glob("*.xml")
        if p.name not in combination_files and p.name not in [f"hangul-keyboard-{i}.xml" for i in ORDER])
    assert not others, f"keyboards/ holds files this script does not know: {others}"

    out = [
        "// swift-format-ignore-file",
        "// Generated by tools/keyboards/generate-keyboards.py from keyboards/*.xml: do not edit.",
        "",
        "/// The keyboard files of the repository's keyboards/ folder as data: each",
        "/// built-in keyboard's layout, and the rules of each combination file (which",
        "/// a user's keyboard file may `include`). HangulKit's XML reader makes the",
        "/// same values of the files, as a test checks.",
        "enum BuiltInKeyboards {",
        "  /// The ids of the built-in keyboards, in the order `--list-keyboards` shows them.",
        "  static let ids: [String] = [" + ", ".join(swift_string(i) for i in ORDER) + "]",
        "",
        "  /// The file names of the combination files, and their rules.",
        "  static let combinationFileNames: [String] = ["
        + ", ".join(swift_string(n) for n in combination_files) + "]",
        "",
        "  /// The rules of a combination file by name (first, second, result), or `nil`.",
        "  static func combinations(ofFile name: String) -> [UInt32]? {",
        "    switch index(of: name, in: combinationFileNames) {",
    ]
    for index, variable in enumerate(shared):
        out.append(f"    case {index}: return {variable}")
    out += [
        "    default: return nil",
        "    }",
        "  }",
        "",
        "  /// The layout of the built-in keyboard `id`, or `nil`.",
        "  static func layout(id: String) -> KeyboardLayout? {",
        "    switch index(of: id, in: ids) {",
    ]
    functions = []
    for index, layout in enumerate(keyboards):
        name, text = keyboard_function(layout, shared)
        functions.append(text)
        out.append(f"    case {index}: return {name}()")
    out += [
        "    default: return nil",
        "    }",
        "  }",
        "",
        "  /// The position of `name` in `names`, compared byte for byte: the names",
        "  /// are ASCII, and String's == would link Unicode's normalization tables",
        "  /// into an Embedded Swift build.",
        "  static func index(of name: String, in names: [String]) -> Int? {",
        "    names.firstIndex { $0.utf8.elementsEqual(name.utf8) }",
        "  }",
        "",
        "  /// A layout from key/value pairs and first/second/result triples.",
        "  private static func make(",
        "    id: String, name: String, koreanName: String?, type: KeyboardLayout.KeyboardType,",
        "    keys: [UInt32], combinations: [UInt32]",
        "  ) -> KeyboardLayout {",
        "    var layout = KeyboardLayout(id: id, name: name, koreanName: koreanName, type: type)",
        "    for index in stride(from: 0, to: keys.count, by: 2) {",
        "      layout.map(key: UInt8(keys[index]), to: keys[index + 1])",
        "    }",
        "    for index in stride(from: 0, to: combinations.count, by: 3) {",
        "      layout.addCombination(combinations[index], combinations[index + 1], combinations[index + 2])",
        "    }",
        "    return layout",
        "  }",
    ]
    for text in functions:
        out += ["", text]
    for variable, rules in shared.items():
        out += [
            "",
            f"  private static let {variable}: [UInt32] = [",
            hex_list(combination_elements(rules), "    ", 9),
            "  ]",
        ]
    out.append("}")
    return "\n".join(out) + "\n"


def main():
    text = generate()
    if sys.argv[1:] == ["--check"]:
        sys.exit(0 if OUTPUT.exists() and OUTPUT.read_text(encoding="utf-8") == text else 1)
    OUTPUT.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
