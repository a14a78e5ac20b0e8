// Values inside the schema's hard ranges that no shipped hardware has: warned, never refused
// (topology/plausibility.hpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "test_util.hpp"
#include "topology/loader.hpp"
#include "topology/plausibility.hpp"

namespace linkcast::topology {
namespace {

using ::testing::HasSubstr;

TEST(Plausibility, EveryShippedNodeHasNoUnusualValue) {
  for (const auto& f : std::filesystem::directory_iterator(test::source_dir() + "/configs"))
    if (f.path().extension() == ".yaml") {
      EXPECT_THAT(unusual_values(load_node(f.path().string())), ::testing::IsEmpty()) << f.path();
    }
}

TEST(Plausibility, A4800GBpsSocketAndA512GiBGpuAreSaid) {
  // The two values issue 15 found loading without a word: a socket's memory given in the GPU's
  // figure, a GPU's capacity of twice any shipped part. Both load (inside the hard ranges).
  Node n = load_node(test::config("testbed-h100-1gpu.yaml"));
  n.endpoints[static_cast<std::size_t>(n.find("cpu0"))].memory.bandwidth_gbps = 4800;
  n.endpoints[static_cast<std::size_t>(n.find("gpu0"))].memory.capacity_gib = 512;
  const auto w = unusual_values(n);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_THAT(w[0], HasSubstr("cpu0 memory.bandwidth_gbps 4800 GB/s is above any socket's DDR (845 GB/s"));
  EXPECT_THAT(w[1], HasSubstr("gpu0 memory.capacity_gib 512 GiB is more than any GPU ships with (288 GB = 268 GiB"));
}

}  // namespace
}  // namespace linkcast::topology
