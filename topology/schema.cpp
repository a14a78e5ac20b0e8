#include "topology/schema.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <type_traits>

#include "core/strings.hpp"
#include "model/transfer.hpp"

namespace linkcast::topology::schema {

namespace {

// --- where values live ---------------------------------------------------------------------------

template <auto Member>
Field endpoint_field() {
  Field f;
  f.endpoint_get = [](const Endpoint& e) { return static_cast<double>(e.*Member); };
  f.endpoint_set = [](Endpoint& e, double v) { e.*Member = static_cast<std::remove_cvref_t<decltype(e.*Member)>>(v); };
  return f;
}

template <auto Member>
Field memory_field() {
  Field f;
  f.endpoint_get = [](const Endpoint& e) { return static_cast<double>(e.memory.*Member); };
  f.endpoint_set = [](Endpoint& e, double v) {
    e.memory.*Member = static_cast<std::remove_cvref_t<decltype(e.memory.*Member)>>(v);
  };
  return f;
}

template <auto Member>
Field link_field() {
  Field f;
  f.link_get = [](const model::LinkSpec& s) { return static_cast<double>(s.*Member); };
  f.link_set = [](model::LinkSpec& s, double v) { s.*Member = static_cast<std::remove_cvref_t<decltype(s.*Member)>>(v); };
  return f;
}

template <auto Member>
Field pcie_field() {
  Field f;
  f.link_get = [](const model::LinkSpec& s) { return static_cast<double>(s.pcie.*Member); };
  f.link_set = [](model::LinkSpec& s, double v) { s.pcie.*Member = static_cast<int>(v); };
  return f;
}

template <auto Member>
Field nvlink_field() {
  Field f;
  f.link_get = [](const model::LinkSpec& s) { return static_cast<double>(s.nvlink.*Member); };
  f.link_set = [](model::LinkSpec& s, double v) {
    s.nvlink.*Member = static_cast<std::remove_cvref_t<decltype(s.nvlink.*Member)>>(v);
  };
  return f;
}

constexpr Applies kCpu = bit(EndpointKind::cpu);
constexpr Applies kGpu = bit(EndpointKind::gpu);
constexpr Applies kPcie = bit(model::LinkType::pcie);
constexpr Applies kNvlink = bit(model::LinkType::nvlink);

const std::vector<int> kPcieSizes = {128, 256, 512, 1024, 2048, 4096};

// --- the table -----------------------------------------------------------------------------------
//
// Plausible ranges are there to catch a wrong unit or a slipped digit, not to judge hardware: each
// is generous around what shipped hardware does, and the comment says where its bounds come from.

/// Defaults that model/link.cpp decides, spelled out from it.
std::string_view latency_defaults() {
  static const std::string text = [] {
    std::vector<std::string> parts;
    for (const std::string& name : model::link_type_names())
      parts.push_back(fmt::format("{} {:g}", name, model::default_latency_ns(*model::parse_link_type(name))));
    return "by type (model/link.cpp): " + join(parts, ", ");
  }();
  return text;
}

std::string_view per_link_defaults() {
  static const std::string text = [] {
    std::vector<std::string> parts;
    for (int v = 1; v <= 5; ++v) parts.push_back(fmt::format("v{} {:g}", v, model::nvlink_per_link_gbps(v)));
    return "the version's rate (model/link.hpp): " + join(parts, ", ");
  }();
  return text;
}

/// A key of one NCCL channel block's alone rate per kind of memory operation (nccl/blocks.hpp).
template <auto Member>
Key block_rate_key(std::string_view name, std::string_view doc) {
  return {.name = name, .section = Section::endpoint, .applies = kGpu, .type = Type::number, .unit = "GB/s",
          .floor = Floor::positive, .min = 1, .max = 1000,
          .plausible = "one thread block moves tens to a few hundred GB/s",
          .default_text = "none: every channel's block copies at block_copy_gbps", .doc = doc, .json = Json::when_set,
          .sweepable = true, .field = endpoint_field<Member>()};
}

/// A key of what one NCCL kernel costs a GPU beside its data, in microseconds (per call, per step's
/// handshake, per slice): one form, each key its own limits, default and meaning.
template <auto Member>
Key nccl_kernel_us_key(std::string_view name, double min, double max, std::string_view plausible,
                       std::string_view default_text, std::string_view doc) {
  return {.name = name, .section = Section::endpoint, .applies = kGpu, .type = Type::number, .unit = "us",
          .floor = Floor::positive, .min = min, .max = max, .plausible = plausible, .default_text = default_text,
          .doc = doc, .json = Json::when_set, .sweepable = true, .field = endpoint_field<Member>()};
}
constexpr std::string_view kKernelCallPlausible = "an NCCL kernel costs microseconds a call";
constexpr std::string_view kKernelStepPlausible = "an NCCL step's handshake takes about a microsecond or a few";

std::vector<Key> make_table() {
  std::vector<Key> t;
  auto add = [&t](Key k) { t.push_back(std::move(k)); };

  // Top level.
  add({.name = "schema_version", .section = Section::top, .type = Type::integer, .required = true,
       .doc = "the version of this schema the file follows: 1"});
  add({.name = "name", .section = Section::top, .type = Type::text, .required = true,
       .doc = "short name used in reports"});
  add({.name = "description", .section = Section::top, .type = Type::text, .doc = "free text"});
  add({.name = "endpoints", .section = Section::top, .type = Type::list, .required = true, .holds = Section::endpoint,
       .doc = "the CPU sockets, GPUs, PCIe switches, NVSwitch fabrics and NICs; not empty"});
  add({.name = "links", .section = Section::top, .type = Type::list, .holds = Section::link,
       .doc = "the links between endpoints; each is bidirectional (one directed edge per direction)"});
  add({.name = "calibration", .section = Section::top, .type = Type::mapping, .holds = Section::calibration,
       .doc = "measured 1-byte transfer cost (L + O) per copy class"});
  add({.name = "routes", .section = Section::top, .type = Type::list, .holds = Section::route,
       .doc = "pairs the real node routes otherwise than by lowest latency"});
  add({.name = "sources", .section = Section::top, .type = Type::list, .holds = Section::source,
       .doc = "the documents the values come from; a value's comment cites them as `[key]`"});

  // Sources.
  add({.name = "key", .section = Section::source, .type = Type::text, .required = true,
       .doc = "short name the values' comments cite as `[key]`: a-z, 0-9, `-` and `.`, unique in the file"});
  add({.name = "title", .section = Section::source, .type = Type::text, .required = true,
       .doc = "title, publisher or author, and what the document says that is used"});
  add({.name = "url", .section = Section::source, .type = Type::text, .doc = "where to read it: http:// or https://"});
  add({.name = "file", .section = Section::source, .type = Type::text,
       .doc = "or a file of this repository it was measured into, relative to the repository root"});

  // Endpoints.
  add({.name = "id", .section = Section::endpoint, .type = Type::text, .required = true,
       .doc = "`cpu<N>` for host sockets, `gpu<N>` for GPUs, any other unique name for the rest"});
  add({.name = "kind", .section = Section::endpoint, .type = Type::choice, .required = true,
       .choices = &endpoint_kind_names, .doc = "what the endpoint is"});
  add({.name = "model", .section = Section::endpoint, .type = Type::text, .doc = "free text: the product"});
  add({.name = "memory", .section = Section::endpoint, .applies = kCpu | kGpu, .type = Type::mapping,
       .required = true, .holds = Section::memory, .doc = "the memory the socket or the GPU holds"});
  add({.name = "host", .section = Section::endpoint, .applies = kGpu, .type = Type::endpoint,
       .default_text = "the nearest cpu by route",
       .doc = "the cpu whose memory this GPU's host buffers use (NUMA affinity)"});
  // H100 has 7 copy engines (CUDA deviceQuery asyncEngineCount), A100 5; 64 is far beyond any.
  add({.name = "copy_engines", .section = Section::endpoint, .applies = kGpu, .type = Type::integer,
       .floor = Floor::one, .min = 1, .max = 64, .plausible = "GPUs have up to about 10 copy engines",
       .default_text = "CUDA's default, one engine per direction",
       .doc = "copies the GPU runs at once, in any direction (the simulator's engine pool)", .sweepable = true,
       .field = endpoint_field<&Endpoint::copy_engines>()});
  // What bounds a GPU's kernels, for the application replay's kernel scaling. B200 has 148 SMs,
  // H100 SXM 132 (SOURCES.md); 1024 is far beyond any. Dense 16-bit tensor rates: 989 TFLOP/s
  // (H100/H200 SXM), 2250 (B200); FP32: 67 (H100 SXM), 80 (B200).
  add({.name = "sms", .section = Section::endpoint, .applies = kGpu, .type = Type::integer, .floor = Floor::one,
       .min = 1, .max = 1024, .plausible = "GPUs have up to about 200 SMs",
       .default_text = "unknown", .doc = "streaming multiprocessors", .json = Json::when_set,
       .field = endpoint_field<&Endpoint::sms>()});
  add({.name = "fp32_tflops", .section = Section::endpoint, .applies = kGpu, .type = Type::number, .unit = "TFLOP/s",
       .floor = Floor::positive, .min = 0.01, .max = 10000, .plausible = "GPUs reach up to about 100 FP32 TFLOP/s",
       .default_text = "unknown: compute-bound kernels keep their recorded time",
       .doc = "peak FP32 rate without tensor cores (the replay scales FP32 compute-bound kernels by it)",
       .json = Json::when_set, .sweepable = true, .field = endpoint_field<&Endpoint::fp32_tflops>()});
  add({.name = "tensor_tflops", .section = Section::endpoint, .applies = kGpu, .type = Type::number,
       .unit = "TFLOP/s", .floor = Floor::positive, .min = 0.01, .max = 100000,
       .plausible = "GPUs reach up to a few thousand dense 16-bit TFLOP/s",
       .default_text = "unknown: matrix kernels keep their recorded time",
       .doc = "peak dense BF16/FP16 tensor-core rate (the replay scales GEMM, convolution and attention kernels by it)",
       .json = Json::when_set, .sweepable = true, .field = endpoint_field<&Endpoint::tensor_tflops>()});
  // A process issues one collective in 5-30 us (nccl-tests' C loop to torch.distributed in a VM:
  // tests/data/real/h200-*gpu/nccl_bench.csv, calls of 8 B-64 KiB); a millisecond is a unit slip.
  add({.name = "collective_call_us", .section = Section::endpoint, .applies = kGpu, .type = Type::number,
       .unit = "us", .floor = Floor::positive, .min = 0.1, .max = 1000,
       .plausible = "one collective call is issued in microseconds",
       .default_text = "none: calls start as soon as the GPU is free",
       .doc = "measured time per call of a back-to-back loop of tiny collectives from this GPU's process (the "
              "host's issue: framework, NCCL's enqueue and launch); the simulator starts no call before its "
              "process has issued it",
       .json = Json::when_set, .sweepable = true, .field = endpoint_field<&Endpoint::collective_call_us>()});
  // One block of 512 threads copies 30-41 GB/s on an H200 (tests/data/real/h200-2gpu-nccl/
  // block_copy.csv); a whole GPU copies 1-4 TB/s, so 1000 GB/s for one block is a unit slip.
  add({.name = "block_copy_gbps", .section = Section::endpoint, .applies = kGpu, .type = Type::number,
       .unit = "GB/s", .floor = Floor::positive, .min = 1, .max = 1000,
       .plausible = "one thread block copies tens of GB/s",
       .default_text = "none: NCCL's channels move data at NCCL's per-channel bandwidth",
       .doc = "measured rate at which one 512-thread block copies within the GPU's memory while 24 such blocks copy "
              "(tools/record/block_copy.cu); the simulator runs each NCCL channel as such a block, its Simple "
              "ring primitives one after another at this rate x 2 / (loads + stores per element)",
       .json = Json::when_set, .sweepable = true, .field = endpoint_field<&Endpoint::block_copy_gbps>()});
  // NCCL's LL primitives move 8 bytes of data per 16-byte line and poll each line's flags: a
  // block runs them at about a third of its copy rate (10.2 against 29.9 GB/s on an H200).
  add({.name = "ll_block_gbps", .section = Section::endpoint, .applies = kGpu, .type = Type::number,
       .unit = "GB/s", .floor = Floor::positive, .min = 0.5, .max = 1000,
       .plausible = "one thread block moves LL lines at a few to tens of GB/s",
       .default_text = "none: LL rings move data at NCCL's LL bandwidth",
       .doc = "measured rate at which one NCCL channel's block runs LL-protocol primitives (data bytes, weighted as "
              "block_copy_gbps weighs them), from a ring/LL collective of NCCL on this GPU (nccl_bench.py "
              "ring_ll); the simulator runs each LL ring channel as such a block",
       .json = Json::when_set, .sweepable = true, .field = endpoint_field<&Endpoint::ll_block_gbps>()});
  // LL's primitives wait on each line's loads: those of a user buffer the L2 holds cost an LL block
  // next to nothing (2 x H200, one channel: reduce-scatter of 8 MiB 13.8 GB/s with its buffers
  // in the L2, 8.4 without, tests/data/real/h200-2gpu-nccl-l2).
  add({.name = "l2_resident_mib", .section = Section::endpoint, .applies = kGpu, .type = Type::number,
       .unit = "MiB", .floor = Floor::positive, .min = 1, .max = 1024,
       .plausible = "tens of MiB: what the GPU's L2 cache keeps of data used over and over",
       .default_text = "none: collectives' buffers are taken to come from the GPU's memory",
       .doc = "measured footprint up to which a device-to-device copy repeated on the same buffers keeps its L2 "
              "rate (tools/record/l2_copy.cu, tools/results/l2_copy.py); a collective's user buffers, with the LL "
              "lines its receive connections hold, up to this size are taken to be in the L2 (up to l2_cache_mib a falling share of them), which speeds up "
              "LL primitives that load them",
       .json = Json::when_set, .sweepable = true, .field = endpoint_field<&Endpoint::l2_resident_mib>()});
  add({.name = "l2_cache_mib", .section = Section::endpoint, .applies = kGpu, .type = Type::number,
       .unit = "MiB", .floor = Floor::positive, .min = 1, .max = 4096,
       .plausible = "the GPU's L2 cache: tens to hundreds of MiB",
       .default_text = "l2_resident_mib",
       .doc = "the GPU's L2 cache capacity (datasheet); between l2_resident_mib and it, the share of a collective's "
              "user buffers taken to be in the L2 falls linearly to none (a repeated copy on an H200 moved 0.90 of "
              "its bytes at the L2's rate at 32 MiB, 0.44 at 40, 0.11 at 48: tools/results/l2_copy.py)",
       .json = Json::when_set, .sweepable = true, .field = endpoint_field<&Endpoint::l2_cache_mib>()});
  // NCCL's send/receive kernel runs NCCL_MAX_NTHREADS = 640 threads a block, against 512 (and a
  // sync warp) for the Simple ring: 35.3 against 30.2 GB/s per block on an H200 while 24 copy.
  add({.name = "p2p_block_copy_gbps", .section = Section::endpoint, .applies = kGpu, .type = Type::number,
       .unit = "GB/s", .floor = Floor::positive, .min = 1, .max = 1000,
       .plausible = "one thread block copies tens of GB/s",
       .default_text = "block_copy_gbps",
       .doc = "measured rate at which one block of 640 copying threads (NCCL's send/receive kernel, "
              "NCCL_MAX_NTHREADS) copies within the GPU's memory while 24 such blocks copy (tools/record/block_copy.cu "
              "--threads 640); the simulator runs alltoall's p2p channels as such blocks",
       .json = Json::when_set, .sweepable = true, .field = endpoint_field<&Endpoint::p2p_block_copy_gbps>()});
  // NCCL's tables say 8.4 us a call and 3.4 us a step for a Simple ring over NVLink; 20
  // back-to-back calls of 8 B-2 KiB on 4 H200s take 14-34 us each (tests/data/real/
  // h200-4gpu-nccl-small). A millisecond is a unit slip.
  add(nccl_kernel_us_key<&Endpoint::nccl_simple_call_us>(
      "nccl_simple_call_us", 0.1, 1000, kKernelCallPlausible,
      "NCCL's baseLat (8.4 us ring, tree)",
      "measured cost of one NCCL Simple-protocol kernel on this GPU beside its data, once per call and rank "
      "(the simulator charges it in place of NCCL's baseLat): found with nccl_simple_step_us as the pair "
      "that makes the simulator reproduce back-to-back tiny calls replayed from a CUDA graph "
      "(nccl_bench.py --variant ring_simple --launch graph --sizes default)"));
  add(nccl_kernel_us_key<&Endpoint::nccl_simple_step_us>(
      "nccl_simple_step_us", 0.01, 1000, kKernelStepPlausible,
      "NCCL's hwLat (3.4 us ring, 4.0 tree over NVLink)",
      "measured cost of one step's handshake between NCCL Simple-protocol kernels on this GPU (in place "
      "of NCCL's hwLat), charged on each step of a call's first loop; see nccl_simple_call_us"));
  add(nccl_kernel_us_key<&Endpoint::nccl_simple_slice_us>(
      "nccl_simple_slice_us", 0.01, 100, "a slice's flag wait, fence and post take about a microsecond or a few",
      "nothing (the blocks' rates alone)",
      "measured fixed cost of each slice a Simple primitive runs on its channel block beside its bytes (ring "
      "allreduce, all-gather and reduce-scatter: 2 slices a chunk above 32 KiB, else 1; the tree allreduce's "
      "chain and the ring broadcast: 1), charged on every slice but the first of a call's first loop (the step "
      "handshake holds that one): from one-channel calls with "
      "three connection-buffer sizes (tools/record/run_nccl_buffsize.sh, python3 tools/results/nccl_slices.py); "
      "the block rates nccl_simple_*_gbps are then solved without it (tools/results/nccl_blocks.py)"));
  add(nccl_kernel_us_key<&Endpoint::nccl_ll_call_us>(
      "nccl_ll_call_us", 0.1, 1000, kKernelCallPlausible,
      "NCCL's baseLat (6.6 us ring, 6.8 tree)",
      "nccl_simple_call_us for NCCL's LL protocol (from nccl_bench.py --variant ring_ll)"));
  add(nccl_kernel_us_key<&Endpoint::nccl_p2p_call_us>(
      "nccl_p2p_call_us", 0.1, 1000, kKernelCallPlausible,
      "the call cost of the alltoall's protocol (nccl_ll_call_us, nccl_simple_call_us or NCCL's baseLat)",
      "measured cost of one call of NCCL's send/receive kernel (an alltoall: grouped sends and receives to "
      "every peer) on this GPU beside its data, in place of its protocol's call cost: the median alltoall "
      "of 8 B-2 KiB replayed from CUDA graphs less nccl_ll_step_us (python3 tools/results/nccl_p2p_call.py)"));
  add(nccl_kernel_us_key<&Endpoint::nccl_ll_step_us>(
      "nccl_ll_step_us", 0.01, 1000, kKernelStepPlausible,
      "NCCL's hwLat (0.6 us over NVLink)",
      "nccl_simple_step_us for NCCL's LL protocol"));
  // One NCCL channel block alone on an H200 loads 139 GB/s, stores 56 GB/s into its GPU's memory
  // and 64 GB/s into its peer's (tools/results/nccl_blocks.py); a whole GPU copies 1-4 TB/s, so
  // more than 1000 GB/s for one block is a unit slip.
  add(block_rate_key<&Endpoint::nccl_simple_load_gbps>(
      "nccl_simple_load_gbps",
      "measured rate at which one NCCL channel's block alone, in the Simple protocol, loads (data bytes). With "
      "the block's rates of stores into this GPU's memory and into a peer's, what a primitive costs it alone: "
      "the sum over its loads, stores and peer stores per element; the blocks of a call then share "
      "nccl_block_memory_gbps. Found from ring allreduce, all-gather and reduce-scatter pinned to one channel "
      "(nccl_bench.py --channels 1; tools/results/nccl_blocks.py)"));
  add(block_rate_key<&Endpoint::nccl_simple_store_gbps>(
      "nccl_simple_store_gbps",
      "measured rate at which one NCCL channel's block alone, in the Simple protocol, "
      "stores into this GPU's memory (data bytes); see nccl_simple_load_gbps"));
  add(block_rate_key<&Endpoint::nccl_simple_peer_store_gbps>(
      "nccl_simple_peer_store_gbps",
      "measured rate at which one NCCL channel's block alone, in the Simple protocol, "
      "stores into a peer GPU's connection buffer (data bytes); see nccl_simple_load_gbps"));
  add(block_rate_key<&Endpoint::nccl_ll128_load_gbps>(
      "nccl_ll128_load_gbps",
      "measured rate at which one NCCL channel's block alone, in the LL128 protocol, "
      "loads (data bytes); see nccl_simple_load_gbps"));
  add(block_rate_key<&Endpoint::nccl_ll128_store_gbps>(
      "nccl_ll128_store_gbps",
      "measured rate at which one NCCL channel's block alone, in the LL128 protocol, "
      "stores into this GPU's memory (data bytes); see nccl_simple_load_gbps"));
  add(block_rate_key<&Endpoint::nccl_ll128_peer_store_gbps>(
      "nccl_ll128_peer_store_gbps",
      "measured rate at which one NCCL channel's block alone, in the LL128 protocol, "
      "stores into a peer GPU's connection buffer (data bytes); see nccl_simple_load_gbps"));
  // The blocks of NCCL's ring calls at their default 24 channels load and store 1.1-1.2 TB/s of
  // data on an H200; its memory reads and writes 4.8 TB/s at most.
  add({.name = "nccl_block_memory_gbps", .section = Section::endpoint, .applies = kGpu, .type = Type::number,
       .unit = "GB/s", .floor = Floor::positive, .min = 10, .max = 100000,
       .plausible = "a GPU's blocks load and store hundreds to thousands of GB/s",
       .default_text = "none: every channel's block copies at block_copy_gbps",
       .doc = "measured rate at which all of an NCCL call's channel blocks on this GPU together load and store data "
              "at most (Simple and LL128; loads, stores and stores into a peer counted alike): the blocks queue "
              "for it, so each keeps less of its alone rate (nccl_simple_*_gbps) the more channels the call runs "
              "on. Found from the longest ring/Simple calls recorded at NCCL's own channel count (4 GiB; "
              "tools/results/nccl_blocks.py)",
       .json = Json::when_set, .sweepable = true, .field = endpoint_field<&Endpoint::nccl_block_memory_gbps>()});
  // A GB200 NVL72 fabric has 18 NVLink switch chips in 9 trays (configs/SOURCES.md [45]); 1024
  // leaves room for fabrics many times larger.
  add({.name = "chips", .section = Section::endpoint, .applies = bit(EndpointKind::nvswitch), .type = Type::integer,
       .min = 1, .max = 1024, .plausible = "an NVSwitch fabric of one node has tens of chips",
       .doc = "switch chips in the fabric (informational)", .field = endpoint_field<&Endpoint::chips>()});
  add({.name = "trays", .section = Section::endpoint, .applies = bit(EndpointKind::nvswitch), .type = Type::integer,
       .min = 1, .max = 1024, .plausible = "an NVSwitch fabric of one node has a few trays",
       .doc = "switch trays of the fabric (informational, not kept)"});
  // 800 Gb/s (100 GB/s) ports ship today (ConnectX-8); 1000 GB/s is 8 Tb/s.
  add({.name = "bandwidth_gbps", .section = Section::endpoint, .applies = bit(EndpointKind::nic), .type = Type::number,
       .unit = "GB/s", .floor = Floor::positive, .min = 0.001, .max = 1000,
       .plausible = "network ports run at up to about 100 GB/s per direction", .doc = "port rate per direction",
       .field = endpoint_field<&Endpoint::nic_gbps>()});

  // Memory. A socket's: the largest two-socket servers hold 6 TB per socket (12 channels x 2 x
  // 256 GB DIMMs); 64 TiB leaves room for CXL-expanded memory. A GPU's: 288 GB (B300, MI355X)
  // today, 1 TB per package announced for Rubin Ultra; more than 1 TiB is a unit slip.
  add({.name = "capacity_gib", .section = Section::memory, .applies = kCpu, .type = Type::number,
       .required = true, .unit = "GiB", .floor = Floor::positive, .min = 0.001, .max = 65536,
       .plausible = "a socket holds at most a few TiB", .doc = "host memory on this socket",
       .todo = "GiB of host memory on this socket", .json = Json::always, .sweepable = true,
       .field = memory_field<&MemorySpec::capacity_gib>()});
  add({.name = "capacity_gib", .section = Section::memory, .applies = kGpu, .type = Type::number,
       .required = true, .unit = "GiB", .floor = Floor::positive, .min = 0.001, .max = 1024,
       .plausible = "no GPU has more than 1 TiB of memory", .doc = "the GPU's memory",
       .todo = "memory.total of nvidia-smi --query-gpu (topo import --gpus-csv fills it)", .json = Json::always, .sweepable = true,
       .field = memory_field<&MemorySpec::capacity_gib>()});
  // A socket's peak: 845 GB/s for 12 channels of MRDIMM-8800 (Xeon 6900P, SOURCES.md [56]); the
  // CPU cores of an MI300A share its 5.3 TB/s of HBM3, the most a CPU sees. A GPU's: 8 TB/s for
  // B200 (SOURCES.md [44]); 100 TB/s is a dozen times that. Below 1 GB/s is slower than one
  // channel of DDR-266 or any GPU's memory.
  add({.name = "bandwidth_gbps", .section = Section::memory, .applies = kCpu, .type = Type::number,
       .required = true, .unit = "GB/s", .floor = Floor::positive, .min = 1, .max = 10000,
       .plausible = "host memory delivers up to a few TB/s per socket", .doc = "peak memory bandwidth of the socket",
       .todo = "peak: channels x MT/s x 8 B", .json = Json::always, .sweepable = true,
       .field = memory_field<&MemorySpec::bandwidth_gbps>()});
  add({.name = "bandwidth_gbps", .section = Section::memory, .applies = kGpu, .type = Type::number,
       .required = true, .unit = "GB/s", .floor = Floor::positive, .min = 1, .max = 100000,
       .plausible = "GPU memory delivers up to about 10 TB/s", .doc = "peak memory bandwidth of the GPU",
       .todo = "datasheet peak memory bandwidth", .json = Json::always, .sweepable = true,
       .field = memory_field<&MemorySpec::bandwidth_gbps>()});
  // A streaming kernel reaches 80-93% of the HBM peak (tests/data/real/*-apps/kernel_rates.csv:
  // 2.84 of 3.35 TB/s on H100, 3.96 of 4.8 on H200; BabelStream's 0.833 of 0.9 on V100, configs/
  // SOURCES.md [65]); above the peak is a unit slip.
  add({.name = "stream_gbps", .section = Section::memory, .applies = kGpu, .type = Type::number, .unit = "GB/s",
       .floor = Floor::positive, .min = 1, .max = 100000, .plausible = "GPU memory delivers up to about 10 TB/s",
       .default_text = "unknown: memory-bound kernels, D2D copies and memsets are priced at the peak bandwidth",
       .doc = "measured rate of a streaming kernel (read + write bytes per second): what memory-bound kernels, D2D copies and memsets reach",
       .todo = "triad kernel rate, read + write (delete if unknown)", .json = Json::when_set, .sweepable = true, .field = memory_field<&MemorySpec::stream_gbps>()});
  // One thread copies 10-15 GB/s on the testbed Xeons (tests/data/real/*/hostcopy.csv) and up to
  // about 100 GB/s on the widest single cores; 1000 GB/s is out of reach of one thread.
  add({.name = "copy_bandwidth_gbps", .section = Section::memory, .applies = kCpu, .type = Type::number,
       .unit = "GB/s", .floor = Floor::positive, .min = 0.1, .max = 1000,
       .plausible = "one thread copies at most about 100 GB/s",
       .default_text = "unknown: pageable copies follow AHEAD's eq. 9",
       .doc = "single-thread memcpy rate, bytes copied per second: what pageable staging runs at",
       .todo = "`linkcast hostprobe` on the node (delete if unknown)", .json = Json::when_set, .sweepable = true,
       .field = memory_field<&MemorySpec::copy_bandwidth_gbps>()});
  // The rates below bound pageable copies by the state of their host end (model::HostRates); they
  // are measured on the machine: `linkcast hostprobe` (no GPU) or `linkcast calibrate TRACE`. One
  // thread copies 1-40 GB/s on the testbed Xeons (tests/data/real/*-apps/hostrates.csv), a pageable
  // copy runs below the link (at most about 250 GB/s, NVLink-C2C); faulting fresh pages in runs at
  // 1-3 GB/s there, above 100 GB/s nowhere.
  add({.name = "warm_copy_gbps", .section = Section::memory, .applies = kCpu, .type = Type::number,
       .unit = "GB/s", .floor = Floor::positive, .min = 0.1, .max = 1000,
       .plausible = "one thread copies at most about 100 GB/s, from its caches a few times more",
       .default_text = "copy_bandwidth_gbps",
       .doc = "single-thread copy rate of a cache-resident source: what a pageable host-to-device copy "
              "of a buffer still in the CPU caches runs at",
       .todo = "`linkcast hostprobe` on the node (delete if unknown)", .json = Json::when_set, .sweepable = true,
       .field = memory_field<&MemorySpec::warm_copy_gbps>()});
  add({.name = "first_touch_gbps", .section = Section::memory, .applies = kCpu, .type = Type::number,
       .unit = "GB/s", .floor = Floor::positive, .min = 0.01, .max = 100,
       .plausible = "copying into fresh pages runs at a few GB/s: every page faults and is zeroed",
       .default_text = "copy_bandwidth_gbps",
       .doc = "single-thread copy rate into fresh pages (each faults and is zeroed during the copy): what a "
              "pageable device-to-host copy into a newly allocated buffer runs at",
       .todo = "`linkcast hostprobe` on the node (delete if unknown)", .json = Json::when_set, .sweepable = true,
       .field = memory_field<&MemorySpec::first_touch_gbps>()});
  add({.name = "pageable_h2d_gbps", .section = Section::memory, .applies = kCpu, .type = Type::number,
       .unit = "GB/s", .floor = Floor::positive, .min = 0.1, .max = 1000,
       .plausible = "a pageable copy runs below its link and one thread's copy rate",
       .default_text = "copy_bandwidth_gbps",
       .doc = "measured rate of pageable host-to-device copies from a source out of the CPU caches (the "
              "driver's staging, its CPU copy and the DMA overlapped)",
       .todo = "`linkcast calibrate TRACE` of a trace recorded on the node (delete if unknown)", .json = Json::when_set,
       .sweepable = true, .field = memory_field<&MemorySpec::pageable_h2d_gbps>()});
  add({.name = "pageable_d2h_gbps", .section = Section::memory, .applies = kCpu, .type = Type::number,
       .unit = "GB/s", .floor = Floor::positive, .min = 0.1, .max = 1000,
       .plausible = "a pageable copy runs below its link and one thread's copy rate",
       .default_text = "copy_bandwidth_gbps",
       .doc = "measured rate of pageable device-to-host copies into pages used before (a reused buffer); the "
              "driver's copy-out is not a plain memcpy and may beat copy_bandwidth_gbps",
       .todo = "`linkcast calibrate TRACE` of a trace recorded on the node (delete if unknown)", .json = Json::when_set,
       .sweepable = true, .field = memory_field<&MemorySpec::pageable_d2h_gbps>()});

  // Links.
  add({.name = "between", .section = Section::link, .type = Type::endpoints, .required = true,
       .doc = "the two endpoints it joins, e.g. [cpu0, gpu0]"});
  add({.name = "type", .section = Section::link, .type = Type::choice, .required = true,
       .choices = &model::link_type_names, .doc = "the link technology; the other keys depend on it"});
  add({.name = "id", .section = Section::link, .type = Type::text, .default_text = "`<a>-<b>`, then `<a>-<b>#2`, ...",
       .doc = "name in outputs and axis paths"});
  add({.name = "gen", .section = Section::link, .applies = kPcie, .type = Type::integer, .required = true,
       .allowed = {1, 2, 3, 4, 5, 6}, .doc = "PCIe generation (6 runs in flit mode)", .json = Json::always,
       .sweepable = true, .field = pcie_field<&model::PcieParams::gen>()});
  add({.name = "lanes", .section = Section::link, .applies = kPcie, .type = Type::integer, .required = true,
       .allowed = {1, 2, 4, 8, 16, 32}, .doc = "link width", .json = Json::always, .sweepable = true,
       .field = pcie_field<&model::PcieParams::lanes>()});
  add({.name = "mps", .section = Section::link, .applies = kPcie, .type = Type::integer, .unit = "bytes",
       .allowed = kPcieSizes, .default_text = "256", .doc = "Max Payload Size of a write TLP", .json = Json::always,
       .sweepable = true, .field = pcie_field<&model::PcieParams::mps_bytes>()});
  add({.name = "mrrs", .section = Section::link, .applies = kPcie, .type = Type::integer, .unit = "bytes",
       .allowed = kPcieSizes, .default_text = "512", .doc = "Max Read Request Size", .json = Json::always,
       .sweepable = true, .field = pcie_field<&model::PcieParams::mrrs_bytes>()});
  add({.name = "rcb", .section = Section::link, .applies = kPcie, .type = Type::integer, .unit = "bytes",
       .allowed = {64, 128}, .default_text = "64", .doc = "Read Completion Boundary: the data each completion carries",
       .json = Json::always, .sweepable = true, .field = pcie_field<&model::PcieParams::rcb_bytes>()});
  add({.name = "addressing", .section = Section::link, .applies = kPcie, .type = Type::integer, .unit = "bits",
       .allowed = {32, 64}, .default_text = "64", .doc = "TLP addressing: 32 gives 3DW request headers, 64 4DW",
       .json = Json::always, .sweepable = true, .field = pcie_field<&model::PcieParams::addressing_bits>()});
  add({.name = "version", .section = Section::link, .applies = kNvlink, .type = Type::integer, .required = true,
       .allowed = {1, 2, 3, 4, 5}, .doc = "NVLink generation", .json = Json::always, .sweepable = true,
       .field = nvlink_field<&model::NvlinkParams::version>()});
  // A GPU has at most 18 NVLinks (H100, B200); DGX-2's baseboards are joined by 48 (configs/dgx2.yaml).
  add({.name = "count", .section = Section::link, .applies = kNvlink, .type = Type::integer, .required = true,
       .floor = Floor::one, .floor_note = "the number of NVLinks", .min = 1, .max = 1024,
       .plausible = "a GPU has at most 18 NVLinks and a bundle between boards a few dozen",
       .doc = "NVLinks (bricks) between the two endpoints", .json = Json::always, .sweepable = true,
       .field = nvlink_field<&model::NvlinkParams::count>()});
  // 20 GB/s (NVLink1) to 50 GB/s (NVLink5) per link per direction (model/link.hpp).
  add({.name = "per_link_gbps", .section = Section::link, .applies = kNvlink, .type = Type::number, .unit = "GB/s",
       .floor = Floor::positive, .min = 0.1, .max = 1000, .plausible = "one NVLink carries 20 to 50 GB/s per direction",
       .default_text = per_link_defaults(), .doc = "rate of one link per direction",
       .sweepable = true, .field = nvlink_field<&model::NvlinkParams::per_link_gbps>()});
  // NVLink-C2C carries 450 GB/s per direction (SOURCES.md [40]); 10 TB/s is twenty times that.
  add({.name = "bandwidth_gbps", .section = Section::link, .applies = generic_links(), .type = Type::number,
       .required = true, .unit = "GB/s", .floor = Floor::positive, .min = 0.01, .max = 10000,
       .plausible = "chip-to-chip links carry up to about 1 TB/s per direction", .doc = "bandwidth per direction",
       .todo = "per direction", .sweepable = true, .field = link_field<&model::LinkSpec::generic_gbps>()});
  // Hops inside a node take 100 ns to a few microseconds (configs/SOURCES.md, research item 2).
  add({.name = "latency_ns", .section = Section::link, .type = Type::number, .unit = "ns", .floor = Floor::zero,
       .min = 0, .max = 1e6, .plausible = "a hop inside a node takes nanoseconds to microseconds",
       .default_text = latency_defaults(),
       .doc = "one-way latency; routes take the lowest total", .json = Json::always, .sweepable = true,
       .field = link_field<&model::LinkSpec::latency_ns>()});

  // Calibration: one key per copy class. Measured 1-byte costs are 1-10 us (tests/data/real,
  // AHEAD's traces); below 1 ns or above 0.1 s is a unit slip.
  static const auto calibration_names = [] {
    std::array<std::string, model::kCopyClassCount> n;
    for (std::size_t c = 0; c < n.size(); ++c) n[c] = std::string(to_string(static_cast<model::CopyClass>(c))) + "_ns";
    return n;
  }();
  for (std::size_t c = 0; c < model::kCopyClassCount; ++c) {
    Key k{.name = calibration_names[c], .section = Section::calibration, .type = Type::number, .unit = "ns",
          .floor = Floor::positive, .min = 1, .max = 1e8, .plausible = "a 1-byte copy costs microseconds",
          .doc = "measured cost of a 1-byte copy of this class (`linkcast calibrate` prints them)"};
    k.field.calibration_slot = static_cast<int>(c);
    add(std::move(k));
  }

  // Routes.
  add({.name = "from", .section = Section::route, .type = Type::endpoint, .required = true, .doc = "the source"});
  add({.name = "to", .section = Section::route, .type = Type::endpoint, .required = true, .doc = "the destination"});
  add({.name = "via", .section = Section::route, .type = Type::endpoints, .required = true,
       .doc = "the intermediate endpoints, in order; each hop must be a link of the node"});
  add({.name = "symmetric", .section = Section::route, .type = Type::boolean, .default_text = "true",
       .doc = "also route to -> from the reverse way"});
  return t;
}

const std::vector<Key>& table() {
  static const std::vector<Key> t = make_table();
  return t;
}

template <typename Pred>
std::vector<const Key*> select(Pred pred) {
  std::vector<const Key*> out;
  for (const Key& k : table())
    if (pred(k)) out.push_back(&k);
  return out;
}

std::vector<std::string> unique_names(const std::vector<const Key*>& keys) {
  std::vector<std::string> out;
  for (const Key* k : keys)
    if (std::find(out.begin(), out.end(), k->name) == out.end()) out.emplace_back(k->name);
  return out;
}

constexpr std::size_t kKinds = kEndpointKindCount;
constexpr std::size_t kLinkTypes = 9;
static_assert(kLinkTypes == static_cast<std::size_t>(model::LinkType::generic) + 1, "kLinkTypes counts every LinkType");

std::string number_text(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{:.0f}", v);
  return fmt::format("{:g}", v);
}

std::string allowed_text(const std::vector<int>& allowed) {
  std::vector<std::string> names;
  for (int a : allowed) names.push_back(std::to_string(a));
  return join(names, ", ");
}

std::string with_unit(double v, std::string_view unit) {
  return unit.empty() ? number_text(v) : fmt::format("{} {}", number_text(v), unit);
}

}  // namespace

std::string_view to_string(Section s) {
  switch (s) {
    case Section::top: return "top level";
    case Section::source: return "sources";
    case Section::endpoint: return "endpoints";
    case Section::memory: return "memory";
    case Section::link: return "links";
    case Section::calibration: return "calibration";
    case Section::route: return "routes";
  }
  return "top level";
}

Applies generic_links() {
  Applies a = 0;
  for (std::size_t t = 0; t < kLinkTypes; ++t)
    if (model::is_generic(static_cast<model::LinkType>(t))) a |= bit(static_cast<model::LinkType>(t));
  return a;
}

std::span<const Key> keys() { return table(); }

namespace {

constexpr std::array kSections = {Section::top,    Section::source,      Section::endpoint, Section::memory,
                                  Section::link,   Section::calibration, Section::route};
static_assert(kSections.size() == static_cast<std::size_t>(Section::route) + 1, "kSections lists every Section");

/// Index of a (section, kind or type) selection in the cache below; `which` 15 is "every key of
/// the section".
static_assert(kKinds < 15 && kLinkTypes < 15);
constexpr std::size_t slot(Section s, std::size_t which) { return static_cast<std::size_t>(s) * 16 + which; }

const std::vector<std::vector<const Key*>>& selections() {
  static const auto all = [] {
    std::vector<std::vector<const Key*>> out(kSections.size() * 16);
    for (Section s : kSections) {
      out[slot(s, 15)] = select([&](const Key& k) { return k.section == s; });
      for (std::size_t i = 0; i < kKinds; ++i)
        out[slot(s, i)] = select([&](const Key& k) { return k.section == s && k.applies_to(static_cast<EndpointKind>(i)); });
    }
    for (std::size_t t = 0; t < kLinkTypes; ++t)
      out[slot(Section::link, t)] =
          select([&](const Key& k) { return k.section == Section::link && k.applies_to(static_cast<model::LinkType>(t)); });
    return out;
  }();
  return all;
}

}  // namespace

const std::vector<const Key*>& keys_of(Section s) { return selections()[slot(s, 15)]; }
const std::vector<const Key*>& keys_of(Section s, EndpointKind kind) {
  return selections()[slot(s, static_cast<std::size_t>(kind))];
}
const std::vector<const Key*>& keys_of(Section s, model::LinkType type) {
  return selections()[slot(s, static_cast<std::size_t>(type))];
}

const std::vector<std::string>& names(Section s) {
  static const auto all = [] {
    std::map<Section, std::vector<std::string>> m;
    for (Section sec : kSections) m[sec] = unique_names(keys_of(sec));
    return m;
  }();
  return all.at(s);
}

const std::vector<std::string>& names(Section s, EndpointKind kind) {
  static const auto all = [] {
    std::map<std::pair<Section, std::size_t>, std::vector<std::string>> m;
    for (Section sec : {Section::endpoint, Section::memory})
      for (std::size_t k = 0; k < kKinds; ++k) m[{sec, k}] = unique_names(keys_of(sec, static_cast<EndpointKind>(k)));
    return m;
  }();
  return all.at({s, static_cast<std::size_t>(kind)});
}

const std::vector<std::string>& names(Section s, model::LinkType type) {
  static const auto all = [] {
    std::map<std::pair<Section, std::size_t>, std::vector<std::string>> m;
    for (std::size_t t = 0; t < kLinkTypes; ++t) {
      const auto lt = static_cast<model::LinkType>(t);
      std::vector<const Key*> keys = keys_of(Section::link, lt);  // a copy, reordered below
      std::stable_partition(keys.begin(), keys.end(), [](const Key* k) { return k->applies == kEvery; });
      m[{Section::link, t}] = unique_names(keys);
    }
    return m;
  }();
  return all.at({s, static_cast<std::size_t>(type)});
}

const Key* find(Section s, std::string_view name) {
  for (const Key& k : table())
    if (k.section == s && k.name == name) return &k;
  return nullptr;
}
const Key* find(Section s, std::string_view name, EndpointKind kind) {
  for (const Key& k : table())
    if (k.section == s && k.name == name && k.applies_to(kind)) return &k;
  return nullptr;
}
const Key* find(Section s, std::string_view name, model::LinkType type) {
  for (const Key& k : table())
    if (k.section == s && k.name == name && k.applies_to(type)) return &k;
  return nullptr;
}

std::string endpoint_kinds_text(Applies a) {
  std::vector<std::string> kinds;
  for (std::size_t k = 0; k < kKinds; ++k)
    if ((a & bit(static_cast<EndpointKind>(k))) != 0) kinds.push_back(std::string(to_string(static_cast<EndpointKind>(k))) + "s");
  return kinds.size() == kKinds ? "every endpoint" : join(kinds, " and ");
}

std::string link_types_text(Applies a) {
  if (a == kEvery) return "every";
  if (a == generic_links()) return "generic (xbus, upi, qpi, infinity_fabric, nvlink_c2c, ...)";
  std::vector<std::string> types;
  for (std::size_t t = 0; t < kLinkTypes; ++t)
    if ((a & bit(static_cast<model::LinkType>(t))) != 0) types.emplace_back(model::to_string(static_cast<model::LinkType>(t)));
  return join(types, ", ");
}

// --- values --------------------------------------------------------------------------------------

std::variant<double, Problem> check(const Key& key, std::string_view text) {
  std::string_view t = text;
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  std::string_view digits = t;
  if (!digits.empty() && (digits.front() == '+' || digits.front() == '-')) digits.remove_prefix(1);
  if (digits.starts_with("0x") || digits.starts_with("0X")) {
    // strtod reads hexadecimal (and the old loader used it, so '0x10' was 16): name the decimal.
    const std::string s(t);
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end == s.c_str() + s.size() && std::isfinite(v))
      return Problem{Problem::Code::hexadecimal, v, number_text(v)};
    return Problem{Problem::Code::not_number};
  }
  const std::string_view number = !t.empty() && t.front() == '+' ? t.substr(1) : t;
  double v = 0;
  const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
  if (number.empty() || ec != std::errc() || ptr != number.data() + number.size())
    return Problem{Problem::Code::not_number};
  if (!std::isfinite(v)) return Problem{Problem::Code::not_finite, v};
  if (key.type == Type::integer && (v != std::floor(v) || std::fabs(v) > 1e9)) return Problem{Problem::Code::not_whole, v};
  const bool below = (key.floor == Floor::positive && v <= 0) || (key.floor == Floor::zero && v < 0) ||
                     (key.floor == Floor::one && v < 1);
  if (below) return Problem{Problem::Code::below_floor, v};
  if (!key.allowed.empty() && std::find(key.allowed.begin(), key.allowed.end(), static_cast<int>(v)) == key.allowed.end())
    return Problem{Problem::Code::not_allowed, v};
  if (v < key.min || v > key.max) return Problem{Problem::Code::implausible, v};
  return v;
}

