// The synthetic GPU backend (synthetic/backend.hpp): allocations and attribution, peer access,
// copies, device-initiated accesses, unified memory, sampling, communicators. Each test states
// the program it runs and the trace it must produce; byte counts are exact.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <functional>
#include <tuple>

#include "core/error.hpp"
#include "test_util.hpp"
#include "synthetic/backend.hpp"

namespace linkcast::synthetic {
namespace {

using trace::Trace;
using trace::OpKind;
using trace::Op;

using Kind = Backend::CopyKind;
using model::MemKind;

BackendOptions gpus(int n) {
  BackendOptions o;
  o.gpu_count = n;
  return o;
}

struct Row {
  OpKind kind;
  std::string src, dst;
  std::uint64_t bytes;
};

std::vector<Row> rows(const Trace& t) {
  std::vector<Row> out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const Op op = t.op(i);
    out.push_back({op.kind, t.endpoint_name(op.src), t.endpoint_name(op.dst), op.bytes});
  }
  return out;
}

TEST(Backend, AllocationsAreDisjointAndStayAttributableAfterFree) {
  // Two GPUs, one buffer each with the same call site: same data object, different devices.
  Backend b(gpus(2));
  const Address x = b.malloc_device(0, 1000, "x", "app.cu:10");
  const Address y = b.malloc_device(1, 1000, "x", "app.cu:10");
  const auto& ax = b.lookup(x + 999, 1, "test");
  EXPECT_EQ(ax.base, x);
  EXPECT_EQ(ax.device, 0);
  EXPECT_GE(y, x + 1000);  // disjoint
  EXPECT_EQ(b.lookup(y, 1000, "test").device, 1);
  EXPECT_EQ(b.lookup(y, 1, "test").object, ax.object);
  b.free(x);
  // After the free the range still names its device and object (Snoopie, sec. 4.2).
  EXPECT_EQ(b.lookup(x + 10, 4, "test").device, 0);
  EXPECT_TRUE(b.lookup(x + 10, 4, "test").freed);
  EXPECT_EQ(test::error_of([&] { b.lookup(x + 1000, 4, "kernel k"); }),
            fmt::format("kernel k: address {:#x} is not in any allocation (an illegal address)", x + 1000));
  EXPECT_EQ(test::error_of([&] { b.lookup(x + 996, 8, "kernel k"); }),
            "kernel k: 8 bytes at offset 996 run past the end of 'x (app.cu:10)' (device memory on gpu0) (1000 bytes)");
  EXPECT_EQ(test::error_of([&] { b.free(x); }), "free: 'x (app.cu:10)' (device memory on gpu0) was already freed");
}

TEST(Backend, CudaMallocFailsPastTheGpusMemoryAndFreeGivesItBack) {
  // One GPU of 80 GiB (as an H100's memory.capacity_gib says): 60 GiB fits; 30 GiB more does
  // not, as cudaMalloc returns cudaErrorMemoryAllocation; after the free 60 GiB fits again.
  // Host and managed memory are not the GPU's.
  constexpr std::uint64_t GiB = std::uint64_t{1} << 30;
  BackendOptions o = gpus(1);
  o.gpu_memory_bytes = {80 * GiB};
  o.gpu_memory_source = "memory.capacity_gib of node 'n', n.yaml";
  Backend b(o);
  const Address x = b.malloc_device(0, 60 * GiB, "x", "app.cu:1");
  EXPECT_EQ(test::error_of([&] { b.malloc_device(0, 30 * GiB, "y", "app.cu:2"); }),
            "cudaMalloc of 30 GiB at app.cu:2 on gpu0: out of memory (cudaErrorMemoryAllocation): the GPU holds 80 GiB "
            "(memory.capacity_gib of node 'n', n.yaml) and 60 GiB is allocated; lower the workload's sizes");
  (void)b.malloc_host(500 * GiB, MemKind::pageable, "h", "app.cu:3");
  b.free(x);
  EXPECT_NO_THROW(b.malloc_device(0, 60 * GiB, "x", "app.cu:1"));
  // No node: a GPU holds at most what the largest ships with, 288 GB.
  Backend nodeless(gpus(1));
  EXPECT_NO_THROW(nodeless.malloc_device(0, 268 * GiB, "x", "app.cu:1"));
  EXPECT_THROW(nodeless.malloc_device(0, GiB, "y", "app.cu:2"), WorkloadLimitError);
}

TEST(Backend, PeerLoadsAndStoresNeedPeerAccessAndNameTheIssuer) {
  // A kernel on GPU 0 loads 128 B from GPU 1 and stores 64 B to it; a local load is filtered.
  Backend b(gpus(2));
  const Address local = b.malloc_device(0, 4096, "mine", "a.cu:1");
  const Address remote = b.malloc_device(1, 4096, "halo", "a.cu:2");
  {
    auto k = b.launch(0, "k");
    const std::uint32_t line = k.line("a.cu:40");
    EXPECT_EQ(test::error_of([&] { k.load(remote, 128, line); }),
              "kernel 'k' on gpu0 loads from 'halo (a.cu:2)' (device memory on gpu1) at line 'a.cu:40' without peer "
              "access; call enable_peer_access(0, 1) first");
  }
  b.enable_peer_access(0, 1);
  auto k = b.launch(0, "k");
  const std::uint32_t line = k.line("a.cu:40");
  k.load(remote, 128, line);
  k.store(remote + 128, 64, line);
  k.load(local, 128, line);
  const Trace& t = b.trace();
  ASSERT_EQ(t.size(), 2u);
  const Op load = t.op(0), store = t.op(1);
  EXPECT_EQ(load.kind, OpKind::access);
  EXPECT_EQ(t.endpoint_name(load.src), "gpu1");  // data moves from the owner to the loader
  EXPECT_EQ(t.endpoint_name(load.dst), "gpu0");
  EXPECT_EQ(t.endpoint_name(load.issuer), "gpu0");
  EXPECT_EQ(t.endpoint_name(store.src), "gpu0");
  EXPECT_EQ(t.endpoint_name(store.dst), "gpu1");
  EXPECT_EQ(t.endpoint_name(store.issuer), "gpu0");
  EXPECT_EQ(store.bytes, 64u);
  EXPECT_EQ(t.objects[load.object], "halo (a.cu:2)");
  EXPECT_EQ(t.lines[load.line], "a.cu:40");
  EXPECT_EQ(b.stats().local_accesses, 1u);
  EXPECT_EQ(b.stats().remote_accesses, 2u);
}

TEST(Backend, ZeroCopyReachesPinnedHostMemoryOnly) {
  BackendOptions o = gpus(1);
  o.gpu_sockets = {1};
  Backend b(o);
  const Address pinned = b.malloc_host(4096, MemKind::pinned, "h", "z.cu:3", 1);
  const Address pageable = b.malloc_host(4096, MemKind::pageable, "p", "z.cu:4");
  auto k = b.launch(0, "zc");
  k.load(pinned, 256, k.line("z.cu:20"));
  const Op op = b.trace().op(0);
  EXPECT_EQ(b.trace().endpoint_name(op.src), "cpu1");
  EXPECT_EQ(op.src_mem, MemKind::pinned);
  EXPECT_EQ(b.trace().endpoint_name(op.dst), "gpu0");
  EXPECT_EQ(test::error_of([&] { k.store(pageable, 4, k.line("z.cu:21")); }),
            "kernel 'zc' on gpu0 stores to 'p (z.cu:4)' (pageable memory on host) at line 'z.cu:21': pageable host "
            "memory is not mapped into the GPU's address space; allocate it pinned (cudaMallocHost) for zero-copy");
}

TEST(Backend, ManagedPagesMigrateToWhoeverTouchesThem) {
  // 3 pages of 64 KiB (the last one 1 KiB). The host writes everything first (first touch
  // populates on the host, no transfer); GPU 0 reads pages 0-1 (2 migrations host -> gpu0, 64 KiB
  // each); reading them again moves nothing; GPU 1 reads page 1 (gpu0 -> gpu1); the host reads
  // the whole buffer (gpu0 -> host for page 0, gpu1 -> host for page 1; page 2 is home).
  Backend b(gpus(2));
  const std::uint64_t page = 64 * 1024;
  const Address m = b.malloc_managed(2 * page + 1024, "u", "um.cu:5");
  b.host_access(m, 2 * page + 1024, "um.cu:9");
  EXPECT_EQ(b.trace().size(), 0u);
  auto k0 = b.launch(0, "read");
  k0.load_range(m, 2 * page, 512, k0.line("um.cu:30"));
  k0.load_range(m, 2 * page, 512, k0.line("um.cu:30"));
  auto k1 = b.launch(1, "read");
  k1.load(m + page + 100, 4, k1.line("um.cu:31"));
  b.host_access(m, 2 * page + 1024, "um.cu:40");
  const auto r = rows(b.trace());
  ASSERT_EQ(r.size(), 5u);
  const std::vector<std::tuple<std::string, std::string, std::uint64_t>> want = {
      {"host", "gpu0", page}, {"host", "gpu0", page}, {"gpu0", "gpu1", page}, {"gpu0", "host", page},
      {"gpu1", "host", page}};
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(r[i].kind, OpKind::migrate);
    EXPECT_EQ(std::make_tuple(r[i].src, r[i].dst, r[i].bytes), want[i]) << "op " << i;
  }
  EXPECT_EQ(b.stats().migrated_pages, 5u);
}

