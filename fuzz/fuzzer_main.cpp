// One libFuzzer program per target (fuzz/CMakeLists.txt compiles this file with
// LINKCAST_FUZZ_TARGET set to the target's name). An exception other than InputError escapes and
// aborts: libFuzzer reports it as a crash, like a sanitizer report.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  linkcast::fuzz::run(LINKCAST_FUZZ_TARGET, std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
