/*
 * icu-normalize: the peer of `hangul-decompose --to nfd` and of composing NFD
 * back to NFC, in the benchmark.
 *
 * Reads UTF-8 on standard input, a line at a time in 128 KiB blocks, converts
 * it to UTF-16, calls ICU's unorm2_normalize() (NFD with -d, NFC with -c,
 * NFKD with -D, NFKC with -C) and writes the result as UTF-8.
 *
 * Build: cc -O2 -o icu-normalize icu-normalize.c $(pkg-config --cflags --libs icu-uc)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>

#define BLOCK (1 << 17)

static unsigned char in[BLOCK * 2];
static UChar src[BLOCK * 2];
static UChar dst[BLOCK * 8];
static char out[BLOCK * 24];

static void write_all(const char *data, size_t length) {
  while (length > 0) {
    ssize_t n = write(1, data, length);
    if (n <= 0) exit(74);
    data += n;
    length -= (size_t)n;
  }
}

static void normalize(const UNormalizer2 *norm, const unsigned char *text, int32_t length) {
  UErrorCode error = U_ZERO_ERROR;
  int32_t units = 0;
  u_strFromUTF8WithSub(src, (int32_t)(sizeof src / sizeof *src), &units, (const char *)text, length, 0xFFFD, NULL, &error);
  int32_t normalized = unorm2_normalize(norm, src, units, dst, (int32_t)(sizeof dst / sizeof *dst), &error);
  int32_t bytes = 0;
  u_strToUTF8(out, (int32_t)sizeof out, &bytes, dst, normalized, &error);
  if (U_FAILURE(error)) { fprintf(stderr, "icu-normalize: %s\n", u_errorName(error)); exit(70); }
  write_all(out, (size_t)bytes);
}

int main(int argc, char **argv) {
  UErrorCode error = U_ZERO_ERROR;
  const char *flag = argc > 1 ? argv[1] : "-d";
  const UNormalizer2 *norm = strcmp(flag, "-c") == 0 ? unorm2_getNFCInstance(&error)
    : strcmp(flag, "-C") == 0 ? unorm2_getNFKCInstance(&error)
    : strcmp(flag, "-D") == 0 ? unorm2_getNFKDInstance(&error)
    : unorm2_getNFDInstance(&error);
  size_t held = 0;
  ssize_t n;
  while ((n = read(0, in + held, BLOCK)) > 0) {
    held += (size_t)n;
    /* Normalize up to the last newline: normalization never crosses one. */
    size_t cut = held;
    while (cut > 0 && in[cut - 1] != '\n') cut--;
    if (cut == 0 && held < BLOCK) continue;
    if (cut == 0) cut = held;
    normalize(norm, in, (int32_t)cut);
    memmove(in, in + cut, held - cut);
    held -= cut;
  }
  if (held > 0) normalize(norm, in, (int32_t)held);
  return 0;
}
