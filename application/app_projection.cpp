#include "application/app_projection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "core/error.hpp"
#include "core/strings.hpp"
#include "core/units.hpp"
#include "trace/select.hpp"

namespace linkcast::application {

/// How far a source replay may miss its recording before `project` says so: every real trace's
/// honest replay is within 0.6% (tools/results/honest_replays.sh); 5% is a replay that misses
/// something.
constexpr double kReplayErrorToSay = 0.05;

namespace {

using trace::OpKind;

/// The node GPU a trace endpoint lands on (after `map`), or -1.
int node_gpu(const topology::Node& node, const trace::Trace& trace, std::uint16_t id, const projection::EndpointMap& map) {
  std::string name = trace.endpoint_name(id);
  if (const auto it = map.find(name); it != map.end()) name = it->second;
  const int e = node.find(name);
  if (e < 0 || node.endpoints[static_cast<std::size_t>(e)].kind != topology::EndpointKind::gpu) return -1;
  return e;
}

WorkClass class_of(KernelBound b) {
  switch (b) {
    case KernelBound::matrix_tensor: return WorkClass::matrix_tensor;
    case KernelBound::matrix_fp32: return WorkClass::matrix_fp32;
    case KernelBound::memory: return WorkClass::memory_kernels;
  }
  return WorkClass::memory_kernels;
}

/// Projected durations of the kernels: each scaled by what bounds it on its GPU.
void project_kernels(const topology::Node& from, const topology::Node& to, const trace::Trace& trace,
                     const projection::EndpointMap& map, ApplicationProjection& p) {
  std::array<std::size_t, kKernelBoundCount> missing{};
  const projection::EndpointMap on_source = projection::source_placement(from, map);
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (trace.kinds()[i] != OpKind::kernel) continue;
    const trace::Op op = trace.op(i);
    if (op.duration_ns < 0) continue;
    const int gs = node_gpu(from, trace, op.src, on_source), gt = node_gpu(to, trace, op.src, map);
    if (gs < 0 || gt < 0)
      throw InputError(fmt::format("{}: record {}: kernel on {}, which the {} node {} lacks; place the trace's GPUs "
                                   "with --map {}=gpuN (one map places them on both nodes)",
                                   trace.source_file, i + 1, trace.endpoint_name(op.src), gs < 0 ? "source" : "target",
                                   gs < 0 ? from.name : to.name, trace.endpoint_name(op.src)));
    const trace::KernelInfo* info = op.kernel != trace::kNoIndex ? &trace.kernel_info(op.kernel) : nullptr;
    const double src_ns = static_cast<double>(op.duration_ns);
    const KernelScale s = scale_kernel(trace.op_names[op.name], info, src_ns, gpu_rates(from.endpoints[static_cast<std::size_t>(gs)]),
                                       gpu_rates(to.endpoints[static_cast<std::size_t>(gt)]));
    p.target_durations_ns[i] = src_ns * s.factor;
    WorkTotals& w = p.by_class[static_cast<std::size_t>(class_of(s.bound))];
    ++w.ops;
    w.source_ns += src_ns;
    w.target_ns += src_ns * s.factor;
    if (!s.known) {
      ++w.kept;
      ++missing[static_cast<std::size_t>(s.bound)];
    }
  }
  for (std::size_t b = 0; b < kKernelBoundCount; ++b)
    if (missing[b] > 0) {
      const auto bound = static_cast<KernelBound>(b);
      const char* key = bound == KernelBound::memory ? "memory: stream_gbps or bandwidth_gbps"
                        : bound == KernelBound::matrix_tensor ? "tensor_tflops"
                                                                : "fp32_tflops";
      p.warnings.push_back(fmt::format("{} {} kernels keep their recorded time: the GPU key `{}` is missing on {} or {} "
                                       "(configs/SCHEMA.md)",
                                       missing[b], to_string(bound), key, from.name, to.name));
    }
}

/// Projected durations of the transfers and collectives: the measured time times the model's
/// target / source ratio, as projection::Projector prices both nodes.
void project_data_movement(const topology::Node& from, const topology::Node& to, const trace::Trace& trace,
                           const projection::EndpointMap& map, const model::Model& model,
                           const projection::Projector* given, ApplicationProjection& p) {
  std::optional<trace::Trace> own_data;
  std::optional<projection::Projector> own_target;
  if (given == nullptr) {
    own_data = trace::data_movement(trace);
    if (own_data->size() == 0) return;
    own_target.emplace(from, to, *own_data, map);
  }
  const projection::Projector& on_target = given != nullptr ? *given : *own_target;
  const trace::Trace& data = on_target.trace();
  if (data.size() == 0) return;
  const projection::Projector on_source(from, from, data, projection::source_placement(from, map));
  // A caller that gave the projector has its warnings already (`project` prints them with the
  // transfers' summary); one built here says its own.
  if (given == nullptr)
    for (const auto& w : on_target.warnings()) p.warnings.push_back(w);
  std::size_t j = 0;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const OpKind kind = trace.kinds()[i];
    if (!trace::moves_data(kind)) continue;
    const double target_ns = on_target.time_ns(j, model);
    const double source_ns = on_source.time_ns(j, model);
    const std::int64_t measured = data.durations()[j];
    ++j;
    const double projected = measured >= 0 && source_ns > 0 && std::isfinite(source_ns) && std::isfinite(target_ns)
                                 ? static_cast<double>(measured) * target_ns / source_ns
                                 : target_ns;
    p.target_durations_ns[i] = projected;
    WorkTotals& w = p.by_class[static_cast<std::size_t>(trace::is_collective(kind) ? WorkClass::collectives
                                                                                    : WorkClass::transfers)];
    ++w.ops;
    w.source_ns += measured >= 0 ? static_cast<double>(measured) : 0.0;
    w.target_ns += projected;
  }
}

}  // namespace

