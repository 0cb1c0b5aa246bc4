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

#endif
