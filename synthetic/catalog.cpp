#include "synthetic/catalog.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "core/error.hpp"
#include "core/progress.hpp"
#include "core/strings.hpp"
#include "core/units.hpp"
#include "synthetic/backend.hpp"
#include "topology/node.hpp"
#include "trace/csv.hpp"
#include "trace/limits.hpp"
#include "synthetic/programs.hpp"

namespace linkcast::synthetic {

using trace::parse_gpu_list;
using trace::endpoint_index;
using nccl::parse_coll_algo;
using nccl::default_channels;
using nccl::kDefaultChannels;

using trace::Trace;
using trace::OpKind;
using nccl::CollAlgo;
using nccl::CollectiveConfig;

namespace {

const std::vector<WorkloadKey>& common_keys() {
  static const std::vector<WorkloadKey> keys = {
      {"gpus", "all of the node's, else 0-7", "GPUs to run on: 0-7 or 0;2;4"},
      {"sample", "1", "fraction of remote device-initiated accesses recorded, (0, 1]"},
      {"sample-seed", "1", "seed of the sampling generator"},
  };
  return keys;
}

std::vector<WorkloadKey> nccl_keys(bool rooted) {
  std::vector<WorkloadKey> keys = {
      {"bytes", "64MiB", "buffer size as nccl-tests counts it (allgather: output; reducescatter: input; "
                         "alltoall: each rank's send buffer)"},
      {"algo", "ring", "ring or tree (tree: allreduce, broadcast, reduce)"},
      {"channels", "node-based, else 2", "NCCL channels (1..32)"},
      {"chunk", "NCCL's default", "bytes per chunk per rank and channel"},
      {"elem", "4", "bytes per element (the datatype)"},
      {"iters", "1", "calls"},
  };
  if (rooted) keys.push_back({"root", "0", "root rank"});
  return keys;
}

using Runner = std::function<void(Context&)>;

struct Entry {
  WorkloadInfo info;
  Runner run;
};

const std::vector<Entry>& registry() {
  static const std::vector<Entry> entries = [] {
    std::vector<Entry> e;
    e.push_back({{"stencil2d",
                  "5-point 2D star stencil, domain split along y, one halo row per neighbour per iteration",
                  {{"nx", "1024", "elements per row"},
                   {"ny", "1024", "rows (split across the GPUs)"},
                   {"iters", "10", "iterations"},
                   {"elem", "4", "bytes per element"},
                   {"periodic", "0", "1: GPU 0 and the last GPU are neighbours too"},
                   {"mode", "p2p",
                    "p2p: kernels store halos into the neighbours (device-initiated); copy: cudaMemcpyPeer "
                    "with peer access; host: cudaMemcpyPeer without peer access (staged through the host)"}}},
                 stencil2d});
    e.push_back({{"bfs-ring",
                  "level-synchronous BFS; discovered vertices travel around a ring of GPUs by device-initiated "
                  "reads, synchronised by flags",
                  {{"vertices", "4096", "vertices of the generated graph"},
                   {"degree", "8", "random graph: edges per vertex (undirected)"},
                   {"graph", "random", "random or chain (0-1-2-...: one vertex per level)"},
                   {"source", "0", "BFS source vertex"},
                   {"seed", "1", "random graph seed"},
                   {"flags-on", "off",
                    "N: the flag-pointer array lives on GPU N only, so every GPU reads it from there "
                    "(the bug Snoopie found); off: each GPU has its own"}}},
                 bfs_ring});
    const std::vector<std::pair<std::string, OpKind>> colls = {{"nccl-allreduce", OpKind::allreduce},
                                                               {"nccl-allgather", OpKind::allgather},
                                                               {"nccl-reducescatter", OpKind::reducescatter},
                                                               {"nccl-broadcast", OpKind::broadcast},
                                                               {"nccl-reduce", OpKind::reduce},
                                                               {"nccl-alltoall", OpKind::alltoall}};
    for (const auto& [name, kind] : colls) {
      const OpKind k = kind;
      e.push_back({{name, fmt::format("NCCL {} over all GPUs, as nccl-tests calls it", to_string(kind)),
                    nccl_keys(kind == OpKind::broadcast || kind == OpKind::reduce)},
                   [k](Context& ctx) { nccl_collective(ctx, k); }});
    }
    e.push_back({{"scatter-gather", "the host scatters a buffer to every GPU and gathers it back (MGBench)",
                  {{"bytes", "64MiB", "bytes per GPU each way"},
                   {"iters", "1", "iterations"},
                   {"pinned", "1", "1: pinned host buffers; 0: pageable"}}},
                 scatter_gather});
    e.push_back({{"data-parallel",
                  "data-parallel training steps: each GPU loads its batch from the host, then gradients are "
                  "all-reduced with NCCL (Snoopie's CosmoFlow: a balanced chain)",
                  {{"params", "64MiB", "gradient bytes all-reduced per step"},
                   {"batch", "16MiB", "input bytes each GPU loads per step"},
                   {"steps", "1", "training steps"},
                   {"algo", "tree", "allreduce algorithm: tree (a chain in one node) or ring"},
                   {"channels", "node-based, else 2", "NCCL channels"},
                   {"chunk", "NCCL's default", "NCCL chunk bytes"}}},
                 data_parallel});
    e.push_back({{"model-parallel",
                  "naive model parallelism: layers spread over the GPUs, every tensor on GPU 0, so every other "
                  "GPU reads and writes GPU 0's memory (Snoopie's CosmoFlow contrast)",
                  {{"layers", "8", "layers, assigned to the GPUs in contiguous groups"},
                   {"activation", "1MiB", "bytes of each layer's activations (and their gradients)"},
                   {"weights", "256KiB", "bytes of each layer's weights (and their gradients)"},
                   {"steps", "1", "training steps (forward and backward)"},
                   {"warp", "512", "bytes one warp moves per access (32 threads x 16 B)"}}},
                 model_parallel});
    return e;
  }();
  return entries;
}

std::vector<std::string> workload_names() {
  std::vector<std::string> names;
  for (const Entry& e : registry()) names.push_back(e.info.name);
  return names;
}

}  // namespace

WorkloadSpec parse_workload_spec(std::string_view text) {
  WorkloadSpec spec;
  const std::string_view t = trim(text);
  const std::size_t colon = t.find(':');
  spec.name = std::string(trim(t.substr(0, colon)));
  if (spec.name.empty()) {
    throw InputError(fmt::format("--workload '{}': no workload name; write NAME[:key=value,...], e.g. "
                                 "stencil2d:iters=10,periodic=1 (workloads: {})",
                                 text, join(workload_names(), ", ")));
  }
  if (colon == std::string_view::npos) return spec;
  const std::string_view rest = t.substr(colon + 1);
  if (trim(rest).empty()) return spec;
  for (std::string_view part : split(rest, ',')) {
    part = trim(part);
    const std::size_t eq = part.find('=');
    if (eq == std::string_view::npos || trim(part.substr(0, eq)).empty()) {
      throw InputError(fmt::format("workload '{}': '{}' is not key=value; separate keys with ',' and write GPU "
                                   "lists with ';' or '-' (gpus=0;2;4 or gpus=0-3)",
                                   spec.name, part));
    }
    std::string key(trim(part.substr(0, eq)));
    std::string value(trim(part.substr(eq + 1)));
    for (const auto& [k, v] : spec.params)
      if (k == key) throw InputError(fmt::format("workload '{}': key '{}' is given twice", spec.name, key));
    spec.params.emplace_back(std::move(key), std::move(value));
  }
  return spec;
}

const std::vector<WorkloadInfo>& workload_catalog() {
  static const std::vector<WorkloadInfo> infos = [] {
    std::vector<WorkloadInfo> out;
    for (const Entry& e : registry()) out.push_back(e.info);
    return out;
  }();
  return infos;
}

std::string workload_help() {
  std::string out = "Workloads (--workload NAME[:key=value,...]; sizes take B, KiB, MiB, GiB, KB, MB, GB):\n";
  for (const WorkloadInfo& w : workload_catalog()) {
    out += fmt::format("\n  {}  {}\n", w.name, w.summary);
    for (const WorkloadKey& k : w.keys) out += fmt::format("      {}={}  {}\n", k.key, k.default_value, k.help);
  }
  out += "\n  Every workload also takes:\n";
  for (const WorkloadKey& k : common_keys()) out += fmt::format("      {}={}  {}\n", k.key, k.default_value, k.help);
  return out;
}

WorkloadRun run_workload_full(const std::string& text, const topology::Node* node, std::uint64_t max_ops) {
  const WorkloadSpec spec = parse_workload_spec(text);
  const auto& reg = registry();
  const auto it = std::find_if(reg.begin(), reg.end(), [&](const Entry& e) { return e.info.name == spec.name; });
  if (it == reg.end()) {
    throw InputError(fmt::format("--workload: unknown workload '{}'{}; workloads are {}", spec.name,
                                 did_you_mean(spec.name, workload_names()), join(workload_names(), ", ")));
  }
  std::vector<std::string> valid;
  for (const WorkloadKey& k : it->info.keys) valid.push_back(k.key);
  for (const WorkloadKey& k : common_keys()) valid.push_back(k.key);
  for (const auto& [key, value] : spec.params) {
    if (std::find(valid.begin(), valid.end(), key) == valid.end()) {
      throw InputError(fmt::format("workload '{}': unknown key '{}'{}; its keys are {}", spec.name, key,
                                   did_you_mean(key, valid), join(valid, ", ")));
    }
  }
  const Params params(spec.name, spec.params, max_ops);

  // GPUs: the node's (by endpoint id "gpu<N>") or 0-7.
  std::vector<int> gpu_ids;
  std::vector<int> endpoints;
  std::vector<int> sockets;
  if (const auto gpus = params.raw("gpus")) {
    // No more GPUs than the node has, or than a node may have; a GPU once.
    std::size_t most = trace::kMaxListedGpus;
    std::string limit;
    if (node) {
      most = static_cast<std::size_t>(std::count_if(node->endpoints.begin(), node->endpoints.end(), [](const auto& e) {
        return e.kind == topology::EndpointKind::gpu;
      }));
      limit = fmt::format("node '{}' has {} GPUs", node->name, most);
    }
    if (most > kMaxBackendGpus) {
      most = kMaxBackendGpus;
      limit = fmt::format("a synthetic workload runs on at most {}: its runtime keeps a page's device in a byte",
                          kMaxBackendGpus);
    }
    try {
      gpu_ids = parse_gpu_list(*gpus, "key 'gpus'", most, limit);
    } catch (const InputError& e) {
      throw InputError(fmt::format("workload '{}': {}", spec.name, e.what()));
    }
    if (gpu_ids.empty()) params.fail("gpus", "names no GPU");
  } else if (node) {
    for (std::size_t i = 0; i < node->endpoints.size(); ++i) {
      if (node->endpoints[i].kind != topology::EndpointKind::gpu) continue;
      const int g = endpoint_index(node->endpoints[i].id, "gpu");
      if (g < 0) {
        throw InputError(fmt::format("workload '{}': GPU endpoint '{}' of node '{}' is not named gpu<N>; give gpus= "
                                     "explicitly",
                                     spec.name, node->endpoints[i].id, node->name));
      }
      gpu_ids.push_back(g);
    }
    if (gpu_ids.empty()) throw InputError(fmt::format("workload '{}': node '{}' has no GPUs", spec.name, node->name));
  } else {
    for (int g = 0; g < 8; ++g) gpu_ids.push_back(g);
  }
  if (node) {
    std::vector<std::string> node_gpus;
    for (const auto& e : node->endpoints)
      if (e.kind == topology::EndpointKind::gpu) node_gpus.push_back(e.id);
    for (int g : gpu_ids) {
      const std::string id = fmt::format("gpu{}", g);
      int index = -1;
      for (std::size_t i = 0; i < node->endpoints.size(); ++i)
        if (node->endpoints[i].id == id && node->endpoints[i].kind == topology::EndpointKind::gpu)
          index = static_cast<int>(i);
      if (index < 0) {
        params.fail("gpus", fmt::format("{} is not a GPU of node '{}' ({}); its GPUs are {}", id, node->name,
                                        node->file, join(node_gpus, ", ")));
      }
      endpoints.push_back(index);
      const int host = node->endpoints[static_cast<std::size_t>(index)].host;
      sockets.push_back(host < 0 ? -1 : endpoint_index(node->endpoints[static_cast<std::size_t>(host)].id, "cpu"));
    }
  }

  BackendOptions options;
  options.max_ops = max_ops;
  ProgressLine progress(fmt::format("workload '{}'", spec.name));
  options.progress = [&progress](std::uint64_t done, std::uint64_t) { progress.update(done, 0, "steps"); };
  options.gpu_ids = gpu_ids;
  options.gpu_sockets = sockets;
  if (node) {
    for (int e : endpoints) {
      const topology::Endpoint& gpu = node->endpoints[static_cast<std::size_t>(e)];
      options.gpu_memory_bytes.push_back(static_cast<std::uint64_t>(gpu.memory.capacity_gib * 1024.0 * 1024 * 1024));
    }
    options.gpu_memory_source = fmt::format("memory.capacity_gib of node '{}', {}", node->name, node->file);
  }
  options.sample_rate = params.real("sample", 1.0, 0.0, 1.0);
  if (options.sample_rate <= 0.0) params.fail("sample", "must be above 0 (1 records every access)");
  options.sample_seed = params.count("sample-seed", 1);
  Backend backend(options);

  WorkloadRun run;
  Context ctx{params, backend, node, endpoints, run.collectives};
  try {
    it->run(ctx);
  } catch (const WorkloadLimitError& e) {
    throw InputError(fmt::format("workload '{}': {}", text, e.what()));
  }
  run.stats = backend.stats();
  for (int d = 0; d < backend.device_count(); ++d) run.gpus.push_back(backend.device_name(d));
  run.trace = backend.take_trace();
  run.trace.source_file = text;
  run.trace.format = "synthetic";
  if (node) {  // device names by GPU index, as the readers fill them
    for (std::size_t d = 0; d < gpu_ids.size(); ++d) {
      const auto g = static_cast<std::size_t>(gpu_ids[d]);
      if (run.trace.device_names.size() <= g) run.trace.device_names.resize(g + 1);
      run.trace.device_names[g] = node->endpoints[static_cast<std::size_t>(endpoints[d])].model;
    }
  }
  return run;
}

Trace run_workload(const std::string& spec, const topology::Node* node) {
  return run_workload_full(spec, node).trace;
}


std::optional<std::string> Params::raw(std::string_view key) const {
  for (const auto& [k, v] : values_)
    if (k == key) return v;
  return std::nullopt;
}

void Params::fail(std::string_view key, std::string_view message) const {
  throw InputError(fmt::format("workload '{}': key '{}': {}", workload_, key, message));
}

void Params::check_work(std::string_view key, double ops, double steps, std::string_view how) const {
  const std::string value = raw(key).value_or("its default");
  if (ops > static_cast<double>(max_ops_)) {
    if (max_ops_ < kMaxWorkloadOps) {
      fail(key, fmt::format("{}: {} record {:.3g} operations; a workload that is simulated records at most {} (a "
                            "simulation takes about 500 bytes and 6 us an operation); lower it",
                            value, how, ops, max_ops_));
    }
    fail(key, fmt::format("{}: {} record {:.3g} operations; a workload records at most {} (about 1 GiB of trace); "
                          "lower it",
                          value, how, ops, max_ops_));
  }
  if (steps > static_cast<double>(kMaxWorkloadWork)) {
    fail(key, fmt::format("{}: {} take {:.3g} steps (device accesses and operations); a workload takes at most {} "
                          "(10 to 15 s); lower it",
                          value, how, steps, kMaxWorkloadWork));
  }
}

std::uint64_t Params::size(std::string_view key, std::uint64_t fallback, std::uint64_t min) const {
  const auto v = raw(key);
  if (!v) return fallback;
  const std::uint64_t bytes = parse_size_bytes(*v, fmt::format("workload '{}': key '{}'", workload_, key));
  if (bytes < min) fail(key, fmt::format("{} is below the minimum of {}", *v, format_bytes(min)));
  return bytes;
}

std::uint64_t Params::count(std::string_view key, std::uint64_t fallback, std::uint64_t min, std::uint64_t max) const {
  const auto v = raw(key);
  if (!v) return fallback;
  const std::uint64_t n = parse_size_bytes(*v, fmt::format("workload '{}': key '{}'", workload_, key));
  if (n < min || n > max) {
    if (max == ~std::uint64_t{0}) fail(key, fmt::format("{} is below the minimum of {}", *v, min));
    fail(key, fmt::format("{} is out of range; use {}..{}", *v, min, max));
  }
  return n;
}

bool Params::flag(std::string_view key, bool fallback) const {
  const auto v = raw(key);
  if (!v) return fallback;
  if (*v == "1" || *v == "true" || *v == "yes" || *v == "on") return true;
  if (*v == "0" || *v == "false" || *v == "no" || *v == "off") return false;
  fail(key, fmt::format("'{}' is not 0 or 1", *v));
}

double Params::real(std::string_view key, double fallback, double min, double max) const {
  const auto v = raw(key);
  if (!v) return fallback;
  const double x = parse_double(*v, fmt::format("workload '{}': key '{}'", workload_, key));
  if (x < min || x > max) fail(key, fmt::format("{} is out of range; use {}..{}", *v, min, max));
  return x;
}

std::string Params::choice(std::string_view key, std::string fallback, const std::vector<std::string>& allowed) const {
  const auto v = raw(key);
  if (!v) return fallback;
  if (std::find(allowed.begin(), allowed.end(), *v) == allowed.end()) {
    fail(key, fmt::format("'{}' is not one of {}{}", *v, join_or(allowed), did_you_mean(*v, allowed)));
  }
  return *v;
}

void read_collective_keys(Context& ctx, CollAlgo default_algo) {
  const Params& p = ctx.params;
  CollectiveConfig& c = ctx.collectives;
  c.algo_given = p.has("algo");
  c.algo = *parse_coll_algo(p.choice("algo", std::string(to_string(default_algo)), {"ring", "tree"}));
  c.channels_given = p.has("channels");
  if (c.channels_given) {
    c.channels = static_cast<int>(p.count("channels", 0, 1, nccl::kMaxChannels));
  } else if (ctx.node && !ctx.gpu_endpoints.empty()) {
    c.channels = default_channels(*ctx.node, ctx.gpu_endpoints);
  } else {
    c.channels = kDefaultChannels;
  }
  c.chunk_bytes = p.size("chunk", 0, 1);
  c.elem_bytes = static_cast<std::uint32_t>(p.count("elem", 4, 1, 64));
}


}  // namespace linkcast::synthetic
