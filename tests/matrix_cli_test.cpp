// `linkcast matrix` end to end: the printed output, exit codes, all-or-nothing output files,
// and a synthetic trace saved as CSV giving the same matrices when read back.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "synthetic/catalog.hpp"
#include "test_util.hpp"

namespace linkcast {
namespace {

using test::run_linkcast;
using ::testing::HasSubstr;

TEST(MatrixCli, PrintsTheStencilMatrixOfTheIssue) {
  // 8 GPUs, 1024 x 1024 x 4 B, 10 iterations, periodic: neighbours and the 0 <-> 7 wrap, each
  // 10 x 1024 x 4 = 40960 B per direction; the host row and column are empty.
  const auto r = run_linkcast("matrix --workload stencil2d:nx=1024,ny=1024,elem=4,iters=10,periodic=1 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["endpoints"], nlohmann::json({"host", "gpu0", "gpu1", "gpu2", "gpu3", "gpu4", "gpu5", "gpu6", "gpu7"}));
  for (int i = 1; i <= 8; ++i)
    for (int k = 1; k <= 8; ++k) {
      const int a = i - 1, b = k - 1;
      const bool nb = b == (a + 1) % 8 || a == (b + 1) % 8;
      EXPECT_EQ(j["bytes"][i][k].get<std::uint64_t>(), nb ? 40960u : 0u) << a << "->" << b;
      EXPECT_EQ(j["count"][i][k].get<std::uint64_t>(), nb ? 320u : 0u) << a << "->" << b;
    }
  EXPECT_EQ(j["types"]["peer-access"]["total_bytes"].get<std::uint64_t>(), 655360u);
  for (const auto& c : j["checks"]) EXPECT_TRUE(c["ok"].get<bool>()) << c.dump();
}

TEST(MatrixCli, TableShowsTheChainOfTreeAllreduce) {
  const auto r = run_linkcast("matrix --workload nccl-allreduce:bytes=64MiB,algo=tree,gpus=0-3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("collectives decomposed as NCCL tree with 2 channels"));
  // gpu0 sends 64 MiB to gpu1 only; gpu1 64 MiB each way.
  EXPECT_THAT(r.out, HasSubstr("gpu0         0       0   64 MiB        0       0   64 MiB\n"));
  EXPECT_THAT(r.out, HasSubstr("gpu1         0  64 MiB        0   64 MiB       0  128 MiB\n"));
}

TEST(MatrixCli, SavedSyntheticTraceReadsBackToTheSameMatrices) {
  // The synthetic trace is an ordinary trace: saved as CSV and read back (with the algorithm
  // given again, as traces carry none), it gives the same JSON matrices.
  const std::string saved = ::testing::TempDir() + "matrix_cli_saved.csv";
  std::filesystem::remove(saved);
  const std::string spec = "data-parallel:params=4MiB,batch=1MiB,steps=2,gpus=0-3";
  const auto a = run_linkcast("matrix --workload " + spec + " --format json --save-trace " + saved);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  const auto b = run_linkcast("matrix " + saved + " --algo tree --format json");
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  EXPECT_EQ(ja["bytes"], jb["bytes"]);
  EXPECT_EQ(ja["count"], jb["count"]);
  EXPECT_EQ(ja["types"], jb["types"]);
  EXPECT_EQ(ja["communicators"], jb["communicators"]);
  std::filesystem::remove(saved);
}

TEST(MatrixCli, ATraceAndAWorkloadTogetherAreRefusedByTheParser) {
  // CLI11 enforces "exactly one of TRACE or --workload": both given fails before the trace is read.
  const auto r = run_linkcast("matrix no-such-trace.csv --workload stencil2d");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "linkcast: error: matrix: give a trace file or --workload SPEC (one of them), e.g. `linkcast matrix "
            "--workload stencil2d:periodic=1`\n");
}

TEST(MatrixCli, BadInputExitsTwoAndWritesNothing) {
  const std::string out = ::testing::TempDir() + "matrix_cli_out.json";
  std::filesystem::remove(out);
  auto r = run_linkcast("matrix --workload stencil2d:iter=3 -o " + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "linkcast: error: workload 'stencil2d': unknown key 'iter' (did you mean 'iters'?); its keys are nx, ny, "
            "iters, elem, periodic, mode, gpus, sample, sample-seed\n");
  EXPECT_FALSE(std::filesystem::exists(out));
  r = run_linkcast("matrix");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "linkcast: error: matrix: give a trace file or --workload SPEC (one of them), e.g. `linkcast matrix "
            "--workload stencil2d:periodic=1`\n");
  r = run_linkcast("matrix --workload nccl-allreduce --by colour");
  EXPECT_EQ(r.exit_code, 2);
  r = run_linkcast("matrix --workload nccl-alltoall:algo=tree");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "linkcast: error: workload 'nccl-alltoall': alltoall: NCCL runs alltoall as point-to-point sends to every "
            "peer, neither ring nor tree; leave algo out or use algo=ring\n");
}

TEST(MatrixCli, WorkloadHelpListsTheWorkloads) {
  const auto r = run_linkcast("matrix --workload help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, synthetic::workload_help());  // the catalogue's own text, whole
  for (const char* w : {"stencil2d", "bfs-ring", "nccl-allreduce", "nccl-alltoall", "scatter-gather", "data-parallel",
                        "model-parallel"})
    EXPECT_THAT(r.out, HasSubstr(w)) << w;
}

TEST(MatrixCli, CommViewOnANodeUsesItsGpus) {
  // DGX A100: 8 GPUs, 12 NVLinks each to the NVSwitch: 24 channels by default.
  const auto r = run_linkcast("matrix --workload nccl-allgather:bytes=8MiB --node " + test::config("dgx-a100.yaml") +
                              " --by comm --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 8 MiB allgather on 8 GPUs: bound p x (bytes/p) = 8 MiB; moved (p-1) x 8 MiB = 56 MiB.
  EXPECT_EQ(r.out,
            "communicator,size,members,op,calls,bytes,lower_bound_bytes,inter_rank_lower_bound_bytes,moved_bytes,"
            "complete\n"
            "W,8,gpu0;gpu1;gpu2;gpu3;gpu4;gpu5;gpu6;gpu7,allgather,1,8388608,8388608,8388608,58720256,1\n");
}

}  // namespace
}  // namespace linkcast
