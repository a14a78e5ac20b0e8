// Shared by the CUDA recording programs (copybench.cu, concurrency.cu): CUDA error checks that
// name the program's file and line, and comma-separated option lists.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace record {

// Throws "FILE:LINE: CALL: CUDA's error text" when a CUDA call fails.
inline void check(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess) {
    std::string name = file;
    name = name.substr(name.find_last_of('/') + 1);
    throw std::runtime_error(name + ":" + std::to_string(line) + ": " + what + ": " + cudaGetErrorString(e));
  }
}

// "a,b,,c" -> {"a", "b", "c"}: the values of a comma-separated option, empty ones dropped.
inline std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> parts;
  size_t begin = 0;
  while (begin <= s.size()) {
    const size_t end = std::min(s.find(',', begin), s.size());
    if (end > begin) parts.push_back(s.substr(begin, end - begin));
    begin = end + 1;
  }
  return parts;
}

}  // namespace record

#define CUDA_CHECK(call) record::check((call), #call, __FILE__, __LINE__)
