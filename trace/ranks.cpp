#include "trace/ranks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>

#include "core/error.hpp"
#include "core/strings.hpp"
#include "trace/reader.hpp"

namespace linkcast::trace {

namespace {

namespace fs = std::filesystem;

bool looks_like_trace(const fs::path& p) {
  std::string name = p.filename().string();
  if (name.size() > 3 && name.ends_with(".gz")) name.resize(name.size() - 3);
  for (const char* ext : {".json", ".csv", ".sqlite", ".nvvp"})
    if (name.ends_with(ext)) return true;
  return false;
}

/// "rank2" < "rank10": digit runs compare as numbers.
bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      const std::string_view da = std::string_view(a).substr(i, ie - i), db = std::string_view(b).substr(j, je - j);
      const std::string_view ta = da.substr(std::min(da.find_first_not_of('0'), da.size()));
      const std::string_view tb = db.substr(std::min(db.find_first_not_of('0'), db.size()));
      if (ta.size() != tb.size()) return ta.size() < tb.size();
      if (ta != tb) return ta < tb;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

/// A trace's recorded span, first start to last end, in ns on its own clock; timed false where
/// no operation carries a time.
struct Span {
  std::int64_t lo = 0, hi = 0;
  bool timed = false;
};

Span recorded_span(const Trace& t) {
  Span s;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::int64_t start = t.starts()[i];
    if (start == kUnknownTime) continue;
    std::int64_t end = start;
    if (__builtin_add_overflow(start, std::max<std::int64_t>(t.durations()[i], 0), &end)) end = start;
    s.lo = s.timed ? std::min(s.lo, start) : start;
    s.hi = s.timed ? std::max(s.hi, end) : end;
    s.timed = true;
  }
  return s;
}

/// The names of the GPUs a trace's operations run on.
std::set<std::string> gpu_names(const Trace& t) {
  std::set<std::string> names;
  for (std::uint16_t e : gpus_run_on(t)) names.insert(t.endpoint_name(e));
  return names;
}

/// Whether the files are one process's successive profiling windows (torch.profiler's
/// tensorboard_trace_handler writes one file per window) rather than ranks: none names a rank,
/// all ran on the same GPUs, and each starts after the one before it has ended (`order`: the
/// files by start; `spans` on a common clock).
bool successive_windows(const std::vector<Trace>& files, const std::vector<Span>& spans, const std::vector<std::size_t>& order) {
  const std::set<std::string> gpus = gpu_names(files[order.front()]);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const Trace& t = files[order[k]];
    if (t.rank >= 0 || !spans[order[k]].timed || gpu_names(t) != gpus) return false;
    if (k > 0 && spans[order[k]].lo < spans[order[k - 1]].hi) return false;
  }
  return true;
}

/// Warnings where the files are not one job's ranks: they disagree on the job's size, or one ran
/// while no other did (`spans` on a common clock).
void warn_unless_one_job(const std::vector<Trace>& ranks, const std::vector<Span>& spans, std::vector<std::string>& warnings) {
  std::map<int, std::string> sizes;
  for (const Trace& t : ranks)
    if (t.world_size > 0) sizes.emplace(t.world_size, t.source_file);
  if (sizes.size() > 1)
    warnings.push_back(fmt::format("the traces disagree on the job's size ({} ranks in {}, {} in {}): they are not one "
                                   "job's ranks, and the result mixes jobs",
                                   sizes.begin()->first, sizes.begin()->second, sizes.rbegin()->first,
                                   sizes.rbegin()->second));
  if (ranks.size() < 2) return;  // one rank's trace alone: no other to overlap
  for (std::size_t k = 0; k < ranks.size(); ++k) {
    bool overlaps = !spans[k].timed;
    for (std::size_t j = 0; j < ranks.size() && !overlaps; ++j)
      // Closed spans: ranks whose operations all took no time at one instant ran together.
      overlaps = j != k && (!spans[j].timed || (spans[j].lo <= spans[k].hi && spans[k].lo <= spans[j].hi));
    if (!overlaps) {
      warnings.push_back(fmt::format("{}: its operations ran while no other trace's did: the traces are not one job's "
                                     "ranks recorded together (or their clocks differ), and the span covers the gaps "
                                     "between them",
                                     ranks[k].source_file));
      return;
    }
  }
}

