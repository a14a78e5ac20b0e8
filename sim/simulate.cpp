#include "sim/simulate.hpp"

#include <boost/container/small_vector.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <limits>
#include <map>
#include <set>
#include <optional>
#include <unordered_map>

#include "core/error.hpp"
#include "core/strings.hpp"
#include "core/progress.hpp"
#include "core/random.hpp"
#include "core/units.hpp"
#include "model/packet.hpp"
#include "nccl/blocks.hpp"
#include "sim/app_graph.hpp"
#include "sim/engine.hpp"
#include "sim/solver.hpp"
#include "topology/placement.hpp"
#include "topology/routing.hpp"

namespace linkcast::sim {

using model::CopyClass;
using topology::EndpointKind;
using trace::OpKind;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
/// Host-memory bytes a device's DMA write into host memory costs per byte written. Writes that
/// land in DRAM cost more than reads: four H200s writing 256 MiB each into one Emerald Rapids
/// socket at once moved 159 GB/s in all (44% of its DDR5 peak), reading 206 GB/s
/// (tests/data/real/h200-4gpu, all_d2h / all_h2d); 2 is the round factor that puts writes at
/// half the peak. An assumption the recordings support, not a fit per pattern.
constexpr double kDmaWriteCost = 2.0;

/// Wire bytes per data byte a model charges on one link (its packet accounting), >= 1.
double hop_weight(const model::Model& m, const model::LinkSpec& hop, const model::Transfer& t) {
  const double eff = m.hop_effective_gbps(hop, t);
  return eff > 0 ? std::max(hop.gbps() / eff, 1.0) : 1.0;
}

/// The rate limits and costs of one transfer, ready for Engine::add_transfer.
struct TransferPlan {
  RouteId route = 0;
  /// The engine's spec of this plan's flows, once a transfer used it (add_copy): the copies of one
  /// plan share it.
  FlowSpecId flow_spec = kNoFlowSpec;
  boost::container::small_vector<double, 8> weights;  // per hop (routes of up to 8 hops: no allocation)
  double cap = kInf;
  double fixed_ns = 0;
};

class Simulation {
 public:
  Simulation(const topology::Node& node, const trace::Trace& trace, const SimOptions& options)
      : node_(node),
        trace_(trace),
        options_(options),
        model_(options.model ? *options.model : model::find_model("default")),
        routes_(node, topology::Routes::Compute::on_demand),
        solver_(make_solver(options.solver)),
        net_(*solver_),
        engine_(net_),
        plan_cache_(std::min(std::bit_ceil(std::max<std::size_t>(trace.size(), 1)), kMaxPlanCacheSlots)) {
    for (const topology::Link& l : node.links) {
      net_.add_resource(l.spec.gbps());
      net_.add_resource(l.spec.gbps());
    }
    memory_.assign(node.endpoints.size(), kNoResource);
    for (std::size_t e = 0; e < node.endpoints.size(); ++e)
      if (node.endpoints[e].memory.bandwidth_gbps > 0) memory_[e] = net_.add_resource(node.endpoints[e].memory.bandwidth_gbps);
    net_.record_series(options.keep_transfers);  // the timeline's link load
  }

  SimResult run();

 private:
  static constexpr ResourceId kNoResource = std::numeric_limits<ResourceId>::max();

  struct Pair {
    bool ready = false;
    model::PathSpec spec;
    std::vector<ResourceId> hops;
    std::vector<model::LinkSpec> hop_specs;  // the link hops (empty for a memory route)
    double host_weight = 0;  // > 0: the last hop is host memory, this many bytes per data byte
    RouteId route = 0;
  };

  /// A collective call's launch and join task per rank.
  struct RankTasks {
    std::vector<TaskId> launch, join;
  };
  /// What every transfer of one collective call shares.
  struct CallContext {
    std::uint64_t comm_key;  // trace::communicator_key
    std::size_t index;       // into collectives_
    std::size_t record;      // the call's first record, for messages
    const nccl::ProtocolCost& cost;
    const RankTasks& tasks;
    /// > 0: every channel is a thread block copying at this rate (the GPUs' block_copy_gbps): its
    /// sends and the chunks its rank receives last share it (add_drain).
    double block_gbps = 0;
    double rank_bus_gbps = 0;  // with block_gbps: what a rank's channels carry together (NCCL's bus bandwidth)
    double rank_bus_weight = 1.0;  // per byte a step moves: its wire bytes, or its data (NCCL's own figure)
    /// With block_gbps, where the GPUs give them: the blocks' rates per memory operation and their
    /// GPU's ceiling. A primitive then costs its block what its operations cost it alone, and each
    /// rank's blocks keep the share of that rate that the call's blocks on its GPU leave them.
    nccl::BlockRates rates;
    /// Per comm rank, with rates: the share of its alone rate each of its blocks keeps (set per
    /// ring part by add_ring_steps).
    std::vector<double> block_share;
    /// LL calls: the share of their user buffers the GPUs' L2 holds (l2_resident_mib), whose
    /// loads then cost the blocks nothing (nccl::ll_l2_free_loads).
    double l2_share = 0;
    /// Simple calls where the GPUs give it (nccl_simple_slice_us): what each slice a primitive runs
    /// costs its block beside its bytes.
    double slice_ns = 0;
    /// The block time of the slices one primitive runs on a chunk of `bytes` in loop `chunk`, beside
    /// its bytes: every slice but, in the first loop, the one the step's handshake
    /// (step_latency_ns) already holds, as the tiny calls that measured it ran one slice a primitive.
    [[nodiscard]] double slices_ns(const CollectiveResult& c, std::uint64_t bytes, std::uint32_t chunk) const {
      if (slice_ns <= 0) return 0;
      const int slices = nccl::simple_slices(c.kind, c.algo, bytes) - (chunk == 0 ? 1 : 0);
      return slices > 0 ? slices * slice_ns : 0.0;
    }
    /// What one byte of a primitive with these operations takes of its block's capacity, of which
    /// `l2_free_loads` user-buffer loads are free where the L2 holds the buffer.
    [[nodiscard]] double block_weight(const nccl::MemoryOps& ops, int l2_free_loads = 0) const {
      return rates.known() ? rates.alone_ns_per_byte(ops) : (ops.total() - l2_share * l2_free_loads) / 2.0;
    }
    /// The capacity of rank `rank`'s channel blocks: block_gbps, or with rates its share.
    [[nodiscard]] double block_capacity(int rank) const {
      return rates.known() ? block_share.at(static_cast<std::size_t>(rank)) : block_gbps;
    }
  };

  std::string where(std::size_t i) const {
    return trace_.locate_record(i);
  }
  /// The path class of record `record`'s transfer; a pair of endpoints no transfer runs between
  /// (a NIC) is refused naming the record.
  model::PathClass path_class(int src, int dst, std::size_t record) const {
    try {
      return topology::path_class(node_, src, dst);
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}: {}", where(record), e.what()));
    }
  }
  int resolve(std::uint16_t id, std::uint16_t other, std::size_t record) const;
  int resolve_name(const std::string& name, std::size_t record) const;
  /// The node endpoints of a GPU-side operation: its ends, and the device whose stream runs it.
  struct Endpoints {
    int issuer, src, dst;
  };
  Endpoints endpoints_of(std::size_t record) const;
  Pair& pair(int src, int dst, std::size_t record);
  /// What the model prices for copy `op` over a path of class `cls`: a pageable one (`pageable`,
  /// between a GPU and host memory) with the host regime its trace shows (trace::recorded_regime).
  model::Transfer recorded_transfer(const trace::Op& op, model::PathClass cls, bool pageable) const;
  /// The plan of transfer `t` from `src` to `dst` (`pageable`: it pays the pageable class's fixed
  /// cost): price_transfer's, or the same one kept from an identical transfer lately. The
  /// reference holds until the next call.
  TransferPlan& plan_transfer(int src, int dst, const model::Transfer& t, bool pageable, std::size_t record);
  /// Its route, rate cap, per-hop weights and fixed cost under the model.
  TransferPlan price_transfer(int src, int dst, const model::Transfer& t, bool pageable, std::size_t record);
  double fixed_cost(CopyClass cls, const Pair& p) const;
  /// The tasks run() adds for the trace's records besides its collectives (each of them one, a
  /// runtime call two or four, launched work one more in a replay), so that the engine holds them
  /// without regrowing.
  std::size_t tasks_for_records() const;
  /// Whether SimOptions::durations_ns gives record i's duration (add_given_duration).
  bool has_given_duration(std::size_t i) const {
    return i < options_.durations_ns.size() && std::isfinite(options_.durations_ns[i]) && options_.durations_ns[i] >= 0;
  }
  /// Record i's given duration over its recorded one (1 where it has none): what a wait measured
  /// against its recorded time scales by in the replay.
  double given_over_recorded(std::size_t i) const {
    const std::int64_t recorded = trace_.durations()[i];
    return has_given_duration(i) && recorded > 0 ? options_.durations_ns[i] / static_cast<double>(recorded) : 1.0;
  }
  void add_copy(std::size_t i);
  /// GPU work whose duration is given (SimOptions::durations_ns): a flow of its bytes capped to
  /// take that long alone, or a delay.
  void add_given_duration(std::size_t i, double ns);
  /// Application replay: a kernel, a runtime call, an annotation (a placeholder: replayed from
  /// the calls inside it after the run).
  void add_kernel(std::size_t i);
  void add_runtime_call(std::size_t i);
  /// Application replay: launch edges, waits across streams, blocking calls.
  void link_application();
  /// Pairs the recvs from one GPU to another with their sends (both in record order).
  void pair_sends_and_recvs(const std::vector<std::size_t>& sends, const std::vector<std::size_t>& recvs,
                            std::unordered_map<std::size_t, std::size_t>& send_of_recv) const;
  /// Refuses a recv paired with a send of another size (send_of_recv_), naming both records.
  void check_pairs_agree() const;
  PoolId sm_pool(int gpu);
  /// The critical path back from the GPU work or call that ended last (an annotation is a span
  /// around work, not a task: a trace whose NVTX range outlasts its calls would otherwise get a
  /// path of nothing); empty where no record is work.
  std::vector<PathStep> critical_path_of_last_work() const;
  void collect_application(SimResult& r, const std::vector<PathStep>& critical_path) const;
  void attribute_critical_path(const std::vector<PathStep>& path, ApplicationResult& a) const;
  /// Whether runtime call i follows another call (on its thread, one that woke it, or the call it
  /// runs inside): it is then one task, waiting its CPU gap after that call (Engine::set_lag);
  /// a thread's first call waits its gap from the start in a task of its own.
  bool call_follows_another(std::size_t i) const {
    return app_.chain_prev[i] != trace::kNoIndex || app_.woken_by[i] != trace::kNoIndex ||
           app_.parent[i] != trace::kNoIndex;
  }
  /// Whether launched GPU work i waits for its launch in a task of its own: a flow has no lag.
  static bool launch_has_own_task(trace::OpKind kind) {
    return trace::moves_data(kind) && !trace::is_collective(kind);
  }
  void add_collectives();
  /// One collective call (the ranks' records of the k-th call on a communicator), as NCCL runs it.
  void add_call(const std::vector<std::size_t>& records, std::size_t call_index);
  /// The call's result so far (kind, size, communicator, GPUs, records), after checking that its
  /// ranks agree; `record_of_rank`: each rank's record, -1 for a rank the trace lacks.
  CollectiveResult gather_call(const std::vector<std::size_t>& records,
                               std::vector<std::int64_t>& record_of_rank);
  const nccl::CommTopology& comm_topology(const std::vector<int>& gpus);
  /// NCCL's algorithm and protocol for the call (or the ones asked for) and NCCL's price for them.
  void choose_protocol(CollectiveResult& c, const nccl::CommTopology& topo, std::size_t record) const;
  /// Synthetic workloads: `launch` waits for the GPU's process to issue the call (collective_call_us).
  void wait_for_issue(int gpu, TaskId launch);
  /// A Simple or LL call's per-call and per-step costs from its GPUs' measured values, where they have them.
  void measured_kernel_costs(const CollectiveResult& c, nccl::ProtocolCost& cost) const;
  /// The largest value of a per-GPU node key over the call's GPUs (the slowest GPU's cost); 0 where
  /// the call has no GPU or one of them does not give the key.
  double slowest_gpu_value(const CollectiveResult& c, double topology::Endpoint::*key) const;
  /// Whether the block model prices this call's algorithm and protocol (NCCL's ring kernels, the
  /// chain allreduce but in LL128, for the collectives send_memory_ops knows).
  static bool blocks_apply(const CollectiveResult& c);
  /// The block model's copy rate for this call (CallContext::block_gbps); 0 when it does not apply.
  double block_copy_gbps(const CollectiveResult& c) const;
  /// The block model's rates per memory operation for this call, where every GPU of it gives them
  /// (the slowest GPU's); unknown where they do not apply.
  nccl::BlockRates block_rates(const CollectiveResult& c) const;
  /// LL calls on blocks (block_copy_gbps > 0): the share of their user buffers the GPUs' L2 holds
  /// (CallContext::l2_share).
  double ll_l2_share(const CollectiveResult& c) const;
  /// The decomposition's view of call `c` on a communicator of `comm_channels` channels.
  nccl::CollectiveSpec collective_spec(const CollectiveResult& c, int comm_channels) const;
  /// Simple calls whose primitives run slices (nccl::simple_slices): the slowest GPU's
  /// nccl_simple_slice_us in ns, where every GPU of the call gives it; else 0 (CallContext::slice_ns).
  double simple_slice_ns(const CollectiveResult& c) const;
  /// Per comm rank: the share of its alone rate each of its channel blocks keeps while the call's
  /// `blocks` blocks on its GPU run decomposition `d` of a ring part (nccl::shared_block_speed).
  std::vector<double> block_shares(const CollectiveResult& c, const std::vector<int>& ring,
                                   const nccl::Decomposition& d, int blocks, const CallContext& call) const;
  /// The resource of a rank's channel: NCCL's per-channel bandwidth, or its block (block model).
  ResourceId channel_engine(const CollectiveResult& c, int rank, std::uint32_t channel, const CallContext& call);
  /// A chunk's last receive on rank `rank`'s channel block (block model).
  TaskId add_drain(const CollectiveResult& c, int rank, std::uint32_t channel, const nccl::CollStep& step,
                   nccl::MemoryOps ops, int l2_free_loads, const CallContext& call);
  /// A launch (after `base_latency_ns`) and a join per rank; ranks the trace did not record
  /// launch with the first that it did, and no earlier than a recorded rank waited for them.
  RankTasks add_rank_tasks(const CollectiveResult& c, const std::vector<std::int64_t>& record_of_rank,
                           double base_latency_ns, std::uint64_t comm_key);
  /// How long recorded `record` of a call that lacks ranks waited for them from its launch.
  double unrecorded_wait_ns(const CollectiveResult& c, std::size_t record, double base_latency_ns) const;
  /// The nccl-model baseline: the ranks are busy for NCCL's predicted time once all launched.
  void add_nccl_model_call(const CollectiveResult& c, const RankTasks& tasks);
  /// The call's data split over the rings of its channels, every step of each a transfer.
  void add_ring_transfers(CollectiveResult& c, int root, const nccl::CommTopology& topo,
                          const nccl::CollectiveSpec& spec, const CallContext& call);
  /// The steps of the call's part on one ring; returns how many.
  std::size_t add_ring_steps(const CollectiveResult& c, const std::vector<int>& ring, const nccl::CollectiveSpec& part,
                             std::uint32_t channel_base, const CallContext& call);
  TaskId add_local_step(int gpu, double bytes, std::size_t record);
  TaskId add_peer_step(const CollectiveResult& c, int gs, int gd, std::size_t rank, std::uint32_t channel,
                       const nccl::CollStep& step, const CallContext& call, nccl::MemoryOps ops, int l2_free_loads);
  void collect(SimResult& r);
  PoolId pool_for(int gpu, model::PathClass cls);

