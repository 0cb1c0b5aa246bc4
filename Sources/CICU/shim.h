// The few ICU C functions HangulKit needs. ICU renames its functions with
// version macros (unorm2_normalize is really unorm2_normalize_72), which Swift
// cannot import, and U_SUCCESS is a macro; these inline wrappers give them
// plain names.
#ifndef CICU_SHIM_H
#define CICU_SHIM_H

#include <unicode/unorm2.h>
#include <unicode/utypes.h>

/// Which normalizer: 0 NFC, 1 NFD, 2 NFKC, 3 NFKD.
static inline const UNormalizer2 *cicu_normalizer(int form, UErrorCode *error) {
  switch (form) {
  case 0: return unorm2_getNFCInstance(error);
  case 1: return unorm2_getNFDInstance(error);
  case 2: return unorm2_getNFKCInstance(error);
  default: return unorm2_getNFKDInstance(error);
  }
}

static inline int32_t cicu_normalize(const UNormalizer2 *normalizer, const UChar *source,
                                     int32_t length, UChar *destination, int32_t capacity,
                                     UErrorCode *error) {
  return unorm2_normalize(normalizer, source, length, destination, capacity, error);
}

static inline UBool cicu_has_boundary_before(const UNormalizer2 *normalizer, UChar32 c) {
  return unorm2_hasBoundaryBefore(normalizer, c);
}

static inline UBool cicu_success(UErrorCode error) { return U_SUCCESS(error); }

static inline UBool cicu_buffer_overflow(UErrorCode error) {
  return error == U_BUFFER_OVERFLOW_ERROR;
}

static inline const char *cicu_error_name(UErrorCode error) { return u_errorName(error); }

#endif
