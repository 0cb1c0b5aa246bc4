/*
 * libhangul-keys: libhangul's input context, key by key.
 *
 * Reads lines of QWERTY keys from standard input; each line is a key string
 * typed on one input context.  BS (0x08) and DEL (0x7f) call
 * hangul_ic_backspace(), every other byte hangul_ic_process().  After each
 * key it writes one record line:
 *
 *     KEY RESULT TAB COMMIT TAB PREEDIT NEWLINE
 *
 * KEY is the key's byte as typed, RESULT is 1 or 0 (what the call returned),
 * COMMIT is hangul_ic_get_commit_string() and PREEDIT
 * hangul_ic_get_preedit_string(), both as UTF-8.  At the end of the line it
 * calls hangul_ic_flush() and writes TAB FLUSHED NEWLINE (a key never is a
 * tab, so a line that starts with one ends the key string).
 *
 * Options: -k ID selects the keyboard (default 2), -a turns on AUTO_REORDER,
 * -d turns on COMBI_ON_DOUBLE_STROKE, -n turns off NON_CHOSEONG_COMBI (all
 * three are set explicitly, whatever the keyboard's defaults).
 *
 * Build: cc -O2 -o libhangul-keys libhangul-keys.c $(pkg-config --cflags --libs libhangul)
 */
#include <hangul.h>
#include <stdio.h>
#include <unistd.h>

static void put_utf8(ucschar c, FILE *out) {
    if (c < 0x80) fputc((int)c, out);
    else if (c < 0x800) { fputc(0xC0 | (c >> 6), out); fputc(0x80 | (c & 0x3F), out); }
    else if (c < 0x10000) { fputc(0xE0 | (c >> 12), out); fputc(0x80 | ((c >> 6) & 0x3F), out); fputc(0x80 | (c & 0x3F), out); }
    else { fputc(0xF0 | (c >> 18), out); fputc(0x80 | ((c >> 12) & 0x3F), out); fputc(0x80 | ((c >> 6) & 0x3F), out); fputc(0x80 | (c & 0x3F), out); }
}

static void put_string(const ucschar *s, FILE *out) {
    for (; s && *s; s++) put_utf8(*s, out);
}

int main(int argc, char **argv) {
    int double_stroke = 0, bare_clusters = 1, auto_reorder = 0, opt;
    const char *keyboard = "2";
    while ((opt = getopt(argc, argv, "k:adn")) != -1) {
        if (opt == 'k') keyboard = optarg;
        else if (opt == 'a') auto_reorder = 1;
        else if (opt == 'd') double_stroke = 1;
        else if (opt == 'n') bare_clusters = 0;
        else { fprintf(stderr, "usage: libhangul-keys [-k ID] [-a] [-d] [-n]\n"); return 64; }
    }
    HangulInputContext *ic = hangul_ic_new(keyboard);
    if (!ic) { fprintf(stderr, "libhangul-keys: no keyboard %s\n", keyboard); return 64; }
    hangul_ic_set_option(ic, HANGUL_IC_OPTION_COMBI_ON_DOUBLE_STROKE, double_stroke);
    hangul_ic_set_option(ic, HANGUL_IC_OPTION_NON_CHOSEONG_COMBI, bare_clusters);
    hangul_ic_set_option(ic, HANGUL_IC_OPTION_AUTO_REORDER, auto_reorder);

    int c, started = 0;
    while ((c = getchar()) != EOF) {
        if (c == '\n') {
            putchar('\t');
            put_string(hangul_ic_flush(ic), stdout);
            putchar('\n');
            started = 0;
            continue;
        }
        if (!started) {
            hangul_ic_reset(ic);
            started = 1;
        }
        int taken = (c == 0x08 || c == 0x7f) ? hangul_ic_backspace(ic) : hangul_ic_process(ic, c);
        putchar(c);
        putchar(taken ? '1' : '0');
        putchar('\t');
        put_string(hangul_ic_get_commit_string(ic), stdout);
        putchar('\t');
        put_string(hangul_ic_get_preedit_string(ic), stdout);
        putchar('\n');
    }
    hangul_ic_delete(ic);
    return 0;
}