  const topology::Node& node_;
  const trace::Trace& trace_;
  const SimOptions& options_;
  const model::Model& model_;
  topology::Routes routes_;
  std::unique_ptr<Solver> solver_;
  FlowNetwork net_;
  Engine engine_;
  std::vector<ResourceId> memory_;
  mutable std::vector<int> resolved_;  // by trace endpoint id: node endpoint; -1 not yet, -2 "host" (resolve)
  std::unordered_map<std::uint64_t, Pair> pairs_;
  /// Plans priced lately, by everything that decides them (plan_transfer): a trace repeats a few
  /// sizes per pair, and a price is a model evaluation per hop. Direct-mapped, so its memory stays
  /// the same however many sizes differ.
  struct PlanKey {
    int src = -1, dst = -1;
    double bytes = 0, request_bytes = 0;
    model::Access access = model::Access::write;
    model::HostRegime regime = model::HostRegime::staged;
    bool transfer_pageable = false, pageable = false, write_only = false;
    bool operator==(const PlanKey&) const = default;
  };
  struct CachedPlan {
    PlanKey key;
    TransferPlan plan;
  };
  static constexpr std::size_t kMaxPlanCacheSlots = 16384;  // 2.4 MB (144 B a slot): a few thousand plans held
  std::vector<CachedPlan> plan_cache_;  // a power of two of slots, at most one per operation
  std::map<std::vector<int>, nccl::CommTopology> topologies_;
  /// Channel engines of a collective: (communicator, rank, channel, algo, proto, capacity) ->
  /// resource (calls of other kinds or sizes may give a channel another capacity).
  std::map<std::tuple<std::uint64_t, int, int, int, int, double>, ResourceId> channel_engines_;
  std::map<std::tuple<int, int, ResourceId>, RouteId> engine_routes_;
  // The block model (CallContext::block_gbps): each rank's NCCL bus bandwidth, shared by its
  // channels, by (communicator, rank, algorithm, protocol, capacity); routes by (src, dst, block,
  // rank bus), a drain's by (-1, rank, block, block).
  std::map<std::tuple<std::uint64_t, int, int, int, double>, ResourceId> rank_buses_;
  std::map<std::tuple<int, int, ResourceId, ResourceId>, RouteId> block_routes_;
  std::map<std::pair<int, int>, PoolId> pools_;  // (GPU, direction class or -1) -> copy engines
  /// NCCL's connection buffers: per (communicator, sending GPU, receiving GPU, channel, protocol),
  /// the chunks in flight that the receiver has yet to free (oldest first), each with the slots
  /// it takes and the task that frees them (wait_for_slots).
  struct SlotUse {
    int slots;
    TaskId freed_by;
  };
  std::map<std::tuple<std::uint64_t, int, int, std::uint32_t, int>, std::deque<SlotUse>> connections_;
  /// Makes `send` wait until the connection has room for `slots` more of NCCL_STEPS slots, then
  /// records it as in flight until `freed_by` ends.
  void wait_for_slots(std::tuple<std::uint64_t, int, int, std::uint32_t, int> key, int slots, TaskId send,
                      TaskId freed_by);
  std::vector<TaskId> begin_, end_;  // by trace record
  /// Matched sends and recvs: each recv's send (run() fills it before the tasks are made).
  std::unordered_map<std::size_t, std::size_t> send_of_recv_;
  /// A recv of a profiled job's NCCL send/recv pair (named by its peer's rank, matched): posted
  /// when its stream reaches it, done when its send is; its recorded time (mostly the wait for its
  /// peer) is not replayed, and the send starts no earlier than it is posted (NCCL's rendezvous).
  bool posted_recv(std::size_t i) const {
    return trace_.kinds()[i] == OpKind::recv && trace::peer_by_rank(trace_, i) != trace::kNoEndpoint &&
           send_of_recv_.contains(i);
  }
  bool application_ = false;         // replaying a whole-application trace
  AppGraph app_;
  std::map<int, PoolId> sm_pools_;   // GPU endpoint -> its SMs
  /// What each task is, for the critical path's breakdown (its GPU work's record is looked up
  /// for the tasks on the path only: attribute_critical_path).
  enum class Role : std::uint8_t { other, compute, transfer, collective, cpu, launch, sync };
  std::vector<Role> role_;
  void tag(TaskId t, Role role) {
    if (role_.size() <= t) role_.resize(t + 1, Role::other);
    role_[t] = role;
  }
  std::vector<CollectiveResult> collectives_;
  struct PendingTransfer {
    std::uint32_t collective;
    int src, dst;
    std::uint32_t channel;
    std::uint64_t bytes;
    TaskId task;
  };
  std::vector<PendingTransfer> transfers_;
  std::vector<std::vector<double>> matrix_;  // by node endpoint
  std::vector<std::string> warnings_;
  std::vector<double> unrecorded_waits_ns_;  // SimResult::unrecorded_waits_ns
  std::set<std::uint64_t> warned_comms_;
  // Synthetic workloads: the last collective call each GPU's process issued (its host's issue
  // chain, node key collective_call_us).
  std::map<int, TaskId> last_issue_;
  std::uint64_t flows_ = 0;
  std::uint64_t collective_steps_ = 0;  // transfers of the collectives so far (kMaxCollectiveTransfers)
};

int Simulation::resolve_name(const std::string& name, std::size_t record) const {
  if (!options_.gpus.empty()) {
    const int k = trace::endpoint_index(name, "gpu");
    if (k >= 0) {
      if (static_cast<std::size_t>(k) >= options_.gpus.size()) {
        // The hint span names the GPU list; a front end with an option for it names that.
        constexpr std::string_view kList = "the GPU list";
        const std::string head = fmt::format("{}: endpoint '{}' has no GPU in ", where(record), name);
        throw ChoiceError(fmt::format("{}{} (it lists {}); list at least {} GPUs", head, kList, options_.gpus.size(),
                                      k + 1),
                          ChoiceError::Choice::gpu_list, head.size(), kList.size(), name);
      }
      if (const int placed = options_.gpus[static_cast<std::size_t>(k)]; placed >= 0) return placed;
      // A placement by name (--map) that left this GPU of the trace on none of the node's.
      const std::string message = fmt::format("{}: endpoint '{}' is placed on no GPU of node '{}' ({})", where(record),
                                              name, node_.name, node_.file);
      throw ChoiceError(message, ChoiceError::Choice::place_gpus, message.size(), 0, name);
    }
  }
  const int e = node_.find(name);
  if (e < 0) {
    const std::string message = fmt::format("{}: endpoint '{}' is not in node '{}' ({}){}", where(record), name,
                                            node_.name, node_.file, did_you_mean(name, node_.endpoint_ids()));
    throw ChoiceError(message, ChoiceError::Choice::place_gpus, message.size(), 0, name);
  }
  return e;
}

int Simulation::resolve(std::uint16_t id, std::uint16_t other, std::size_t record) const {
  constexpr int kUnresolved = -1, kHost = -2;  // resolved_ besides node endpoints
  if (resolved_.size() <= id) resolved_.resize(static_cast<std::size_t>(id) + 1, kUnresolved);
  int& cached = resolved_[id];
  if (cached >= 0) return cached;
  if (cached == kUnresolved) {
    const std::string& name = trace_.endpoint_name(id);
    const auto renamed = options_.names.find(name);
    const std::string& placed = renamed != options_.names.end() ? renamed->second : name;
    if (placed == "host") cached = kHost;
    else return cached = resolve_name(placed, record);
  }
  // "host": the socket of the GPU at the other end.
  const int other_on_node = trace_.endpoint_name(other) == "host" ? -1 : resolve(other, id, record);
  try {
    return topology::place_host(node_, other_on_node);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", where(record), e.what()));
  }
}

Simulation::Endpoints Simulation::endpoints_of(std::size_t record) const {
  const OpKind kind = trace_.kinds()[record];
  const std::uint16_t s = trace_.srcs()[record], d = trace_.dsts()[record];
  const int src = resolve(s, d, record), dst = resolve(d, s, record);
  // The stream belongs to the device that issues the operation.
  int issuer = src;
  if (!trace::is_collective(kind)) {
    const bool src_gpu = node_.endpoints[static_cast<std::size_t>(src)].kind == EndpointKind::gpu;
    issuer = src_gpu ? src : dst;
    if (const std::uint16_t by = trace_.issuers()[record]; kind == OpKind::access && by != trace::kNoEndpoint)
      issuer = by == s ? src : dst;
    if (kind == OpKind::recv || kind == OpKind::memset) issuer = dst;
  }
  return {issuer, src, dst};
}

Simulation::Pair& Simulation::pair(int src, int dst, std::size_t record) {
  const std::uint64_t key = static_cast<std::uint64_t>(src) << 32 | static_cast<std::uint32_t>(dst);
  Pair& p = pairs_[key];
  if (p.ready) return p;
  try {
    p.spec = topology::make_path_spec(node_, routes_, src, dst);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", where(record), e.what()));
  }
  const topology::Path& path = routes_.path(src, dst);
  if (path.links.empty()) {
    // Within one device: its memory is the shared resource.
    if (memory_[static_cast<std::size_t>(src)] != kNoResource) p.hops = {memory_[static_cast<std::size_t>(src)]};
  } else {
    for (const auto& dl : path.links) {
      p.hops.push_back(static_cast<ResourceId>(dl.link * 2 + (dl.forward ? 0 : 1)));
      p.hop_specs.push_back(node_.links[static_cast<std::size_t>(dl.link)].spec);
    }
    // DMA between a GPU and host memory also uses the socket's memory bandwidth, which every
    // such copy on the socket shares: a read once per byte, a write twice (kDmaWriteCost).
    const int host = p.spec.cls == model::PathClass::h2d ? src : p.spec.cls == model::PathClass::d2h ? dst : -1;
    if (host >= 0 && memory_[static_cast<std::size_t>(host)] != kNoResource) {
      p.hops.push_back(memory_[static_cast<std::size_t>(host)]);
      p.host_weight = p.spec.cls == model::PathClass::h2d ? 1.0 : kDmaWriteCost;
    }
  }
  p.route = net_.add_route(p.hops);
  p.ready = true;
  return p;
}

