/*
 * wasm-support.c: the few C-library functions that Embedded Swift needs on
 * wasm32-unknown-none-wasm, where there is no C library: memory (malloc,
 * free, posix_memalign over the WebAssembly memory, grown page by page), the
 * mem* functions, and arc4random_buf (Swift seeds its hashing with it; a
 * fixed sequence is enough for an input method, which hashes no one's input
 * as an attacker would choose it).
 *
 * The allocator keeps one free list per power-of-two size class (16 bytes to
 * 2 GiB): a freed block is reused by the next allocation of its class, and
 * memory is never given back, as a page's WebAssembly memory never shrinks.
 *
 * Build: clang --target=wasm32 -O2 -nostdlib -fno-builtin -c wasm-support.c
 */
#include <stddef.h>
#include <stdint.h>

#define HEADER 16 /* a block's size class, kept before it; keeps 16-byte alignment */
#define CLASSES 28

extern unsigned char __heap_base;

static uintptr_t heap_top;
static void *free_lists[CLASSES];

static int size_class(size_t size) {
    int class = 0;
    while (((size_t)16 << class) < size) class++;
    return class;
}

/* `count` bytes from the end of the heap, growing the memory as needed. */
static void *take(size_t count) {
    if (heap_top == 0) heap_top = ((uintptr_t)&__heap_base + 15) & ~(uintptr_t)15;
    uintptr_t start = heap_top;
    uintptr_t end = start + count;
    if (end < start) return NULL;
    size_t have = __builtin_wasm_memory_size(0) * 65536;
    if (end > have) {
        size_t pages = (end - have + 65535) / 65536;
        if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return NULL;
    }
    heap_top = end;
    return (void *)start;
}

void *malloc(size_t size) {
    if (size > ((size_t)16 << (CLASSES - 1))) return NULL;
    int class = size_class(size == 0 ? 1 : size);
    unsigned char *block = free_lists[class];
    if (block) {
        free_lists[class] = *(void **)block;
    } else {
        unsigned char *raw = take(HEADER + ((size_t)16 << class));
        if (!raw) return NULL;
        block = raw + HEADER;
        *(int *)raw = class;
    }
    return block;
}

void free(void *pointer) {
    if (!pointer) return;
    int class = *(int *)((unsigned char *)pointer - HEADER);
    *(void **)pointer = free_lists[class];
    free_lists[class] = pointer;
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment > 16) return 12; /* ENOMEM: nothing in HangulInput asks for more */
    void *block = malloc(size);
    if (!block) return 12;
    *result = block;
    return 0;
}

void *memcpy(void *destination, const void *source, size_t count) {
    unsigned char *to = destination;
    const unsigned char *from = source;
    while (count--) *to++ = *from++;
    return destination;
}

void *memmove(void *destination, const void *source, size_t count) {
    unsigned char *to = destination;
    const unsigned char *from = source;
    if (to < from) {
        while (count--) *to++ = *from++;
    } else {
        while (count--) to[count] = from[count];
    }
    return destination;
}

void *memset(void *destination, int value, size_t count) {
    unsigned char *to = destination;
    while (count--) *to++ = (unsigned char)value;
    return destination;
}

int memcmp(const void *left, const void *right, size_t count) {
    const unsigned char *a = left, *b = right;
    for (; count--; a++, b++) {
        if (*a != *b) return *a < *b ? -1 : 1;
    }
    return 0;
}

size_t strlen(const char *text) {
    size_t length = 0;
    while (text[length]) length++;
    return length;
}

void arc4random_buf(void *buffer, size_t count) {
    static uint64_t state = 0x9E3779B97F4A7C15u;
    unsigned char *bytes = buffer;
    while (count--) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        *bytes++ = (unsigned char)state;
    }
}