/// The files on one clock: the earliest base time (Kineto's baseTimeNanoseconds; ranks of one
/// job may write different ones), how far each file's times move to count from it, and each
/// file's span so moved. Throws InputError where a moved time would leave the 64-bit nanosecond
/// range.
struct Clock {
  std::int64_t base = 0;
  std::vector<std::int64_t> shift;
  std::vector<Span> spans;
};

Clock common_clock(const std::vector<Trace>& ranks) {
  Clock c;
  c.base = std::min_element(ranks.begin(), ranks.end(), [](const Trace& a, const Trace& b) {
             return a.base_time_ns < b.base_time_ns;
           })->base_time_ns;
  for (const Trace& t : ranks) {
    const std::int64_t shift = t.base_time_ns - c.base;
    Span span = recorded_span(t);
    if (span.timed && (__builtin_add_overflow(span.hi, shift, &span.hi) || __builtin_add_overflow(span.lo, shift, &span.lo)))
      throw InputError(fmt::format("{}: its times, counted from its base time {} ns, pass the 64-bit nanosecond range "
                                   "beside the other traces' base time {} ns: not one job's ranks",
                                   t.source_file, t.base_time_ns, c.base));
    c.shift.push_back(shift);
    c.spans.push_back(span);
  }
  return c;
}

/// Whether `entry` is a folder (not a link to one) with a file named like a trace in it.
bool holds_traces(const fs::directory_entry& entry) {
  std::error_code ec;
  if (entry.is_symlink(ec) || !entry.is_directory(ec)) return false;
  for (const auto& inner : fs::directory_iterator(entry.path(), ec))
    if (looks_like_trace(inner.path())) return true;
  return false;
}

}  // namespace

std::vector<std::string> expand_trace_paths(const std::vector<std::string>& paths, std::vector<std::string>* skipped) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    if (p.empty()) throw InputError("an empty trace path; give a trace file, or a folder of a job's rank traces");
    std::error_code ec;
    const fs::file_status st = fs::status(p, ec);
    if (ec || !fs::exists(st)) throw InputError(fmt::format("{}: no such trace file", p));
    if (!fs::is_directory(st)) {
      out.push_back(p);
      continue;
    }
    std::vector<std::string> files;
    std::vector<std::string> subfolders;  // those holding files named like traces
    std::vector<std::string> not_files;   // named like traces, but pipes, sockets or devices
    for (const auto& entry : fs::directory_iterator(p, ec)) {
      if (skipped && holds_traces(entry)) subfolders.push_back(entry.path().filename().string());
      // Named first, then looked at: an entry whose status cannot be read (a symbolic link in a
      // loop, or to nothing) is refused where its name says trace, and passed over otherwise.
      if (!looks_like_trace(entry.path())) continue;
      std::error_code status_ec;
      const bool regular = entry.is_regular_file(status_ec);
      if (status_ec == std::errc::no_such_file_or_directory)
        throw InputError(fmt::format("{}: a symbolic link to nothing; remove it from the folder or give the traces one "
                                     "by one",
                                     entry.path().string()));
      if (status_ec)
        throw InputError(fmt::format("{}: cannot read it ({}); remove it from the folder or give the traces one by one",
                                     entry.path().string(), status_ec.message()));
      if (regular) files.push_back(entry.path().string());
      else if (!entry.is_directory(status_ec)) not_files.push_back(entry.path().filename().string());
    }
    if (ec) throw InputError(fmt::format("{}: cannot list the directory: {}", p, ec.message()));
    if (skipped && !subfolders.empty()) {
      std::sort(subfolders.begin(), subfolders.end(), natural_less);
      skipped->push_back(fmt::format("{}: its subfolder{} {} hold{} trace files too, not read (a folder is read one "
                                     "level deep); give {} as well if {} ranks of the job",
                                     p, subfolders.size() == 1 ? "" : "s", join(subfolders, ", "),
                                     subfolders.size() == 1 ? "s" : "", subfolders.size() == 1 ? "it" : "them",
                                     subfolders.size() == 1 ? "it holds" : "they hold"));
    }
    if (skipped && !not_files.empty()) {
      std::sort(not_files.begin(), not_files.end(), natural_less);
      skipped->push_back(fmt::format("{}: {} named like {} but {} no file (a pipe, socket or device), not read; save "
                                     "{} to a file in the folder if {} a rank's trace",
                                     p, join(not_files, ", "), not_files.size() == 1 ? "a trace" : "traces",
                                     not_files.size() == 1 ? "is" : "are", not_files.size() == 1 ? "it" : "them",
                                     not_files.size() == 1 ? "it is" : "they are"));
    }
    if (files.empty())
      throw InputError(fmt::format("{}: a directory without trace files (.json, .csv, .sqlite, .nvvp, "
                                   "optionally .gz); give the traces of a job's ranks, or one trace file",
                                   p));
    std::sort(files.begin(), files.end(), natural_less);
    out.insert(out.end(), files.begin(), files.end());
  }
  return out;
}