double Simulation::fixed_cost(CopyClass cls, const Pair& p) const {
  const double given = options_.fixed_ns[static_cast<std::size_t>(cls)];
  if (std::isfinite(given)) return given;
  if (const auto c = node_.calibration.get(cls)) return *c;
  return p.spec.latency_ns;
}

model::Transfer Simulation::recorded_transfer(const trace::Op& op, model::PathClass cls, bool pageable) const {
  model::Transfer t =
      trace::transfer_of(op, cls, pageable && (cls == model::PathClass::h2d || cls == model::PathClass::d2h));
  if (t.pageable) {
    t.regime = trace::recorded_regime(trace_, t.bytes);
    t.unstaged_bytes = trace::unstaged_bytes(trace_, t.bytes);
  }
  return t;
}

TransferPlan& Simulation::plan_transfer(int src, int dst, const model::Transfer& transfer, bool pageable,
                                       std::size_t record) {
  const PlanKey key{src,           dst,           transfer.bytes, transfer.request_bytes, transfer.access,
                    transfer.regime, transfer.pageable, pageable,   transfer.write_only};
  std::uint64_t bits;
  std::memcpy(&bits, &transfer.bytes, sizeof bits);
  // Mixed: sizes differ in their exponent bits alone, ends in a few low bits.
  const std::uint64_t hash =
      splitmix64_mix(bits ^ (static_cast<std::uint64_t>(src) << 24) ^ (static_cast<std::uint64_t>(dst) << 8) ^
                     (static_cast<std::uint64_t>(pageable) << 1) ^ static_cast<std::uint64_t>(transfer.pageable));
  CachedPlan& slot = plan_cache_[hash & (plan_cache_.size() - 1)];
  if (slot.key == key) return slot.plan;
  slot.plan = price_transfer(src, dst, transfer, pageable, record);
  slot.key = key;
  return slot.plan;
}

TransferPlan Simulation::price_transfer(int src, int dst, const model::Transfer& transfer, bool pageable,
                                        std::size_t record) {
  Pair& p = pair(src, dst, record);
  TransferPlan plan;
  plan.route = p.route;
  model::Transfer t = transfer;
  t.fixed_ns = 0;
  const double alone_ns = model_.time_ns(p.spec, t);
  const double rate = alone_ns > 0 ? t.bytes / alone_ns : kInf;
  plan.cap = rate;
  if (p.hop_specs.empty()) {
    if (!p.hops.empty()) plan.weights = {std::max(net_.capacity(p.hops[0]) / rate, 1e-3)};
  } else {
    plan.weights.reserve(p.hops.size());
    for (const auto& hop : p.hop_specs) plan.weights.push_back(hop_weight(model_, hop, t));
    if (p.host_weight > 0) plan.weights.push_back(p.host_weight);
  }
  if (p.hops.empty() && !std::isfinite(plan.cap)) plan.cap = 1e6;  // nothing limits it: ~instant
  // L + O, unless the model has no fixed term (envelope).
  // A memset pays the memset class's cost; device-initiated accesses, a pipelined stream of loads
  // and stores, pay none (model::charged_fixed_ns).
  if (model_.charges_fixed_cost) {
    model::Transfer priced = transfer;
    // A copy timed as its DMA alone (HostRegime::direct) pays the pinned class's 1-byte cost: the
    // pageable classes' are timed with the staging between CUDA events.
    priced.pageable = pageable && transfer.regime != model::HostRegime::direct;
    plan.fixed_ns = model::charged_fixed_ns(priced, fixed_cost(model::fixed_cost_class(p.spec.cls, priced), p));
  }
  return plan;
}

PoolId Simulation::pool_for(int gpu, model::PathClass cls) {
  const auto& ep = node_.endpoints[static_cast<std::size_t>(gpu)];
  if (ep.kind != EndpointKind::gpu) return kNoPool;
  // `copy_engines: N` in the node: N engines shared by all the GPU's copies. Otherwise CUDA's
  // behaviour: copies in one direction run one at a time (one engine each for copies into the
  // GPU, out to the host, out to peers and within the GPU), different directions overlap.
  const int key = ep.copy_engines > 0 ? -1 : static_cast<int>(cls);
  auto it = pools_.find({gpu, key});
  if (it == pools_.end()) it = pools_.emplace(std::make_pair(gpu, key), engine_.add_pool(ep.copy_engines > 0 ? ep.copy_engines : 1)).first;
  return it->second;
}

void Simulation::add_copy(std::size_t i) {
  const trace::Op op = trace_.op(i);
  const int src = resolve(op.src, op.dst, i), dst = resolve(op.dst, op.src, i);
  const bool pageable = op.src_mem == model::MemKind::pageable || op.dst_mem == model::MemKind::pageable;
  const model::PathClass cls = path_class(src, dst, i);
  const model::Transfer t = recorded_transfer(op, cls, pageable);
  TransferPlan& plan = plan_transfer(src, dst, t, t.pageable, i);
  TaskId task;
  if (t.bytes > 0) {
    if (plan.flow_spec == kNoFlowSpec)
      plan.flow_spec = engine_.add_flow_spec(plan.route, std::span(plan.weights.data(), plan.weights.size()), plan.cap);
    task = engine_.add_transfer(plan.flow_spec, t.bytes, plan.fixed_ns);
  } else {
    task = engine_.add_delay(plan.fixed_ns);
  }
  if (op.bytes > 0) ++flows_;
  // Copies hold a copy engine of the GPU that runs them.
  if (op.kind == OpKind::copy) {
    const int issuer = cls == model::PathClass::h2d ? dst : src;
    const PoolId pool = pool_for(issuer, cls);
    if (pool != kNoPool) engine_.set_pool(task, pool);
  }
  begin_[i] = end_[i] = task;
  matrix_[static_cast<std::size_t>(src)][static_cast<std::size_t>(dst)] += t.bytes;
}

void Simulation::add_collectives() {
  for (std::size_t i = 0; i < trace_.size(); ++i) {
    if (!trace::is_collective(trace_.kinds()[i])) continue;
    const trace::Op op = trace_.op(i);
    if (op.group == 0 || trace_.group(op.group).empty())
      throw InputError(fmt::format("{}: {} has no group (the GPUs of its communicator); add the `group` "
                                   "column, e.g. group=0-7",
                                   where(i), trace::to_string(op.kind)));
  }
  const std::vector<std::vector<std::size_t>> calls = trace::collective_calls(trace_);
  // Calls of the same kind, size and communicator become the same number of transfers: once the
  // first of them is built, all of them together must fit the limit, or nothing more is built.
  std::map<std::tuple<OpKind, std::uint64_t, std::uint64_t>, std::size_t> alike;
  auto signature = [&](const std::vector<std::size_t>& records) {
    const std::size_t first = records.front();
    return std::tuple{trace_.kinds()[first], trace_.bytes()[first], trace::communicator_key(trace_.op(first))};
  };
  for (const auto& records : calls) ++alike[signature(records)];
  double projected = 0;
  for (const auto& records : calls) {
    add_call(records, collectives_.size());
    const auto it = alike.find(signature(records));
    if (it == alike.end()) continue;  // counted with the first call of its kind
    const CollectiveResult& c = collectives_.back();
    projected += static_cast<double>(c.transfers) * static_cast<double>(it->second);
    if (projected > static_cast<double>(kMaxCollectiveTransfers)) {
      throw InputError(fmt::format(
          "{}: {} calls like this {} of {} on {} GPUs take {} transfers each, {:.3g} or more with the calls before, "
          "above the {} a simulation runs; simulate fewer calls, or give them a larger chunk",
          where(records.front()), it->second, trace::to_string(c.kind), format_bytes(c.bytes), c.gpus.size(),
          c.transfers, projected, kMaxCollectiveTransfers));
    }
    alike.erase(it);
  }
}

CollectiveResult Simulation::gather_call(const std::vector<std::size_t>& records,
                                         std::vector<std::int64_t>& record_of_rank) {
  const trace::Op first = trace_.op(records.front());
  const auto& members = trace_.group(first.group);
  CollectiveResult c;
  c.kind = first.kind;
  c.bytes = first.bytes;
  c.comm = trace_.comms[first.comm];
  for (std::uint16_t m : members) c.gpus.push_back(resolve(m, m, records.front()));
  record_of_rank.assign(members.size(), -1);
  for (std::size_t r : records) {
    const trace::Op op = trace_.op(r);
    if (op.kind != first.kind || op.bytes != first.bytes || op.group != first.group)
      throw InputError(fmt::format("{}: this {} of {} disagrees with {} ({} of {}) about the same call (the k-th "
                                   "on its communicator); every rank records the same kind, size and group",
                                   where(r), trace::to_string(op.kind), format_bytes(op.bytes),
                                   trace_.locate_record(records.front()), trace::to_string(first.kind),
                                   format_bytes(first.bytes)));
    const auto it = std::find(members.begin(), members.end(), op.src);
    if (it == members.end())
      throw InputError(fmt::format("{}: {} on '{}', which is not in its group; {}", where(r), trace::to_string(op.kind),
                                   trace_.endpoint_name(op.src), trace::outside_its_group_fix(trace_)));
    record_of_rank[static_cast<std::size_t>(it - members.begin())] = static_cast<std::int64_t>(r);
    c.ops.push_back(r);
  }
  return c;
}

const nccl::CommTopology& Simulation::comm_topology(const std::vector<int>& gpus) {
  auto it = topologies_.find(gpus);
  if (it == topologies_.end()) it = topologies_.emplace(gpus, nccl::search_rings(node_, routes_, gpus)).first;
  return it->second;
}

void Simulation::choose_protocol(CollectiveResult& c, const nccl::CommTopology& topo, std::size_t record) const {
  const int n = static_cast<int>(c.gpus.size());
  const nccl::Estimate choice = nccl::choose(c.kind, n, c.bytes, topo.graph, options_.algo, options_.proto);
  if (!choice.available) {
    const std::string message = fmt::format(
        "{}: NCCL has no {}{} for {} on {} GPUs; choose another", where(record),
        options_.algo ? nccl::to_string(*options_.algo) : "",
        options_.proto ? fmt::format(" {}", nccl::to_string(*options_.proto)) : "", trace::to_string(c.kind), n);
    throw ChoiceError(message, ChoiceError::Choice::collective, message.size());
  }
  c.algo = choice.algo;
  c.proto = choice.proto;
  c.nccl_model = choice;
}

Simulation::RankTasks Simulation::add_rank_tasks(const CollectiveResult& c,
                                                 const std::vector<std::int64_t>& record_of_rank,
                                                 double base_latency_ns, std::uint64_t comm_key) {
  const std::size_t n = c.gpus.size();
  RankTasks tasks;
  tasks.launch.resize(n);
  tasks.join.resize(n);
  std::optional<TaskId> first_launch;
  for (std::size_t r = 0; r < n; ++r) {
    const std::int64_t rec = record_of_rank[r];
    tasks.launch[r] = engine_.add_delay(rec >= 0 ? base_latency_ns : 0.0);
    tasks.join[r] = engine_.add_delay(0);
    engine_.depend(tasks.join[r], tasks.launch[r]);
    if (rec < 0) continue;
    wait_for_issue(c.gpus[r], tasks.launch[r]);
    begin_[static_cast<std::size_t>(rec)] = tasks.launch[r];
    end_[static_cast<std::size_t>(rec)] = tasks.join[r];
    if (!first_launch) first_launch = tasks.launch[r];
  }
  // Every call has at least one record, so one rank launched; the ranks the trace lacks launch
  // with it (its launch's end: their own launch latency is in it), and no earlier than each
  // recorded rank's wait for them (unrecorded_wait_ns) after that rank's own launch: a rank that
  // waited for a recorded rank launching late adds nothing beyond it (each rank's profiling
  // window its own: 2 x H200 DDP, h200-2gpu-window2, rank 1's last allreduces took 74.9 ms while
  // rank 0, past its window, exported its profile).
  assert(first_launch);
  const bool lacks_ranks = std::any_of(record_of_rank.begin(), record_of_rank.end(), [](std::int64_t rec) { return rec < 0; });
  std::vector<TaskId> waits;
  for (std::size_t r = 0; r < n && lacks_ranks; ++r) {
    const std::int64_t rec = record_of_rank[r];
    if (rec < 0) continue;
    const double wait_ns = unrecorded_wait_ns(c, static_cast<std::size_t>(rec), base_latency_ns);
    if (unrecorded_waits_ns_.empty()) unrecorded_waits_ns_.assign(trace_.size(), 0.0);
    unrecorded_waits_ns_[static_cast<std::size_t>(rec)] = wait_ns;
    if (wait_ns <= 0) continue;
    const TaskId wait = engine_.add_delay(wait_ns);
    engine_.depend(wait, tasks.launch[r]);
    waits.push_back(wait);
  }
  std::size_t missing = 0;
  for (std::size_t r = 0; r < n; ++r) {
    if (record_of_rank[r] >= 0) continue;
    engine_.depend(tasks.launch[r], *first_launch);
    for (const TaskId wait : waits) engine_.depend(tasks.launch[r], wait);
    ++missing;
  }
  if (missing > 0 && warned_comms_.insert(comm_key).second)
    warnings_.push_back(fmt::format("{}: communicator '{}' has {} ranks but the trace records some of its calls on "
                                    "fewer (the first: {} of them, {}); the others are taken to launch each such call "
                                    "with the first rank recorded, or as late as a recorded rank waited past twice "
                                    "NCCL's model of the call",
                                    trace_.source_file.empty() ? "trace" : trace_.source_file, c.comm, n, n - missing,
                                    trace_.locate_record(static_cast<std::size_t>(
                                        *std::find_if(record_of_rank.begin(), record_of_rank.end(),
                                                      [](std::int64_t rec) { return rec >= 0; })))));
  return tasks;
}