TEST(Backend, DisablingPeerAccessStagesCopiesAgainAndStreamsAreDistinct) {
  // gpu0 -> gpu1 with peer access: one direct copy; after cudaDeviceDisablePeerAccess the same
  // memcpyPeer goes through the host (two records). Default streams are d + 1; created streams
  // are new ids after every default stream, and a copy on one keeps that id.
  Backend b(gpus(2));
  const Address d0 = b.malloc_device(0, 4096, "d0", "c.cu:1");
  const Address d1 = b.malloc_device(1, 4096, "d1", "c.cu:2");
  b.enable_peer_access(0, 1);
  b.memcpy_peer(d1, 1, d0, 0, 4096, "c.cu:3");
  EXPECT_EQ(b.trace().size(), 1u);
  b.disable_peer_access(0, 1);
  EXPECT_FALSE(b.peer_access(0, 1));
  b.memcpy_peer(d1, 1, d0, 0, 4096, "c.cu:4");
  EXPECT_EQ(b.trace().size(), 3u);
  EXPECT_EQ(b.default_stream(0), 1u);
  EXPECT_EQ(b.default_stream(1), 2u);
  const std::uint32_t s1 = b.create_stream(0), s2 = b.create_stream(1);
  EXPECT_EQ(s1, 3u);
  EXPECT_EQ(s2, 4u);
  b.memcpy(d1, d1, 64, Kind::inferred, "c.cu:5", s2);
  EXPECT_EQ(b.trace().op(3).stream, s2);
  EXPECT_EQ(test::error_of([&] { (void)b.create_stream(2); }),
            "create_stream: device 2 does not exist; this run has devices 0..1 (2 GPUs)");
}