std::string loader_message(const Key& key, const Problem& p, std::string_view what, std::string_view text) {
  switch (p.code) {
    case Problem::Code::not_number: return fmt::format("{} must be a number, got '{}'", what, text);
    case Problem::Code::hexadecimal:
      return fmt::format("{} must be a decimal number, got '{}' (hexadecimal); write {}", what, text, p.decimal);
    case Problem::Code::not_finite: return fmt::format("{} must be finite, got '{}'", what, text);
    case Problem::Code::not_whole: return fmt::format("{} must be a whole number, got {}", what, text);
    case Problem::Code::below_floor:
      if (key.floor == Floor::positive)
        return fmt::format("{} must be > 0, got {}; give the real value from the datasheet", what, text);
      if (key.floor == Floor::zero) return fmt::format("{} must be >= 0", what);
      if (!key.floor_note.empty())
        return fmt::format("{} must be >= 1 ({}), got {}", what, key.floor_note, static_cast<int>(p.value));
      return fmt::format("{} must be >= 1", what);
    case Problem::Code::not_allowed:
      return fmt::format("{} must be one of {}, got {}", what, allowed_text(key.allowed), static_cast<int>(p.value));
    case Problem::Code::implausible:
      return fmt::format("{} must be between {} and {}, got {}: {}; check the value and its unit", what,
                         number_text(key.min), with_unit(key.max, key.unit), text, key.plausible);
  }
  return fmt::format("{} is not valid", what);
}