double Simulation::unrecorded_wait_ns(const CollectiveResult& c, std::size_t record, double base_latency_ns) const {
  // Carried from the replay on the recording's node where given; else, replaying the recorded GPU
  // times (on the recording's node), the recorded call's time beyond what NCCL's model gives it
  // where that is more than the model again (a rank that did not wait keeps none, whatever the
  // model misses), less the launch latency its launch has taken already; else none (priced on a
  // node the durations were not recorded on, the recording's wait is no time of this node's).
  if (!options_.unrecorded_waits_ns.empty()) {
    const double ns = record < options_.unrecorded_waits_ns.size() ? options_.unrecorded_waits_ns[record] : 0.0;
    return std::isfinite(ns) ? std::max(ns, 0.0) : 0.0;
  }
  if (options_.durations_ns.empty() || trace_.durations()[record] < 0) return 0;
  const auto recorded_ns = static_cast<double>(trace_.durations()[record]);
  if (recorded_ns <= 2 * c.nccl_model.time_ns) return 0;
  return std::max(0.0, recorded_ns - c.nccl_model.time_ns - base_latency_ns);
}

void Simulation::wait_for_issue(int gpu, TaskId launch) {
  // A recorded trace carries its host's timing (runtime calls, or the gaps between operations); a
  // synthetic workload has none, so its calls wait for their process to issue them, one after the
  // other, each taking the GPU's measured per-call time.
  if (trace_.format != "synthetic") return;
  const double call_ns = node_.endpoints[static_cast<std::size_t>(gpu)].collective_call_us * 1e3;
  if (call_ns <= 0) return;
  const TaskId issue = engine_.add_delay(call_ns);
  if (const auto last = last_issue_.find(gpu); last != last_issue_.end()) engine_.depend(issue, last->second);
  last_issue_[gpu] = issue;
  engine_.depend(launch, issue);
}

void Simulation::add_nccl_model_call(const CollectiveResult& c, const RankTasks& tasks) {
  const TaskId call = engine_.add_delay(c.nccl_model.time_ns);
  for (std::size_t r = 0; r < tasks.launch.size(); ++r) {
    engine_.depend(call, tasks.launch[r]);
    engine_.depend(tasks.join[r], call);
  }
}

double Simulation::slowest_gpu_value(const CollectiveResult& c, double topology::Endpoint::*key) const {
  double slowest = 0;
  for (int g : c.gpus) {
    const double v = node_.endpoints[static_cast<std::size_t>(g)].*key;
    if (v <= 0) return 0;
    slowest = std::max(slowest, v);
  }
  return slowest;
}

void Simulation::measured_kernel_costs(const CollectiveResult& c, nccl::ProtocolCost& cost) const {
  // The GPUs' own measured costs of a Simple or LL kernel (node keys nccl_simple_call_us and
  // nccl_simple_step_us, nccl_ll_*) where every GPU of the call has them, the slowest GPU's; else
  // NCCL's baseLat and hwLat. LL128 keeps NCCL's: its small calls' times do not split into the two.
  if (c.proto == nccl::Proto::ll128) return;
  const bool simple = c.proto == nccl::Proto::simple;
  using topology::Endpoint;
  const double call_us = slowest_gpu_value(c, simple ? &Endpoint::nccl_simple_call_us : &Endpoint::nccl_ll_call_us);
  const double step_us = slowest_gpu_value(c, simple ? &Endpoint::nccl_simple_step_us : &Endpoint::nccl_ll_step_us);
  if (call_us <= 0 || step_us <= 0) return;
  cost.base_latency_ns = call_us * 1e3;
  cost.step_latency_ns = step_us * 1e3;
  // An alltoall runs NCCL's send/receive kernel, whose per-call cost the GPUs may give apart
  // (nccl_p2p_call_us: 9.1 us on an H200, 2.1 us above nccl_ll_call_us).
  if (c.kind != OpKind::alltoall) return;
  if (const double p2p_us = slowest_gpu_value(c, &Endpoint::nccl_p2p_call_us); p2p_us > 0)
    cost.base_latency_ns = p2p_us * 1e3;
}

void Simulation::add_call(const std::vector<std::size_t>& records, std::size_t call_index) {
  const trace::Op first = trace_.op(records.front());
  const std::uint64_t comm_key = trace::communicator_key(first);
  std::vector<std::int64_t> record_of_rank;
  CollectiveResult c = gather_call(records, record_of_rank);
  const nccl::CommTopology& topo = comm_topology(c.gpus);
  c.graph = topo.graph;
  choose_protocol(c, topo, records.front());
  const int n = static_cast<int>(c.gpus.size());
  if ((c.kind == OpKind::broadcast || c.kind == OpKind::reduce) && first.root >= n)
    throw InputError(fmt::format("{}: the {}'s root is rank {}, but its communicator has {} ranks (0 to {}); a root "
                                 "is a rank of the communicator, in its order",
                                 where(records.front()), trace::to_string(c.kind), first.root, n, n - 1));
  // Per rank: a launch (NCCL's per-call latency, after the rank's stream is ready) and a join.
  const int comm_channels = options_.channels > 0 ? options_.channels : topo.channels();
  nccl::ProtocolCost cost = nccl::protocol_cost(c.kind, n, c.algo, c.proto, topo, comm_channels);
  measured_kernel_costs(c, cost);
  const double nccl_bus_gbps = cost.channel_cap_gbps * comm_channels;  // NCCL's bus bandwidth
  // Alltoall's sends stripe over more channels than the collectives (p2p channels); a rank's
  // channels together still carry NCCL's bus bandwidth.
  if (c.kind == OpKind::alltoall && cost.channel_cap_gbps > 0)
    cost.channel_cap_gbps *= static_cast<double>(comm_channels) / nccl::alltoall_send_channels(n, c.bytes, comm_channels);
  const RankTasks tasks =
      add_rank_tasks(c, record_of_rank, options_.nccl_model_collectives ? 0.0 : cost.base_latency_ns, comm_key);
  if (n < 2 || c.bytes == 0) {
    c.channels = 0;
  } else if (options_.nccl_model_collectives) {
    // The baseline: every rank is busy for NCCL's predicted time once all have launched.
    add_nccl_model_call(c, tasks);
    c.channels = topo.channels();
  } else {
    // Channels this call runs on (NCCL drops channels for small calls).
    const nccl::CollectiveSpec spec = collective_spec(c, comm_channels);
    c.channels = nccl::effective_channels(spec);
    CallContext call{comm_key, call_index, records.front(), cost, tasks, 0.0, 0.0, 1.0, {}, {}};
    call.block_gbps = block_copy_gbps(c);
    call.rates = block_rates(c);
    call.l2_share = call.block_gbps > 0 ? ll_l2_share(c) : 0.0;
    if (call.rates.known()) call.slice_ns = simple_slice_ns(c);
    // The rates price the blocks where the GPUs give them; block_gbps then only says the blocks
    // are modelled.
    if (call.rates.known() && call.block_gbps <= 0) call.block_gbps = 1.0;
    // NCCL's tree, LL and LL128 bandwidths are its channels' ring bandwidth with factors for the
    // tree and the lines' flags, capped (llMaxBw, per-channel ceilings). Where the blocks are
    // modelled, a rank's channels carry their ring bandwidth in wire bytes instead, flags
    // included (add_peer_step): NCCL's ring/Simple bus bandwidth.
    // A tree's LL128 blocks run below NCCL's own tree/LL128 bandwidth, in data bytes: more than its
    // primitives explain costs them at NCCL's channel count (a 2 x H200 tree/LL128 allreduce of
    // 4 GiB took 19.0 ms against 13.0 ms in a ring, tests/data/real/h200-2gpu-nccl), while a
    // channel alone runs at its primitives' rate (4 x H200 pinned to one channel: 14.8 GB/s bus
    // bandwidth where NCCL's figure gives a channel 8, tests/data/real/h200-4gpu-treechain).
    const bool ring_simple = c.algo == nccl::CollAlgo::ring && c.proto == nccl::Proto::simple;
    const bool tree_ll128 = c.algo == nccl::CollAlgo::tree && c.proto == nccl::Proto::ll128;
    call.rank_bus_gbps =
        call.block_gbps > 0 && !ring_simple && !tree_ll128
            ? nccl::protocol_cost(c.kind, n, nccl::CollAlgo::ring, nccl::Proto::simple, topo, comm_channels)
                      .channel_cap_gbps *
                  comm_channels
            : nccl_bus_gbps;
    call.rank_bus_weight = tree_ll128 ? 1.0 : cost.wire_factor;
    add_ring_transfers(c, first.root, topo, spec, call);
  }
  collectives_.push_back(std::move(c));
}

nccl::CollectiveSpec Simulation::collective_spec(const CollectiveResult& c, int comm_channels) const {
  nccl::CollectiveSpec spec;
  spec.kind = c.kind;
  spec.nranks = static_cast<int>(c.gpus.size());
  spec.bytes = c.bytes;
  spec.algo = c.algo;
  spec.proto = c.proto;
  spec.channels = comm_channels;
  // Rings share the buffer by their channels, in whole elements (whole per-rank blocks where the
  // buffer is split per rank); a recorded size need not be whole elements of the assumed type.
  const std::uint64_t ranks_per_unit = nccl::per_rank_block(c.kind) ? static_cast<std::uint64_t>(spec.nranks) : 1u;
  spec.elem_bytes = c.bytes % (std::uint64_t{options_.elem_bytes} * ranks_per_unit) == 0 ? options_.elem_bytes : 1;
  return spec;
}

void Simulation::add_ring_transfers(CollectiveResult& c, int root, const nccl::CommTopology& topo,
                                    const nccl::CollectiveSpec& spec, const CallContext& call) {
  const int n = static_cast<int>(c.gpus.size());
  const bool per_rank = nccl::per_rank_block(c.kind);
  const std::uint64_t ranks_per_unit = per_rank ? static_cast<std::uint64_t>(n) : 1u;
  // The call's channels (add_call), grouped by ring.
  const int used = c.channels;
  std::vector<int> per_ring(topo.rings.size(), 0);
  for (int ch = 0; ch < used; ++ch)
    ++per_ring[static_cast<std::size_t>(topo.ring_of_channel[static_cast<std::size_t>(ch % topo.channels())])];
  const std::uint64_t elem = spec.elem_bytes * ranks_per_unit;
  const std::uint64_t total_elems = c.bytes / elem;
  std::uint64_t elems_left = total_elems;
  std::uint32_t channel_base = 0;
  int rings_left = 0;
  for (int k : per_ring) rings_left += k > 0 ? 1 : 0;
  for (std::size_t ring_index = 0; ring_index < topo.rings.size(); ++ring_index) {
    const int ring_channels = per_ring[ring_index];
    if (ring_channels == 0) continue;
    const auto& ring = topo.rings[ring_index];
    nccl::CollectiveSpec part = spec;
    part.channels = ring_channels;
    const std::uint64_t elems = --rings_left == 0 ? elems_left : total_elems * static_cast<std::uint64_t>(ring_channels) / static_cast<std::uint64_t>(used);
    elems_left -= elems;
    part.bytes = elems * elem;
    part.chunk_bytes = options_.chunk_bytes > 0 ? options_.chunk_bytes : call.cost.chunk_bytes;
    if (c.kind == OpKind::broadcast || c.kind == OpKind::reduce)
      part.root = static_cast<int>(std::find(ring.begin(), ring.end(), std::max(root, 0)) - ring.begin());
    c.parts.push_back({part, ring});
    if (part.bytes == 0) continue;
    c.transfers += add_ring_steps(c, ring, part, channel_base, call);
    channel_base += static_cast<std::uint32_t>(ring_channels);
  }
}

