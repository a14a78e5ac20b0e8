// Attributed communication matrices of a trace (recorded or synthetic), in the three ways the
// literature looks at intra-node GPU communication:
//  - ComScribe (Akhtar et al., 2020): (d+1) x (d+1) matrices of bytes and of transfer counts,
//    host first, rows sending and columns receiving, separated by communication type;
//  - Snoopie (Issa et al., ICS'24): the same traffic attributed to data objects (allocation
//    call site and name), source lines and issuing devices;
//  - mpisee (Vardas et al.): communicator-centric tables (size, members; per operation: calls,
//    bytes, lower-bound volume) with names that agree across ranks.
// Collectives, recorded once per rank, are decomposed into the peer transfers NCCL makes
// (nccl/collectives.hpp): each rank's record contributes the transfers that rank sends.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nccl/collectives.hpp"
#include "trace/trace.hpp"

namespace linkcast::topology {
struct Node;
}

namespace linkcast::matrix {

/// ComScribe's communication types (their case numbers in parentheses), plus the collective
/// and point-to-point traffic of communication libraries.
enum class CommType : std::uint8_t {
  copy,            // explicit copies: H2D/D2H (4), D2D, peer copies with peer access (1.1, 1.2)
  copy_via_host,   // a peer copy without peer access, staged through the host (1.3): both legs
  zero_copy,       // device-initiated access to mapped host memory (5)
  peer_access,     // device-initiated loads/stores to another GPU's memory (2)
  unified_memory,  // unified-memory page migrations (3, 6)
  collective,      // NCCL collectives, decomposed into their peer transfers
  send_recv,       // point-to-point sends (recvs only check them)
};
inline constexpr std::size_t kCommTypeCount = 7;
/// Most endpoints the matrices have rows for (they are dense: 1024 x 1024 per type is 130 MB).
inline constexpr std::size_t kMaxMatrixEndpoints = 1024;
static_assert(kCommTypeCount == static_cast<std::size_t>(CommType::send_recv) + 1, "kCommTypeCount counts every CommType");
std::string_view to_string(CommType type);
/// One line on what the type covers.
std::string_view describe(CommType type);

/// bytes[i*n + j]: what endpoint i sent to endpoint j; count likewise in transfers.
struct Matrix {
  std::size_t n = 0;
  std::vector<std::uint64_t> bytes;
  std::vector<std::uint64_t> count;

