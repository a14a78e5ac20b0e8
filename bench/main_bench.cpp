// The benchmark program's entry: large tables in 2 MiB pages, as the linkcast command has them
// (core/huge_pages.hpp), so that a benchmark of reading or simulating a long trace measures what
// the command does rather than 4 KiB page faults it does not take. LINKCAST_HUGE_PAGES=0 measures
// without them.
#include <benchmark/benchmark.h>

#include "core/huge_pages.hpp"

int main(int argc, char** argv) {
  linkcast::restart_with_huge_pages(argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