std::size_t Simulation::add_ring_steps(const CollectiveResult& c, const std::vector<int>& ring,
                                       const nccl::CollectiveSpec& part, std::uint32_t channel_base,
                                       const CallContext& call) {
  // Every step becomes a task: a trace of a few bytes must not ask for billions of them.
  const double more = nccl::decomposition_size(part);
  if (static_cast<double>(collective_steps_) + more > static_cast<double>(kMaxCollectiveTransfers)) {
    throw InputError(fmt::format(
        "{}: simulating the collectives up to this {} of {} on {} GPUs takes more than {} transfers ({} so far, "
        "{:.3g} more for this call); simulate fewer calls, or give them a larger chunk",
        where(call.record), trace::to_string(c.kind), format_bytes(c.bytes), c.gpus.size(), kMaxCollectiveTransfers,
        collective_steps_, more));
  }
  // Decomposition rank k is ring position k: comm rank ring[k] on GPU c.gpus[ring[k]].
  const nccl::Decomposition d = nccl::decompose(part);
  collective_steps_ += d.steps.size();
  std::vector<TaskId> task(d.steps.size());
  std::vector<TaskId> freed_by(d.steps.size());  // what frees each chunk's slots on its receiver
  // The block model: every chunk's last receiver copies it out of its connection buffer on its
  // channel's block, which its sends share (see add_drain).
  const bool blocks = call.block_gbps > 0;
  CallContext part_call = call;
  if (blocks && call.rates.known()) part_call.block_share = block_shares(c, ring, d, c.channels, call);
  for (std::size_t s = 0; s < d.steps.size(); ++s) {
    const nccl::CollStep& step = d.steps[s];
    const auto rs = static_cast<std::size_t>(ring[step.src]), rd = static_cast<std::size_t>(ring[step.dst]);
    const int gs = c.gpus[rs], gd = c.gpus[rd];
    const std::uint32_t channel = channel_base + step.channel;
    const nccl::MemoryOps ops = nccl::send_memory_ops(c.kind, part.nranks, step.step);
    const TaskId t = gs == gd ? add_local_step(gs, static_cast<double>(step.bytes), call.record)
                              : add_peer_step(c, gs, gd, rs, channel, step, part_call, ops,
                                              nccl::ll_l2_free_loads(c.kind, part.nranks, step.step));
    ++flows_;
    task[s] = t;
    freed_by[s] = t;
    for (std::uint32_t dep : d.deps_of(s)) engine_.depend(t, task[dep]);
    // A send waits for its own rank's launch, not for the receiver's: NCCL writes into free slots
    // of the receiver's connection buffer, so a rank whose part ends early (a broadcast's root)
    // goes on to its next call while the ranks after it still work on this one (recorded: a
    // broadcast's root takes the same time when its receiver launches 213 us late,
    // tests/data/real/h200-4gpu-pipeline). What the receiver does with the data waits for it.
    engine_.depend(t, call.tasks.launch[rs]);
    engine_.depend(call.tasks.join[rs], t);
    if (rd != rs) engine_.depend(call.tasks.join[rd], t);
    if (blocks && rd != rs && nccl::ends_chunk(c.kind, part.nranks, step.step)) {
      const TaskId drain = add_drain(c, static_cast<int>(rd), channel, step, nccl::final_receive_memory_ops(c.kind),
                                     nccl::ll_l2_free_final_receive_loads(c.kind), part_call);
      engine_.depend(drain, t);
      engine_.depend(drain, call.tasks.launch[rd]);
      engine_.depend(call.tasks.join[rd], drain);
      freed_by[s] = drain;
    }
    matrix_[static_cast<std::size_t>(gs)][static_cast<std::size_t>(gd)] += static_cast<double>(step.bytes);
    if (options_.keep_transfers)
      transfers_.push_back({static_cast<std::uint32_t>(call.index), gs, gd, channel, step.bytes, t});
  }
  // Connection buffers: a chunk sent takes slots in the receiver's buffer until the receiver has
  // passed it on (its step that waited for the chunk), copied it out (its drain), or, where no
  // task does either, it has landed. A send waits for room.
  for (std::size_t s = 0; s < d.steps.size(); ++s)
    if (d.steps[s].data_step != nccl::CollStep::kNoDataStep) freed_by[d.steps[s].data_step] = task[s];
  const int slots = nccl::chunk_slots(c.algo, c.proto, part.kind, part.chunk_bytes);
  for (std::size_t s = 0; s < d.steps.size(); ++s) {
    const nccl::CollStep& step = d.steps[s];
    const int gs = c.gpus[static_cast<std::size_t>(ring[step.src])], gd = c.gpus[static_cast<std::size_t>(ring[step.dst])];
    if (gs == gd) continue;
    wait_for_slots({call.comm_key, gs, gd, channel_base + step.channel, static_cast<int>(c.proto)}, slots, task[s],
                   freed_by[s]);
  }
  return d.steps.size();
}

void Simulation::wait_for_slots(std::tuple<std::uint64_t, int, int, std::uint32_t, int> key, int slots, TaskId send,
                                TaskId freed_by) {
  std::deque<SlotUse>& in_flight = connections_[key];
  // In NCCL's order the receiver frees chunks oldest first, so waiting for the newest chunk that
  // must go is waiting for all older ones too.
  int taken = slots;
  for (auto it = in_flight.rbegin(); it != in_flight.rend(); ++it) {
    taken += it->slots;
    if (taken > nccl::kSteps) {
      engine_.depend(send, it->freed_by);
      in_flight.erase(in_flight.begin(), it.base());
      break;
    }
  }
  in_flight.push_back({slots, freed_by});
}

TaskId Simulation::add_local_step(int gpu, double bytes, std::size_t record) {
  // A rank's own block: a copy within its GPU.
  model::Transfer local;
  local.bytes = bytes;
  local.access = model::Access::write;
  const TransferPlan plan = plan_transfer(gpu, gpu, local, false, record);
  return engine_.add_transfer(plan.route, bytes, std::span(plan.weights.data(), plan.weights.size()), plan.cap, 0);
}

TaskId Simulation::add_peer_step(const CollectiveResult& c, int gs, int gd, std::size_t rank, std::uint32_t channel,
                                 const nccl::CollStep& step, const CallContext& call, nccl::MemoryOps ops,
                                 int l2_free_loads) {
  Pair& p = pair(gs, gd, call.record);
  // The sending rank's channel: NCCL's per-channel bandwidth for this protocol, or (block model)
  // its thread block, whose copy rate the primitive's loads and stores share, behind the rank's
  // bus bandwidth shared by its channels.
  const ResourceId ce = channel_engine(c, static_cast<int>(rank), channel, call);
  RouteId route{};
  if (call.block_gbps > 0) {
    const double bus_gbps = call.rank_bus_gbps > 0 ? call.rank_bus_gbps : 1e6;
    const auto bus_key = std::make_tuple(call.comm_key, static_cast<int>(rank), static_cast<int>(c.algo),
                                         static_cast<int>(c.proto), bus_gbps);
    auto bus = rank_buses_.find(bus_key);
    if (bus == rank_buses_.end()) bus = rank_buses_.emplace(bus_key, net_.add_resource(bus_gbps)).first;
    const auto route_key = std::make_tuple(gs, gd, ce, bus->second);
    auto rt = block_routes_.find(route_key);
    if (rt == block_routes_.end()) {
      std::vector<ResourceId> hops = p.hops;
      hops.push_back(ce);
      hops.push_back(bus->second);
      rt = block_routes_.emplace(route_key, net_.add_route(hops)).first;
    }
    route = rt->second;
  } else {
    const auto route_key = std::make_tuple(gs, gd, ce);
    auto rt = engine_routes_.find(route_key);
    if (rt == engine_routes_.end()) {
      std::vector<ResourceId> hops = p.hops;
      hops.push_back(ce);
      rt = engine_routes_.emplace(route_key, net_.add_route(hops)).first;
    }
    route = rt->second;
  }
  model::Transfer wire;
  wire.bytes = static_cast<double>(step.bytes);
  wire.access = model::Access::write;
  std::vector<double> weights;
  for (const auto& hop : p.hop_specs) weights.push_back(hop_weight(model_, hop, wire) * call.cost.wire_factor);
  if (call.block_gbps > 0) {
    // Without rates a copy (a load and a store) uses the block's rate once.
    // The slices' fixed time is block time too, spread over the step's bytes.
    weights.push_back(call.block_weight(ops, l2_free_loads) +
                      call.slices_ns(c, step.bytes, step.chunk) / std::max(wire.bytes, 1.0));
    weights.push_back(call.rank_bus_weight);  // the rank's channels carry wire bytes (or NCCL's data bytes)
  } else {
    weights.push_back(1.0);
  }
  // A step's handshake shows only in the first loop: later chunks' handshakes overlap the data of
  // the chunks before them (NCCL keeps NCCL_STEPS slots in flight), which is also how NCCL's model
  // counts it (steps x hwLat, once).
  return engine_.add_transfer(route, wire.bytes, weights, kInf, step.chunk == 0 ? call.cost.step_latency_ns : 0.0);
}

bool Simulation::blocks_apply(const CollectiveResult& c) {
  // Tree allreduce inside a node is a chain whose primitives are the ring allreduce's, hop for
  // hop (leaf send, recvReduceSend up, recvReduceCopySend at the top, recvCopySend down, recv);
  // in LL128 below NCCL's own tree/LL128 bandwidth (add_call).
  const bool chain_allreduce = c.algo == nccl::CollAlgo::tree && c.kind == OpKind::allreduce;
  return (c.algo == nccl::CollAlgo::ring || chain_allreduce) &&
         nccl::send_memory_ops(c.kind, static_cast<int>(c.gpus.size()), 0).total() > 0;
}

double Simulation::block_copy_gbps(const CollectiveResult& c) const {
  // NCCL's Simple and LL128 ring kernels, the broadcast chain and alltoall's sends and receives,
  // on GPUs whose block copy rate is known. LL128 runs the same primitives on 128-byte lines of
  // which 120 bytes are data and 8 its flag (nccl::kLl128DataFraction), so its block moves data
  // at 15/16 of the copy rate.
  // LL primitives (8 bytes of data per 16-byte line, each line's flags polled) run at the GPUs'
  // measured LL block rate, where their node gives one, weighted by the same loads and stores.
  if (!blocks_apply(c)) return 0;
  double rate = kInf;
  for (int g : c.gpus) {
    const topology::Endpoint& gpu = node_.endpoints[static_cast<std::size_t>(g)];
    switch (c.proto) {
      case nccl::Proto::simple:
        // Alltoall's sends and receives run in NCCL's send/receive kernel, 640 threads a block.
        rate = std::min(rate, c.kind == OpKind::alltoall && gpu.p2p_block_copy_gbps > 0 ? gpu.p2p_block_copy_gbps
                                                                                          : gpu.block_copy_gbps);
        break;
      case nccl::Proto::ll128: rate = std::min(rate, gpu.block_copy_gbps * nccl::kLl128DataFraction); break;
      case nccl::Proto::ll: rate = std::min(rate, gpu.ll_block_gbps); break;
    }
  }
  return std::isfinite(rate) && rate > 0 ? rate : 0;
}

double Simulation::ll_l2_share(const CollectiveResult& c) const {
  // The share of an LL call's user buffers its GPUs' L2 holds: all of them up to the footprint a
  // repeated copy keeps at the L2's rate (l2_resident_mib), falling linearly to none at the L2's
  // capacity (l2_cache_mib), as a repeated copy's did (2 x H200, one channel: a reduce-scatter of
  // 32 MiB, 48 MiB of buffers, ran at 10.4 GB/s, between 13.8 with its buffers in the L2 and 8.5
  // without; tests/data/real/h200-2gpu-nccl-l2). The footprint is the user's buffers and the lines
  // the call's receive connections hold (nccl::ll_connection_bytes: 12 MiB on 24 channels). None
  // with cold buffers (SimOptions::cold_buffers) or where a GPU does not give the footprint. Asked
  // only where the call's blocks are modelled, once its channels are known.
  // Ring calls only: a tree/LL allreduce of 8-32 MiB on 2 x H200 ran as fast on a new set of
  // buffers each call as on one set (0.94-1.06 of it, where ring/LL ran 0.71-0.95;
  // tests/data/real/h200-2gpu-treel2): the chain gains nothing from the L2.
  if (c.proto != nccl::Proto::ll || c.algo != nccl::CollAlgo::ring || options_.cold_buffers) return 0;
  const int nranks = static_cast<int>(c.gpus.size());
  const double footprint = static_cast<double>(nccl::user_buffer_bytes(c.kind, nranks, c.bytes)) +
                           static_cast<double>(nccl::ll_connection_bytes(c.kind, c.algo, nranks, c.bytes, c.channels));
  double share = 1;
  for (int g : c.gpus) {
    const topology::Endpoint& gpu = node_.endpoints[static_cast<std::size_t>(g)];
    const double resident = gpu.l2_resident_mib * 1024 * 1024;
    const double cache = std::max(resident, gpu.l2_cache_mib * 1024 * 1024);
    if (footprint > resident)
      share = std::min(share, cache > resident ? std::max(0.0, (cache - footprint) / (cache - resident)) : 0.0);
  }
  return share;
}

