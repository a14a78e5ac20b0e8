// Reading a CSV record a word at a time rather than a byte at a time (a branch per byte, and its
// mispredicted exit at each comma and each field's end, were most of reading a trace; issue 17):
// - where a record's commas, quotes, blanks and newline are, 64 bytes at a time, one bit per byte, so that
//   its fields and its end are found by counting bits (SSE2 where the compiler targets it, every x86-64; 8-byte
//   words elsewhere; both give the same masks);
// - a field's digits as a number, 8 at a time;
// - a short field as one word, for lookups by word compares.
// Each reads whole words past the field: kFieldPadding bytes after a field's end must be readable.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace linkcast::trace {

/// Bytes that must be readable after a field's end for the word reads below.
inline constexpr std::size_t kFieldPadding = 8;

/// Bit i set where byte i of the 64 scanned is a comma (quotes: a double quote; newlines: '\n';
/// blanks: a space or a tab).
struct CsvByteMasks {
  std::uint64_t commas = 0;
  std::uint64_t quotes = 0;
  std::uint64_t newlines = 0;
  std::uint64_t blanks = 0;
};

/// The masks of the 64 bytes at p from 8-byte words: any target.
inline CsvByteMasks csv_byte_masks_portable(const char* p) {
  constexpr std::uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fULL;
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  // 0x80 in each byte of x that is zero, exactly (no borrow between bytes).
  const auto zero_bytes = [](std::uint64_t x) { return ~(((x & kLow7) + kLow7) | x | kLow7); };
  // The 0x80 bits of the 8 bytes to 8 bits, byte i to bit i.
  const auto gather = [](std::uint64_t high_bits) {
    std::uint64_t out = 0;
    for (int i = 0; i < 8; ++i) out |= ((high_bits >> (8 * i + 7)) & 1U) << i;
    return out;
  };
  CsvByteMasks m;
  for (int w = 0; w < 8; ++w) {
    unsigned char bytes[8];
    std::memcpy(bytes, p + 8 * w, 8);
    std::uint64_t word = 0;
    for (int i = 0; i < 8; ++i) word |= std::uint64_t{bytes[i]} << (8 * i);  // byte i at bits 8i: any byte order
    m.commas |= gather(zero_bytes(word ^ (kOnes * ','))) << (8 * w);
    m.quotes |= gather(zero_bytes(word ^ (kOnes * '"'))) << (8 * w);
    m.newlines |= gather(zero_bytes(word ^ (kOnes * '\n'))) << (8 * w);
    m.blanks |= gather(zero_bytes(word ^ (kOnes * ' ')) | zero_bytes(word ^ (kOnes * '\t'))) << (8 * w);
  }
  return m;
}

/// The masks of the 64 bytes at p (all 64 must be readable).
inline CsvByteMasks csv_byte_masks(const char* p) {
#if defined(__SSE2__)
  const __m128i comma = _mm_set1_epi8(',');
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i newline = _mm_set1_epi8('\n');
  const __m128i space = _mm_set1_epi8(' ');
  const __m128i tab = _mm_set1_epi8('\t');
  CsvByteMasks m;
  for (int i = 0; i < 4; ++i) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    m.commas |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, comma)))} << (16 * i);
    m.quotes |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)))} << (16 * i);
    m.newlines |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, newline)))} << (16 * i);
    const __m128i blank = _mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, tab));
    m.blanks |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(blank))} << (16 * i);
  }
  return m;
#else
  return csv_byte_masks_portable(p);
#endif
}

/// The 8 bytes at p as a word, bytes past the first `size` (at most 8) cleared: equal words, equal
/// texts of the same size.
[[gnu::always_inline]] inline std::uint64_t csv_short_word(const char* p, std::size_t size) {
  std::uint64_t w = 0;
  std::memcpy(&w, p, 8);
  if (size >= 8) return w;
  if constexpr (std::endian::native == std::endian::little) return w & ((std::uint64_t{1} << (8 * size)) - 1);
  else return w & ~((std::uint64_t{1} << (8 * (8 - size))) - 1);
}

namespace detail {

/// The 8 bytes at p, byte i at bits 8i (the first byte lowest) whatever the machine's byte order.
inline std::uint64_t load_first_low(const char* p) {
  std::uint64_t w = 0;
  std::memcpy(&w, p, 8);
  if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
  return w;
}

/// The value of the n (1-8) decimal digits at p; nothing where one of them is not a digit.
[[gnu::always_inline]] inline std::optional<std::uint64_t> eight_digits(const char* p, std::size_t n) {
  constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
  const std::uint64_t inside = ~std::uint64_t{0} >> (64 - 8 * n);
  const std::uint64_t x = (load_first_low(p) ^ 0x3030303030303030ULL) & inside;  // '0'-'9' -> 0-9
  // A byte is a digit when it is at most 9: neither it nor it + 0x76 reaches 0x80 (a byte at or
  // above 0x8a carries into the next, but is refused by its own high bit).
  if (((x | (x + 0x7676767676767676ULL)) & kHigh & inside) != 0) return std::nullopt;
  std::uint64_t v = x << (8 * (8 - n));  // the digits to the high bytes: leading zeros below
  v = ((v * 10) + (v >> 8)) & 0x00FF00FF00FF00FFULL;              // pairs
  v = ((v * 100) + (v >> 16)) & 0x0000FFFF0000FFFFULL;            // fours
  return ((v * 10000) + (v >> 32)) & 0xFFFFFFFFULL;               // eight
}

}  // namespace detail

/// The value of a field of n plain decimal digits (1 to 16) at p; nothing for anything else
/// (another length, a sign, a space, a decimal point: the caller's general path decides).
[[gnu::always_inline]] inline std::optional<std::uint64_t> csv_digits(const char* p, std::size_t n) {
  if (n == 0 || n > 16) return std::nullopt;
  if (n <= 8) return detail::eight_digits(p, n);
  const auto high = detail::eight_digits(p, n - 8);
  const auto low = detail::eight_digits(p + n - 8, 8);
  if (!high || !low) return std::nullopt;
  return *high * 100000000ULL + *low;
}

}  // namespace linkcast::trace