std::string editor_message(const Key& key, const Problem& p, std::string_view what, std::string_view text) {
  switch (p.code) {
    case Problem::Code::not_number:
    case Problem::Code::hexadecimal:
    case Problem::Code::not_finite: return fmt::format("{}: '{}' is not a number", what, text);
    case Problem::Code::not_whole: return fmt::format("{}: {} is not a whole number", what, text);
    case Problem::Code::below_floor:
      return fmt::format("{}: {} must be {}", what, text,
                         key.floor == Floor::positive ? "> 0" : key.floor == Floor::zero ? ">= 0" : ">= 1");
    case Problem::Code::not_allowed: return fmt::format("{}: {} is not one of {}", what, text, allowed_text(key.allowed));
    case Problem::Code::implausible:
      return fmt::format("{}: {} is outside {}..{}: {}", what, text, number_text(key.min), with_unit(key.max, key.unit),
                         key.plausible);
  }
  return fmt::format("{}: {} is not valid", what, text);
}

// --- SCHEMA.md -----------------------------------------------------------------------------------

namespace {

std::string value_text(const Key& k) {
  switch (k.type) {
    case Type::text: return "text";
    case Type::boolean: return "true or false";
    case Type::choice: {
      std::string s;
      for (const std::string& c : k.choices()) s += (s.empty() ? "" : " \\| ") + ("`" + c + "`");
      return s;
    }
    case Type::endpoint: return "an endpoint id";
    case Type::endpoints: return k.name == "between" ? "two endpoint ids" : "a list of endpoint ids";
    case Type::mapping: return fmt::format("a mapping ({})", to_string(k.holds));
    case Type::list: return fmt::format("a list of mappings ({})", to_string(k.holds));
    case Type::integer:
    case Type::number: break;
  }
  std::string s = k.type == Type::integer ? "whole number" : "number";
  if (!k.allowed.empty()) return s + ": " + allowed_text(k.allowed);
  if (k.floor == Floor::positive) s += " > 0";
  if (k.floor == Floor::zero) s += " >= 0";
  if (k.floor == Floor::one) s += " >= 1";
  if (std::isfinite(k.max)) s += fmt::format(", plausible {}..{}", number_text(k.min), number_text(k.max));
  return s;
}

std::string applies_text(const Key& k) {
  if (k.applies == kEvery) return "";
  if (k.section == Section::link) return link_types_text(k.applies);
  std::vector<std::string> kinds;
  for (std::size_t i = 0; i < kKinds; ++i)
    if ((k.applies & bit(static_cast<EndpointKind>(i))) != 0) kinds.emplace_back(to_string(static_cast<EndpointKind>(i)));
  return join(kinds, ", ");
}

}  // namespace

