// Large tables in 2 MiB pages. A 10-million-operation simulation touches about 1.4 GB of columns,
// tasks and timings, much of it out of order, in 4 KiB pages some 340,000 of them to fault in
// (measured: `linkcast simulate` of 10 M ops, 28.3 s in 4 KiB pages, 18.2 s in 2 MiB ones, same
// output and peak memory). Where the kernel gives transparent huge
// pages only on request (`madvise`, Debian's and Ubuntu's default), glibc's malloc asks for
// them only when GLIBC_TUNABLES says so when the program starts.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace linkcast {

/// The GLIBC_TUNABLES value to start again with, or nothing where no restart is due: `current`
/// is the environment's value (nullptr: unset), `thp_enabled` the first line of
/// /sys/kernel/mm/transparent_hugepage/enabled (the mode in brackets), `opt_out` the value of
/// LINKCAST_HUGE_PAGES (nullptr: unset; "0" turns this off). Due only where huge pages are given
/// on request and the tunable is not set yet; the user's other tunables are kept.
[[nodiscard]] std::optional<std::string> huge_page_tunables(const char* current, std::string_view thp_enabled,
                                                            const char* opt_out);

/// Starts the program again, once, with the tunables above where they are due; returns where
/// they are not, or where that is not possible (no /proc/self/exe, a sanitizer's allocator).
void restart_with_huge_pages(char** argv);

}  // namespace linkcast
