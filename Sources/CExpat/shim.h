// Expat, the XML parser that libhangul itself reads keyboard files with.
// Swift imports its API directly; nothing needs wrapping.
#include <expat.h>
