// hostcopy: single-thread host memcpy rate, the rate at which the CUDA driver's CPU thread stages
// pageable memory through its pinned buffers (linkcast's cpu memory.copy_bandwidth_gbps).
//
// Copies BYTES between two freshly touched buffers with memcpy, REPS times, on the calling
// thread, and prints CSV: bytes,rep,ns,gbps (GB/s = 1e9 bytes copied per second; read + write
// traffic is twice that). Build: g++ -O2 -o hostcopy hostcopy.cpp
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  const std::size_t max_bytes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (std::size_t{1} << 30);
  const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  std::vector<char> src(max_bytes), dst(max_bytes);
  std::memset(src.data(), 1, max_bytes);  // touch every page before timing
  std::memset(dst.data(), 2, max_bytes);
  std::printf("bytes,rep,ns,gbps\n");
  for (std::size_t bytes = std::size_t{1} << 20; bytes <= max_bytes; bytes *= 4) {
    for (int r = 0; r < reps; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      std::memcpy(dst.data(), src.data(), bytes);
      const auto t1 = std::chrono::steady_clock::now();
      const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
      std::printf("%zu,%d,%.0f,%.3f\n", bytes, r, ns, static_cast<double>(bytes) / ns);
      if (dst[bytes - 1] != 1) return 1;  // keeps the copy observable
    }
  }
  return 0;
}