std::string markdown() {
  std::string out;
  for (Section s : {Section::top, Section::endpoint, Section::memory, Section::link, Section::calibration,
                    Section::route, Section::source}) {
    out += fmt::format("\n**{}**\n\n", s == Section::top ? "top level" : fmt::format("`{}:`", to_string(s)));
    out += "| key | for | value | unit | required | default | description | sweep |\n";
    out += "|---|---|---|---|---|---|---|---|\n";
    for (const Key* k : keys_of(s)) {
      out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} | {} |\n", k->name, applies_text(*k), value_text(*k),
                         k->unit, k->required ? "yes" : "", k->default_text, k->doc, k->sweepable ? "yes" : "");
    }
  }
  return out;
}

std::optional<std::string> endpoint_values_problem(const Endpoint& e) {
  if (e.kind == EndpointKind::gpu && e.memory.stream_gbps > 0 && e.memory.bandwidth_gbps > 0 &&
      e.memory.stream_gbps > e.memory.bandwidth_gbps)
    return fmt::format("gpu '{}': memory.stream_gbps {:g} is above its memory.bandwidth_gbps {:g}, the peak; a "
                       "streaming kernel reaches 80-93% of the peak: give the rate one measured, or delete it",
                       e.id, e.memory.stream_gbps, e.memory.bandwidth_gbps);
  return std::nullopt;
}

}  // namespace linkcast::topology::schema
