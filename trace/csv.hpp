// linkcast's own trace format: CSV with a header line.
//   required columns: kind,src,dst,bytes
//   optional columns: src_mem,dst_mem,start_ns,duration_ns,stream,group,root,object,line,comm,issuer
// kind: copy access migrate memset allreduce allgather reducescatter broadcast reduce alltoall
//       send recv
// src/dst: endpoint names of the node (cpu0, gpu3) or "host" for the GPU's own socket
// src_mem/dst_mem: pageable pinned device managed unknown; default pinned on a host, device on
//       a GPU
// group: a collective's GPUs, "0-3" or "0;2;5"; root: rank within the group
// issuer: for `access`, the endpoint that issued the loads/stores (default: dst, i.e. loads)
// Lines starting with '#' before the header are comments. Fields may be double-quoted.
#pragma once

#include <iosfwd>
#include <string>

#include "trace/limits.hpp"
#include "trace/trace.hpp"

namespace linkcast::trace {

/// Streams the file; throws InputError naming file:line and the column for any bad record.
[[nodiscard]] Trace read_csv_trace(const std::string& path);
[[nodiscard]] Trace parse_csv_trace(const std::string& text, const std::string& name);

void write_csv_trace(const Trace& trace, std::ostream& out);
void write_json_trace(const Trace& trace, std::ostream& out);

/// "0-3" / "0;2;5" -> GPU indices in the order written. Refuses a GPU index above kMaxGpuIndex,
/// a GPU listed twice and a list of more than `max_gpus` GPUs (`limit` says what bounds it, e.g.
/// "node 'hgx-h100' has 8 GPUs"), without expanding a range first. Errors read
/// "<what>: '<text>' <problem>".
[[nodiscard]] std::vector<int> parse_gpu_list(std::string_view text, std::string_view what,
                                              std::size_t max_gpus = kMaxListedGpus, std::string_view limit = {});

}  // namespace linkcast::trace
