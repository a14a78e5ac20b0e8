// nccl-allreduce, nccl-allgather, nccl-reducescatter, nccl-broadcast, nccl-reduce,
// nccl-alltoall: what nccl-tests does. One communicator over every GPU (ncclCommInitAll, named
// "W"), a send and a receive buffer per rank sized as nccl-tests sizes them, `iters` calls. The
// calls are recorded once per rank; `collectives` says how to decompose them.
#include <fmt/format.h>

#include "synthetic/programs.hpp"

namespace linkcast::synthetic {

using trace::OpKind;
using nccl::CollAlgo;
using nccl::CollectiveSpec;

void nccl_collective(Context& ctx, OpKind kind) {
  const Params& p = ctx.params;
  Backend& b = ctx.backend;
  read_collective_keys(ctx, CollAlgo::ring);
  const std::uint64_t bytes = p.size("bytes", std::uint64_t{64} << 20, 1);
  const std::uint64_t iters = p.count("iters", 1);
  const bool rooted = kind == OpKind::broadcast || kind == OpKind::reduce;
  const int n = b.device_count();
  const int root = rooted ? static_cast<int>(p.count("root", 0, 0, static_cast<std::uint64_t>(n - 1))) : -1;
  const double records = static_cast<double>(iters) * n;
  p.check_work("iters", records, records, fmt::format("{} calls on {} GPUs", iters, n));

  // Validate the call once, so a bad size or algorithm is reported against its key.
  const CollectiveSpec spec = ctx.collectives.spec(kind, n, bytes, rooted ? root : 0);
  try {
    validate(spec);
  } catch (const InputError& e) {
    throw InputError(fmt::format("workload '{}': {}", p.workload(), e.what()));
  }

  const std::uint64_t block = bytes / static_cast<std::uint64_t>(n);
  const std::uint64_t send_bytes = kind == OpKind::allgather ? block : bytes;
  const std::uint64_t recv_bytes = kind == OpKind::reducescatter ? block : bytes;
  std::vector<Address> send(static_cast<std::size_t>(n)), recv(static_cast<std::size_t>(n));
  for (int d = 0; d < n; ++d) {
    send[static_cast<std::size_t>(d)] =
        b.malloc_device(d, std::max<std::uint64_t>(send_bytes, 1), "sendbuff", "common.cu:845");
    recv[static_cast<std::size_t>(d)] =
        b.malloc_device(d, std::max<std::uint64_t>(recv_bytes, 1), "recvbuff", "common.cu:846");
  }
  std::vector<int> devices;
  for (int d = 0; d < n; ++d) devices.push_back(d);
  const Backend::Communicator world = b.comm_init_all(devices);
  const std::string site = fmt::format("{}.cu:58", to_string(kind));
  for (std::uint64_t i = 0; i < iters; ++i) b.collective(kind, world, send, recv, bytes, site, root);
}

}  // namespace linkcast::synthetic