double Simulation::simple_slice_ns(const CollectiveResult& c) const {
  // Measured on ring allreduce, all-gather and reduce-scatter (tools/results/nccl_slices.py); the
  // tree's chain and the ring broadcast run the same Simple primitives one slice a chunk
  // (nccl::simple_slices). Alltoall's send/receive kernel keeps its one copy rate.
  if (c.proto != nccl::Proto::simple || !nccl::runs_simple_slices(c.kind, c.algo)) return 0;
  return slowest_gpu_value(c, &topology::Endpoint::nccl_simple_slice_us) * 1e3;
}

nccl::BlockRates Simulation::block_rates(const CollectiveResult& c) const {
  // Simple and LL128 ring and chain primitives; LL keeps its one measured rate (its blocks poll
  // each line's flags, far from the ceiling: its bus bandwidth grows linearly to 24 channels,
  // tests/data/real/h200-2gpu-channels) and alltoall NCCL's send/receive kernel (p2p_block_copy_gbps).
  if (!blocks_apply(c) || c.kind == OpKind::alltoall || c.proto == nccl::Proto::ll) return {};
  const bool simple = c.proto == nccl::Proto::simple;
  nccl::BlockRates rates{kInf, kInf, kInf, kInf};
  for (int g : c.gpus) {
    const topology::Endpoint& gpu = node_.endpoints[static_cast<std::size_t>(g)];
    rates.load_gbps = std::min(rates.load_gbps, simple ? gpu.nccl_simple_load_gbps : gpu.nccl_ll128_load_gbps);
    rates.store_gbps = std::min(rates.store_gbps, simple ? gpu.nccl_simple_store_gbps : gpu.nccl_ll128_store_gbps);
    rates.peer_store_gbps =
        std::min(rates.peer_store_gbps, simple ? gpu.nccl_simple_peer_store_gbps : gpu.nccl_ll128_peer_store_gbps);
    rates.memory_gbps = std::min(rates.memory_gbps, gpu.nccl_block_memory_gbps);
  }
  return c.gpus.empty() || !rates.known() || !std::isfinite(rates.load_gbps) ? nccl::BlockRates{} : rates;
}

std::vector<double> Simulation::block_shares(const CollectiveResult& c, const std::vector<int>& ring,
                                             const nccl::Decomposition& d, int blocks,
                                             const CallContext& call) const {
  // Each rank's blocks run the same primitives, so a block's unit of work is its rank's: what its
  // sends and final receives cost it alone (their slices' fixed time included), of which the
  // loads and stores at the GPU's ceiling are the part it shares with the call's other blocks on
  // that GPU.
  const nccl::BlockRates& rates = call.rates;
  std::vector<double> alone_ns(c.gpus.size(), 0.0), shared_ns(c.gpus.size(), 0.0);
  const auto add = [&](std::size_t rank, const nccl::MemoryOps& ops, const nccl::CollStep& step) {
    const auto bytes = static_cast<double>(step.bytes);
    alone_ns[rank] += bytes * rates.alone_ns_per_byte(ops) + call.slices_ns(c, step.bytes, step.chunk);
    shared_ns[rank] += bytes * rates.shared_ns_per_byte(ops);
  };
  const int nranks = static_cast<int>(c.gpus.size());
  for (const nccl::CollStep& step : d.steps) {
    const auto rs = static_cast<std::size_t>(ring[step.src]), rd = static_cast<std::size_t>(ring[step.dst]);
    if (c.gpus[rs] == c.gpus[rd]) continue;
    add(rs, nccl::send_memory_ops(c.kind, nranks, step.step), step);
    if (nccl::ends_chunk(c.kind, nranks, step.step)) add(rd, nccl::final_receive_memory_ops(c.kind), step);
  }
  std::vector<double> share(c.gpus.size(), 1.0);
  for (std::size_t r = 0; r < share.size(); ++r)
    if (alone_ns[r] > 0) share[r] = nccl::shared_block_speed(blocks, alone_ns[r] - shared_ns[r], shared_ns[r]);
  return share;
}

ResourceId Simulation::channel_engine(const CollectiveResult& c, int rank, std::uint32_t channel,
                                      const CallContext& call) {
  const double cap = call.block_gbps > 0                ? call.block_capacity(rank)
                     : call.cost.channel_cap_gbps > 0 ? call.cost.channel_cap_gbps
                                                      : 1e6;
  const auto engine_key = std::make_tuple(call.comm_key, rank, static_cast<int>(channel), static_cast<int>(c.algo),
                                          static_cast<int>(c.proto), cap);
  auto ce = channel_engines_.find(engine_key);
  if (ce == channel_engines_.end()) ce = channel_engines_.emplace(engine_key, net_.add_resource(cap)).first;
  return ce->second;
}

TaskId Simulation::add_drain(const CollectiveResult& c, int rank, std::uint32_t channel, const nccl::CollStep& step,
                             nccl::MemoryOps ops, int l2_free_loads, const CallContext& call) {
  // A chunk's last receiver copies it out of its connection buffer into the user's buffer (NCCL's
  // recv or recvReduceCopy): no link, only its channel's block, which its next sends share. The
  // block alternates between the two; the flow model shares its rate between them instead, so
  // that a rank's channels move data at the block's rate over the loads and stores of all its
  // primitives, and do not all stop sending at once as strictly alternating flows would.
  const ResourceId block = channel_engine(c, rank, channel, call);
  const std::array<ResourceId, 1> hops{block};
  const auto route_key = std::make_tuple(-1, rank, block, block);
  auto rt = block_routes_.find(route_key);
  if (rt == block_routes_.end()) rt = block_routes_.emplace(route_key, net_.add_route(hops)).first;
  const double bytes = static_cast<double>(step.bytes);
  const std::array<double, 1> weights{call.block_weight(ops, l2_free_loads) +
                                      call.slices_ns(c, step.bytes, step.chunk) / std::max(bytes, 1.0)};
  return engine_.add_transfer(rt->second, bytes, weights, kInf, 0.0);
}

std::size_t Simulation::tasks_for_records() const {
  std::size_t tasks = 0;
  for (std::size_t i = 0; i < trace_.size(); ++i) {
    const OpKind kind = trace_.kinds()[i];
    const bool blocks = kind == OpKind::runtime && application_ && app_.awaits[i] != trace::kNoIndex;
    // add_runtime_call: the call (after its gap, in a task of its own for a thread's first
    // call), and a join where it blocks (and link_application the tail after the work it waited
    // for).
    if (kind == OpKind::runtime) tasks += 1 + (call_follows_another(i) ? 0 : 1) + (blocks ? 2 : 0);
    // Collectives are built later, call by call, unless given a duration.
    else if (posted_recv(i)) tasks += 2;  // posted, done
    else if (!trace::is_collective(kind) || has_given_duration(i)) ++tasks;
    // link_application: the launch of a copy or memset a call started.
    if (application_ && trace::runs_on_gpu(kind) && trace_.launches()[i] != trace::kNoIndex && launch_has_own_task(kind))
      ++tasks;
  }
  // link_application: the wait of work held by GPU-filling work, and of work its stream held.
  if (application_) tasks += app_.sm_holds.size() + app_.stream_gaps.size();
  return tasks;
}

void Simulation::pair_sends_and_recvs(const std::vector<std::size_t>& sends, const std::vector<std::size_t>& recvs,
                                      std::unordered_map<std::size_t, std::size_t>& send_of_recv) const {
  // The ranks' sends and recvs of one profiled job (Kineto's, named by their peer's rank): a send
  // and its recv run at once on their two GPUs, so a recv pairs with the send whose recorded time
  // it overlaps; by order, a rank's profiling window that starts one micro-batch later than its
  // peer's shifted every pair, and the replay then waited in a circle. Sends and recvs of one file
  // (a CSV of both sides) pair in order.
  const auto timed_peer = [&](std::size_t i) {
    return trace::peer_by_rank(trace_, i) != trace::kNoEndpoint && trace_.starts()[i] >= 0;
  };
  const bool by_time = std::all_of(sends.begin(), sends.end(), timed_peer) && std::all_of(recvs.begin(), recvs.end(), timed_peer);
  if (!by_time) {
    for (std::size_t k = 0; k < recvs.size() && k < sends.size(); ++k) send_of_recv.emplace(recvs[k], sends[k]);
    return;
  }
  const auto begin = [&](std::size_t i) { return trace_.starts()[i]; };
  const auto end = [&](std::size_t i) { return trace::recorded_end_ns(trace_, i); };
  const std::size_t paired_before = send_of_recv.size();
  for (std::size_t s = 0, r = 0; s < sends.size() && r < recvs.size();) {
    const std::size_t a = sends[s], b = recvs[r];
    if (begin(a) <= end(b) && begin(b) <= end(a)) {
      send_of_recv.emplace(b, a);
      ++s;
      ++r;
    } else if (end(a) < begin(b)) {
      ++s;  // a send no recv of this job's traces overlaps: its recv was not recorded
    } else {
      ++r;
    }
  }
  // None overlaps where both sides have as many: the files' clocks are not one (no
  // baseTimeNanoseconds to align them), and order is all that pairs them.
  if (send_of_recv.size() == paired_before && sends.size() == recvs.size())
    for (std::size_t k = 0; k < recvs.size(); ++k) send_of_recv.emplace(recvs[k], sends[k]);
}

void Simulation::check_pairs_agree() const {
  // A send and its recv move one buffer: sizes that differ are ranks' files that are not one
  // job's (or one edited), as a collective's ranks that disagree are (gather_call). The first
  // such recv in trace order is named.
  for (std::size_t r = 0; r < trace_.size(); ++r) {
    if (trace_.kinds()[r] != OpKind::recv) continue;
    const auto it = send_of_recv_.find(r);
    if (it == send_of_recv_.end() || trace_.bytes()[it->second] == trace_.bytes()[r]) continue;
    throw InputError(fmt::format("{}: this recv of {} B is paired with {}, its peer's send of {} B; a send and its "
                                 "recv move one size: the sends and recvs are not one job's recorded together (or "
                                 "one was edited)",
                                 trace_.locate_record(r), trace_.bytes()[r], trace_.locate_record(it->second),
                                 trace_.bytes()[it->second]));
  }
}

