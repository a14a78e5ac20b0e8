// NCCL's own cost model (nccl/tuning, from src/graph/tuning.cc) and the emulation of its ring
// search (nccl/search). Each test works the expected number out from NCCL's constants first.
#include <gtest/gtest.h>

#include <cmath>

#include "nccl/search.hpp"
#include "nccl/tuning.hpp"
#include "test_util.hpp"
#include "topology/loader.hpp"
#include "topology/routing.hpp"

namespace linkcast::nccl {
namespace {

using trace::OpKind;
constexpr std::uint64_t kMiB = 1ull << 20;
constexpr std::uint64_t kGiB = 1ull << 30;

Graph a100() { return Graph{12, 20.0, true, 80}; }
Graph h100() { return Graph{12, 30.0, true, 90}; }

TEST(NcclModel, RingAllreduceSimple) {
  // A100-like graph, 12 channels x 20 GB/s, 8 ranks, 1 GiB. Ring/Simple: busBw 240, algbw
  // 240 x 8 / 14; latency baseLat 8.4 us + 14 steps x 3.4 us (NVLink) = 56 us.
  const Estimate e = estimate(OpKind::allreduce, 8, kGiB, CollAlgo::ring, Proto::simple, a100());
  ASSERT_TRUE(e.available);
  EXPECT_DOUBLE_EQ(e.latency_ns, 56000);
  EXPECT_DOUBLE_EQ(e.algbw_gbps, 240.0 * 8 / 14);
  EXPECT_NEAR(e.time_ns, 56000 + kGiB / (240.0 * 8 / 14), 1e-6);
}

TEST(NcclModel, ProtocolRefinements) {
  // Ring/LL: busBw x 1/2, at most llMaxBw (Ampere 87.7): min(87.7, 240/2 = 120) = 87.7 for every
  // collective. Ring/LL128: min(240 x 0.92, 12 x 20.0) = 220.8.
  EXPECT_DOUBLE_EQ(bus_bandwidth_gbps(OpKind::allreduce, 8, CollAlgo::ring, Proto::ll, a100()), 87.7);
  EXPECT_DOUBLE_EQ(bus_bandwidth_gbps(OpKind::allgather, 8, CollAlgo::ring, Proto::ll, a100()), 87.7);
  EXPECT_DOUBLE_EQ(bus_bandwidth_gbps(OpKind::allreduce, 8, CollAlgo::ring, Proto::ll128, a100()), 220.8);
  // Hopper's LL ceiling: min(141, 360/2 = 180) = 141; a 4-GPU graph of 12 x 30 gives the
  // same, as NCCL 2.28.9 printed on the 4 x H200 test machine ("Broadcast ... 7.2/ 141.0").
  EXPECT_DOUBLE_EQ(bus_bandwidth_gbps(OpKind::allreduce, 8, CollAlgo::ring, Proto::ll, h100()), 141.0);
  // Tree/Simple: min(360 x 0.92, 12 x 38.7) = 331.2; tree/LL128 x 7/9 of that.
  EXPECT_DOUBLE_EQ(bus_bandwidth_gbps(OpKind::allreduce, 8, CollAlgo::tree, Proto::simple, h100()), 331.2);
  EXPECT_NEAR(bus_bandwidth_gbps(OpKind::allreduce, 8, CollAlgo::tree, Proto::ll128, h100()), 331.2 * 7 / 9, 1e-9);
}

TEST(NcclModel, WhatNcclDisables) {
  // LL128 only over NVLink; trees only for allreduce; one rank costs nothing.
  Graph pci = a100();
  pci.nvlink = false;
  EXPECT_FALSE(estimate(OpKind::allreduce, 8, kMiB, CollAlgo::ring, Proto::ll128, pci).available);
  EXPECT_FALSE(estimate(OpKind::broadcast, 8, kMiB, CollAlgo::tree, Proto::simple, a100()).available);
  EXPECT_DOUBLE_EQ(choose(OpKind::allreduce, 1, kMiB, a100()).time_ns, 0.0);
  // Over PCIe the per-step latency is hwLat[PCI]: ring/Simple 5.7 us.
  EXPECT_DOUBLE_EQ(estimate(OpKind::allgather, 4, kMiB, CollAlgo::ring, Proto::simple, pci).latency_ns,
                   8400 + 3 * 5700.0);
}

TEST(NcclModel, ChoiceBySize) {
  // H100 graph (12 x 30 GB/s, Hopper), 8 ranks:
  //  1 KiB: ring/LL 6.6 + 14 x 0.6 = 15.0 us beats tree/LL 6.8 + 2 x 7 x 0.6 = 15.2 us.
  //  16 MiB: ring/LL128 14 + 14 x 1.9 = 40.6 us + 16 MiB / (331.2 x 8/14) = 129.2 us beats
  //          ring/Simple 56 us + 16 MiB / (360 x 8/14) = 137.6 us and tree/LL128 176 us.
  //  1 GiB: ring/Simple 5.276 ms beats ring/LL128 5.71 ms and tree/Simple 6.48 ms.
  const Estimate small = choose(OpKind::allreduce, 8, 1024, h100());
  EXPECT_EQ(small.algo, CollAlgo::ring);
  EXPECT_EQ(small.proto, Proto::ll);
  EXPECT_NEAR(small.latency_ns, 15000, 1e-9);
  const Estimate mid = choose(OpKind::allreduce, 8, 16 * kMiB, h100());
  EXPECT_EQ(mid.proto, Proto::ll128);
  EXPECT_NEAR(mid.time_ns, 40600 + 16.0 * kMiB / (331.2 * 8 / 14), 1e-3);
  const Estimate large = choose(OpKind::allreduce, 8, kGiB, h100());
  EXPECT_EQ(large.algo, CollAlgo::ring);
  EXPECT_EQ(large.proto, Proto::simple);
  // Constraints: --algo tree --proto LL128.
  const Estimate tree = choose(OpKind::allreduce, 8, kGiB, h100(), CollAlgo::tree, Proto::ll128);
  EXPECT_EQ(tree.algo, CollAlgo::tree);
  EXPECT_EQ(tree.proto, Proto::ll128);
}

TEST(NcclModel, AlltoallSendsPickTheirOwnProtocol) {
  // Alltoall is grouped sends and receives: NCCL runs each in LL while its bytes are at most
  // nChannelsMax x P2P_LL_THRESHOLD (16 KiB) and in Simple otherwise (addP2pToPlan's
  // thresholdLL), whatever NCCL_ALGO or NCCL_PROTO ask. nChannelsMax is the p2p channels a peer
  // may use: 24 collective channels give 32 (the H200 logs: "32 p2p channels per peer"), so up
  // to 512 KiB a peer: on 2 ranks a 1 MiB alltoall runs in LL and a 2 MiB one in Simple, on 4
  // ranks 2 MiB in LL and 4 MiB in Simple. 12 channels give 16: 256 KiB a peer. The recorded
  // 4 x H200 calls show the switch: 512 KiB to each peer (2 MiB) took 23.5-26.8 us from CUDA
  // graphs, 1 MiB to each (4 MiB) 26.2-29.3 (h200-4gpu-nccl-graph, -graph2, -small).
  EXPECT_TRUE(alltoall_sends_ll(2, kMiB, 24));
  EXPECT_FALSE(alltoall_sends_ll(2, kMiB + 8, 24));
  EXPECT_FALSE(alltoall_sends_ll(2, 2 * kMiB, 24));
  EXPECT_TRUE(alltoall_sends_ll(4, 2 * kMiB, 24));
  EXPECT_FALSE(alltoall_sends_ll(4, 4 * kMiB, 24));
  EXPECT_TRUE(alltoall_sends_ll(2, 512 * 1024, 12));
  EXPECT_FALSE(alltoall_sends_ll(2, kMiB, 12));
  EXPECT_FALSE(alltoall_sends_ll(2, 256 * kMiB, 12));
  // choose() decides on the communicator's channels, twice the ring graph's (h100(): 12).
  EXPECT_EQ(choose(OpKind::alltoall, 4, 2 * kMiB, h100()).proto, Proto::ll);
  EXPECT_EQ(choose(OpKind::alltoall, 4, 4 * kMiB, h100()).proto, Proto::simple);
  const Estimate forced_ll = choose(OpKind::alltoall, 2, 256 * kMiB, h100(), CollAlgo::ring, Proto::ll);
  EXPECT_TRUE(forced_ll.available);
  EXPECT_EQ(forced_ll.proto, Proto::simple);
  // NCCL_ALGO=Tree has no tree for sends either: they still run.
  const Estimate forced_tree = choose(OpKind::alltoall, 2, 256 * kMiB, h100(), CollAlgo::tree, Proto::simple);
  EXPECT_TRUE(forced_tree.available);
  EXPECT_EQ(forced_tree.algo, CollAlgo::ring);
  EXPECT_EQ(choose(OpKind::alltoall, 2, 32 * 1024, h100(), std::nullopt, Proto::simple).proto, Proto::ll);
}

TEST(NcclModel, TreeCorrectionBySize) {
  // Tree/Simple at 1 MiB: log2(1 MiB / 64) = 14: correction 0.5 (NCCL's table), so the
  // algorithm bandwidth is 331.2 x 0.5 x 0.5 = 82.8 GB/s; latency 8.4 + 2 x 7 x 4.0 us = 64.4 us.
  const Estimate e = estimate(OpKind::allreduce, 8, kMiB, CollAlgo::tree, Proto::simple, h100());
  EXPECT_DOUBLE_EQ(e.algbw_gbps, 82.8);
  EXPECT_NEAR(e.latency_ns, 64400, 1e-9);
}

TEST(NcclModel, ReproducesNcclsLoggedTuningTable) {
  // NCCL 2.28.9 on the 4 x H200 test machine (tests/data/real/h200-4gpu/logs/nccl_default.log.gz)
  // printed latency (us) / algorithm bandwidth (GB/s) per collective for its 12 x 30 graph:
  //   AllReduce  tree LL 10.4/43.6, tree LL128 21.5/128.8, tree Simple 32.4/165.6,
  //              ring LL 10.2/94.0, ring LL128 25.4/220.8, ring Simple 28.8/240.0
  //   AllGather  ring LL 8.4/188.0, ring LL128 19.7/441.6, ring Simple 18.6/480.0
  //   Broadcast  ring LL 7.2/141.0, ring LL128 15.9/331.2, ring Simple 11.8/360.0
  const Graph g{12, 30.0, true, 90};
  struct Row {
    OpKind kind;
    CollAlgo algo;
    Proto proto;
    double latency_us, algbw;
  };
  const Row rows[] = {
      {OpKind::allreduce, CollAlgo::tree, Proto::ll, 10.4, 43.6},
      {OpKind::allreduce, CollAlgo::tree, Proto::ll128, 21.5, 128.8},
      {OpKind::allreduce, CollAlgo::tree, Proto::simple, 32.4, 165.6},
      {OpKind::allreduce, CollAlgo::ring, Proto::ll, 10.2, 94.0},
      {OpKind::allreduce, CollAlgo::ring, Proto::ll128, 25.4, 220.8},
      {OpKind::allreduce, CollAlgo::ring, Proto::simple, 28.8, 240.0},
      {OpKind::allgather, CollAlgo::ring, Proto::ll, 8.4, 188.0},
      {OpKind::allgather, CollAlgo::ring, Proto::ll128, 19.7, 441.6},
      {OpKind::allgather, CollAlgo::ring, Proto::simple, 18.6, 480.0},
      {OpKind::broadcast, CollAlgo::ring, Proto::ll, 7.2, 141.0},
      {OpKind::broadcast, CollAlgo::ring, Proto::ll128, 15.9, 331.2},
      {OpKind::broadcast, CollAlgo::ring, Proto::simple, 11.8, 360.0},
  };
  for (const Row& r : rows) {
    // 1 GiB: no tree size correction, so the bandwidth is the table's.
    const Estimate e = estimate(r.kind, 4, kGiB, r.algo, r.proto, g);
    ASSERT_TRUE(e.available);
    EXPECT_NEAR(e.latency_ns / 1000, r.latency_us, 0.05) << trace::to_string(r.kind) << " " << to_string(r.proto);
    EXPECT_NEAR(e.algbw_gbps, r.algbw, 0.05) << trace::to_string(r.kind) << " " << to_string(r.proto);
  }
}

TEST(NcclLinks, NominalBandwidths) {
  // NCCL's topology bandwidths: PCIe width x lane rate / 80 (Gen3 x16 = PCI_BW 12), NVLink per
  // link by generation (SM90: 20.6).
  model::LinkSpec pcie;
  pcie.type = model::LinkType::pcie;
  pcie.pcie.gen = 3;
  pcie.pcie.lanes = 16;
  EXPECT_DOUBLE_EQ(nccl_link_gbps(pcie), 12.0);
  pcie.pcie.gen = 5;
  EXPECT_DOUBLE_EQ(nccl_link_gbps(pcie), 48.0);
  model::LinkSpec nvl;
  nvl.type = model::LinkType::nvlink;
  nvl.nvlink = {4, 18, 0};
  EXPECT_NEAR(nccl_link_gbps(nvl), 370.8, 1e-9);
}

struct Searched {
  topology::Node node;
  topology::Routes routes;
  CommTopology topo;
  explicit Searched(const std::string& config, int gpus = 8)
      : node(topology::load_node(test::config(config))), routes(node), topo() {
    std::vector<int> g;
    for (int k = 0; k < gpus; ++k) g.push_back(node.find("gpu" + std::to_string(k)));
    topo = search_rings(node, routes, g);
  }
};

TEST(NcclSearch, NvswitchNodes) {
  // HGX-H100: each GPU has 18 x 20.6 = 370.8 GB/s to the NVSwitch. At Hopper's top speed 60,
  // 6 rings fit (360); lower speeds give no more. 60 >= 50, so the channels are duplicated:
  // 12 x 30; the communicator runs 24. Every ring is the rank order (all paths are equal).
  const Searched h("hgx-h100.yaml");
  EXPECT_EQ(h.topo.graph.channels, 12);
  EXPECT_DOUBLE_EQ(h.topo.graph.bw_per_channel_gbps, 30.0);
  EXPECT_TRUE(h.topo.graph.nvlink);
  EXPECT_EQ(h.topo.graph.compute_capability, 90);
  EXPECT_EQ(h.topo.channels(), 24);
  ASSERT_EQ(h.topo.rings.size(), 1u);
  EXPECT_EQ(h.topo.rings[0], (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  // DGX-A100: 12 x 20 = 240 GB/s per GPU: 6 rings at 40, duplicated to 12 x 20 (Ampere).
  const Searched a("dgx-a100.yaml");
  EXPECT_EQ(a.topo.graph.channels, 12);
  EXPECT_DOUBLE_EQ(a.topo.graph.bw_per_channel_gbps, 20.0);
}

TEST(NcclSearch, CubeMeshRingsFollowNvlinks) {
  // DGX-1 (V100): the rank order 0..7 would cross PCIe between gpu3 and gpu4, so the search
  // builds rings over NVLink neighbours only; every ring edge is one NVLink hop.
  const Searched d("dgx1-v100.yaml");
  EXPECT_TRUE(d.topo.graph.nvlink);
  for (const auto& ring : d.topo.rings) {
    ASSERT_EQ(ring.size(), 8u);
    for (std::size_t k = 0; k < ring.size(); ++k) {
      const int a = d.topo.gpus[static_cast<std::size_t>(ring[k])];
      const int b = d.topo.gpus[static_cast<std::size_t>(ring[(k + 1) % ring.size()])];
      const auto& p = d.routes.path(a, b);
      ASSERT_EQ(p.hops, 1);
      EXPECT_EQ(d.node.links[static_cast<std::size_t>(p.links[0].link)].spec.type, model::LinkType::nvlink);
    }
  }
  // Each V100 has 6 NVLinks (20 GB/s each in NCCL's terms, 120 in all): the rings use them all.
  EXPECT_DOUBLE_EQ(d.topo.graph.channels * d.topo.graph.bw_per_channel_gbps, 120.0);
}

TEST(ChunkSlots, ASimpleRingChunkTakesItsChunkStepsEveryOtherChunkOne) {
  // NCCL 2.28, src/include/collectives.h: ALLREDUCE/ALLGATHER/REDUCESCATTER_CHUNKSTEPS =
  // NCCL_STEPS/2 = 4, BROADCAST_CHUNKSTEPS = 1; a step is 4 MiB / 8 = 512 KiB of the Simple buffer.
  EXPECT_EQ(chunk_slots(CollAlgo::ring, Proto::simple, OpKind::allreduce, 2u << 20), 4);
  EXPECT_EQ(chunk_slots(CollAlgo::ring, Proto::simple, OpKind::allgather, 2u << 20), 4);
  EXPECT_EQ(chunk_slots(CollAlgo::ring, Proto::simple, OpKind::broadcast, 512u << 10), 1);
  // A chunk of 8 MiB is a 16 MiB buffer's (NCCL_BUFFSIZE): 4 of its 8 slots, as the default's
  // 2 MiB chunk; 8 slots would let no rank's second step of a loop send (a cycle: 2 x H200,
  // allreduce with chunk=8MiB, before).
  EXPECT_EQ(chunk_slots(CollAlgo::ring, Proto::simple, OpKind::allreduce, 8u << 20), 4);
  // A chunk asked for (workload chunk=) takes the steps it spans, at most half the buffer's 8.
  EXPECT_EQ(chunk_slots(CollAlgo::ring, Proto::simple, OpKind::allreduce, 600u << 10), 2);
  EXPECT_EQ(chunk_slots(CollAlgo::ring, Proto::simple, OpKind::allreduce, 64u << 20), 4);
  // LL, LL128, the tree and alltoall's sends: one step a chunk.
  EXPECT_EQ(chunk_slots(CollAlgo::ring, Proto::ll, OpKind::allreduce, 32u << 10), 1);
  EXPECT_EQ(chunk_slots(CollAlgo::ring, Proto::ll128, OpKind::allreduce, 576000), 1);
  EXPECT_EQ(chunk_slots(CollAlgo::tree, Proto::simple, OpKind::allreduce, 512u << 10), 1);
  EXPECT_EQ(chunk_slots(CollAlgo::ring, Proto::simple, OpKind::alltoall, 512u << 10), 1);
}

}  // namespace
}  // namespace linkcast::nccl
