/*
 * hangul_input.h: the C interface of HangulInput (Sources/HangulInput), as
 * tools/embedded/build.sh builds it for WebAssembly (hangul-input.wasm) from
 * tools/embedded/HangulInputC.swift. It is HangulInputContext's contract,
 * libhangul's: see that type's documentation.
 *
 *   HangulInput *input = hangul_input_new("2", 0, -1);
 *   hangul_input_process(input, 'r');          // 1: taken
 *   hangul_input_preedit(input);               // "ㄱ" (UTF-8)
 *   hangul_input_process(input, 'k');          // preedit "가"
 *   hangul_input_process(input, ' ');          // 0: not taken; commit "가"
 *   hangul_input_delete(input);
 *
 * Strings are NUL-terminated UTF-8 owned by the context, valid until its next call.
 */
#ifndef HANGUL_INPUT_H
#define HANGUL_INPUT_H
#include <stdint.h>

typedef struct HangulInput HangulInput;

/* Options, or'ed together (ComposerOptions). */
enum {
    HANGUL_INPUT_DOUBLE_STROKE = 1,       /* ㄱㄱ → ㄲ */
    HANGUL_INPUT_NO_BARE_CLUSTERS = 2,    /* ㄱㅅ stays ㄱㅅ until a vowel */
    HANGUL_INPUT_EXTENDED_VOWELS = 4,     /* ㅏㅣ → ㅐ */
    HANGUL_INPUT_BACKSPACE_KEYSTROKE = 8, /* Backspace undoes the last keystroke */
    HANGUL_INPUT_AUTO_REORDER = 16,       /* libhangul's AUTO_REORDER */
};

/* A context for the built-in keyboard `id` ("2", "3f", "cheonjiin" …), or NULL
 * when there is none. A negative timeout: no multi-tap timeout. */
HangulInput *hangul_input_new(const char *id, uint32_t options, double multitap_timeout_ms);
void hangul_input_delete(HangulInput *input);

/* A key: an ASCII position, or a compatibility-jamo label (a Unicode scalar).
 * Returns 1 when the keyboard takes it, 0 when the key is the caller's. */
int32_t hangul_input_process(HangulInput *input, uint32_t key);
/* The same, pressed at `time_ms` (for the multi-tap timeout). */
int32_t hangul_input_process_at(HangulInput *input, uint32_t key, double time_ms);
/* 1 when it undid something, 0 when the caller deletes a character. */
int32_t hangul_input_backspace(HangulInput *input);
void hangul_input_flush(HangulInput *input);
void hangul_input_reset(HangulInput *input);

/* After each call: delete this many Unicode scalars before the cursor, then
 * insert the commit string; show the preedit string at the cursor. */
int32_t hangul_input_delete_count(const HangulInput *input);
const char *hangul_input_commit(HangulInput *input);
const char *hangul_input_preedit(HangulInput *input);

#endif
