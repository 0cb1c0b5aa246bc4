#!/usr/bin/env python3
"""Lists the Swift types with the most stored instance properties (issue 33's
house rule: at most about 15 a type), and fails when one has more than --most.

    python3 tools/house/stored-properties.py Sources            # types with 13 or more
    python3 tools/house/stored-properties.py --list 1 Sources   # every type

A stored property is a `var` or `let` declared directly in a struct's,
class's or actor's body, not `static` or `class`, and not computed (a `var`
that goes on to `{` with no `=` before it, unless the block holds only
`willSet`/`didSet`). A tuple-typed property also counts its elements (the
second column): grouping state in a tuple hides fields, a named struct does
not. A text scan, not a parser: strings and comments are blanked first,
which is enough for this repository's code."""
import argparse
import pathlib
import re
import sys


def blank(source):
    """`source` with the text of its comments and string literals replaced by spaces."""
    out = []
    i, n = 0, len(source)
    while i < n:
        if source.startswith('//', i):
            end = source.find('\n', i)
            end = n if end < 0 else end
            out.append(' ' * (end - i))
            i = end
        elif source.startswith('/*', i):
            end = source.find('*/', i) + 2
            out.append(re.sub(r'[^\n]', ' ', source[i:end]))
            i = end
        elif source.startswith('"""', i):
            end = source.find('"""', i + 3) + 3
            out.append('""' + re.sub(r'[^\n]', ' ', source[i + 2:end - 2]) + '""')
            i = end
        elif source[i] == '"':
            j = i + 1
            while j < n:
                if source.startswith('\\(', j):  # an interpolation: skip its parentheses
                    k, depth = j + 2, 1
                    while k < n and depth:
                        depth += {'(': 1, ')': -1}.get(source[k], 0)
                        k += 1
                    j = k
                    continue
                if source[j] == '\\':
                    j += 2
                    continue
                if source[j] == '"':
                    break
                j += 1
            out.append('"' + ' ' * (j - i - 1) + '"')
            i = j + 1
        else:
            out.append(source[i])
            i += 1
    return ''.join(out)


TOKEN = re.compile(
    r'[{}]|\b(?:struct|class|actor|enum|extension|protocol)\s+[A-Za-z_][\w.]*|\b(?:var|let)\b')
TYPE_KINDS = ('struct', 'class', 'actor', 'enum', 'extension', 'protocol')
STORING_KINDS = ('struct', 'class', 'actor')


def tuple_arity(rest):
    """How many elements the tuple type or literal that `rest` declares has (1: not a tuple)."""
    match = re.match(r'\s*\w+\s*(?::\s*|=\s*)\(', rest)
    if not match or '->' in rest:
        return 1
    depth = commas = 0
    for character in rest[match.end() - 1:]:
        if character in '([<':
            depth += 1
        elif character in ')]>':
            depth -= 1
            if depth == 0:
                break
        elif character == ',' and depth == 1:
            commas += 1
    return commas + 1


def types_in(path):
    """(qualified name, [(property, arity)]) of each struct, class and actor in `path`."""
    source = blank(path.read_text())
    found, stack, depth, pending = [], [], 0, None
    for match in TOKEN.finditer(source):
        token = match.group(0)
        if token == '{':
            depth += 1
            if pending:
                stack.append((pending[0], pending[1], depth, []))
                pending = None
        elif token == '}':
            if stack and stack[-1][2] == depth:
                kind, name, _, properties = stack.pop()
                if kind in STORING_KINDS:
                    found.append(('.'.join([s[1] for s in stack] + [name]), properties))
            depth -= 1
        elif token.split()[0] in TYPE_KINDS:
            kind, name = token.split(None, 1)
            if kind == 'class' and name in ('func', 'var', 'let', 'override', 'subscript'):
                continue  # a class member, not a class
            pending = (kind, name)
        else:
            if not stack or stack[-1][2] != depth or stack[-1][0] not in STORING_KINDS:
                continue
            line_start = source.rfind('\n', 0, match.start()) + 1
            prefix = source[line_start:match.start()]
            if re.search(r'\b(static|class|case|if|guard|for)\b', prefix):
                continue
            line_end = source.find('\n', match.end())
            line_end = len(source) if line_end < 0 else line_end
            rest = source[match.end():line_end]
            name_match = re.match(r'\s*([A-Za-z_]\w*)', rest)
            name = name_match.group(1) if name_match else '?'
            if token == 'var':
                brace, equals = rest.find('{'), rest.find('=')
                if brace >= 0 and (equals < 0 or equals > brace):
                    after = source[match.end() + brace + 1:match.end() + brace + 200]
                    if not re.match(r'\s*(willSet|didSet)\b', after):
                        continue  # computed
                elif brace < 0 and equals < 0 and ':' in rest:
                    following = source[line_end:line_end + 200].lstrip()
                    if following.startswith('{') and not re.match(
                            r'\{\s*(willSet|didSet)', following):
                        continue  # computed, its body on the next line
            stack[-1][3].append((name, tuple_arity(rest)))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('folders', nargs='+')
    parser.add_argument('--list', type=int, default=13, help='list types with this many or more')
    parser.add_argument('--most', type=int, default=15, help='fail above this many')
    arguments = parser.parse_args()
    rows = []
    for folder in arguments.folders:
        for path in sorted(pathlib.Path(folder).rglob('*.swift')):
            for name, properties in types_in(path):
                rows.append((len(properties), sum(a for _, a in properties), name, str(path)))
    rows.sort(key=lambda row: (-row[0], -row[1], row[2]))
    print('stored  counting tuple elements  type  (file)')
    for stored, flat, name, path in rows:
        if stored >= arguments.list or flat > arguments.most:
            print(f'{stored:4d} {flat:4d}  {name}  ({path})')
    over = [row for row in rows if row[1] > arguments.most]
    largest = rows[0] if rows else (0, 0, '-', '')
    print(f'types: {len(rows)}; largest: {largest[0]} ({largest[2]}); '
          f'over {arguments.most} counting tuple elements: {len(over)}')
    return 1 if over else 0


if __name__ == '__main__':
    sys.exit(main())
