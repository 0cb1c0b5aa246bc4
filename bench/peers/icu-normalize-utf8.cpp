/*
 * icu-normalize-utf8: ICU's fastest normalizer, the peer of hangul-normalize
 * in the benchmark.
 *
 * icu::Normalizer2::normalizeUTF8 works on UTF-8 directly and copies spans
 * that are already normalized without decoding them. Reads standard input in
 * 1 MiB blocks, cuts each block after its last newline (a newline is a
 * normalization boundary, so no text that composes is split), normalizes the
 * lines and writes the result. -c NFC (default), -d NFD, -C NFKC, -D NFKD.
 *
 * Build: c++ -O2 -o icu-normalize-utf8 icu-normalize-utf8.cpp $(pkg-config --cflags --libs icu-uc)
 */
#include <string.h>
#include <unistd.h>

#include <string>
#include <vector>

#include <unicode/bytestream.h>
#include <unicode/normalizer2.h>

static void write_all(const char *data, size_t length) {
  while (length > 0) {
    ssize_t n = write(1, data, length);
    if (n <= 0) _exit(74);
    data += n;
    length -= (size_t)n;
  }
}

int main(int argc, char **argv) {
  UErrorCode error = U_ZERO_ERROR;
  const char *flag = argc > 1 ? argv[1] : "-c";
  const icu::Normalizer2 *normalizer =
      strcmp(flag, "-d") == 0   ? icu::Normalizer2::getNFDInstance(error)
      : strcmp(flag, "-C") == 0 ? icu::Normalizer2::getNFKCInstance(error)
      : strcmp(flag, "-D") == 0 ? icu::Normalizer2::getNFKDInstance(error)
                                : icu::Normalizer2::getNFCInstance(error);
  if (U_FAILURE(error)) return 70;
  const size_t block = 1 << 20;
  std::vector<char> in(block * 2);
  std::string out;
  out.reserve(block * 4);
  size_t held = 0;
  for (;;) {
    if (held == in.size()) in.resize(in.size() * 2);  // a line longer than the buffer
    ssize_t n = read(0, in.data() + held, in.size() - held);
    if (n < 0) return 74;
    size_t end = held + (size_t)n;
    size_t cut = end;
    if (n > 0) {
      while (cut > 0 && in[cut - 1] != '\n') cut--;
      if (cut == 0) { held = end; continue; }
    }
    out.clear();
    icu::StringByteSink<std::string> sink(&out);
    normalizer->normalizeUTF8(0, icu::StringPiece(in.data(), (int32_t)cut), sink, nullptr, error);
    if (U_FAILURE(error)) return 65;
    write_all(out.data(), out.size());
    memmove(in.data(), in.data() + cut, end - cut);
    held = end - cut;
    if (n == 0) return 0;
  }
}