std::string_view to_string(WorkClass c) {
  switch (c) {
    case WorkClass::matrix_tensor: return "matrix kernels (tensor cores)";
    case WorkClass::matrix_fp32: return "matrix kernels (FP32)";
    case WorkClass::memory_kernels: return "memory-bound kernels";
    case WorkClass::transfers: return "transfers";
    case WorkClass::collectives: return "collectives";
  }
  return "?";
}

std::vector<int> placed_gpus(const topology::Node& node, const trace::Trace& trace, const projection::EndpointMap& map) {
  // The trace's highest GPU index: a rank's trace may name gpu1 without gpu0.
  std::size_t count = 0;
  for (const auto& n : trace.endpoint_names())
    if (const int g = trace::endpoint_index(n, "gpu"); g >= 0) count = std::max(count, static_cast<std::size_t>(g) + 1);
  std::vector<char> named(count, 0);  // the GPUs the trace's operations and collectives name
  for (const std::uint16_t e : trace::gpus_named(trace))
    named[static_cast<std::size_t>(trace::endpoint_index(trace.endpoint_name(e), "gpu"))] = 1;
  std::vector<int> gpus;
  bool renamed = false;
  for (std::size_t g = 0; g < count; ++g) {
    const std::string name = fmt::format("gpu{}", g);
    const auto it = map.find(name);
    renamed = renamed || it != map.end();
    const int e = node.find(it != map.end() ? it->second : name);
    if (it != map.end() && e >= 0 && node.endpoints[static_cast<std::size_t>(e)].kind != topology::EndpointKind::gpu)
      throw InputError(fmt::format("--map {}={}: '{}' of node '{}' is a {}, not a GPU; map a GPU onto a GPU", name,
                                   it->second, it->second, node.name,
                                   topology::to_string(node.endpoints[static_cast<std::size_t>(e)].kind)));
    // Two GPUs of the trace on one of the node's would run both GPUs' streams as one GPU's, whose
    // waits on each other then never end (as `--gpus '0;0'`, refused).
    for (std::size_t k = 0; k < gpus.size(); ++k)
      if (e >= 0 && gpus[k] == e && named[k] && named[g])
        throw InputError(fmt::format("--map places gpu{} and {} of the trace both on '{}' of node '{}'; each GPU of "
                                     "the trace takes a GPU of its own",
                                     k, name, node.endpoints[static_cast<std::size_t>(e)].id, node.name));
    gpus.push_back(e);
  }
  if (!renamed) return {};
  return gpus;
}

