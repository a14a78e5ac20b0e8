#include "core/huge_pages.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace linkcast {

namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb=1";

/// Whether the kernel gives transparent huge pages to memory that asks (mode "madvise").
bool huge_pages_on_request() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  std::getline(in, modes);
  return modes.find("[madvise]") != std::string::npos;
}

}  // namespace

void restart_with_huge_pages(char** argv) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  (void)argv;
  return;  // the sanitizer's allocator ignores glibc's tunables
#else
  if (const char* off = std::getenv("LINKCAST_HUGE_PAGES"); off && std::string(off) == "0") return;
  const char* current = std::getenv("GLIBC_TUNABLES");
  const std::string tunables = current ? current : "";
  if (tunables.find("glibc.malloc.hugetlb") != std::string::npos) return;  // set already (by us or the user)
  if (!huge_pages_on_request()) return;
  const std::string value = tunables.empty() ? kTunable : tunables + ":" + kTunable;
  if (::setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  // Not possible here: run on in 4 KiB pages, leaving the environment as it was.
  if (current) ::setenv("GLIBC_TUNABLES", current, 1);
  else ::unsetenv("GLIBC_TUNABLES");
#endif
}

}  // namespace linkcast
