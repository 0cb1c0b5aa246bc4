// The few libhunspell functions HangulWrongMode needs (Debian libhunspell-dev),
// behind chunspell_ wrappers with plain C types.
//
// libhunspell's C interface (hunspell.h) is plain C already; the wrappers keep
// the handle an opaque pointer and give the one call the filter makes a
// boolean result, so that the Swift side does not depend on the header's
// typedefs or export macros.
#ifndef CHUNSPELL_SHIM_H
#define CHUNSPELL_SHIM_H

#include <hunspell/hunspell.h>

/// Loads a dictionary from its affix and word files (`ko.aff`, `ko.dic`).
/// libhunspell does not report a file it cannot read: check them first.
static inline void *chunspell_open(const char *affix_path, const char *words_path) {
  return (void *)Hunspell_create(affix_path, words_path);
}

static inline void chunspell_close(void *dictionary) { Hunspell_destroy((Hunhandle *)dictionary); }

/// Whether the dictionary accepts `word` (NUL-terminated, in the dictionary's
/// encoding: UTF-8 for Debian's ko and en_US). Not thread-safe: one caller at a time.
static inline int chunspell_knows(void *dictionary, const char *word) {
  return Hunspell_spell((Hunhandle *)dictionary, word) != 0;
}

#endif
