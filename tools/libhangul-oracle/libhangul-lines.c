/*
 * libhangul-lines: reference output of libhangul's keyboards.
 *
 * Reads lines of QWERTY keys from standard input and writes, for each line,
 * the text that a line editor driven by hangul_ic_process() and
 * hangul_ic_backspace() ends with.  The editor follows SPEC.md sections 3.1
 * and 3.2: printable ASCII characters go to hangul_ic_process(), and what it
 * commits is written; a key it does not take commits the syllable and is
 * copied.  BS (0x08) and DEL (0x7f) are Backspace, which first undoes a
 * composition step and otherwise deletes the last character of the line (a
 * syllable written as conjoining jamo is one character);
 * any other byte commits the syllable and is copied.
 *
 * Options: -k ID selects the keyboard (default 2), -a turns on AUTO_REORDER,
 * -d turns on COMBI_ON_DOUBLE_STROKE, -n turns off NON_CHOSEONG_COMBI, -o
 * prints the option defaults and exits.
 *
 * Build: cc -O2 -o libhangul-lines libhangul-lines.c $(pkg-config --cflags --libs libhangul)
 */
#include <hangul.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static ucschar *line;
static size_t line_len, line_cap;

static void append(ucschar c) {
    if (line_len == line_cap) {
        line_cap = line_cap ? line_cap * 2 : 256;
        line = realloc(line, line_cap * sizeof *line);
        if (!line) { perror("realloc"); exit(1); }
    }
    line[line_len++] = c;
}

static void append_all(const ucschar *s) {
    for (; s && *s; s++) append(*s);
}

static void put_utf8(ucschar c, FILE *out) {
    if (c < 0x80) fputc((int)c, out);
    else if (c < 0x800) { fputc(0xC0 | (c >> 6), out); fputc(0x80 | (c & 0x3F), out); }
    else if (c < 0x10000) { fputc(0xE0 | (c >> 12), out); fputc(0x80 | ((c >> 6) & 0x3F), out); fputc(0x80 | (c & 0x3F), out); }
    else { fputc(0xF0 | (c >> 18), out); fputc(0x80 | ((c >> 12) & 0x3F), out); fputc(0x80 | ((c >> 6) & 0x3F), out); fputc(0x80 | (c & 0x3F), out); }
}

static int is_printable(int c) { return c >= 0x20 && c <= 0x7e; }

/* Backspace on the line deletes one character; a syllable that libhangul
 * wrote as conjoining jamo (initials, vowels, finals) is one character. */
static void delete_character(void) {
    size_t n = line_len;
    while (n > 0 && hangul_is_jongseong(line[n - 1])) n--;
    while (n > 0 && hangul_is_jungseong(line[n - 1])) n--;
    while (n > 0 && hangul_is_choseong(line[n - 1])) n--;
    line_len = n == line_len ? line_len - 1 : n;
}

int main(int argc, char **argv) {
    int double_stroke = 0, bare_clusters = 1, auto_reorder = 0, show_options = 0, opt;
    const char *keyboard = "2";
    while ((opt = getopt(argc, argv, "k:adno")) != -1) {
        if (opt == 'k') keyboard = optarg;
        else if (opt == 'a') auto_reorder = 1;
        else if (opt == 'd') double_stroke = 1;
        else if (opt == 'n') bare_clusters = 0;
        else if (opt == 'o') show_options = 1;
        else { fprintf(stderr, "usage: libhangul-lines [-k ID] [-a] [-d] [-n] [-o]\n"); return 64; }
    }
    HangulInputContext *ic = hangul_ic_new(keyboard);
    if (show_options) {
        printf("AUTO_REORDER=%d COMBI_ON_DOUBLE_STROKE=%d NON_CHOSEONG_COMBI=%d\n",
               hangul_ic_get_option(ic, HANGUL_IC_OPTION_AUTO_REORDER),
               hangul_ic_get_option(ic, HANGUL_IC_OPTION_COMBI_ON_DOUBLE_STROKE),
               hangul_ic_get_option(ic, HANGUL_IC_OPTION_NON_CHOSEONG_COMBI));
        return 0;
    }
    hangul_ic_set_option(ic, HANGUL_IC_OPTION_COMBI_ON_DOUBLE_STROKE, double_stroke);
    hangul_ic_set_option(ic, HANGUL_IC_OPTION_NON_CHOSEONG_COMBI, bare_clusters);
    hangul_ic_set_option(ic, HANGUL_IC_OPTION_AUTO_REORDER, auto_reorder);

    int c;
    while ((c = getchar()) != EOF) {
        if (c == '\n') {
            append_all(hangul_ic_flush(ic));
            for (size_t i = 0; i < line_len; i++) put_utf8(line[i], stdout);
            putchar('\n');
            line_len = 0;
        } else if (c == 0x08 || c == 0x7f) {
            if (!hangul_ic_backspace(ic) && line_len > 0) delete_character();
        } else if (is_printable(c)) {
            /* What it commits counts even when it does not take the key. */
            int taken = hangul_ic_process(ic, c);
            append_all(hangul_ic_get_commit_string(ic));
            if (!taken) {
                append_all(hangul_ic_flush(ic));
                append((ucschar)c);
            }
        } else {
            append_all(hangul_ic_flush(ic));
            append((ucschar)c);
        }
    }
    append_all(hangul_ic_flush(ic));
    for (size_t i = 0; i < line_len; i++) put_utf8(line[i], stdout);
    hangul_ic_delete(ic);
    return 0;
}
