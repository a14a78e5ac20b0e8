// Sizes and durations as users type and read them.
//
// Sizes accept a plain byte count or a number with a unit: B, KB, MB, GB, TB (powers of 1000)
// and KiB, MiB, GiB, TiB (powers of 1024), case-insensitive for the SI letters ("4kb", "1.5GB").
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

namespace linkcast {

/// Parses "4096", "4KiB", "1.5 GB". Throws InputError naming `what` (e.g. "--size") on bad text.
[[nodiscard]] std::uint64_t parse_size_bytes(std::string_view text, std::string_view what = "size");

/// "256 MiB" when the value is an exact binary multiple, else "1.50 GB", "17 B".
std::string format_bytes(std::uint64_t bytes);
std::string format_bytes(double bytes);
/// Always binary units: "40 KiB" when whole, else two decimals ("13.50 MiB"); for tables that
/// compare values in one unit family.
std::string format_bytes_binary(double bytes);
inline std::string format_bytes_binary(std::integral auto bytes) {
  return format_bytes_binary(static_cast<double>(bytes));
}
/// Binary units to three significant figures, for small cells and labels: "40 KiB", "683 MiB",
/// "1.33 GiB", "17 B".
std::string format_bytes_compact(double bytes);

/// A count with thousands separated: "1,234,567".
std::string format_count(std::uint64_t n);

/// "1.79 us", "5.71 ms", "1.234 s": three significant figures and a unit.
std::string format_duration_ns(double ns);
/// A signed percentage with `decimals` decimals, "+1.2%", "-3.0%"; one that rounds to zero is
/// "+0.0%" (never "-0.0%").
std::string format_signed_pct(double pct, int decimals);
/// Signed change of `now` against `before` in percent (format_signed_pct); "-" when `before` is
/// not positive.
std::string format_change_pct(double now, double before, int decimals);
/// A duration with its share of `total`, "12.3 ms (45%)"; the duration alone when `total` is not
/// positive.
std::string format_share_ns(double ns, double total);

/// Parses a non-negative integer or throws InputError naming `what`.
[[nodiscard]] std::uint64_t parse_uint(std::string_view text, std::string_view what);
/// Parses a finite floating-point number or throws InputError naming `what`.
[[nodiscard]] double parse_double(std::string_view text, std::string_view what);

}  // namespace linkcast
