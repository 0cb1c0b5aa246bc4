/*
 * table-map: the practical ceiling for a decomposing filter, in the benchmark.
 *
 * Decodes UTF-8 from standard input and maps each code point through a table
 * (Hangul syllables to their 2-set QWERTY keys with -q, or to compatibility
 * jamo keys with -k; everything else copied), in 128 KiB blocks. It does not
 * write separators, so its output can differ from ours where one is needed.
 *
 * Build: cc -O2 -o table-map table-map.c
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char keys[11172][16];
static unsigned char keys_len[11172];

static const char *L_Q[] = {"r","R","s","e","E","f","a","q","Q","t","T","d","w","W","c","z","x","v","g"};
static const char *V_Q[] = {"k","o","i","O","j","p","u","P","h","hk","ho","hl","y","n","nj","np","nl","b","m","ml","l"};
static const char *T_Q[] = {"","r","R","rt","s","sw","sg","e","f","fr","fa","fq","ft","fx","fv","fg","a","q","qt","t","T","d","w","c","z","x","v","g"};
/* The same keys as compatibility jamo, by QWERTY letter. */
static const char *jamo_of(char c) {
  static const char *lower[26] = {"ㅁ","ㅠ","ㅊ","ㅇ","ㄷ","ㄹ","ㅎ","ㅗ","ㅑ","ㅓ","ㅏ","ㅣ","ㅡ","ㅜ","ㅐ","ㅔ","ㅂ","ㄱ","ㄴ","ㅅ","ㅕ","ㅍ","ㅈ","ㅌ","ㅛ","ㅋ"};
  switch (c) { case 'Q': return "ㅃ"; case 'W': return "ㅉ"; case 'E': return "ㄸ"; case 'R': return "ㄲ"; case 'T': return "ㅆ"; case 'O': return "ㅒ"; case 'P': return "ㅖ"; }
  return lower[c - 'a'];
}

int main(int argc, char **argv) {
  int jamo = argc > 1 && strcmp(argv[1], "-k") == 0;
  for (int s = 0; s < 11172; s++) {
    char q[16] = "";
    strcat(q, L_Q[s / 588]); strcat(q, V_Q[(s / 28) % 21]); strcat(q, T_Q[s % 28]);
    if (jamo) {
      char *p = keys[s];
      for (char *k = q; *k; k++) { const char *j = jamo_of(*k); memcpy(p, j, 3); p += 3; }
      keys_len[s] = (unsigned char)(p - keys[s]);
    } else {
      strcpy(keys[s], q);
      keys_len[s] = (unsigned char)strlen(q);
    }
  }
  static unsigned char in[1 << 17];
  static unsigned char out[(1 << 17) * 6];
  size_t carry = 0;
  ssize_t n;
  while ((n = read(0, in + carry, sizeof in - carry)) > 0) {
    size_t end = carry + (size_t)n, i = 0, o = 0;
    while (i < end) {
      unsigned char b = in[i];
      size_t len = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
      if (i + len > end) break;
      if (len == 3) {
        unsigned c = ((b & 0x0F) << 12) | ((in[i + 1] & 0x3F) << 6) | (in[i + 2] & 0x3F);
        if (c >= 0xAC00 && c <= 0xD7A3) {
          memcpy(out + o, keys[c - 0xAC00], keys_len[c - 0xAC00]);
          o += keys_len[c - 0xAC00];
          i += 3;
          continue;
        }
      }
      memcpy(out + o, in + i, len);
      o += len;
      i += len;
    }
    for (size_t done = 0; done < o;) { ssize_t w = write(1, out + done, o - done); if (w <= 0) return 74; done += (size_t)w; }
    carry = end - i;
    memmove(in, in + i, carry);
  }
  return 0;
}
