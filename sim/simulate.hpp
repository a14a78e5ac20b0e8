// `linkcast simulate`: a trace replayed on a node, all of it at once.
//
// Every operation becomes tasks of the event loop (sim/engine.hpp):
//  - copies, accesses, migrations, memsets, sends: one transfer over the route between the two
//    endpoints on the node. Its rate limits come from the transfer model (model/models.hpp): the
//    flow may not run faster than the model's time for it alone (cap = bytes / model time
//    without L + O), and on each link it consumes the model's wire bytes per data byte (packet
//    headers: a flow alone reproduces the model exactly; flows together share the wire). A copy
//    within one device reads and writes that device's memory, a shared resource too. L + O
//    (the node's calibrated 1-byte cost of the copy class, else the route's link latencies) is
//    charged before the data moves.
//  - a recv matched with its send (k-th recv from A to B = k-th send) ends when the send does.
//  - collectives: the ranks' records of one call (k-th call on a communicator) run as NCCL would
//    (nccl/search.hpp, nccl/tuning.hpp): NCCL's choice of algorithm and protocol by size (or the one asked for), its
//    rings, channels and chunks (nccl/collectives.hpp), its per-call and per-step latencies,
//    per-channel bandwidth ceilings and protocol wire overheads, every step a flow on the links.
// Ordering: operations on one stream (of the device that issues them) run in trace order; a
// known start_ns (relative to the trace's earliest) releases an operation no earlier than that;
// different streams are independent.
// A trace of the whole application (kernels, runtime calls: trace::Trace::has_application())
// is replayed instead through what waited for what (sim/app_graph.hpp): CPU threads keep their
// recorded CPU time between runtime calls, GPU work starts after the call that launched it and
// after its stream, blocking calls end after the GPU work they waited for, kernels that fill the
// GPU hold its SMs; only a thread's first call is released at its recorded time. Copy engines: a GPU runs its copies of one direction (into
// it, out to the host, out to a peer, within it) one at a time, in the order they become ready,
// as CUDA does; a node's `copy_engines: N` instead lets N copies of any direction run at once.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/models.hpp"
#include "nccl/search.hpp"
#include "sim/network.hpp"
#include "topology/node.hpp"
#include "nccl/collectives.hpp"
#include "trace/trace.hpp"

namespace linkcast::sim {

/// Most transfers the collectives of one simulation are run as (every NCCL step of every call a
/// task of the event loop, 125 to 200 bytes each: up to 1.6 GB, and 10 to 20 s on one core): a few bytes
/// of trace or workload spec, such as 65,536 iterations of an alltoall, must not ask for billions.
inline constexpr std::uint64_t kMaxCollectiveTransfers = 8'000'000;

struct SimOptions {
  /// Transfer model for rates, wire overheads and L + O (`linkcast models`); nullptr: "default".
  const model::Model* model = nullptr;
  /// Price every collective with NCCL's own cost model (the `nccl-model` baseline) instead of
  /// running its transfers: each call then occupies its ranks for NCCL's predicted time.
  bool nccl_model_collectives = false;
  std::string solver = "maxmin";
  /// Node GPU endpoint for trace gpu0, gpu1, ... (empty: by name).
  std::vector<int> gpus;
  /// Node endpoint id for the trace's other endpoint names, "host" included (`--map cpu0=cpu1`);
  /// a name not here is the node's endpoint of that id.
  std::map<std::string, std::string> names;
  /// L + O per copy class, ns; NaN: the node's calibration, else the route's link latencies.
  std::array<double, model::kCopyClassCount> fixed_ns;
  /// Collective overrides: algorithm, protocol, channels, chunk (unset: NCCL's choice).
  std::optional<nccl::CollAlgo> algo;
  std::optional<nccl::Proto> proto;
  int channels = 0;
  std::uint64_t chunk_bytes = 0;
  /// Every collective's user buffers come from the GPUs' memory, none from their L2 (each call on
  /// buffers no recent work touched); by default buffers up to the GPUs' l2_resident_mib are in
  /// the L2, as a loop of calls on the same buffers has them.
  bool cold_buffers = false;
  /// Bytes per element of the collectives' data (the datatype); a call whose size is not a whole
  /// number of elements is split in bytes.
  std::uint32_t elem_bytes = 4;
  /// Utilisation-over-time bins per link in the result.
  int bins = 20;
  /// Keep every collective transfer and every change of each link's load (for the timeline).
  bool keep_transfers = false;
  /// Per trace record, the duration to give GPU work instead of recording or model (a projection
  /// onto this node); empty, or NaN for a record: kernels keep their recorded duration, copies
  /// are priced by the model, collectives run as NCCL would.
  std::vector<double> durations_ns;
  /// Per trace record of a collective call some of whose ranks the trace lacks, how long its rank
  /// waited for them from its own launch (SimResult::unrecorded_waits_ns of the replay on the
  /// recording's node): carried onto this node as a time. Empty: where durations_ns is given (a
  /// replay with the recorded GPU times, on the recording's node) measured from the recorded
  /// durations (sim::add_rank_tasks), else none.
  std::vector<double> unrecorded_waits_ns;
  /// Called as the event loop runs (about every 262,144 events): tasks ended, of how many (a
  /// sweep's progress bar; the command line's progress is shown anyway).
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;

