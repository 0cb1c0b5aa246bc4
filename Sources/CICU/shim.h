// The few ICU C functions HangulKit needs, behind cicu_ wrappers.
//
// ICU renames its functions with version macros (unorm2_normalize is really
// unorm2_normalize_72), which Swift cannot import, and U_SUCCESS is a macro;
// these inline wrappers give them plain names.
//
// This header deliberately includes no ICU header that declares types:
// Foundation on Linux bundles its own ICU whose enums (UErrorCode, …) differ,
// and a Swift file that imports Foundation and HangulKit would see two
// definitions of them. Only unicode/uvernum.h (version macros, nothing else)
// is included, to form the versioned names; the functions are declared here
// with plain C types of the same ABI (UErrorCode is an int-sized enum, UChar
// a 16-bit unit, UBool an int8_t).
#ifndef CICU_SHIM_H
#define CICU_SHIM_H

#include <stdint.h>
#include <unicode/uvernum.h>

#define CICU_VERSIONED(name) U_ICU_ENTRY_POINT_RENAME(name)

const void *CICU_VERSIONED(unorm2_getNFCInstance)(int32_t *error);
const void *CICU_VERSIONED(unorm2_getNFDInstance)(int32_t *error);
const void *CICU_VERSIONED(unorm2_getNFKCInstance)(int32_t *error);
const void *CICU_VERSIONED(unorm2_getNFKDInstance)(int32_t *error);
int32_t CICU_VERSIONED(unorm2_normalize)(const void *normalizer, const uint16_t *source,
                                         int32_t length, uint16_t *destination,
                                         int32_t capacity, int32_t *error);
int8_t CICU_VERSIONED(unorm2_hasBoundaryBefore)(const void *normalizer, int32_t c);
int8_t CICU_VERSIONED(unorm2_isNormalized)(const void *normalizer, const uint16_t *source,
                                           int32_t length, int32_t *error);
const char *CICU_VERSIONED(u_errorName)(int32_t error);
uint8_t CICU_VERSIONED(unorm2_getCombiningClass)(const void *normalizer, int32_t c);
int32_t CICU_VERSIONED(unorm2_getDecomposition)(const void *normalizer, int32_t c,
                                                uint16_t *decomposition, int32_t capacity,
                                                int32_t *error);

/// U_BUFFER_OVERFLOW_ERROR in utypes.h.
static const int32_t cicu_buffer_overflow_error = 15;

/// Which normalizer: 0 NFC, 1 NFD, 2 NFKC, 3 NFKD.
static inline const void *cicu_normalizer(int form, int32_t *error) {
  switch (form) {
  case 0: return CICU_VERSIONED(unorm2_getNFCInstance)(error);
  case 1: return CICU_VERSIONED(unorm2_getNFDInstance)(error);
  case 2: return CICU_VERSIONED(unorm2_getNFKCInstance)(error);
  default: return CICU_VERSIONED(unorm2_getNFKDInstance)(error);
  }
}

static inline int32_t cicu_normalize(const void *normalizer, const uint16_t *source,
                                     int32_t length, uint16_t *destination, int32_t capacity,
                                     int32_t *error) {
  return CICU_VERSIONED(unorm2_normalize)(normalizer, source, length, destination, capacity,
                                          error);
}

static inline int cicu_has_boundary_before(const void *normalizer, int32_t c) {
  return CICU_VERSIONED(unorm2_hasBoundaryBefore)(normalizer, c) != 0;
}

/// The canonical combining class of `c` (0 for a starter).
static inline uint8_t cicu_combining_class(const void *normalizer, int32_t c) {
  return CICU_VERSIONED(unorm2_getCombiningClass)(normalizer, c);
}

/// The full decomposition of `c` by the normalizer (NFD or NFKD: canonical
/// or compatibility) in UTF-16, its length, or a negative number when `c`
/// decomposes to itself.
static inline int32_t cicu_decomposition(const void *normalizer, int32_t c, uint16_t *destination,
                                         int32_t capacity, int32_t *error) {
  return CICU_VERSIONED(unorm2_getDecomposition)(normalizer, c, destination, capacity, error);
}

