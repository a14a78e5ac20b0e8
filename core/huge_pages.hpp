// Large tables in 2 MiB pages. A 10-million-operation simulation touches about 1.4 GB of columns,
// tasks and timings, much of it out of order: in 4 KiB pages that is 350,000 page faults and a
// TLB miss on most accesses (measured: `linkcast simulate` of 10 M ops, 28.3 s in 4 KiB pages,
// 18.2 s in 2 MiB ones, same output and peak memory). Where the kernel gives transparent huge
// pages only on request (`madvise`, Debian's and Ubuntu's default), glibc's malloc asks for
// them only when GLIBC_TUNABLES says so when the program starts.
#pragma once

namespace linkcast {

/// Starts the program again, once, with glibc.malloc.hugetlb=1 added to GLIBC_TUNABLES, where
/// transparent huge pages are given on request and the tunable is not set yet; returns where
/// that is not needed or not possible (no /proc/self/exe, a sanitizer's allocator, or
/// LINKCAST_HUGE_PAGES=0 in the environment).
void restart_with_huge_pages(char** argv);

}  // namespace linkcast
