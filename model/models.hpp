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

using TransferTimeFn = double (*)(const PathSpec& path, const Transfer& transfer);
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
