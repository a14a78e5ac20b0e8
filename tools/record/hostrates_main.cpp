// hostrates: host memory rates for the host-side share of CPU<->GPU copies (no GPU needed):
// single-thread memcpy from DRAM and from cache-warm buffers, memcpy into freshly mapped memory
// (page faults during the copy), and the page faults alone. See hostprobe/host_rates.hpp.
//
// usage: hostrates [--quick] [--info PATH] > hostrates.csv
//   stdout   measure,bytes,reps,median_gbps,min_gbps,max_gbps (GB/s = 1e9 B/s)
//   --info   key,value CSV: page size, last-level cache, transparent huge pages, headline rates
//   --quick  about 1-2 s instead of about 5-15 s (fewer reps, first touch up to 64 MiB)
// A one-line summary goes to stderr.
//
// Build: g++ -O2 -std=c++20 -I<repo root> tools/record/hostrates_main.cpp hostprobe/host_rates.cpp
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>

#include "hostprobe/host_rates.hpp"

int main(int argc, char** argv) {
  namespace hp = linkcast::hostprobe;
  bool quick = false;
  std::string info_path;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quick") {
      quick = true;
    } else if (arg == "--info" && i + 1 < argc) {
      info_path = argv[++i];
    } else {
      std::fprintf(stderr, "usage: hostrates [--quick] [--info PATH] > hostrates.csv\n");
      return 2;
    }
  }
  try {
    const hp::ProbeOptions options = quick ? hp::ProbeOptions::quick() : hp::ProbeOptions::thorough();
    const hp::HostRates rates = hp::measure_host_rates(options);
    hp::write_host_rates_csv(std::cout, rates);
    std::cout.flush();
    if (!info_path.empty()) {
      std::ofstream info(info_path);
      hp::write_host_info_csv(info, rates);
      if (!info) throw std::runtime_error("cannot write " + info_path);
    }
    std::fprintf(stderr,
                 "hostrates: dram copy %.2f GB/s (%zu B), warm copy best %.2f GB/s, first touch "
                 "%.2f GB/s, fault only %.2f GB/s (%.0f ns per %zu-B page), LLC %zu B, THP %s\n",
                 rates.dram_copy_gbps, rates.dram_copy.bytes, rates.warm_copy_best_gbps,
                 rates.first_touch_gbps, rates.fault_only_gbps, rates.fault_ns_per_page,
                 rates.page_size_bytes, rates.llc_bytes,
                 rates.thp_mode.empty() ? "unknown" : rates.thp_mode.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hostrates: %s\n", e.what());
    return 1;
  }
}