  void resize(std::size_t size);
  void add(std::size_t i, std::size_t j, std::uint64_t b, std::uint64_t c) {
    bytes[i * n + j] += b;
    count[i * n + j] += c;
  }
  std::uint64_t bytes_at(std::size_t i, std::size_t j) const { return bytes[i * n + j]; }
  std::uint64_t count_at(std::size_t i, std::size_t j) const { return count[i * n + j]; }
  std::uint64_t total_bytes() const;
  std::uint64_t total_count() const;
  std::uint64_t sent_bytes(std::size_t i) const;
  std::uint64_t received_bytes(std::size_t j) const;
};

/// One attribution row. `key` is the object (Snoopie's data object: allocation name and call
/// site) or the source line; `owner` the endpoint whose memory holds the data (objects only);
/// `issuer` who issued the movement: the GPU for device-initiated accesses and collectives, the
/// faulting processor for migrations, "(host API)" for copies.
struct AttributionRow {
  std::string key;
  std::string owner;
  std::string issuer;
  CommType type = CommType::copy;
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;
};

/// What one issuer moved, per type.
struct DeviceRow {
  std::string device;
  CommType type = CommType::copy;
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;
};

/// mpisee: one operation on one communicator.
struct CommOpRow {
  trace::OpKind op = trace::OpKind::allreduce;
  std::uint64_t calls = 0;    // collective: most records of any member; send/recv: records
  std::uint64_t bytes = 0;    // nccl-tests bytes summed over calls (send/recv: bytes moved)
  std::uint64_t lower_bound_bytes = 0;    // mpisee's bound, summed over calls
  std::uint64_t inter_rank_bound_bytes = 0;  // the part of it that must cross between ranks
  std::uint64_t moved_bytes = 0;          // between ranks, as decomposed (all records)
  bool complete = true;                   // every member recorded every call
};

struct CommRow {
  std::string name;
  std::vector<std::string> members;  // in rank order
  std::vector<CommOpRow> ops;
};

struct Check {
  std::string name;
  bool ok = true;
  std::string detail;
};

struct Report {
  std::string source;  // trace file or workload spec
  std::string format;  // the trace's format
  std::size_t ops = 0;
  std::size_t ignored_ops = 0;  // memsets (no movement between endpoints)
  std::vector<std::string> endpoints;  // host(s) first, then GPUs, then others
  std::size_t host_count = 0;          // how many of `endpoints` are hosts
  Matrix total;
  std::array<Matrix, kCommTypeCount> by_type;
  std::array<std::uint64_t, kCommTypeCount> ops_by_type{};  // trace records per type
  std::vector<AttributionRow> objects;
  std::vector<AttributionRow> lines;
  std::vector<DeviceRow> devices;
  std::vector<CommRow> comms;
  std::vector<Check> checks;
  std::vector<std::string> warnings;
  nccl::CollectiveConfig collectives;
  /// Collectives took each communicator's channel count from the node (no count was given).
  bool node_channels = false;
  /// Options::ran: the members a call was taken to include though the trace has no record of them
  /// ("gpu1 of pg:0"), the calls they were missing from and what their rows added.
  std::vector<std::string> unrecorded_ranks;
  std::uint64_t unrecorded_calls = 0, unrecorded_bytes = 0;
};

/// One collective call as a simulation ran it (Options::ran): views into the simulation's result
/// (sim::CollectiveResult's ops and parts), which must outlive build().
struct RanCall {
  std::span<const std::size_t> records;  // the call's trace records, one per member recorded
  /// Its share on each ring it ran on; none where it moved nothing (decomposed by
  /// Options::collectives then).
  std::span<const nccl::RingPart> parts;
};

struct Options {
  /// How collectives are decomposed (traces carry no algorithm): ring unless told; channels 0:
  /// the node's count for the communicator's GPUs (default_channels), else kDefaultChannels.
  nccl::CollectiveConfig collectives;
  /// Optional: resolves "host" to each GPU's socket and lists every CPU and GPU of the node.
  const topology::Node* node = nullptr;
  /// The collective calls as a simulation of the same trace ran them (`report` passes them, so
  /// that its matrices, topology and timeline show the same transfers). Each is decomposed as it
  /// ran (its rings, their channels and shares), and a member of its communicator the call has no
  /// record of (a trace of one rank of a job) made it too, as the simulation takes it: that
  /// member's row of the call is added to the matrices and the attributions, under the object and
  /// line of the call's first record (the communicator table and the checks still say what was
  /// recorded). Records in no listed call are decomposed by `collectives`; none listed: the
  /// matrices hold what was recorded.
  std::vector<RanCall> ran;
};

/// Builds every matrix, attribution and check of `trace`. Throws InputError for records it
/// cannot place (a collective whose record is not a member of its group).
Report build(const trace::Trace& trace, const Options& options);

enum class View : std::uint8_t { type, object, line, comm, device };
enum class Metric : std::uint8_t { bytes, count };
[[nodiscard]] std::optional<View> parse_view(std::string_view name);
[[nodiscard]] std::optional<Metric> parse_metric(std::string_view name);

/// `--format table`: the view's tables, then the checks.
void render_table(const Report& report, View view, Metric metric, std::ostream& out);
/// `--format json`: {"endpoints", "bytes", "count", "types", "objects", "lines", "devices",
/// "communicators", "checks", ...}, whatever the view.
void render_json(const Report& report, std::ostream& out);
/// `--format csv`: one row per non-zero cell or attribution row of the view.
void render_csv(const Report& report, View view, std::ostream& out);

}  // namespace linkcast::matrix
