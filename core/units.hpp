// Sizes and durations as users type and read them.
//
// Sizes accept a plain byte count or a number with a unit: B, KB, MB, GB, TB (powers of 1000)
// and KiB, MiB, GiB, TiB (powers of 1024), case-insensitive for the SI letters ("4kb", "1.5GB").
//
// Sizes are printed in one convention everywhere, the CLI's tables and messages and the report:
// binary units (B, KiB, MiB, GiB, TiB, PiB), the largest one the value reaches. format_bytes is
// the rule (whole values as they are, "256 MiB", others to two decimals, "683.36 MiB");
// format_bytes_compact is the same units to three significant figures for narrow cells and
// labels ("683 MiB"). Rates stay in GB/s (10^9 bytes a second), as link and memory rates are
// published.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

namespace linkcast {

/// Parses "4096", "4KiB", "1.5 GB". Throws InputError naming `what` (e.g. "--size") on bad text.
[[nodiscard]] std::uint64_t parse_size_bytes(std::string_view text, std::string_view what = "size");

/// Binary units: "40 KiB", "256 MiB" when whole in the largest unit reached, else two decimals
/// ("13.50 MiB", "683.36 MiB"); "17 B", "1000 B".
std::string format_bytes(double bytes);
inline std::string format_bytes(std::integral auto bytes) { return format_bytes(static_cast<double>(bytes)); }
/// The same as format_bytes (the name callers used when format_bytes still printed SI units).
inline std::string format_bytes_binary(double bytes) { return format_bytes(bytes); }
inline std::string format_bytes_binary(std::integral auto bytes) { return format_bytes(static_cast<double>(bytes)); }
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