SimResult Simulation::run() {
  const std::size_t n = trace_.size();
  begin_.assign(n, 0);
  end_.assign(n, 0);
  matrix_.assign(node_.endpoints.size(), std::vector<double>(node_.endpoints.size(), 0.0));

  // Matched sends and recvs (pair_sends_and_recvs): a recv from A to B ends with its send.
  std::map<std::pair<std::uint16_t, std::uint16_t>, std::vector<std::size_t>> sends, recvs;
  for (std::size_t i = 0; i < n; ++i) {
    const OpKind kind = trace_.kinds()[i];
    if (kind == OpKind::send) sends[{trace_.srcs()[i], trace_.dsts()[i]}].push_back(i);
    if (kind == OpKind::recv) recvs[{trace_.srcs()[i], trace_.dsts()[i]}].push_back(i);
  }
  std::unordered_map<std::size_t, std::size_t>& send_of_recv = send_of_recv_;  // only traces with send/recv have any
  send_of_recv.clear();
  for (const auto& [key, list] : recvs) {
    const auto it = sends.find(key);
    if (it == sends.end()) continue;
    pair_sends_and_recvs(it->second, list, send_of_recv);
  }
  if (!send_of_recv.empty()) check_pairs_agree();
  const auto matched_send = [&](std::size_t recv) -> std::optional<std::size_t> {
    if (send_of_recv.empty()) return std::nullopt;
    const auto it = send_of_recv.find(recv);
    if (it == send_of_recv.end()) return std::nullopt;
    return it->second;
  };

  // Tasks for every record.
  application_ = trace_.has_application();
  if (application_) {
    app_ = infer_app_graph(trace_);
  }
  const std::size_t record_tasks = tasks_for_records();
  std::size_t record_transfers = 0;  // at most one flow spec each (add_copy, add_given_duration)
  for (const OpKind kind : trace_.kinds()) record_transfers += trace::moves_data(kind) && !trace::is_collective(kind);
  engine_.reserve(record_tasks, record_transfers);
  if (application_) {
    role_.reserve(record_tasks);
  }
  const auto given = [&](std::size_t i) { return has_given_duration(i) ? options_.durations_ns[i] : -1.0; };
  for (std::size_t i = 0; i < n; ++i) {
    const OpKind kind = trace_.kinds()[i];
    if (kind == OpKind::runtime) {
      add_runtime_call(i);
      continue;
    }
    if (kind == OpKind::annotation) {
      begin_[i] = end_[i] = engine_.add_delay(0);  // replayed from its calls after the run
      continue;
    }
    if (posted_recv(i)) {
      begin_[i] = engine_.add_delay(0);
      end_[i] = engine_.add_delay(0);
      engine_.depend(end_[i], begin_[i]);
      continue;
    }
    if (const double ns = given(i); ns >= 0) {
      add_given_duration(i, ns);
      continue;
    }
    if (kind == OpKind::kernel) {
      add_kernel(i);
      continue;
    }
    if (trace::is_collective(kind)) continue;
    if (kind == OpKind::recv && matched_send(i)) {
      begin_[i] = end_[i] = engine_.add_delay(0);
      continue;
    }
    add_copy(i);
  }
  if (application_) app_.release_task_values();
  const std::size_t collectives_from = engine_.size();
  add_collectives();
  [[maybe_unused]] const std::size_t collectives_end = engine_.size();
  if (application_) {
    for (std::size_t t = collectives_from; t < engine_.size(); ++t) tag(static_cast<TaskId>(t), Role::collective);
    for (std::size_t i = 0; i < n; ++i) {
      const OpKind kind = trace_.kinds()[i];
      if (!trace::runs_on_gpu(kind)) continue;
      const Role role = kind == OpKind::kernel ? Role::compute : trace::is_collective(kind) ? Role::collective : Role::transfer;
      tag(begin_[i], role);
      if (end_[i] != begin_[i]) tag(end_[i], role);
    }
  }

  // Streams, releases, send/recv matches.
  std::int64_t t0 = std::numeric_limits<std::int64_t>::max();
  for (std::int64_t s : trace_.starts())
    if (s >= 0) t0 = std::min(t0, s);
  std::unordered_map<std::uint64_t, TaskId> last_on_stream;  // (issuing endpoint, stream) -> its last task
  for (std::size_t i = 0; i < n; ++i) {
    const OpKind kind = trace_.kinds()[i];
    if (trace::runs_on_cpu(kind)) continue;
    if (kind == OpKind::recv)
      if (const auto send = matched_send(i)) {
        engine_.depend(end_[i], end_[*send]);
        if (posted_recv(i)) engine_.depend(begin_[*send], begin_[i], Wait{.on_start = true});
      }
    const auto issuer = static_cast<std::uint32_t>(endpoints_of(i).issuer);
    const auto [last, first_on_stream] = last_on_stream.try_emplace(std::uint64_t{issuer} << 32 | trace_.streams()[i], end_[i]);
    if (!first_on_stream) {
      engine_.depend(begin_[i], last->second);
      last->second = end_[i];
    }
    // Launched work follows its launch in a replay; the rest is released at its recorded time.
    const bool launched = application_ && trace_.launches()[i] != trace::kNoIndex;
    if (const std::int64_t start = trace_.starts()[i]; start >= 0 && !launched)
      engine_.set_release(begin_[i], static_cast<double>(start - t0));
  }
  if (application_) link_application();
  assert(engine_.size() - (collectives_end - collectives_from) == record_tasks &&
         "tasks_for_records() counts the tasks of every record and of their links");
  if (application_) app_.release_per_record();

  engine_.note_critical_path(application_);  // only an application replay reports one
  try {
    ProgressLine progress("simulation");
    engine_.run([&](std::uint64_t ended) {
      progress.update(ended, engine_.size(), "tasks");
      if (options_.progress) options_.progress(ended, engine_.size());
    });
  } catch (const std::logic_error& e) {
    // What waits across a trace: its streams, the calls of its collectives (a call's records on
    // every rank) and its matched sends and recvs; times that go backwards on one rank pair them
    // against the others' order.
    throw InputError(fmt::format("{}: {}: the trace's streams wait on each other through {}; its recorded times are "
                                 "not one job's (a rank's clock or times edited, or files of different runs): give "
                                 "each rank's trace as the profiler wrote it",
                                 trace_.source_file, e.what(),
                                 send_of_recv_.empty() ? "its collective calls across ranks"
                                                       : "its collective calls and matched sends and recvs"));
  }
  // The critical path needs the run's dependencies; the results need only the tasks' times.
  const std::vector<PathStep> path = application_ ? critical_path_of_last_work() : std::vector<PathStep>{};
  engine_.release_run_data();
  SimResult r;
  collect(r);
  if (application_) {
    collect_application(r, path);
    if (auto w = profiler_paced_warning(trace_, r.application)) r.warnings.push_back(std::move(*w));
  }
  return r;
}

void Simulation::add_given_duration(std::size_t i, double ns) {
  const trace::Op op = trace_.op(i);
  TaskId task;
  if (trace::moves_data(op.kind) && !trace::is_collective(op.kind) && op.bytes > 0 && ns > 0) {
    // A flow that takes `ns` alone: it still shares the links with what runs beside it.
    const int src = resolve(op.src, op.dst, i), dst = resolve(op.dst, op.src, i);
    const bool pageable = op.src_mem == model::MemKind::pageable || op.dst_mem == model::MemKind::pageable;
    const model::PathClass cls = path_class(src, dst, i);
    const model::Transfer t = recorded_transfer(op, cls, pageable);
    TransferPlan plan = plan_transfer(src, dst, t, t.pageable, i);
    task = engine_.add_transfer(plan.route, t.bytes, std::span(plan.weights.data(), plan.weights.size()), t.bytes / ns, 0.0);
    ++flows_;
    if (op.kind == OpKind::copy) {
      const int issuer = cls == model::PathClass::h2d ? dst : src;
      const PoolId pool = application_ && app_.fills_gpu[i] ? sm_pool(issuer) : pool_for(issuer, cls);
      if (pool != kNoPool) engine_.set_pool(task, pool);
    }
    matrix_[static_cast<std::size_t>(src)][static_cast<std::size_t>(dst)] += t.bytes;
  } else {
    task = engine_.add_delay(std::max(0.0, ns));
    if (application_ && app_.fills_gpu[i]) {
      const int gpu = resolve(op.src, op.dst, i);
      if (const PoolId pool = sm_pool(gpu); pool != kNoPool) engine_.set_pool(task, pool);
    }
  }
  begin_[i] = end_[i] = task;
}

void Simulation::add_kernel(std::size_t i) {
  const double ns = static_cast<double>(std::max<std::int64_t>(0, trace_.durations()[i]));
  const TaskId task = engine_.add_delay(ns);
  if (application_ && app_.fills_gpu[i]) {
    const int gpu = resolve(trace_.srcs()[i], trace_.dsts()[i], i);
    if (const PoolId pool = sm_pool(gpu); pool != kNoPool) engine_.set_pool(task, pool);
  }
  begin_[i] = end_[i] = task;
}

PoolId Simulation::sm_pool(int gpu) {
  if (gpu < 0 || node_.endpoints[static_cast<std::size_t>(gpu)].kind != EndpointKind::gpu) return kNoPool;
  auto it = sm_pools_.find(gpu);
  if (it == sm_pools_.end()) it = sm_pools_.emplace(gpu, engine_.add_pool(1)).first;
  return it->second;
}

void Simulation::add_runtime_call(std::size_t i) {
  // The CPU time before the call (its lag after the call it follows, or a task from the start),
  // the call, and (for a blocking call) its join with the GPU work it waited for: linked to the
  // rest by link_application().
  const TaskId call = engine_.add_delay(app_.own_ns[i]);
  if (call_follows_another(i)) {
    engine_.set_lag(call, app_.gap_ns[i]);
  } else {
    const TaskId gap = engine_.add_delay(app_.gap_ns[i]);
    engine_.depend(call, gap);
    tag(gap, Role::cpu);
  }
  TaskId end = call;
  if (app_.awaits[i] != trace::kNoIndex) {
    end = engine_.add_delay(0);
    engine_.depend(end, call);
  }
  begin_[i] = call;
  end_[i] = end;
  tag(call, Role::cpu);
  if (end != call) tag(end, Role::sync);
}

void Simulation::link_application() {
  const std::size_t n = trace_.size();
  for (std::size_t i = 0; i < n; ++i) {
    const OpKind kind = trace_.kinds()[i];
    if (kind == OpKind::runtime) {
      // The gap after the call it follows: after the end of the one before on its thread or of
      // the one that woke it, after the start of the one it runs inside.
      constexpr Wait after_end{.on_start = false, .lagged = true}, after_start{.on_start = true, .lagged = true};
      if (app_.chain_prev[i] != trace::kNoIndex) engine_.depend(begin_[i], end_[app_.chain_prev[i]], after_end);
      if (app_.woken_by[i] != trace::kNoIndex) engine_.depend(begin_[i], end_[app_.woken_by[i]], after_end);
      else if (app_.parent[i] != trace::kNoIndex) engine_.depend(begin_[i], begin_[app_.parent[i]], after_start);
      if (const std::uint32_t w = app_.awaits[i]; w != trace::kNoIndex) {
        // The tail after GPU work given another duration scales with it (the last staged chunk
        // of a pageable copy moves at the copy's rate).
        const double tail_ns = app_.tail_ns[i] * (trace::moves_data(trace_.kinds()[w]) ? given_over_recorded(w) : 1.0);
        const TaskId tail = engine_.add_delay(tail_ns);
        tag(tail, Role::sync);
        engine_.depend(tail, end_[w]);
        engine_.depend(end_[i], tail);
      }
      continue;
    }
    if (!trace::runs_on_gpu(kind)) continue;
    if (const std::uint32_t call = trace_.launches()[i]; call != trace::kNoIndex) {
      // The launch latency after the call's start: the work's lag, or a task of its own before a
      // flow.
      if (launch_has_own_task(kind)) {
        const TaskId launch = engine_.add_delay(app_.launch_ns[i]);
        tag(launch, Role::launch);
        engine_.depend(launch, begin_[call], Wait{.on_start = true});
        engine_.depend(begin_[i], launch);
      } else {
        engine_.set_lag(begin_[i], app_.launch_ns[i]);
        engine_.depend(begin_[i], begin_[call], Wait{.on_start = true, .lagged = true});
      }
    }
    if (const std::uint32_t a = app_.after[i]; a != trace::kNoIndex) engine_.depend(begin_[i], end_[a]);
  }
  // Work held by GPU-filling work waits the same share of that work's time after its start.
  for (const AppGraph::SmHold& h : app_.sm_holds) {
    const TaskId hold = engine_.add_delay(h.offset_ns * given_over_recorded(h.by));
    tag(hold, Role::sync);
    engine_.depend(hold, begin_[h.by], Wait{.on_start = true});
    engine_.depend(begin_[h.work], hold);
  }
  // Work its stream held past its predecessor's end keeps that gap (the GPU's, not the node's).
  for (const AppGraph::StreamGap& g : app_.stream_gaps) {
    const TaskId gap = engine_.add_delay(g.gap_ns);
    tag(gap, Role::launch);
    engine_.depend(gap, end_[g.prev]);
    engine_.depend(begin_[g.work], gap);
  }
}

std::vector<PathStep> Simulation::critical_path_of_last_work() const {
  double work_end = -1;
  std::size_t last = trace_.size();
  for (std::size_t i = 0; i < trace_.size(); ++i) {
    if (trace_.kinds()[i] == OpKind::annotation) continue;
    if (const double end = engine_.timing(end_[i]).end_ns; end > work_end) {
      work_end = end;
      last = i;
    }
  }
  if (last == trace_.size()) return {};
  return engine_.critical_path(end_[last]);
}