namespace {

/// The merged trace's format: the files' own where they agree; "mixed", said in a warning, where
/// they do not (a CSV beside a Kineto trace: what their times mean differs, e.g. a small pageable
/// copy's staging, trace::recorded_regime, so no one reading holds for both).
std::string merged_format(const std::vector<Trace>& ranks, std::vector<std::string>& warnings) {
  for (const Trace& t : ranks)
    if (t.format != ranks.front().format) {
      warnings.push_back(fmt::format("{} is a {} trace and {} a {} one: read as one job, priced as neither "
                                     "profiler's (a small pageable copy as its staged copy, not as the DMA CUPTI "
                                     "times); give one job's traces from one profiler",
                                     ranks.front().source_file, ranks.front().format, t.source_file, t.format));
      return "mixed";
    }
  return ranks.front().format;
}

/// Whether a send or recv of `t` names its peer by rank (trace::kPeerByRank).
bool names_peers_by_rank(const Trace& t) {
  for (std::size_t i = 0; i < t.size(); ++i)
    if (peer_by_rank(t, i) != kNoEndpoint) return true;
  return false;
}

/// Whether `t` is one recorded rank of a job that ran on one GPU other than gpu<rank> (rank 3 of 4
/// on its process's only device, 0) and has collectives, or sends and recvs naming their peer:
/// they name ranks, so its own GPU must be placed on gpu<rank> as merge_ranks places each rank of
/// several, or the member gpu0 (rank 0) and its own device 0 would be one GPU. A rank's trace
/// without either keeps its GPU's name (rank 9 of a multi-node job on its node's gpu1).
bool one_rank_off_its_gpu(const Trace& t) {
  if (t.rank < 0 || t.world_size < 2 || (t.group_count() < 2 && !names_peers_by_rank(t))) return false;
  const std::vector<std::uint16_t> gpus = gpus_run_on(t);
  return gpus.size() == 1 && t.endpoint_name(gpus.front()) != fmt::format("gpu{}", t.rank);
}

}  // namespace