std::vector<std::string> place(const topology::Node& node, const trace::Trace& trace, const projection::EndpointMap& map,
                               sim::SimOptions& options) {
  std::vector<std::string> warnings;
  const auto& names = trace.endpoint_names();
  for (const auto& [name, target] : map) {
    const int e = target == "host" ? -1 : node.find(target);
    if (target != "host" && e < 0)
      throw InputError(fmt::format("--map {}={}: node '{}' ({}) has no endpoint '{}'{}", name, target, node.name,
                                   node.file, target, did_you_mean(target, node.endpoint_ids())));
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      warnings.push_back(fmt::format("--map {}={}: the trace has no endpoint '{}'{}: the entry places nothing", name,
                                     target, name, did_you_mean(name, names)));
      continue;
    }
    if (trace::endpoint_index(name, "gpu") >= 0) continue;  // placed_gpus
    // A CPU of the trace (or "host", the socket of the GPU at the other end) onto a CPU; nothing
    // but a GPU onto a GPU.
    if (e < 0) {
      options.names[name] = target;  // "host"
      continue;
    }
    const topology::EndpointKind kind = node.endpoints[static_cast<std::size_t>(e)].kind;
    if (kind == topology::EndpointKind::gpu)
      throw InputError(fmt::format("--map {}={}: '{}' of node '{}' is a GPU, and '{}' of the trace is none; map a GPU "
                                   "of the trace (gpu<N>) onto a GPU",
                                   name, target, target, node.name, name));
    const bool cpu_side = name == "host" || trace::endpoint_index(name, "cpu") >= 0;
    if (cpu_side && kind != topology::EndpointKind::cpu)
      throw InputError(fmt::format("--map {}={}: '{}' of node '{}' is a {}; map a CPU of the trace onto a CPU", name,
                                   target, target, node.name, topology::to_string(kind)));
    options.names[name] = target;
  }
  options.gpus = placed_gpus(node, trace, map);
  return warnings;
}

ApplicationProjection project_application(const topology::Node& from, const topology::Node& to, const trace::Trace& trace,
                                          const projection::EndpointMap& map, const model::Model& model,
                                          const projection::Projector* data_onto_target, bool for_timeline) {
  ApplicationProjection p;
  p.model = std::string(model.name);
  p.target_durations_ns.assign(trace.size(), std::numeric_limits<double>::quiet_NaN());
  project_kernels(from, to, trace, map, p);
  project_data_movement(from, to, trace, map, model, data_onto_target, p);

  sim::SimOptions source;
  source.model = &model;
  (void)place(from, trace, projection::source_placement(from, map), source);  // the Projector said what it places
  source.durations_ns = sim::recorded_gpu_durations(trace);
  p.source = sim::simulate(from, trace, source);
  // The recording's pace, said once (the source's replay is the recording's).
  if (auto w = sim::profiler_paced_warning(trace, p.source.application)) p.warnings.push_back(std::move(*w));
  // The projection divides the source replay's own error out; where that error is large, what the
  // replay misses (a wait it did not infer, calls paired wrongly) need not scale as the rest does.
  const auto& replay = p.source.application;
  if (replay.recorded_span_ns > 0 &&
      std::fabs(replay.replayed_span_ns / replay.recorded_span_ns - 1) > kReplayErrorToSay)
    p.warnings.push_back(fmt::format(
        "{}: replayed on {} with its recorded GPU times, the trace spans {} against {} recorded ({}): the projection "
        "divides that out, but what the replay misses need not scale as the rest (`linkcast simulate {} TRACE "
        "--as-recorded` shows the steps it misses)",
        trace.source_file.empty() ? "trace" : trace.source_file, from.name, format_duration_ns(replay.replayed_span_ns),
        format_duration_ns(replay.recorded_span_ns),
        format_change_pct(replay.replayed_span_ns, replay.recorded_span_ns, 1), from.name));

  sim::SimOptions target;
  target.model = &model;
  (void)place(to, trace, map, target);
  target.durations_ns = p.target_durations_ns;
  target.unrecorded_waits_ns = p.source.unrecorded_waits_ns;  // waits for ranks the trace lacks, as the source's
  target.keep_transfers = for_timeline;
  p.target = sim::simulate(to, trace, target);
  return p;
}

double projected_span_with(const topology::Node& from, const topology::Node& to, const trace::Trace& trace,
                           const projection::EndpointMap& map, const model::Model& model,
                           const projection::Projector* data_onto_target, const ApplicationProjection& p) {
  ApplicationProjection q;
  q.target_durations_ns = p.target_durations_ns;  // the kernels as projected; the transfers anew
  project_data_movement(from, to, trace, map, model, data_onto_target, q);
  sim::SimOptions target;
  target.model = &model;
  (void)place(to, trace, map, target);
  target.durations_ns = q.target_durations_ns;
  target.unrecorded_waits_ns = p.source.unrecorded_waits_ns;
  const double target_span = sim::simulate(to, trace, target).application.replayed_span_ns;
  const auto& source = p.source.application;
  return source.replayed_span_ns > 0 ? source.recorded_span_ns * target_span / source.replayed_span_ns : target_span;
}

}  // namespace linkcast::application
