#include "core/units.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <utility>

#include "core/error.hpp"
#include "core/strings.hpp"

namespace linkcast {

namespace {

struct Unit {
  std::string_view name;
  double factor;
};

constexpr std::array<Unit, 9> kUnits = {{{"b", 1.0},
                                         {"kb", 1e3},
                                         {"mb", 1e6},
                                         {"gb", 1e9},
                                         {"tb", 1e12},
                                         {"kib", 1024.0},
                                         {"mib", 1024.0 * 1024.0},
                                         {"gib", 1024.0 * 1024.0 * 1024.0},
                                         {"tib", 1024.0 * 1024.0 * 1024.0 * 1024.0}}};

}  // namespace

std::uint64_t parse_size_bytes(std::string_view text, std::string_view what) {
  const std::string_view t = trim(text);
  std::size_t i = 0;
  while (i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '.')) ++i;
  const std::string_view number = t.substr(0, i);
  std::string unit = to_lower(trim(t.substr(i)));
  if (number.empty()) {
    throw InputError(fmt::format(
        "{}: '{}' is not a size; write a byte count or a number with a unit "
        "(B, KB, MB, GB, KiB, MiB, GiB), e.g. 4096, 64KiB, 1.5GB",
        what, text));
  }
  double value = 0;
  const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec != std::errc() || ptr != number.data() + number.size()) {
    throw InputError(fmt::format("{}: '{}' is not a number", what, text));
  }
  double factor = 1.0;
  if (!unit.empty()) {
    bool found = false;
    for (const Unit& u : kUnits) {
      if (unit == u.name) {
        factor = u.factor;
        found = true;
        break;
      }
    }
    if (!found) {
      throw InputError(fmt::format(
          "{}: unknown unit '{}' in '{}'; use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB", what,
          trim(t.substr(i)), text));
    }
  }
  const double bytes = value * factor;
  if (bytes > 9.0e18) {
    throw InputError(fmt::format("{}: '{}' is too large", what, text));
  }
  const double rounded = std::round(bytes);
  if (std::fabs(rounded - bytes) > 1e-6 * std::max(1.0, bytes)) {
    throw InputError(fmt::format("{}: '{}' is not a whole number of bytes", what, text));
  }
  return static_cast<std::uint64_t>(rounded);
}

namespace {

constexpr std::array<std::string_view, 6> kBinaryUnits = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

/// `bytes` in the largest binary unit it reaches, up to kBinaryUnits[max_unit]: the value in that
/// unit and the unit's index.
std::pair<double, std::size_t> in_binary_units(double bytes, std::size_t max_unit) {
  std::size_t u = 0;
  double scale = 1;
  while (u < max_unit && std::fabs(bytes) >= scale * 1024) {
    scale *= 1024;
    ++u;
  }
  return {bytes / scale, u};
}

}  // namespace

std::string format_bytes(double bytes) {
  const auto [v, u] = in_binary_units(bytes, kBinaryUnits.size() - 1);
  if (v == std::floor(v)) return fmt::format("{:.0f} {}", v, kBinaryUnits[u]);
  return fmt::format("{:.2f} {}", v, kBinaryUnits[u]);
}

std::string format_bytes_compact(double bytes) {
  constexpr std::size_t kTiB = 4;
  const auto [v, u] = in_binary_units(bytes, kTiB);
  return u == 0 ? fmt::format("{:.0f} B", v) : fmt::format("{:.3g} {}", v, kBinaryUnits[u]);
}

std::string format_count(std::uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string format_duration_ns(double ns) {
  const double a = std::fabs(ns);
  if (a < 1e3) return fmt::format("{:.0f} ns", ns);
  if (a < 1e6) return fmt::format("{:.3g} us", ns / 1e3);
  if (a < 1e9) return fmt::format("{:.3g} ms", ns / 1e6);
  return fmt::format("{:.4g} s", ns / 1e9);
}

std::string format_signed_pct(double pct, int decimals) {
  const std::string plain = fmt::format("{:.{}f}", std::fabs(pct), decimals);
  const bool zero = plain.find_first_not_of("0.") == std::string::npos;  // rounds to zero
  return (pct < 0 && !zero ? "-" : "+") + plain + "%";
}

std::string format_change_pct(double now, double before, int decimals) {
  return before > 0 ? format_signed_pct(100.0 * (now - before) / before, decimals) : "-";
}

std::string format_share_ns(double ns, double total) {
  return total > 0 ? fmt::format("{} ({:.0f}%)", format_duration_ns(ns), 100.0 * ns / total) : format_duration_ns(ns);
}

std::uint64_t parse_uint(std::string_view text, std::string_view what) {
  const std::string_view t = trim(text);
  std::uint64_t value = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (t.empty() || ec != std::errc() || ptr != t.data() + t.size()) {
    throw InputError(
        fmt::format("{}: '{}' is not a non-negative whole number", what, text));
  }
  return value;
}

double parse_double(std::string_view text, std::string_view what) {
  const std::string_view t = trim(text);
  double value = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (t.empty() || ec != std::errc() || ptr != t.data() + t.size() || !std::isfinite(value)) {
    throw InputError(fmt::format("{}: '{}' is not a number", what, text));
  }
  return value;
}

}  // namespace linkcast