void Simulation::collect_application(SimResult& r, const std::vector<PathStep>& critical_path) const {
  ApplicationResult& a = r.application;
  a.replayed = true;
  a.blocking_calls = app_.blocking_calls;
  a.poll_runs = app_.poll_runs;
  a.cross_stream_waits = app_.cross_stream_waits;
  a.launch_links = app_.launch_links;
  a.gpu_filling = app_.gpu_filling;
  a.sm_waits = app_.sm_waits;
  a.wakeups = app_.wakeups;
  const std::int64_t t0 = app_.t0_ns;
  a.recorded_span_ns = trace::recorded_span_ns(trace_);
  const std::string steps = step_prefix(trace_);
  // Annotations move with the calls inside them, keeping their recorded margins; one with no call
  // inside, with the call of its thread before it (or after it).
  for (const AppGraph::Span& s : app_.spans) {
    OpResult& o = r.ops[s.record];
    const double start = static_cast<double>(trace_.starts()[s.record] - t0);
    const double end = start + static_cast<double>(std::max<std::int64_t>(0, trace_.durations()[s.record]));
    if (s.first_call == trace::kNoIndex && s.anchor_call == trace::kNoIndex) {
      o.start_ns = start;
      o.end_ns = end;
    } else if (s.first_call == trace::kNoIndex) {
      // No call inside: as far from the call before it (or after it) as recorded.
      const std::uint32_t c = s.anchor_call;
      const double call_start_ns = static_cast<double>(trace_.starts()[c] - t0);
      const double call_end_ns = static_cast<double>(trace::recorded_end_ns(trace_, c) - t0);
      o.start_ns = std::max(0.0, call_start_ns >= end ? r.ops[c].start_ns - (call_start_ns - start)
                                                      : r.ops[c].end_ns + (start - call_end_ns));
      o.end_ns = o.start_ns + (end - start);
    } else {
      const double first = static_cast<double>(trace_.starts()[s.first_call] - t0);
      const double last_end = static_cast<double>(trace::recorded_end_ns(trace_, s.last_call) - t0);
      o.start_ns = std::max(0.0, r.ops[s.first_call].start_ns - (first - start));
      o.end_ns = std::max(o.start_ns, r.ops[s.last_call].end_ns + (end - last_end));
    }
    const std::string& name = trace_.op_names[trace_.names()[s.record]];
    if (!steps.empty() && name.starts_with(steps))
      a.steps.push_back({name, s.record, end - start, o.end_ns - o.start_ns, o.start_ns, {}});
  }
  // The span reaches the last end, annotations included.
  double replayed_end = 0;
  for (const OpResult& o : r.ops) replayed_end = std::max(replayed_end, o.end_ns);
  a.replayed_span_ns = replayed_end;
  if (!critical_path.empty()) attribute_critical_path(critical_path, a);
}

void Simulation::attribute_critical_path(const std::vector<PathStep>& path, ApplicationResult& a) const {
  // Each task on the path covers [start, end], or only up to its start where the task after it
  // waited for its start (a launch for its call's). The time from there to the later task's
  // readiness is that task's lag where it waited with one (a call's CPU gap: "cpu"; work's launch
  // latency: "launch"); from its readiness to its start it waited for a pool (a copy engine, the
  // SMs) or its release: "other".
  auto slot = [](ApplicationResult::Breakdown& b, Role role) -> double& {
    switch (role) {
      case Role::compute: return b.compute_ns;
      case Role::transfer: return b.transfers_ns;
      case Role::collective: return b.collectives_ns;
      case Role::cpu: return b.cpu_ns;
      case Role::launch: return b.launch_ns;
      case Role::sync: return b.sync_ns;
      case Role::other: break;
    }
    return b.other_ns;
  };
  auto add = [&](Role role, double from, double to) {
    if (!(to > from)) return;
    slot(a.breakdown, role) += to - from;
    for (auto& step : a.steps) {
      const double lo = std::max(from, step.replayed_start_ns), hi = std::min(to, step.replayed_start_ns + step.replayed_ns);
      if (hi > lo) slot(step.breakdown, role) += hi - lo;
    }
  };
  // The GPU work each task on the path runs (the last record tagging it, as the tags were made).
  std::unordered_map<TaskId, std::uint32_t> record_of;
  for (const PathStep& step : path) record_of.emplace(step.task, trace::kNoIndex);
  for (std::size_t i = 0; i < trace_.size(); ++i) {
    if (!trace::runs_on_gpu(trace_.kinds()[i])) continue;
    for (const TaskId t : {begin_[i], end_[i]})
      if (const auto it = record_of.find(t); it != record_of.end()) it->second = static_cast<std::uint32_t>(i);
  }
  std::map<std::uint32_t, double> by_record;
  for (std::size_t k = 0; k < path.size(); ++k) {
    const TaskId t = path[k].task;
    const TaskTiming tm = engine_.timing(t);
    const Role role = t < role_.size() ? role_[t] : Role::other;
    const bool later_waited_for_start = k > 0 && path[k].wait.on_start;
    const double released_at = later_waited_for_start ? tm.start_ns : tm.end_ns;
    add(role, tm.start_ns, released_at);
    if (k > 0) {
      const TaskId later = path[k - 1].task;
      const TaskTiming later_tm = engine_.timing(later);
      double ready_ns = released_at;
      if (path[k].wait.lagged) {
        const Role later_role = later < role_.size() ? role_[later] : Role::other;
        ready_ns = std::max(released_at, path[k - 1].ready_ns);
        add(later_role == Role::cpu ? Role::cpu : Role::launch, released_at, ready_ns);
      }
      add(Role::other, ready_ns, later_tm.start_ns);
    }
    const std::uint32_t rec = record_of.at(t);
    if (rec != trace::kNoIndex && (role == Role::compute || role == Role::transfer || role == Role::collective))
      by_record[rec] += tm.end_ns - tm.start_ns;
  }
  std::vector<ApplicationResult::Contributor> top;
  for (const auto& [rec, ns] : by_record) top.push_back({rec, ns});
  std::sort(top.begin(), top.end(), [](const auto& x, const auto& y) { return x.ns > y.ns; });
  if (top.size() > 10) top.resize(10);
  a.top = std::move(top);
}

void Simulation::collect(SimResult& r) {
  r.makespan_ns = engine_.makespan_ns();
  r.model = std::string(model_.name);
  if (options_.nccl_model_collectives) r.model += " + nccl-model";
  r.solver = options_.solver;
  r.ops.resize(trace_.size());
  for (std::size_t i = 0; i < trace_.size(); ++i) {
    OpResult& o = r.ops[i];
    o.start_ns = engine_.timing(begin_[i]).start_ns;
    o.end_ns = engine_.timing(end_[i]).end_ns;
    if (trace::runs_on_cpu(trace_.kinds()[i])) continue;
    const Endpoints e = endpoints_of(i);
    o.issuer = e.issuer;
    o.src = e.src;
    o.dst = e.dst;
  }
  for (std::size_t c = 0; c < collectives_.size(); ++c)
    for (std::size_t rec : collectives_[c].ops) r.ops[rec].collective = static_cast<std::int32_t>(c);
  for (CollectiveResult& c : collectives_) {
    c.start_ns = kInf;
    c.end_ns = 0;
    for (std::size_t rec : c.ops) {
      c.start_ns = std::min(c.start_ns, r.ops[rec].start_ns);
      c.end_ns = std::max(c.end_ns, r.ops[rec].end_ns);
    }
  }
  r.collectives = std::move(collectives_);
  for (const PendingTransfer& t : transfers_) {
    const TaskTiming tm = engine_.timing(t.task);
    r.transfers.push_back({t.collective, t.src, t.dst, t.channel, t.bytes, tm.start_ns, tm.end_ns});
  }
  // Links: every direction that carried data.
  const int bins = std::max(options_.bins, 1);
  for (std::size_t l = 0; l < node_.links.size(); ++l) {
    for (int dir = 0; dir < 2; ++dir) {
      const auto res = static_cast<ResourceId>(2 * l + static_cast<std::size_t>(dir));
      const double wire = net_.wire_bytes(res);
      if (!(wire > 0)) continue;
      LinkResult lr;
      lr.link = static_cast<int>(l);
      lr.forward = dir == 0;
      lr.from = dir == 0 ? node_.links[l].a : node_.links[l].b;
      lr.to = dir == 0 ? node_.links[l].b : node_.links[l].a;
      lr.capacity_gbps = net_.capacity(res);
      // Data comes in whole bytes; the flows' rate x time sums miss it by rounding (1 MiB read as
      // 1048575.9999999997 B, printed 1024.00 KiB).
      lr.data_bytes = std::round(net_.data_bytes(res));
      lr.wire_bytes = wire;
      if (options_.keep_transfers) {
        lr.series = net_.take_series(res);
        lr.series.push_back({net_.now(), wire});
      }
      if (r.makespan_ns > 0) {
        lr.utilisation = wire / (lr.capacity_gbps * r.makespan_ns);
        const double width = r.makespan_ns / bins;
        lr.bins = net_.usage_bins(res, bins, r.makespan_ns);
        for (double& b : lr.bins) b /= lr.capacity_gbps * width;
        lr.peak_utilisation = *std::max_element(lr.bins.begin(), lr.bins.end());
      }
      r.links.push_back(std::move(lr));
    }
  }
  // The matrix over the endpoints that moved data.
  for (std::size_t e = 0; e < node_.endpoints.size(); ++e) {
    bool any = false;
    for (std::size_t o = 0; o < node_.endpoints.size(); ++o) any = any || matrix_[e][o] > 0 || matrix_[o][e] > 0;
    if (any) r.matrix_endpoints.push_back(static_cast<int>(e));
  }
  for (int a : r.matrix_endpoints) {
    r.matrix.emplace_back();
    for (int b : r.matrix_endpoints) r.matrix.back().push_back(matrix_[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)]);
  }
  r.tasks = engine_.size();
  r.flows = flows_;
  r.events = engine_.events();
  r.solves = net_.counters().solves;
  r.warnings = warnings_;
  r.unrecorded_waits_ns = std::move(unrecorded_waits_ns_);
}

}  // namespace

std::optional<std::string> profiler_paced_warning(const trace::Trace& trace, const ApplicationResult& a) {
  // The steps' critical paths where the trace marks steps: the span of several profiling windows
  // also holds the unprofiled steps between them, which the replay keeps as CPU time.
  ApplicationResult::Breakdown b = a.steps.empty() ? a.breakdown : ApplicationResult::Breakdown{};
  for (const auto& step : a.steps) {
    b.compute_ns += step.breakdown.compute_ns;
    b.transfers_ns += step.breakdown.transfers_ns;
    b.collectives_ns += step.breakdown.collectives_ns;
    b.cpu_ns += step.breakdown.cpu_ns;
    b.launch_ns += step.breakdown.launch_ns;
    b.sync_ns += step.breakdown.sync_ns;
    b.other_ns += step.breakdown.other_ns;
  }
  const double total = b.total_ns();
  const bool gpu_work = b.compute_ns + b.transfers_ns + b.collectives_ns > 0;  // none: no GPU activity, said apart
  if (trace.format != "kineto" || !a.replayed || !gpu_work || b.cpu_ns < kProfilerPacedCpuShare * total)
    return std::nullopt;
  return fmt::format("{}: the CPU paces this recording ({:.0f}% of the replayed critical path is CPU time between calls), "
                     "and that time holds the PyTorch profiler's own cost for every operator it recorded: without the "
                     "profiler such steps run faster (the PyTorch apps recorded for linkcast whose steps the CPU paced "
                     "took 1.23-2.17x as long profiled as unprofiled, those the GPU paced 0.87-1.10x: "
                     "tools/results/profiler_pace.py); compare with step times measured under the profiler, or "
                     "read these as an upper bound",
                     trace.source_file, 100.0 * b.cpu_ns / total);
}

SimResult simulate(const topology::Node& node, const trace::Trace& trace, const SimOptions& options) {
  Simulation sim(node, trace, options);
  return sim.run();
}

std::vector<double> recorded_gpu_durations(const trace::Trace& trace) {
  std::vector<double> ns(trace.size(), std::nan(""));
  for (std::size_t i = 0; i < trace.size(); ++i)
    if (trace::runs_on_gpu(trace.kinds()[i]) && trace.durations()[i] >= 0)
      ns[i] = static_cast<double>(trace.durations()[i]);
  return ns;
}

void apply_collective_config(const nccl::CollectiveConfig& c, SimOptions& options) {
  if (c.algo_given && !options.algo) options.algo = c.algo;
  if (c.channels_given) options.channels = c.channels;
  if (c.chunk_bytes > 0) options.chunk_bytes = c.chunk_bytes;
  options.elem_bytes = c.elem_bytes;
}

std::vector<ApplicationResult::Step> ApplicationResult::job_steps() const {
  std::vector<Step> out;
  std::map<std::string, std::size_t> row_of;
  for (const Step& s : steps) {
    const auto [it, fresh] = row_of.emplace(s.name, out.size());
    if (fresh) {
      out.push_back(s);
      continue;
    }
    Step& job = out[it->second];
    job.recorded_ns = std::max(job.recorded_ns, s.recorded_ns);
    if (s.replayed_ns > job.replayed_ns) {
      job.replayed_ns = s.replayed_ns;
      job.replayed_start_ns = s.replayed_start_ns;
      job.record = s.record;
      job.breakdown = s.breakdown;
    }
  }
  return out;
}

}  // namespace linkcast::sim