Trace merge_ranks(std::vector<Trace> ranks) {
  if (ranks.empty()) throw InputError("no trace given; give a trace file, or a folder of a job's rank traces");
  if (ranks.size() == 1 && !one_rank_off_its_gpu(ranks.front())) return std::move(ranks.front());
  // One clock for all, then: one process's windows, or ranks (of one job, or said not to be).
  const Clock clock = common_clock(ranks);
  const std::vector<std::int64_t>& shift = clock.shift;
  std::vector<std::size_t> order(ranks.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return clock.spans[a].lo < clock.spans[b].lo; });
  const bool windows = successive_windows(ranks, clock.spans, order);
  Trace out;
  out.format = merged_format(ranks, out.warnings);
  out.world_size = windows ? 0 : static_cast<int>(ranks.size());
  out.base_time_ns = clock.base;
  if (windows)
    out.warnings.push_back(fmt::format(
        "{} files name no rank, ran on the same GPUs and follow one another in time: read as one process's "
        "successive profiling windows (as torch.profiler's tensorboard_trace_handler writes them), not as ranks",
        ranks.size()));
  else
    warn_unless_one_job(ranks, clock.spans, out.warnings);
  // Windows in time order; ranks in rank order (a file that names none at its place among the
  // files), so that the merged trace does not depend on what the files are called.
  const auto rank_of = [&](std::size_t k) { return windows ? 0 : ranks[k].rank >= 0 ? ranks[k].rank : static_cast<int>(k); };
  if (!windows) {
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rank_of(a) < rank_of(b); });
  }
  std::map<int, std::pair<std::string, bool>> rank_file;  // rank -> its file, whether the file recorded it
  std::map<std::string, std::string> gpu_owner;  // merged GPU name -> file
  for (std::size_t n = 0; n < ranks.size(); ++n) {
    const std::size_t k = order[n];
    Trace& t = ranks[k];
    const int r = rank_of(k);
    if (const auto [it, fresh] = rank_file.emplace(r, std::pair{t.source_file, t.rank >= 0}); !fresh && !windows)
      throw InputError(fmt::format("{}: rank {} again: {} {} rank {} too; give each rank's trace once", t.source_file,
                                   r, it->second.first,
                                   it->second.second ? "was recorded as" : "names no rank and took, by its place among the files,",
                                   r));
    out.world_size = std::max(out.world_size, t.world_size);
    // Endpoint renaming: a rank on one GPU goes to gpu<r>; windows keep their GPUs.
    const std::vector<std::uint16_t> run_on = windows ? std::vector<std::uint16_t>{} : gpus_run_on(t);
    const std::set<std::uint16_t> gpus(run_on.begin(), run_on.end());
    std::vector<std::uint16_t> endpoint(t.endpoint_count());
    for (std::uint16_t e = 0; e < t.endpoint_count(); ++e) {
      std::string name = t.endpoint_name(e);
      if (gpus.size() == 1 && gpus.count(e)) name = fmt::format("gpu{}", r);
      endpoint[e] = out.endpoint(name);
      if (gpus.count(e)) {
        if (const auto [it, fresh] = gpu_owner.emplace(name, t.source_file); !fresh && it->second != t.source_file)
          throw InputError(fmt::format("{}: rank {} runs on {}, which {} also uses; give one trace per rank of one "
                                       "job, or place the ranks with --map",
                                       t.source_file, r, name, it->second));
      }
    }
    if (gpus.size() == 1) {
      const std::string from = t.endpoint_name(*gpus.begin()), to = fmt::format("gpu{}", r);
      if (from != to) out.warnings.push_back(fmt::format("{}: rank {} ran on its {}: placed on {}", t.source_file, r, from, to));
    }
    // A group's members name ranks (gpu<r>: where rank r runs once placed), not this rank's own
    // devices: a rank on its process's only GPU, gpu0, is placed on gpu<r>, while the member gpu0
    // of its groups stays rank 0's. So they keep their names.
    std::vector<std::uint32_t> group(t.group_count());
    for (std::uint32_t g = 1; g < t.group_count(); ++g) {
      std::vector<std::uint16_t> members;
      for (std::uint16_t m : t.group(g)) members.push_back(gpus.size() == 1 ? out.endpoint(t.endpoint_name(m)) : endpoint[m]);
      group[g] = out.add_group(members);
    }
    std::vector<std::uint32_t> kernel(t.kernel_info_count());
    for (std::uint32_t i = 0; i < t.kernel_info_count(); ++i) kernel[i] = out.add_kernel_info(t.kernel_info(i));
    const auto remap = [](StringTable& to, const StringTable& from, std::uint32_t id, const std::string& prefix = {}) {
      return id == 0 ? 0u : to.intern(prefix + from[id]);
    };
    const std::size_t base = out.size();
    out.record_files.emplace_back(base, t.source_file);
    const std::string thread_prefix = windows ? std::string() : fmt::format("rank{}:", r);
    out.reserve(base + t.size());
    for (std::size_t i = 0; i < t.size(); ++i) {
      Op op = t.op(i);
      if (op.start_ns != kUnknownTime) op.start_ns += shift[k];
      const std::uint16_t peer = peer_by_rank(t, i);
      op.src = endpoint[op.src];
      op.dst = endpoint[op.dst];
      // A send's or recv's peer named by its rank keeps that name, as a group's members do.
      if (peer != kNoEndpoint && gpus.size() == 1) {
        std::uint16_t& peer_end = op.kind == OpKind::send ? op.dst : op.src;
        peer_end = out.endpoint(t.endpoint_name(peer));
        if (peer_end == (op.kind == OpKind::send ? op.src : op.dst))
          throw InputError(fmt::format(
              "{}: a {} whose peer is rank {}, this file's own rank{}; give each rank's trace with its "
              "distributedInfo",
              t.locate_record(i), op.kind == OpKind::send ? "send" : "recv", r,
              t.rank >= 0 ? std::string()
                          : fmt::format(": the file names no rank (no distributedInfo), so it was taken to be rank {} "
                                        "from its place among the files, which its peers contradict", r)));
      }
      if (op.issuer != kNoEndpoint) op.issuer = endpoint[op.issuer];
      op.object = remap(out.objects, t.objects, op.object);
      op.line = remap(out.lines, t.lines, op.line);
      op.comm = remap(out.comms, t.comms, op.comm);
      op.name = remap(out.op_names, t.op_names, op.name);
      op.thread = remap(out.thread_names, t.thread_names, op.thread, thread_prefix);
      op.group = group[op.group];
      if (op.launch != kNoIndex) op.launch = static_cast<std::uint32_t>(base + op.launch);
      if (op.kernel != kNoIndex) op.kernel = kernel[op.kernel];
      out.push(op);
    }
    for (std::size_t g = 0; g < t.device_names.size(); ++g) {
      if (t.device_names[g].empty()) continue;
      std::size_t to = g;
      if (gpus.size() == 1) {
        if (endpoint_index(t.endpoint_name(*gpus.begin()), "gpu") != static_cast<int>(g)) continue;
        to = static_cast<std::size_t>(r);
      }
      if (out.device_names.size() <= to) out.device_names.resize(to + 1);
      out.device_names[to] = t.device_names[g];
    }
    for (std::string& w : t.warnings) out.warnings.push_back(std::move(w));
  }
  // Messages about the whole job name its files, or its first and last where there are more than
  // four: a folder of 2,000 ranks made one message 89 kB (each record's own file is in
  // record_files).
  const auto& files = out.record_files;
  if (files.size() > 4) {
    out.source_file = fmt::format("{}, ..., {} ({} files)", files.front().second, files.back().second, files.size());
  } else {
    for (const auto& [first_record, file] : files) out.source_file += (out.source_file.empty() ? "" : ", ") + file;
  }
  return out;
}

Trace read_traces(const std::vector<std::string>& paths) {
  std::vector<std::string> skipped;
  const std::vector<std::string> files = expand_trace_paths(paths, &skipped);
  std::vector<Trace> traces;
  traces.reserve(files.size());
  for (const std::string& f : files) {
    traces.push_back(read_trace(f));
    if (files.size() > 1) traces.back().shrink_to_fit();  // held until the merge
  }
  const bool several = traces.size() > 1;
  Trace merged = merge_ranks(std::move(traces));
  if (several) merged.check_byte_counts(fmt::format("{} rank traces ({})", files.size(), files.front()));
  for (std::string& s : skipped) merged.warnings.push_back(std::move(s));
  return merged;
}

}  // namespace linkcast::trace