  SimOptions() { fixed_ns.fill(std::nan("")); }
};

struct OpResult {
  double start_ns = 0;  // when it began (slot acquired; collectives: the rank's launch)
  double end_ns = 0;
  int src = -1, dst = -1;  // node endpoints
  int issuer = -1;         // node endpoint whose stream runs it
  std::int32_t collective = -1;  // index into SimResult::collectives
};

struct CollectiveResult {
  trace::OpKind kind = trace::OpKind::allreduce;
  std::vector<int> gpus;  // node endpoints, rank order
  std::uint64_t bytes = 0;
  std::string comm;
  nccl::CollAlgo algo = nccl::CollAlgo::ring;
  nccl::Proto proto = nccl::Proto::simple;
  int channels = 0;      // channels the call ran on
  std::size_t transfers = 0;
  double start_ns = 0;   // first rank's launch
  double end_ns = 0;     // last rank's end
  nccl::Estimate nccl_model;  // NCCL's own prediction for the same algorithm and protocol
  nccl::Graph graph;
  /// Per distinct ring the call used, its share (the ring in communicator ranks: node endpoint
  /// gpus[ring[k]]); its transfers are their decompositions.
  std::vector<nccl::RingPart> parts;
  std::vector<std::size_t> ops;  // trace records, one per rank present
};

/// One transfer of a collective, for the timeline.
struct TransferRecord {
  std::uint32_t collective = 0;
  int src = 0, dst = 0;  // node endpoints
  std::uint32_t channel = 0;
  std::uint64_t bytes = 0;
  double start_ns = 0, end_ns = 0;
};

struct LinkResult {
  int link = 0;          // node.links index
  bool forward = true;   // a -> b
  int from = 0, to = 0;  // node endpoints
  double capacity_gbps = 0;
  double data_bytes = 0;  // data carried
  double wire_bytes = 0;  // with packet and protocol overheads
  double utilisation = 0;       // wire bytes / (capacity x makespan)
  double peak_utilisation = 0;  // highest over the bins
  std::vector<double> bins;     // utilisation per bin of makespan / bins
  std::vector<FlowNetwork::SeriesPoint> series;  // keep_transfers: (time, cumulative wire bytes) at each change
};

/// The replay of a whole-application trace.
struct ApplicationResult {
  bool replayed = false;
  double recorded_span_ns = 0;  // earliest start to latest end as recorded
  double replayed_span_ns = 0;
  /// Where the replayed time went along the critical path (what the last thing to finish waited
  /// for, back to the start): time the GPU computed, moved data or ran collectives that nothing
  /// hid, and time spent on the CPU side (runtime calls and the CPU work between them: the GPU
  /// waited for the program), on launch latency, on waking up from blocking calls, and waiting
  /// for a copy engine or the SMs.
  struct Breakdown {
    double compute_ns = 0, transfers_ns = 0, collectives_ns = 0, cpu_ns = 0, launch_ns = 0, sync_ns = 0, other_ns = 0;
    double total_ns() const {
      return compute_ns + transfers_ns + collectives_ns + cpu_ns + launch_ns + sync_ns + other_ns;
    }
  };
  Breakdown breakdown;
  struct Step {
    std::string name;  // ProfilerStep#N, or the trace's own step annotations (sim::step_prefix)
    std::size_t record = 0;
    double recorded_ns = 0, replayed_ns = 0;
    double replayed_start_ns = 0;
    Breakdown breakdown;
  };
  std::vector<Step> steps;  // every rank's, in record order
  /// The job's steps: one per name in order of first appearance, each its slowest rank's (the
  /// largest recorded and the largest replayed time, with that replay's breakdown), as a job's
  /// step ends when its last rank's does. The same as `steps` for one rank.
  std::vector<Step> job_steps() const;
  /// The operations with the most time on the critical path, most first.
  struct Contributor {
    std::size_t record = 0;
    double ns = 0;
  };
  std::vector<Contributor> top;
  std::size_t blocking_calls = 0, cross_stream_waits = 0, launch_links = 0, gpu_filling = 0, wakeups = 0;
  std::size_t sm_waits = 0;  // GPU work that waited for the SMs of GPU-filling work on another stream
  std::size_t poll_runs = 0;  // of the blocking calls, polls of an event or stream that saw GPU work done
};

/// Steps the CPU paced carry the profiler's own cost: for a PyTorch profiler (Kineto) trace
/// whose replay spends at least kProfilerPacedCpuShare of its critical path on CPU time, a
/// warning that says so and how much it weighed in the apps recorded for linkcast (their steps
/// timed with and without the profiler, `python3 tools/results/profiler_pace.py`: the 16 with
/// 42-100% CPU on the critical path ran 1.23-2.17x as long profiled, median 1.77; the 79 with at
/// most 28%, 0.87-1.10x, median 1.01, the spread the sessions' host copies, both ways); nothing
/// otherwise.
inline constexpr double kProfilerPacedCpuShare = 0.4;
[[nodiscard]] std::optional<std::string> profiler_paced_warning(const trace::Trace& trace, const ApplicationResult& a);

struct SimResult {
  double makespan_ns = 0;
  ApplicationResult application;
  std::vector<OpResult> ops;  // by trace record
  std::vector<CollectiveResult> collectives;
  std::vector<TransferRecord> transfers;  // when keep_transfers
  std::vector<LinkResult> links;          // directions that carried data
  /// Bytes moved between node endpoints (row: source), copies and collective steps alike.
  std::vector<std::vector<double>> matrix;
  std::vector<int> matrix_endpoints;  // node endpoints of the matrix rows/columns
  std::string model;
  std::string solver;
  std::uint64_t tasks = 0, flows = 0, events = 0, solves = 0;
  /// Per trace record, the wait SimOptions::unrecorded_waits_ns describes as this replay took it
  /// (0 for a record that waited for no rank the trace lacks); empty where no call lacks a rank.
  std::vector<double> unrecorded_waits_ns;
  std::vector<std::string> warnings;
};

/// Simulates `trace` on `node`; the trace's `host` lands where topology::place_host says. Throws
/// InputError naming the trace record for an endpoint the node lacks, a collective without its
/// group, or ranks that disagree about a call: a ChoiceError where placing the trace's GPUs
/// (options.gpus) or choosing another algorithm or protocol would fix it.
SimResult simulate(const topology::Node& node, const trace::Trace& trace, const SimOptions& options);

/// SimOptions::durations_ns for the honest replay: every GPU operation of `trace` with its
/// recorded duration (NaN for the rest, and for GPU work recorded without one).
[[nodiscard]] std::vector<double> recorded_gpu_durations(const trace::Trace& trace);

/// What a workload's spec says about its collectives (algorithm, channels, chunk size) as
/// simulator settings; where it is silent, the simulator takes NCCL's own choices. An algorithm
/// already set in `options` (from --algo) wins.
void apply_collective_config(const nccl::CollectiveConfig& c, SimOptions& options);

}  // namespace linkcast::sim
