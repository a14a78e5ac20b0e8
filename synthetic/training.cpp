// Snoopie's CosmoFlow contrast (ICS'24 sec. 5.4, Fig. 9), as two workloads:
//  - data-parallel: every step each GPU copies its share of the batch from pinned host memory
//    (H2D), computes locally, then the gradients are all-reduced with NCCL; inside one node
//    NCCL's tree is a chain, so the GPU graph is a chain with the two ends sending half as much;
//  - model-parallel: layers are assigned to the GPUs in contiguous groups, but every tensor
//    (weights, activations and their gradients) lives on GPU 0, so each layer on another GPU
//    reads and writes GPU 0's memory with device-initiated accesses. Per layer and step:
//      forward:  load weights, load activations[l], store activations[l+1];
//      backward: load gradients[l+1], load activations[l], load weights,
//                store gradients[l], store weight_grads.
//    so a GPU running k layers reads k*(3A + 2W) and writes k*(2A + W) bytes of GPU 0 per step.
#include <fmt/format.h>

#include <cmath>

#include "core/units.hpp"

#include "synthetic/programs.hpp"

namespace linkcast::synthetic {

using trace::OpKind;
using nccl::CollAlgo;
using nccl::CollectiveSpec;

void data_parallel(Context& ctx) {
  const Params& p = ctx.params;
  Backend& b = ctx.backend;
  read_collective_keys(ctx, CollAlgo::tree);
  const std::uint64_t params = p.size("params", std::uint64_t{64} << 20, 4);
  const std::uint64_t batch = p.size("batch", std::uint64_t{16} << 20, 1);
  const std::uint64_t steps = p.count("steps", 1);
  const int n = b.device_count();
  const double records = 2.0 * static_cast<double>(steps) * n;
  p.check_work("steps", records, records, fmt::format("{} steps of a batch copy and an allreduce on {} GPUs", steps, n));
  const CollectiveSpec spec = ctx.collectives.spec(OpKind::allreduce, n, params);
  try {
    validate(spec);
  } catch (const InputError& e) {
    throw InputError(fmt::format("workload '{}': {}", p.workload(), e.what()));
  }
  std::vector<Address> input(static_cast<std::size_t>(n)), host(static_cast<std::size_t>(n)),
      grads(static_cast<std::size_t>(n));
  for (int d = 0; d < n; ++d) {
    host[static_cast<std::size_t>(d)] =
        b.malloc_host(batch, model::MemKind::pinned, "batch", "train.py:74", b.device_socket(d));
    input[static_cast<std::size_t>(d)] = b.malloc_device(d, batch, "input", "train.py:81");
    grads[static_cast<std::size_t>(d)] = b.malloc_device(d, params, "grads", "model.py:112");
  }
  std::vector<int> devices;
  for (int d = 0; d < n; ++d) devices.push_back(d);
  const Backend::Communicator world = b.comm_init_all(devices);
  for (std::uint64_t s = 0; s < steps; ++s) {
    for (int d = 0; d < n; ++d)
      b.memcpy(input[static_cast<std::size_t>(d)], host[static_cast<std::size_t>(d)], batch,
               Backend::CopyKind::host_to_device, "train.py:96");
    b.collective(OpKind::allreduce, world, grads, grads, params, "distributed.py:1370");
  }
}

void model_parallel(Context& ctx) {
  const Params& p = ctx.params;
  Backend& b = ctx.backend;
  const int n = b.device_count();
  const std::uint64_t layers = p.count("layers", 8, 1, 100000);
  const std::uint64_t act = p.size("activation", std::uint64_t{1} << 20, 1);
  const std::uint64_t weights = p.size("weights", std::uint64_t{256} << 10, 1);
  const std::uint64_t steps = p.count("steps", 1);
  const auto warp = static_cast<std::uint32_t>(p.count("warp", 512, 1, 1u << 20));
  {
    // Per layer and step: 5 ranges of activations and 3 of weights, in warp-sized accesses.
    auto warps = [&](std::uint64_t bytes) { return std::ceil(static_cast<double>(bytes) / warp); };
    const double per_step = static_cast<double>(layers) * (5 * warps(act) + 3 * warps(weights));
    p.check_work("layers", per_step, per_step,
                 fmt::format("{} layers of {} activations and {} weights in {}-byte warp accesses", layers,
                             format_bytes(act), format_bytes(weights), warp));
    p.check_work("steps", per_step * static_cast<double>(steps), per_step * static_cast<double>(steps),
                 fmt::format("{} steps of {:.3g} accesses", steps, per_step));
  }
  for (int d = 1; d < n; ++d) b.enable_peer_access(d, 0);
  std::vector<Address> a(layers + 1), g(layers + 1), w(layers), dw(layers);
  for (std::uint64_t l = 0; l <= layers; ++l) {
    a[l] = b.malloc_device(0, act, "activations", "model.py:40");
    g[l] = b.malloc_device(0, act, "gradients", "model.py:41");
  }
  for (std::uint64_t l = 0; l < layers; ++l) {
    w[l] = b.malloc_device(0, weights, "weights", "model.py:27");
    dw[l] = b.malloc_device(0, weights, "weight_grads", "model.py:28");
  }
  auto device_of = [&](std::uint64_t l) {
    return static_cast<int>(l * static_cast<std::uint64_t>(n) / layers);
  };
  for (std::uint64_t s = 0; s < steps; ++s) {
    for (std::uint64_t l = 0; l < layers; ++l) {
      auto k = b.launch(device_of(l), fmt::format("layer{}_forward", l));
      const std::uint32_t lw = k.line("model.py:63"), la = k.line("model.py:64"), lo = k.line("model.py:65");
      k.load_range(w[l], weights, warp, lw);
      k.load_range(a[l], act, warp, la);
      k.store_range(a[l + 1], act, warp, lo);
    }
    for (std::uint64_t l = layers; l-- > 0;) {
      auto k = b.launch(device_of(l), fmt::format("layer{}_backward", l));
      const std::uint32_t lg = k.line("model.py:88"), la = k.line("model.py:89"), lw = k.line("model.py:90"),
                          lgo = k.line("model.py:93"), ldw = k.line("model.py:94");
      k.load_range(g[l + 1], act, warp, lg);
      k.load_range(a[l], act, warp, la);
      k.load_range(w[l], weights, warp, lw);
      k.store_range(g[l], act, warp, lgo);
      k.store_range(dw[l], weights, warp, ldw);
    }
  }
}

}  // namespace linkcast::synthetic
