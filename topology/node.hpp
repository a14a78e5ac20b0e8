// A node: endpoints (CPU sockets with their memory, GPUs with theirs, PCIe switches, NVSwitch
// fabrics, NICs) and the links between them, as described by a YAML file (configs/SCHEMA.md).
#pragma once

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/link.hpp"
#include "model/transfer.hpp"

namespace linkcast::topology {

enum class EndpointKind : unsigned char { cpu, gpu, pcie_switch, nvswitch, nic };
inline constexpr std::size_t kEndpointKindCount = 5;
static_assert(kEndpointKindCount == static_cast<std::size_t>(EndpointKind::nic) + 1,
              "kEndpointKindCount counts every EndpointKind");
std::string_view to_string(EndpointKind kind);
std::vector<std::string> endpoint_kind_names();

struct MemorySpec {
  double capacity_gib = 0;
  double bandwidth_gbps = 0;       // peak
  // cpu: the rates that bound pageable copies (model::HostRates); 0 when not given.
  double copy_bandwidth_gbps = 0;  // single-thread memcpy rate, DRAM to DRAM
  double warm_copy_gbps = 0;       // single-thread copy of a cache-resident source
  double first_touch_gbps = 0;     // single-thread copy into fresh pages
  double pageable_h2d_gbps = 0;    // measured pageable host-to-device rate from a cold source
  double pageable_d2h_gbps = 0;    // measured pageable device-to-host rate into used pages

  model::HostRates host_rates() const {
    return {copy_bandwidth_gbps, warm_copy_gbps, first_touch_gbps, pageable_h2d_gbps, pageable_d2h_gbps};
  }
  double stream_gbps = 0;          // gpu: measured rate of a streaming kernel; 0 when not given

  /// What streaming work reaches in this memory (model::streaming_or_peak_gbps).
  double streaming_gbps() const { return model::streaming_or_peak_gbps(stream_gbps, bandwidth_gbps); }
};

struct Endpoint {
  std::string id;
  EndpointKind kind = EndpointKind::cpu;
  std::string model;
  MemorySpec memory;
  int host = -1;          // gpu: index of its host cpu (NUMA affinity)
  int copy_engines = 0;   // gpu, optional
  // gpu, optional: what bounds its kernels (the application replay scales kernels by them).
  int sms = 0;                 // streaming multiprocessors
  double fp32_tflops = 0;      // peak FP32 (non-tensor) rate
  double tensor_tflops = 0;    // peak dense 16-bit (BF16/FP16) tensor-core rate
  // gpu, optional: the least time one collective call takes when calls are issued back to back
  // from the GPU's process (the host's issue: framework, NCCL's enqueue, the launch); 0: none.
  double collective_call_us = 0;
  // gpu, optional: the rate one thread block of 512 threads copies within the GPU's memory while
  // 24 such blocks copy at once (an NCCL channel's block); 0: NCCL's per-channel bandwidth alone.
  double block_copy_gbps = 0;
  double ll_block_gbps = 0;    // GPU: data rate of one NCCL channel block running LL primitives, GB/s (0: not known)
  double l2_resident_mib = 0;  // GPU: footprint its L2 keeps of data used over and over, MiB (0: not known)
  double l2_cache_mib = 0;     // GPU: its L2 cache's capacity, MiB (0: not known)
  double p2p_block_copy_gbps = 0;  // GPU: copy rate of one 640-thread block (NCCL's send/receive kernel) while 24 copy, GB/s (0: block_copy_gbps)
  // gpu, optional: what one NCCL kernel of the Simple or the LL protocol costs on this GPU beside
  // its data, per call and per step's handshake, in place of NCCL's baseLat and hwLat; 0: NCCL's.
  double nccl_simple_call_us = 0;
  double nccl_simple_step_us = 0;
  double nccl_ll_call_us = 0;
  double nccl_ll_step_us = 0;
  // gpu, optional: what NCCL's send/receive kernel (an alltoall's grouped sends and receives) costs
  // on this GPU per call, in place of its protocol's call cost; 0: the protocol's.
  double nccl_p2p_call_us = 0;
  // gpu, optional: what each slice a ring/Simple primitive runs costs its channel block beside its
  // bytes (its wait for the peer's flag, the fence and the post); 0: nothing.
  double nccl_simple_slice_us = 0;
  // gpu, optional: one NCCL channel block's rates alone, per byte loaded, stored into this GPU's
  // memory and stored into a peer's, in the Simple and the LL128 protocol; and the rate at which
  // all of a call's channel blocks on the GPU load and store together at most. 0: not known (the
  // blocks then copy at block_copy_gbps).
  double nccl_simple_load_gbps = 0;
  double nccl_simple_store_gbps = 0;
  double nccl_simple_peer_store_gbps = 0;
  double nccl_ll128_load_gbps = 0;
  double nccl_ll128_store_gbps = 0;
  double nccl_ll128_peer_store_gbps = 0;
  double nccl_block_memory_gbps = 0;
  int chips = 0;          // nvswitch, informational
  double nic_gbps = 0;    // nic, optional
  int line = 0;           // 1-based line and column in the YAML file, for messages
  int column = 0;

  /// CPUs and switches forward traffic; GPUs and NICs are only sources and destinations.
  bool forwards() const {
    return kind == EndpointKind::cpu || kind == EndpointKind::pcie_switch ||
           kind == EndpointKind::nvswitch;
  }
};

struct Link {
  std::string id;
  int a = -1;  // endpoint indices
  int b = -1;
  model::LinkSpec spec;
  int line = 0;
};

/// Measured 1-byte transfer costs (L + O) per copy class, ns; NaN where not given.
struct Calibration {
  std::array<double, model::kCopyClassCount> one_byte_ns;
  Calibration() { one_byte_ns.fill(std::nan("")); }
  [[nodiscard]] std::optional<double> get(model::CopyClass c) const {
    const double v = one_byte_ns[static_cast<std::size_t>(c)];
    return std::isnan(v) ? std::nullopt : std::optional<double>(v);
  }
};

struct RouteOverride {
  int from = -1;
  int to = -1;
  std::vector<int> via;
  bool symmetric = true;
  int line = 0;
  int column = 0;
};

struct Node {
  std::string file;  // where it was loaded from, for messages
  std::string name;
  std::string description;
  std::vector<Endpoint> endpoints;
  std::vector<Link> links;
  Calibration calibration;
  std::vector<RouteOverride> routes;

  /// Index of the endpoint called `id`, or -1.
  [[nodiscard]] int find(std::string_view id) const;
  /// Index of the endpoint called `id`; throws InputError naming the node file and listing ids.
  [[nodiscard]] int require(std::string_view id, std::string_view context) const;
  std::vector<int> gpus() const;
  std::vector<int> cpus() const;
  std::vector<std::string> endpoint_ids() const;
};

}  // namespace linkcast::topology
