// The values a HangulKit user passes to its filters (keyboards, jamo, options)
// are HangulInput's: importing HangulKit imports them too.
@_exported import HangulInput
