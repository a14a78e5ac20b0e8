#include "core/huge_pages.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "core/sanitizers.hpp"

namespace linkcast {

namespace {

constexpr std::string_view kTunable = "glibc.malloc.hugetlb=1";

}  // namespace

std::optional<std::string> huge_page_tunables(const char* current, std::string_view thp_enabled, const char* opt_out) {
  if (opt_out && std::string_view(opt_out) == "0") return std::nullopt;
  if (thp_enabled.find("[madvise]") == std::string_view::npos) return std::nullopt;  // always, never, or no THP
  const std::string tunables = current ? current : "";
  if (tunables.find("glibc.malloc.hugetlb") != std::string::npos) return std::nullopt;  // set (by us or the user)
  return tunables.empty() ? std::string(kTunable) : tunables + ":" + std::string(kTunable);
}

void restart_with_huge_pages(char** argv) {
  if constexpr (kAddressSanitizer || kThreadSanitizer) return;  // the sanitizer's allocator ignores glibc's tunables
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  std::getline(in, modes);
  const char* current = std::getenv("GLIBC_TUNABLES");
  const std::string before = current ? current : "";
  const auto value = huge_page_tunables(current, modes, std::getenv("LINKCAST_HUGE_PAGES"));
  if (!value || ::setenv("GLIBC_TUNABLES", value->c_str(), 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  // Not possible here: run on in 4 KiB pages, with the environment as it was.
  if (current) ::setenv("GLIBC_TUNABLES", before.c_str(), 1);
  else ::unsetenv("GLIBC_TUNABLES");
}

}  // namespace linkcast
