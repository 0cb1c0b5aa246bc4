// Expat, the XML parser that libhangul itself reads keyboard files with.
// Swift imports its API directly; the one wrapper below gives the text
// handler a name that says what it is for.
#include <expat.h>

/// Sets the handler of the text between tags.
static inline void cexpat_set_text_handler(XML_Parser parser, XML_CharacterDataHandler handler) {
  XML_SetCharacterDataHandler(parser, handler);
}
