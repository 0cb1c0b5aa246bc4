/*
 * libhangul-compose: the peer of `hangul-compose` in the benchmark.
 *
 * Reads a keystroke log on standard input and writes the composed text, as a
 * line editor around libhangul's hangul_ic_process() would: 2-set QWERTY
 * letters (or, with -j, compatibility jamo mapped to their QWERTY keys) are
 * keys, BS/DEL are Backspace, every other character commits and is copied.
 * With -k ID the keyboard is libhangul's keyboard ID and every printable ASCII
 * character is a key (what hangul_ic_process commits is written, and a key it
 * does not take is copied). Reads and writes in 128 KiB blocks.
 *
 * Build: cc -O2 -o libhangul-compose libhangul-compose.c $(pkg-config --cflags --libs libhangul)
 */
#include <hangul.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned char out[1 << 18];
static size_t out_len;
static ucschar line[1 << 20];
static size_t line_len;

static void flush_out(void) {
  size_t done = 0;
  while (done < out_len) {
    ssize_t n = write(1, out + done, out_len - done);
    if (n <= 0) exit(74);
    done += (size_t)n;
  }
  out_len = 0;
}

static void put_utf8(ucschar c) {
  if (out_len + 4 > sizeof out) flush_out();
  if (c < 0x80) out[out_len++] = (unsigned char)c;
  else if (c < 0x800) { out[out_len++] = 0xC0 | (c >> 6); out[out_len++] = 0x80 | (c & 0x3F); }
  else if (c < 0x10000) { out[out_len++] = 0xE0 | (c >> 12); out[out_len++] = 0x80 | ((c >> 6) & 0x3F); out[out_len++] = 0x80 | (c & 0x3F); }
  else { out[out_len++] = 0xF0 | (c >> 18); out[out_len++] = 0x80 | ((c >> 12) & 0x3F); out[out_len++] = 0x80 | ((c >> 6) & 0x3F); out[out_len++] = 0x80 | (c & 0x3F); }
}

static void append(ucschar c) {
  if (line_len == sizeof line / sizeof *line) {
    for (size_t i = 0; i < line_len; i++) put_utf8(line[i]);
    line_len = 0;
  }
  line[line_len++] = c;
}

static void append_all(const ucschar *s) { for (; s && *s; s++) append(*s); }

static void end_line(int newline) {
  for (size_t i = 0; i < line_len; i++) put_utf8(line[i]);
  line_len = 0;
  if (newline) put_utf8('\n');
}

/* QWERTY key of each compatibility jamo U+3131..U+3163 (0 when none). */
static const char jamo_keys[51][3] = {
  "r","R","rt","s","sw","sg","e","E","f","fr","fa","fq","ft","fx","fv","fg","a","q","Q","qt",
  "t","T","d","w","W","c","z","x","v","g",
  "k","o","i","O","j","p","u","P","h","hk","ho","hl","y","n","nj","np","nl","b","m","ml","l"};

static void key(HangulInputContext *ic, int c) {
  if (hangul_ic_process(ic, c)) append_all(hangul_ic_get_commit_string(ic));
  else { append_all(hangul_ic_flush(ic)); append((ucschar)c); }
}

/* A key of another keyboard: what it commits counts even when it is not taken. */
static void layout_key(HangulInputContext *ic, int c) {
  int taken = hangul_ic_process(ic, c);
  append_all(hangul_ic_get_commit_string(ic));
  if (!taken) { append_all(hangul_ic_flush(ic)); append((ucschar)c); }
}

int main(int argc, char **argv) {
  int jamo = argc > 1 && strcmp(argv[1], "-j") == 0;
  const char *keyboard = argc > 2 && strcmp(argv[1], "-k") == 0 ? argv[2] : NULL;
  HangulInputContext *ic = hangul_ic_new(keyboard ? keyboard : "2");
  static unsigned char buf[1 << 17];
  unsigned char pending[4];
  size_t pending_len = 0;
  ssize_t n;
  while ((n = read(0, buf, sizeof buf)) > 0) {
    for (ssize_t i = 0; i < n; i++) {
      unsigned char b = buf[i];
      if (pending_len > 0 || b >= 0x80) {
        pending[pending_len++] = b;
        size_t need = pending[0] >= 0xF0 ? 4 : pending[0] >= 0xE0 ? 3 : 2;
        if (pending_len < need) continue;
        ucschar c = need == 2 ? ((pending[0] & 0x1F) << 6) | (pending[1] & 0x3F)
                  : need == 3 ? ((pending[0] & 0x0F) << 12) | ((pending[1] & 0x3F) << 6) | (pending[2] & 0x3F)
                  : ((pending[0] & 0x07) << 18) | ((pending[1] & 0x3F) << 12) | ((pending[2] & 0x3F) << 6) | (pending[3] & 0x3F);
        pending_len = 0;
        if (jamo && c >= 0x3131 && c <= 0x3163) {
          for (const char *k = jamo_keys[c - 0x3131]; *k; k++) key(ic, *k);
        } else {
          append_all(hangul_ic_flush(ic));
          append(c);
        }
      } else if (b == '\n') {
        append_all(hangul_ic_flush(ic));
        end_line(1);
      } else if (b == 0x08 || b == 0x7F) {
        if (!hangul_ic_backspace(ic) && line_len > 0) line_len--;
      } else if (keyboard && b >= 0x20 && b <= 0x7E) {
        layout_key(ic, b);
      } else if (!jamo && ((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z'))) {
        key(ic, b);
      } else {
        append_all(hangul_ic_flush(ic));
        append(b);
      }
    }
    end_line(0);
    flush_out();
  }
  append_all(hangul_ic_flush(ic));
  end_line(0);
  flush_out();
  hangul_ic_delete(ic);
  return 0;
}
