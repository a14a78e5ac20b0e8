#include "trace/kineto_shapes.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <boost/container/small_vector.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <utility>

namespace linkcast::trace {

namespace {

/// A cursor over JSON text that reads only what operator_inputs needs: numbers, strings without
/// escapes, and lists of them, nested up to three levels.
class Scan {
 public:
  explicit Scan(std::string_view text, std::size_t at) : s_(text), i_(at) {}
  std::size_t at() const { return i_; }

  void blanks() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
  }
  bool take(char c) {
    blanks();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool peek(char c) {
    blanks();
    return i_ < s_.size() && s_[i_] == c;
  }
  /// A non-negative number (integers as the profiler writes sizes and ids; else a decimal).
  std::optional<double> number() {
    blanks();
    // Sizes and ids are integers of a few digits: read here; anything else by from_chars.
    std::uint64_t whole = 0;
    std::size_t j = i_;
    while (j < s_.size() && j - i_ < 19 && static_cast<unsigned char>(s_[j] - '0') < 10)
      whole = whole * 10 + static_cast<std::uint64_t>(s_[j++] - '0');
    if (j > i_ && (j == s_.size() || !is_number_part(s_[j]))) {
      i_ = j;
      return static_cast<double>(whole);
    }
    double v = 0;
    const auto [end, ec] = std::from_chars(s_.data() + i_, s_.data() + s_.size(), v);
    if (ec != std::errc() || !std::isfinite(v) || v < 0) return std::nullopt;
    i_ = static_cast<std::size_t>(end - s_.data());
    return v;
  }
  /// A string's text; nothing for a string with escapes (no type name has one) or no string.
  std::optional<std::string_view> string() {
    if (!take('"')) return std::nullopt;
    const std::size_t begin = i_;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (s_[i_] == '\\') return std::nullopt;
      ++i_;
    }
    if (i_ >= s_.size()) return std::nullopt;
    return s_.substr(begin, i_++ - begin);
  }
  /// Passes over one value: a number, a string or a list of them nested up to `depth` levels.
  bool skip(int depth = 3) {
    blanks();
    if (i_ >= s_.size()) return false;
    if (s_[i_] == '"') return string().has_value();
    if (s_[i_] != '[') return number().has_value() || word();
    if (depth == 0) return false;
    ++i_;
    bool first = true;
    while (!take(']')) {
      if (!first && !take(',')) return false;
      first = false;
      if (!skip(depth - 1)) return false;
    }
    return true;
  }
  /// Whether `c` can go on a number whose digits end before it (a 20th digit, a fraction, an exponent).
  static bool is_number_part(char c) { return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E'; }
  /// true, false, null or a negative number: letters, digits, '-', '.', '+'.
  bool word() {
    const std::size_t begin = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '-' || s_[i_] == '.' || s_[i_] == '+'))
      ++i_;
    return i_ > begin;
  }
  /// The elements of a list of size lists ([[4096, 4096], [4096]]: a TensorList's), summed;
  /// nothing where it is no such list.
  std::optional<double> lists_of_sizes() {
    if (!take('[')) return std::nullopt;
    double n = 0;
    for (bool first = true; !take(']'); first = false) {
      if (!first && !take(',')) return std::nullopt;
      const auto one = sizes();
      if (!one) return std::nullopt;
      n += *one;
    }
    return n;
  }
  /// The elements of a list of sizes ([256, 512, 10, 10]); nothing where it is no such list.
  /// An empty list (a scalar's) counts no elements.
  std::optional<double> sizes() {
    if (!take('[')) return std::nullopt;
    double n = 1;
    bool any = false;
    while (!take(']')) {
      if (any && !take(',')) return std::nullopt;
      const auto v = number();
      if (!v) return std::nullopt;
      n *= *v;
      any = true;
    }
    return any && std::isfinite(n) ? n : 0.0;
  }

 private:
  std::string_view s_;
  std::size_t i_;
};

/// Where `needle` (at least 3 bytes, a quoted key) first occurs in `text` at or after `from`;
/// npos if nowhere. With SSE2 (every x86-64), 16 positions at a time: where both its second and
/// its last-but-one byte are (Mula's "SIMD-friendly" substring search; the key's letters, not its
/// quotes), then a compare; a plain find() stops at every '"', and operator events are mostly quotes.
std::size_t find_from(std::string_view text, std::string_view needle, std::size_t from) {
  const std::size_t m = needle.size();
  if (m < 3) return text.find(needle, from);
  if (from > text.size() || text.size() - from < m) return std::string_view::npos;
  std::size_t i = from;
#if defined(__SSE2__)
  const __m128i second = _mm_set1_epi8(needle[1]);
  const __m128i last = _mm_set1_epi8(needle[m - 2]);
  for (; i + m - 1 + 16 <= text.size(); i += 16) {
    const __m128i at_second = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i + 1));
    const __m128i at_last = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i + m - 2));
    auto mask = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(at_second, second), _mm_cmpeq_epi8(at_last, last))));
    while (mask != 0) {
      const std::size_t at = i + static_cast<std::size_t>(std::countr_zero(mask));
      if (text.compare(at, m, needle) == 0) return at;
      mask &= mask - 1;
    }
  }
