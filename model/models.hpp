// Transfer-time models, registered by name with a one-line description. Each is a pure function
// of (path, transfer) returning a time in ns, so they are cheap to test, compare and swap.
//
//   ahead     AHEAD (Abdelhafez et al., IPDPSW 2019), faithfully: LogGP T = L + O + n / BW_eff
//             with its PCIe/NVLink packet equations, pageable T adds 2n / Memory_BW (eq. 9),
//             device-to-device copies at the GPU's memory bandwidth.
//   default   linkcast's best: wire-level PCIe accounting (4DW headers, framing, LCRC, Gen6
//             flits), device-to-device copies that read and write device memory (2n / BW_mem),
//             pageable copies staged in chunks through a pinned buffer with the CPU copy
//             overlapping the DMA (n / min(BW_eff, the host's rate for the copy's regime: a cold or
//             cache-warm source, used or fresh destination pages; model::HostRates)). Projections
//             anchor it on measured times (Model::anchored).
//   peak      L + O + n / peak link bandwidth (AHEAD's "Peak BW" baseline).
//   envelope  n / peak link bandwidth (AHEAD's "back-of-envelope" baseline).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/transfer.hpp"

namespace linkcast::model {

/// A path made ready to price many copy-engine transfers of one access (no request cap): each
/// hop's wire accounting under both packet models and the path's peak, read once. A projection
/// where every operation has its own size prices each under every model on both nodes (issue 17):
/// over a PreparedPath that is a few multiply-adds a hop, to the bit what the model gives over
/// the PathSpec.
struct PreparedPath {
  PreparedPath() = default;
  PreparedPath(PathSpec path, Access access);
  PathSpec spec;
  Access access = Access::write;
  // Each hop's accounting, once: hops alike (the two PCIe links of a switched path) give one rate,
  // and the slowest of the path is the slowest of the distinct ones.
  std::vector<WireAccounting> hops;        // linkcast's accounting (hop_effective_gbps)
  std::vector<WireAccounting> ahead_hops;  // AHEAD's (hop_ahead_effective_gbps)
  double peak_gbps = 0;                    // spec.peak_gbps()
  /// Whether the accountings were read for transfer t: its access, and no request cap (a
  /// device-initiated access is priced over the PathSpec).
  bool covers(const Transfer& t) const { return t.request_bytes <= 0 && t.access == access; }
};

using TransferTimeFn = double (*)(const PathSpec& path, const Transfer& transfer);
/// The same model over a PreparedPath (the PathSpec's figure where the path does not cover t).
using PreparedTimeFn = double (*)(const PreparedPath& path, const Transfer& transfer);
using HopGbpsFn = double (*)(const LinkSpec& hop, const Transfer& transfer);

/// A registered model: everything a consumer may ask of it, so a new model is one more entry
/// here and no edit anywhere else.
struct Model {
  std::string_view name;
  std::string_view description;  // one line, shown by `linkcast models`
  TransferTimeFn time_ns;
  /// The data rate the model credits one link hop with at this transfer's size and access,
  /// GB/s (at most the hop's peak): its packet accounting. The simulator shares links by it.
  HopGbpsFn hop_effective_gbps;
  /// Whether time_ns adds the transfer's fixed cost (L + O); envelope does not.
  bool charges_fixed_cost;
  /// Whether a projection anchors the model on what the trace measured: an operation with a
  /// measured time T on the source node is projected as T x (the model on the target) / (the
  /// model on the source), in the same host regime. The published baselines are not anchored.
  bool anchored;
  /// time_ns over a PreparedPath; nullptr: time_ns over its PathSpec.
  PreparedTimeFn prepared_time_ns = nullptr;

  /// The model's time for `transfer` over a prepared path, ns: time_ns(path.spec, transfer).
  double time_ns_over(const PreparedPath& path, const Transfer& transfer) const {
    return prepared_time_ns ? prepared_time_ns(path, transfer) : time_ns(path.spec, transfer);
  }
};

/// All registered models, in the order reports show them (default first).
[[nodiscard]] std::span<const Model> all_models();
/// The model called `name`; throws InputError listing the valid names if there is none.
[[nodiscard]] const Model& find_model(std::string_view name);
[[nodiscard]] std::vector<std::string> model_names();

// The models themselves, exposed for tests and benchmarks.
double ahead_time_ns(const PathSpec& path, const Transfer& t);
double default_time_ns(const PathSpec& path, const Transfer& t);
double peak_time_ns(const PathSpec& path, const Transfer& t);
double envelope_time_ns(const PathSpec& path, const Transfer& t);
// The same over a prepared path (Model::prepared_time_ns).
double ahead_prepared_ns(const PreparedPath& path, const Transfer& t);
double default_prepared_ns(const PreparedPath& path, const Transfer& t);
double peak_prepared_ns(const PreparedPath& path, const Transfer& t);
double envelope_prepared_ns(const PreparedPath& path, const Transfer& t);
/// default_prepared_ns of `t` in each of `regimes`, into out[k]: the path's rate for the size found
/// once for all (a projection anchors each pageable copy in three host regimes).
void default_prepared_regimes_ns(const PreparedPath& path, Transfer t, std::span<const HostRegime> regimes,
                                 std::span<double> out);

/// One hop's effective bandwidth under linkcast's packet accounting (`default`), GB/s.
double hop_effective_gbps(const LinkSpec& hop, const Transfer& t);
/// The same under AHEAD's equations (`ahead`).
double hop_ahead_effective_gbps(const LinkSpec& hop, const Transfer& t);
/// The hop's peak, for models that count no packet overheads (`peak`, `envelope`).
double hop_peak_gbps(const LinkSpec& hop, const Transfer& t);

/// Lowest effective bandwidth over the path's hops under linkcast's packet accounting, GB/s.
double path_effective_gbps(const PathSpec& path, const Transfer& t);
/// The same under AHEAD's equations.
double path_ahead_effective_gbps(const PathSpec& path, const Transfer& t);

}  // namespace linkcast::model