/// Whether the UTF-16 text is already in the normalizer's form.
static inline int cicu_is_normalized(const void *normalizer, const uint16_t *source,
                                     int32_t length, int32_t *error) {
  return CICU_VERSIONED(unorm2_isNormalized)(normalizer, source, length, error) != 0;
}

/// U_SUCCESS: warnings are negative, U_ZERO_ERROR is 0, errors are positive.
static inline int cicu_success(int32_t error) { return error <= 0; }

static inline int cicu_buffer_overflow(int32_t error) {
  return error == cicu_buffer_overflow_error;
}

static inline const char *cicu_error_name(int32_t error) {
  return CICU_VERSIONED(u_errorName)(error);
}

// Converters (ucnv_*), for --from-code. A converter is an opaque pointer.
void *CICU_VERSIONED(ucnv_open)(const char *name, int32_t *error);
void CICU_VERSIONED(ucnv_close)(void *converter);
void CICU_VERSIONED(ucnv_reset)(void *converter);
const char *CICU_VERSIONED(ucnv_getName)(const void *converter, int32_t *error);
void CICU_VERSIONED(ucnv_toUnicode)(void *converter, uint16_t **target,
                                    const uint16_t *targetLimit, const char **source,
                                    const char *sourceLimit, int32_t *offsets, int8_t flush,
                                    int32_t *error);
void CICU_VERSIONED(ucnv_getInvalidChars)(const void *converter, char *bytes, int8_t *length,
                                          int32_t *error);
typedef void (*cicu_to_unicode_callback)(const void *context, void *arguments,
                                         const char *units, int32_t length, int32_t reason,
                                         int32_t *error);
void CICU_VERSIONED(UCNV_TO_U_CALLBACK_STOP)(const void *context, void *arguments,
                                             const char *units, int32_t length, int32_t reason,
                                             int32_t *error);
void CICU_VERSIONED(ucnv_setToUCallBack)(void *converter, cicu_to_unicode_callback action,
                                         const void *context, cicu_to_unicode_callback *oldAction,
                                         const void **oldContext, int32_t *error);

/// Opens a converter that stops at a byte sequence the encoding does not have,
/// instead of substituting U+FFFD, so that the caller can pass it through.
static inline void *cicu_converter_open(const char *name, int32_t *error) {
  void *converter = CICU_VERSIONED(ucnv_open)(name, error);
  if (converter == 0 || *error > 0) return converter;
  CICU_VERSIONED(ucnv_setToUCallBack)(converter, CICU_VERSIONED(UCNV_TO_U_CALLBACK_STOP), 0, 0, 0,
                                      error);
  return converter;
}

static inline void cicu_converter_close(void *converter) { CICU_VERSIONED(ucnv_close)(converter); }

static inline void cicu_converter_reset(void *converter) { CICU_VERSIONED(ucnv_reset)(converter); }

static inline const char *cicu_converter_name(const void *converter, int32_t *error) {
  return CICU_VERSIONED(ucnv_getName)(converter, error);
}

/// Converts from *source to *target; both pointers advance past what was used.
static inline void cicu_to_unicode(void *converter, uint16_t **target, const uint16_t *targetLimit,
                                   const char **source, const char *sourceLimit, int flush,
                                   int32_t *error) {
  CICU_VERSIONED(ucnv_toUnicode)(converter, target, targetLimit, source, sourceLimit, 0,
                                 (int8_t)(flush != 0), error);
}

/// The bytes of the sequence that stopped the last conversion; returns their count.
static inline int cicu_invalid_bytes(const void *converter, char *bytes, int capacity) {
  int32_t error = 0;
  int8_t length = (int8_t)capacity;
  CICU_VERSIONED(ucnv_getInvalidChars)(converter, bytes, &length, &error);
  return error > 0 ? 0 : length;
}

#endif