#endif
  return text.find(needle, i);
}

/// The args operator_inputs reads, each as `"name"`.
constexpr std::string_view kExternalId = "\"External id\"", kInputType = "\"Input type\"", kInputDims = "\"Input Dims\"";

/// Where the value of `key` starts in `event` (after it, at its ':'); npos if absent. PyTorch writes
/// the args in one order (External id first, Input Dims last): the key is looked for from `from`
/// on (the key before it), then, where another writer orders them otherwise, before it (so that an
/// operator without the key, most autograd wrappers, is searched once, not twice).
std::size_t value_of(std::string_view event, std::string_view key, std::size_t from) {
  std::size_t at = find_from(event, key, from);
  if (at == std::string_view::npos && from > 0)
    at = find_from(event.substr(0, std::min(event.size(), from + key.size() - 1)), key, 0);
  if (at == std::string_view::npos) return at;
  Scan colon(event, at + key.size());
  return colon.take(':') ? at + key.size() : std::string_view::npos;
}

}  // namespace

double element_bytes(std::string_view type) {
  static constexpr std::array<std::pair<std::string_view, double>, 16> kSizes = {{
      {"float", 4},
      {"double", 8},
      {"c10::Half", 2},
      {"c10::BFloat16", 2},
      {"long int", 8},
      {"int", 4},
      {"short int", 2},
      {"signed char", 1},
      {"unsigned char", 1},
      {"bool", 1},
      {"c10::complex<float>", 8},
      {"c10::complex<double>", 16},
      {"c10::Float8_e4m3fn", 1},
      {"c10::Float8_e5m2", 1},
      {"c10::Float8_e4m3fnuz", 1},
      {"c10::Float8_e5m2fnuz", 1},
  }};
  for (const auto& [name, size] : kSizes)
    if (type == name) return size;
  return 0;
}

std::optional<OperatorInputs> operator_inputs(std::string_view event) {
  // In PyTorch's order: each key looked for after what was read before it (value_of then looks
  // before it), so that an event is searched about once.
  const std::size_t id_at = value_of(event, kExternalId, 0);
  if (id_at == std::string_view::npos) return std::nullopt;
  const std::size_t types_at = value_of(event, kInputType, id_at);
  if (types_at == std::string_view::npos) return std::nullopt;
  Scan id(event, id_at);
  id.take(':');
  const auto external = id.number();
  if (!external || *external > 1.8e19) return std::nullopt;

  // The types, in order; a list of more than a few thousand arguments is no operator's.
  constexpr std::size_t kMaxArguments = 4096;
  // Per argument: its element's bytes, 0 none, -1 a TensorList. Kept where the event is read, not
  // on the heap: operators have a few arguments, and millions of them are read.
  boost::container::small_vector<float, 24> sizes_of;
  Scan types(event, types_at);
  types.take(':');
  if (!types.take('[')) return std::nullopt;
  double list_element = 0;
  while (!types.take(']') && sizes_of.size() < kMaxArguments) {
    if (!sizes_of.empty() && !types.take(',')) break;
    const auto t = types.string();
    if (!t) break;
    const double size = element_bytes(*t);
    if (size > 0 && list_element == 0) list_element = size;
    sizes_of.push_back(*t == "TensorList" ? -1.0F : static_cast<float>(size));
  }
  if (list_element == 0) list_element = 4;

  const std::size_t dims_at = value_of(event, kInputDims, types.at());
  if (dims_at == std::string_view::npos) return std::nullopt;
  Scan dims(event, dims_at);
  dims.take(':');
  if (!dims.take('[')) return std::nullopt;
  double total = 0;
  for (std::size_t k = 0; k < sizes_of.size() && !dims.peek(']'); ++k) {
    if (k > 0 && !dims.take(',')) break;
    if (sizes_of[k] < 0) {  // a TensorList: a list of size lists
      const auto n = dims.lists_of_sizes();
      if (!n) break;
      total += *n * list_element;
    } else if (sizes_of[k] > 0) {
      const auto n = dims.sizes();
      if (!n) break;  // a nested list where a tensor was expected: stop counting
      total += *n * sizes_of[k];
    } else if (!dims.skip()) {  // no tensor of a known type: its dims count nothing
      break;
    }
  }
  if (!(total > 0) || !std::isfinite(total)) return std::nullopt;
  return OperatorInputs{static_cast<std::uint64_t>(*external), total};
}

}  // namespace linkcast::trace