TEST(Backend, MemcpyInfersDirectionsAndStagesPeerCopiesWithoutPeerAccess) {
  Backend b(gpus(3));
  const Address h = b.malloc_host(1 << 20, MemKind::pinned, "h", "c.cu:1");
  const Address d0 = b.malloc_device(0, 1 << 20, "d0", "c.cu:2");
  const Address d0b = b.malloc_device(0, 1 << 20, "d0b", "c.cu:3");
  const Address d1 = b.malloc_device(1, 1 << 20, "d1", "c.cu:4");
  const Address d2 = b.malloc_device(2, 1 << 20, "d2", "c.cu:5");
  b.enable_peer_access(0, 1);
  b.memcpy(d0, h, 1000, Kind::inferred, "c.cu:10");     // host -> gpu0
  b.memcpy(h, d1, 2000, Kind::inferred, "c.cu:11");     // gpu1 -> host
  b.memcpy(d0b, d0, 3000, Kind::inferred, "c.cu:12");   // within gpu0: the diagonal
  b.memcpy(d1, d0, 4000, Kind::inferred, "c.cu:13");    // gpu0 -> gpu1 direct (peer access)
  b.memcpy_peer(d2, 2, d0, 0, 5000, "c.cu:14");         // no peer access: through the host
  const auto r = rows(b.trace());
  const std::vector<std::tuple<std::string, std::string, std::uint64_t>> want = {
      {"host", "gpu0", 1000}, {"gpu1", "host", 2000}, {"gpu0", "gpu0", 3000},
      {"gpu0", "gpu1", 4000}, {"gpu0", "host", 5000}, {"host", "gpu2", 5000}};
  ASSERT_EQ(r.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(std::make_tuple(r[i].src, r[i].dst, r[i].bytes), want[i]) << "op " << i;
  // The two legs of the staged copy sit next to each other on one stream with one call site.
  const Op leg1 = b.trace().op(4), leg2 = b.trace().op(5);
  EXPECT_EQ(leg1.stream, leg2.stream);
  EXPECT_EQ(leg1.line, leg2.line);
  EXPECT_EQ(leg1.dst_mem, MemKind::pinned);
  EXPECT_EQ(b.stats().staged_copies, 1u);
  EXPECT_EQ(test::error_of([&] { b.memcpy(d0, h, 8, Kind::device_to_host, "c.cu:20"); }),
            "memcpy (device_to_host) at c.cu:20: the source 'h (c.cu:1)' (pinned memory on host) is not device memory; "
            "use the kind that matches the pointers, or inferred (cudaMemcpyDefault)");
  EXPECT_EQ(test::error_of([&] { b.memcpy_peer(d2, 1, d0, 0, 8, "c.cu:21"); }),
            "memcpy_peer at c.cu:21: the destination 'd2 (c.cu:5)' (device memory on gpu2) is not memory of device 1");
}

TEST(Backend, SamplingKeepsTheRequestedFractionReproducibly) {
  // 100,000 remote loads sampled at 1/4 with seed 7: binomial, mean 25,000, sd 137; accept
  // +-1,000 (7 sd). The same seed gives the same count.
  auto run = [](std::uint64_t seed) {
    BackendOptions o = gpus(2);
    o.sample_rate = 0.25;
    o.sample_seed = seed;
    Backend b(o);
    const Address remote = b.malloc_device(1, 1 << 20, "r", "s.cu:1");
    b.enable_peer_access(0, 1);
    auto k = b.launch(0, "k");
    const std::uint32_t line = k.line("s.cu:9");
    for (int i = 0; i < 100000; ++i) k.load(remote + static_cast<Address>(i % 8192) * 128, 128, line);
    EXPECT_EQ(b.stats().remote_accesses, 100000u);
    return b.trace().size();
  };
  const std::size_t kept = run(7);
  EXPECT_NEAR(static_cast<double>(kept), 25000.0, 1000.0);
  EXPECT_EQ(run(7), kept);
  EXPECT_NE(run(8), kept);
}

TEST(Backend, CommunicatorNamesFollowMpiseesScheme) {
  // init over 4 GPUs: "W". Split by parity (every rank was in 1 communicator): "W_s1.0" (ranks
  // 0, 2) and "W_s1.1" (ranks 1, 3). Dup of W (now every rank is in 2): "W_d2". Splitting
  // W_s1.1 in halves (its ranks are in 3): "W_s1.1_s3.0" and "W_s1.1_s3.1".
  Backend b(gpus(4));
  const auto w = b.comm_init_all({0, 1, 2, 3});
  EXPECT_EQ(w.name, "W");
  const auto halves = b.comm_split(w, {0, 1, 0, 1});
  ASSERT_EQ(halves.size(), 2u);
  EXPECT_EQ(halves[0].name, "W_s1.0");
  EXPECT_EQ(halves[0].devices, (std::vector<int>{0, 2}));
  EXPECT_EQ(halves[1].name, "W_s1.1");
  EXPECT_EQ(b.comm_dup(w).name, "W_d2");
  const auto quarters = b.comm_split(halves[1], {0, 1});
  EXPECT_EQ(quarters[0].name, "W_s1.1_s3.0");
  EXPECT_EQ(quarters[1].name, "W_s1.1_s3.1");
}

TEST(Backend, CollectivesAreRecordedOncePerRank) {
  Backend b(gpus(2));
  const auto w = b.comm_init_all({0, 1});
  const Address s0 = b.malloc_device(0, 4096, "s", "n.cu:1"), s1 = b.malloc_device(1, 4096, "s", "n.cu:1");
  const Address r0 = b.malloc_device(0, 4096, "r", "n.cu:2"), r1 = b.malloc_device(1, 4096, "r", "n.cu:2");
  b.collective(OpKind::allreduce, w, {s0, s1}, {r0, r1}, 4096, "n.cu:30");
  const Trace& t = b.trace();
  ASSERT_EQ(t.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const Op op = t.op(i);
    EXPECT_EQ(op.kind, OpKind::allreduce);
    EXPECT_EQ(op.src, op.dst);
    EXPECT_EQ(t.endpoint_name(op.src), i == 0 ? "gpu0" : "gpu1");
    EXPECT_EQ(t.comms[op.comm], "W");
    EXPECT_EQ(t.group(op.group).size(), 2u);
    EXPECT_EQ(op.bytes, 4096u);
    EXPECT_EQ(t.objects[op.object], "r (n.cu:2)");
  }
  EXPECT_EQ(test::error_of([&] { b.collective(OpKind::allreduce, w, {s0, s0}, {r0, r1}, 4096, "n.cu:31"); }),
            "allreduce on 'W' at n.cu:31: rank 1's send buffer 's (n.cu:1)' (device memory on gpu0) is not memory of "
            "its GPU gpu1");
}

}  // namespace
}  // namespace linkcast::synthetic
