#!/usr/bin/env python3
"""Drives hangul-input.wasm (tools/embedded/build.sh) with the wasmtime
package, key by key, and writes what the input context said after each call.

Usage: drive-wasm.py WASM < SCRIPT > STEPS

SCRIPT: UTF-8 lines. U+0001 then `KEYBOARD OPTIONS TIMEOUT` starts a new context
(OPTIONS: the or of hangul_input.h's flags; TIMEOUT: milliseconds, negative
for none; a key is never U+0001). Any other line is a key string: each character is a key (an ASCII
position or a jamo label), BS (U+0008) and DEL (U+007F) are Backspace, and
the end of the line flushes the context. With a timeout the keys of a line
are pressed at times 0, 300, 600, 1300, 1600, 1900, 2600 … (a gap of 700
after every third key), so that the multi-tap timeout ends some cycles.

STEPS: those lines as they are, and a line per call: RESULT TAB DELETE TAB
COMMIT TAB PREEDIT, RESULT being 1 or 0 for a key or Backspace and F for the
flush at the end of a line. HangulInputTests' WebAssemblyTests writes the
same from the native build and compares. Needs `pip install wasmtime`.
"""
import ctypes
import sys

import wasmtime


def main():
    store = wasmtime.Store()
    module = wasmtime.Module.from_file(store.engine, sys.argv[1])
    exports = wasmtime.Instance(store, module, []).exports(store)
    memory = exports["memory"]
    call = {name: exports["hangul_input_" + name] for name in (
        "new", "delete", "process", "process_at", "backspace", "flush", "delete_count", "commit",
        "preedit")}
    out = sys.stdout.buffer

    def string_at(address):
        # The memory may have grown (and moved) since the last call.
        return ctypes.string_at(ctypes.addressof(memory.data_ptr(store).contents) + address)

    def report(result):
        out.write(b"%s\t%d\t%s\t%s\n" % (
            result, call["delete_count"](store, context), string_at(call["commit"](store, context)),
            string_at(call["preedit"](store, context))))

    context, timeout = 0, -1.0
    for line in sys.stdin.buffer.read().decode("utf-8").split("\n")[:-1]:
        if line.startswith("\x01"):
            if context:
                call["delete"](store, context)
            keyboard, options, timeout = line[1:].split(" ")
            timeout = float(timeout)
            name = keyboard.encode("utf-8") + b"\0"
            address = exports["malloc"](store, len(name))
            memory.write(store, name, address)
            context = call["new"](store, address, int(options), timeout)
            exports["free"](store, address)
            if context == 0:
                sys.exit(f"drive-wasm.py: no keyboard {keyboard}")
            out.write(line.encode("utf-8") + b"\n")
            continue
        time = 0.0
        for position, key in enumerate(line):
            if key in "\b\x7f":
                taken = call["backspace"](store, context)
            elif timeout >= 0:
                taken = call["process_at"](store, context, ord(key), time)
                time += 700.0 if position % 3 == 2 else 300.0
            else:
                taken = call["process"](store, context, ord(key))
            report(b"1" if taken else b"0")
        call["flush"](store, context)
        report(b"F")
    if context:
        call["delete"](store, context)


if __name__ == "__main__":
    main()
