#include "sim/validate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "core/error.hpp"
#include "core/progress.hpp"
#include "core/strings.hpp"
#include "core/units.hpp"
#include "sim/nccl_tests_log.hpp"
#include "trace/reader.hpp"

namespace linkcast::sim {

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// "file:line" of a row read_recording_csv returned (it keeps the line under kRecordingLineKey).
std::string where(const std::map<std::string, std::string>& row, const std::string& file) {
  const auto line = row.find(kRecordingLineKey);
  return line == row.end() ? file : file + ":" + line->second;
}

const std::string& field(const std::map<std::string, std::string>& row, const std::string& key,
                         const std::string& file) {
  const auto it = row.find(key);
  if (it == row.end())
    throw InputError(fmt::format("{}: no column '{}'; the file's first line names its columns, comma-separated",
                                 where(row, file), key));
  return it->second;
}

/// A row's whole number in [lo, hi]; InputError naming the file, line and column otherwise.
template <typename Int>
Int whole_field(const std::map<std::string, std::string>& row, const std::string& key, const std::string& file,
                Int lo, Int hi) {
  const std::string& text = field(row, key, file);
  Int v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
    throw InputError(fmt::format("{}: {} '{}' is not a whole number from {} to {}", where(row, file), key, text, lo, hi));
  return v;
}

/// A row's number in (lo, hi] (a time or a rate); InputError naming the file, line and column otherwise.
double number_field(const std::map<std::string, std::string>& row, const std::string& key, const std::string& file,
                    double lo, double hi) {
  const std::string& text = field(row, key, file);
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v <= lo || v > hi)
    throw InputError(fmt::format("{}: {} '{}' is not a number above {} up to {}", where(row, file), key, text, lo, hi));
  return v;
}

/// Ranks of a recorded collective: two or more (one GPU moves nothing between GPUs), at most a
/// large node's.
constexpr int kMaxRecordedRanks = 4096;

/// A trace of the records `ids` of `full` (names, streams, sizes, memory kinds).
trace::Trace subtrace(const trace::Trace& full, const std::vector<std::size_t>& ids) {
  trace::Trace t;
  t.source_file = full.source_file;
  for (std::size_t i : ids) {
    trace::Op op = full.op(i);
    op.src = t.endpoint(full.endpoint_name(op.src));
    op.dst = t.endpoint(full.endpoint_name(op.dst));
    op.issuer = trace::kNoEndpoint;
    op.object = op.line = op.comm = op.group = 0;
    t.push(op);
  }
  return t;
}

}  // namespace

std::vector<std::map<std::string, std::string>> read_recording_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("{}: cannot open it; is the recording complete?", path));
  // A field as written, less blanks around it and the double quotes a spreadsheet may add.
  const auto cell = [](std::string_view f) {
    f = trim(f);
    if (f.size() >= 2 && f.front() == '"' && f.back() == '"') f = f.substr(1, f.size() - 2);
    return std::string(f);
  };
  std::string line;
  std::getline(in, line);
  if (line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);  // a UTF-8 byte order mark
  std::vector<std::string> header;
  for (auto h : split(line, ',')) header.push_back(cell(h));
  std::vector<std::map<std::string, std::string>> rows;
  int number = 1;
  while (std::getline(in, line)) {
    ++number;
    if (trim(line).empty() || trim(line).starts_with("#")) continue;  // blank and comment lines
    const auto fields = split(line, ',');
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size() && i < fields.size(); ++i) row[header[i]] = cell(fields[i]);
    row[kRecordingLineKey] = std::to_string(number);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<ValidationCase> validate_copies(const std::string& dir, const topology::Node& node,
                                            double* overhead_ns) {
  if (overhead_ns) *overhead_ns = 0;
  if (!std::filesystem::exists(dir + "/concurrency_trace.csv.gz")) return {};
  const trace::Trace trace = trace::read_trace(dir + "/concurrency_trace.csv.gz");
  // Instances by object "<pattern>/<size>/rep<r>".
  std::map<std::string, std::vector<std::size_t>> instances;
  for (std::size_t i = 0; i < trace.size(); ++i)
    instances[trace.objects[trace.op(i).object]].push_back(i);
  // Measured makespans by (pattern, bytes), and the recording's overhead from the alone runs.
  const std::string summary = dir + "/concurrency_summary.csv";
  std::map<std::pair<std::string, std::uint64_t>, std::vector<double>> measured;
  std::vector<double> overhead;
  for (const auto& r : read_recording_csv(summary)) {
    const std::string& pattern = field(r, "pattern", summary);
    const std::uint64_t bytes = whole_field<std::uint64_t>(r, "bytes_per_op", summary, 1, std::uint64_t{1} << 50);
    const double makespan = number_field(r, "makespan_ns", summary, 0, 1e15);
    measured[{pattern, bytes}].push_back(makespan);
    if (pattern.find(".alone") != std::string::npos)
      overhead.push_back(makespan - number_field(r, "op_durations_ns", summary, 0, 1e15));
  }
  const double extra = median(overhead);
  if (overhead_ns) *overhead_ns = extra;
  // One simulation per (pattern, size): the repetitions are the same input.
  std::vector<ValidationCase> out;
  std::map<std::pair<std::string, std::uint64_t>, bool> done;
  for (const auto& [object, ids] : instances) {
    const auto parts = split(object, '/');
    if (parts.size() != 3) continue;
    const std::string pattern(parts[0]);
    const std::uint64_t bytes = trace.bytes()[ids.front()];
    if (pattern.find(".alone") != std::string::npos || done[{pattern, bytes}]) continue;
    done[{pattern, bytes}] = true;
    const SimResult r = simulate(node, subtrace(trace, ids), {});
    double alone = 0;  // no contention: each copy as if alone, all started together
    for (std::size_t id : ids)
      alone = std::max(alone, simulate(node, subtrace(trace, {id}), {}).makespan_ns);
    ValidationCase c;
    c.group = "copies";
    c.name = pattern;
    c.bytes = bytes;
    c.ops = static_cast<int>(ids.size());
    c.measured_ns = median(measured[{pattern, bytes}]) - extra;
    c.simulated_ns = r.makespan_ns;
    c.baseline_ns = alone;
    out.push_back(c);
  }
  std::sort(out.begin(), out.end(), [](const ValidationCase& a, const ValidationCase& b) {
    return a.name != b.name ? a.name < b.name : a.bytes < b.bytes;
  });
  return out;
}

namespace {

/// A recorded variant's forced algorithm, protocol and channel count (tools/record/nccl_bench.py:
/// default, ring, tree, ring_ll, ring_ll128, ring_simple, tree_*, proto_*, each optionally
/// `_ch<N>` for N channels); false for the variants the simulator does not run (p2p_disable: the
/// host path) and for names it does not know.
bool variant_options(std::string variant, SimOptions& o) {
  // nccl_bench.py --cold: each call on buffers the L2 does not hold. (--inplace is not simulated:
  // the calls are taken out of place.)
  if (variant.ends_with("_inplace")) return false;
  if (variant.ends_with("_cold")) {
    o.cold_buffers = true;
    variant.resize(variant.size() - 5);
  }
  if (const std::size_t ch = variant.rfind("_ch");
      ch != std::string::npos && ch + 3 < variant.size()) {
    const char* end = variant.data() + variant.size();
    const auto [last, ec] = std::from_chars(variant.data() + ch + 3, end, o.channels);
    if (ec != std::errc() || last != end || o.channels < 1 || o.channels > nccl::kMaxChannels)
      return false;
    variant.resize(ch);
  }
  if (variant == "default") return true;
  const auto [head, tail] = [&] {
    const std::size_t cut = variant.find('_');
    return cut == std::string::npos ? std::pair{variant, std::string()}
                                    : std::pair{variant.substr(0, cut), variant.substr(cut + 1)};
  }();
  if (head == "ring" || head == "tree") {
    o.algo = head == "ring" ? nccl::CollAlgo::ring : nccl::CollAlgo::tree;
  } else if (head != "proto") {
    return false;
  }
  if (tail.empty()) return head != "proto";
  const auto proto = nccl::parse_proto(tail);
  if (!proto) return false;
  o.proto = *proto;
  return true;
}

/// The host's recorded time to issue each call of an eager loop (nccl_bench.py's issue_us, the
/// slowest rank's); 0 where the recording predates the column or leaves it empty.
double recorded_issue_us(const std::map<std::string, std::string>& row, const std::string& bench) {
  const auto f = row.find("issue_us");
  if (f == row.end() || f->second.empty()) return 0;
  double us = 0;
  const char* end = f->second.data() + f->second.size();
  const auto [last, ec] = std::from_chars(f->second.data(), end, us);
  if (ec != std::errc() || last != end || !std::isfinite(us) || us < 0 || us > 1e6)
    throw InputError(
        fmt::format("{}: issue_us '{}' is not a time in microseconds (0 to 1e6); write the host's "
                    "time per call, or leave it empty",
                    bench, f->second));
  return us;
}

/// Whether a call of `bytes` is one of a loop's small calls, which measure its host's pace (its
/// GPU work is far shorter than any host's issue) rather than the GPUs.
bool is_small_call(std::uint64_t bytes) { return bytes <= kCallFloorMaxBytes; }

/// The host's pace of each loop issued from a process (eager rows) as the recording measured it on
/// the same loop's smallest calls: by variant, collective and rank count, the median time of its
/// eager calls of at most kCallFloorMaxBytes, whose GPU work is far shorter than any host's issue
/// (the rule nccl-tests outputs follow, validate_nccl_tests). Families without such calls have
/// none.
using LoopFamily = std::tuple<std::string, std::string, int>;
std::map<LoopFamily, double> small_call_paces(const std::vector<std::map<std::string, std::string>>& rows,
                                               const std::string& bench) {
  std::map<LoopFamily, std::vector<double>> small;
  for (const auto& r : rows) {
    const auto launch = r.find("launch");
    if (launch != r.end() && launch->second != "eager") continue;
    // Only the rows validate_collectives simulates are read.
    SimOptions unused;
    if (!variant_options(field(r, "variant", bench), unused) || !trace::parse_op_kind(field(r, "collective", bench)))
      continue;
    if (!is_small_call(whole_field<std::uint64_t>(r, "bytes", bench, 0, std::uint64_t{1} << 50))) continue;
    small[{field(r, "variant", bench), field(r, "collective", bench),
           whole_field<int>(r, "nranks", bench, 2, kMaxRecordedRanks)}]
        .push_back(number_field(r, "time_us", bench, 0, 86400e6));
  }
  std::map<LoopFamily, double> paces;
  for (const auto& [family, times] : small) paces[family] = median(times);
  return paces;
}

/// The host's pace that a loop's call of `bytes` waits for where the same loop's calls of up to
/// kCallFloorMaxBytes took `small_median_us` (0: none): that median for the larger calls; 0 for
/// the small calls themselves, which measured it and are not scored against their own time.
double small_call_pace_us(std::uint64_t bytes, double small_median_us) {
  return is_small_call(bytes) ? 0.0 : small_median_us;
}

/// The node with every GPU's process issuing a collective call in `issue_us` (its
/// collective_call_us), as one recorded loop measured it.
topology::Node with_issue_time(const topology::Node& node, double issue_us) {
  topology::Node out = node;
  for (auto& e : out.endpoints)
    if (e.kind == topology::EndpointKind::gpu) e.collective_call_us = issue_us;
  return out;
}

}  // namespace

trace::Trace collective_calls(trace::OpKind kind, int n, std::uint64_t bytes, int calls,
                              const std::string& format, const std::vector<double>& start_ns) {
  trace::Trace t;
  t.format = format;
  std::vector<std::uint16_t> members;
  for (int g = 0; g < n; ++g) members.push_back(t.endpoint("gpu" + std::to_string(g)));
  const std::uint32_t group = t.add_group(members);
  const std::uint32_t comm = t.comms.intern("W");
  for (int i = 0; i < calls; ++i) {
    for (int g = 0; g < n; ++g) {
      trace::Op op;
      op.kind = kind;
      op.src = op.dst = members[static_cast<std::size_t>(g)];
      op.bytes = bytes;
      op.group = group;
      op.comm = comm;
      op.stream = 0;
      op.root = kind == trace::OpKind::broadcast || kind == trace::OpKind::reduce ? 0 : -1;
      if (i == 0 && static_cast<std::size_t>(g) < start_ns.size())
        op.start_ns = std::llround(start_ns[static_cast<std::size_t>(g)]);
      t.push(op);
    }
  }
  return t;
}

std::vector<ValidationCase> validate_collectives(const std::string& dir, const topology::Node& node,
                                                 const CallSelection& selection) {
  const std::string bench = dir + "/nccl_bench.csv";
  std::vector<ValidationCase> out;
  if (!std::filesystem::exists(bench)) return out;
  const auto rows = read_recording_csv(bench);
  const std::map<LoopFamily, double> paces = small_call_paces(rows, bench);
  ProgressLine progress("simulating " + bench);
  std::uint64_t done = 0;
  for (const auto& r : rows) {
    progress.update(done++, rows.size(), "rows");
    const std::string& variant = field(r, "variant", bench);
    SimOptions o;
    if (!variant_options(variant, o)) continue;
    const std::string& collective = field(r, "collective", bench);
    const auto kind = trace::parse_op_kind(collective);
    if (!kind) continue;
    if (!selection.collective.empty() && collective != selection.collective) continue;
    const int n = whole_field<int>(r, "nranks", bench, 2, kMaxRecordedRanks);
    const std::uint64_t bytes = whole_field<std::uint64_t>(r, "bytes", bench, 0, std::uint64_t{1} << 50);
    if (bytes < selection.min_bytes || bytes > selection.max_bytes) continue;
    const auto iters_field = r.find("iters");
    const int iters = iters_field == r.end() ? 1 : whole_field<int>(r, "iters", bench, 1, 100000);
    const auto launch_field = r.find("launch");
    const bool graph = launch_field != r.end() && launch_field->second == "graph";
    if (launch_field != r.end() && !graph && launch_field->second != "eager")
      throw InputError(fmt::format(
          "{}: launch '{}' is neither eager nor graph; write eager (calls issued from a "
          "process) or graph (calls replayed from a CUDA graph)",
          bench, launch_field->second));
    if ((selection.launches == Launches::graph_only && !graph) ||
        (selection.launches == Launches::eager_only && graph))
      continue;
    // The recording's loop: `iters` calls back to back from each rank's process, timed together.
    // Eager: built as a synthetic workload is, so that each call waits for its process to issue it:
    // the host's time per call as this loop measured it (issue_us) where the recording has it,
    // else, for calls larger than kCallFloorMaxBytes, as the same loop's calls of up to that size
    // measured it (small_call_paces), else the node's collective_call_us. Graph: the calls were
    // replayed from a CUDA graph, with no process in the loop, so they only wait for each other in
    // stream order (a replay whose launch held the host throughout is marked launch_bound). Either
    // way all `iters` calls are simulated: a rank whose part of a call ends early starts the next
    // one while the others still work (a broadcast's root), so one call's time is not the loop's
    // time per call (tools/record/nccl_pipeline.py, tests/data/real/h200-4gpu-pipeline).
    const trace::Trace t =
        collective_calls(*kind, n, bytes, iters, graph ? "cuda-graph" : "synthetic");
    const double measured_us = number_field(r, "time_us", bench, 0, 86400e6);
    // The row's issue_us: for a graph row the replay's launch, for an eager row the calls' issue.
    const double recorded_us = recorded_issue_us(r, bench);
    double issue_us = 0;  // what the simulated calls wait for
    HostPace pace = HostPace::none;
    if (graph) {
      if (recorded_us > 0 && recorded_us >= kLaunchBoundShare * measured_us) pace = HostPace::launch_bound;
    } else if (recorded_us > 0) {
      issue_us = recorded_us;
      pace = HostPace::issue_us;
    } else if (const auto small = paces.find({variant, collective, n});
               small != paces.end() && small_call_pace_us(bytes, small->second) > 0) {
      issue_us = small_call_pace_us(bytes, small->second);
      pace = HostPace::small_calls;
    } else {
      pace = HostPace::node;
    }
    const SimResult s = simulate(issue_us > 0 ? with_issue_time(node, issue_us) : node, t, o);
    const CollectiveResult& c = s.collectives.at(0);
    ValidationCase v;
    v.group = "nccl/" + variant + (graph ? kGraphSuffix : "");
    v.name = std::string(trace::to_string(*kind));
    v.bytes = bytes;
    v.ops = n;
    v.measured_ns = measured_us * 1e3;
    v.simulated_ns = s.makespan_ns / iters;
    v.baseline_ns = c.nccl_model.time_ns;
    v.note = fmt::format("{}/{}", nccl::to_string(c.algo), nccl::to_string(c.proto));
    v.issue_us = issue_us;
    v.pace = pace;
    out.push_back(v);
  }
  return out;
}

std::vector<ValidationCase> validate_pipeline(const std::string& dir, const topology::Node& node) {
  const std::string file = dir + "/nccl_pipeline.csv";
  std::vector<ValidationCase> out;
  if (!std::filesystem::exists(file)) return out;
  // calls: the slowest rank's time per replay, by (collective, bytes, calls); delay: each rank's
  // times and the late rank's sleeps, by (bytes, late rank).
  using CallKey = std::tuple<std::string, std::uint64_t, int>;
  std::map<CallKey, std::map<int, double>> slowest;  // replay -> slowest rank's us
  std::map<CallKey, int> ranks_of;
  using LateKey = std::pair<std::uint64_t, int>;
  std::map<LateKey, std::map<int, std::vector<double>>> rank_us;
  std::map<LateKey, std::vector<double>> slept_us;
  std::map<LateKey, int> late_ranks;
  for (const auto& r : read_recording_csv(file)) {
    const std::string& test = field(r, "test", file);
    const int n = whole_field<int>(r, "nranks", file, 2, kMaxRecordedRanks);
    const std::uint64_t bytes = whole_field<std::uint64_t>(r, "bytes", file, 1, std::uint64_t{1} << 50);
    const int rank = whole_field<int>(r, "rank", file, 0, kMaxRecordedRanks);
    const double us = number_field(r, "time_us", file, 0, 86400e6);
    if (test == "calls") {
      const CallKey key{field(r, "collective", file), bytes, whole_field<int>(r, "calls", file, 1, 100000)};
      double& worst = slowest[key][whole_field<int>(r, "replay", file, 0, 1000000)];
      worst = std::max(worst, us);
      ranks_of[key] = n;
    } else if (test == "delay") {
      const LateKey key{bytes, whole_field<int>(r, "delayed_rank", file, -1, kMaxRecordedRanks)};
      rank_us[key][rank].push_back(us);
      if (const auto slept = r.find("slept_us"); slept != r.end() && !slept->second.empty())
        slept_us[key].push_back(number_field(r, "slept_us", file, -1, 86400e6));
      late_ranks[key] = n;
    } else {
      throw InputError(fmt::format("{}: test '{}' is neither calls nor delay", file, test));
    }
  }
  for (const auto& [key, replays] : slowest) {
    const auto& [name, bytes, calls] = key;
    const auto kind = trace::parse_op_kind(name);
    if (!kind) throw InputError(fmt::format("{}: '{}' is not a collective", file, name));
    std::vector<double> us;
    for (const auto& [replay, worst] : replays) us.push_back(worst);
    const SimResult s =
        simulate(node, collective_calls(*kind, ranks_of[key], bytes, calls, "cuda-graph"), {});
    ValidationCase v;
    v.group = "pipeline/calls";
    v.name = fmt::format("{} x{}", name, calls);
    v.bytes = bytes;
    v.ops = ranks_of[key];
    v.measured_ns = median(us) * 1e3 / calls;
    v.simulated_ns = s.makespan_ns / calls;
    v.baseline_ns = s.collectives.at(0).nccl_model.time_ns;
    v.note = fmt::format("{}/{}", nccl::to_string(s.collectives.at(0).algo),
                         nccl::to_string(s.collectives.at(0).proto));
    out.push_back(v);
  }
  for (const auto& [key, by_rank] : rank_us) {
    const auto& [bytes, late] = key;
    const int n = late_ranks[key];
    std::vector<double> start(static_cast<std::size_t>(n), 0.0);
    if (late >= 0 && late < n) start[static_cast<std::size_t>(late)] = median(slept_us[key]) * 1e3;
    const SimResult s = simulate(
        node, collective_calls(trace::OpKind::broadcast, n, bytes, 1, "cuda-graph", start), {});
    for (const auto& [rank, us] : by_rank) {
      if (rank < 0 || rank >= n)
        throw InputError(fmt::format("{}: rank {} of a {}-rank run", file, rank, n));
      ValidationCase v;
      v.group = late < 0 ? "pipeline/on time" : fmt::format("pipeline/rank {} late", late);
      v.name = fmt::format("broadcast rank {}", rank);
      v.bytes = bytes;
      v.ops = n;
      v.measured_ns = median(us) * 1e3;
      v.simulated_ns =
          s.ops.at(static_cast<std::size_t>(rank)).end_ns - start[static_cast<std::size_t>(rank)];
      v.baseline_ns = s.collectives.at(0).nccl_model.time_ns;
      v.note = fmt::format("{}/{}", nccl::to_string(s.collectives.at(0).algo),
                           nccl::to_string(s.collectives.at(0).proto));
      out.push_back(v);
    }
  }
  return out;
}

namespace {

/// The variant a nccl-tests run was recorded in: the list's where it names one, else NCCL's
/// environment lines in the log ("ring", "ring_simple"), else default; checked against what the
/// simulator runs, naming the list's row or the log's line.
std::string nccl_tests_variant(const std::string& listed, const std::string& list_row, const NcclTestsRun& run,
                               const std::string& path, SimOptions& o) {
  std::string logged;
  if (!run.nccl_algo.empty()) {
    logged = to_lower(run.nccl_algo);
    if (!run.nccl_proto.empty()) logged += "_" + to_lower(run.nccl_proto);
  } else if (!run.nccl_proto.empty()) {
    logged = "proto_" + to_lower(run.nccl_proto);
  }
  const std::string logged_at = fmt::format("{}:{}", path, run.nccl_algo_line);
  if (!listed.empty() && !logged.empty() && listed != logged)
    throw InputError(fmt::format("{}: variant '{}' where NCCL's log at {} says the environment set '{}'; correct the "
                                 "list",
                                 list_row, listed, logged_at, logged));
  const std::string variant = !listed.empty() ? listed : logged.empty() ? "default" : logged;
  if (run.nccl_env_leaves_several)
    throw InputError(fmt::format("{}: NCCL's log says the environment set '{}', which leaves NCCL a choice among "
                                 "some of the algorithms or protocols and not all; the simulator holds a run to one "
                                 "of them (ring_simple, tree_ll128, proto_ll, ...) or lets it choose among all "
                                 "(default), so give a run with one value or with none",
                                 logged_at, logged));
  if (!variant_options(variant, o))
    throw InputError(
        listed.empty()
            ? fmt::format("{}: NCCL's log says the environment set '{}', which the simulator does not run (it runs "
                          "ring and tree, in LL, LL128 and Simple; not NVLS, CollNet or PAT); give a run without it, "
                          "or the variant to hold the run to in {}'s variant column",
                          logged_at, logged, list_row)
            : fmt::format("{}: variant '{}' is not one the simulator runs (default, ring, tree, ring_simple, "
                          "ring_ll128, tree_ll, proto_simple, ...)",
                          list_row, variant));
  return variant;
}

/// How many bytes a rank of a nccl-tests row holds: its send and receive buffers (all-gather:
/// the row's size out and a rank's part in; reduce-scatter the other way; the rest two of its size).
std::uint64_t row_buffer_bytes(trace::OpKind kind, int ranks, std::uint64_t bytes) {
  const std::uint64_t part = bytes / static_cast<std::uint64_t>(std::max(ranks, 1));
  return kind == trace::OpKind::allgather || kind == trace::OpKind::reducescatter ? bytes + part : 2 * bytes;
}

/// A GPU name's vendor ("amd", "nvidia") and model tokens ("H100" of "NVIDIA H100 80GB HBM3",
/// "A100" of "NVIDIA A100-SXM4-40GB", "H100" and "GH200" of gh200.yaml's "NVIDIA H100
/// (GH200 Hopper GPU, 96 GB HBM3)"): its words of capital letters then digits; empty where the
/// name tells neither. Nodes made by `topo import` name a GPU by its architecture ("sm_90 GPU at
/// ...", "gfx942 GPU at ..."): a vendor, no model.
struct GpuIdentity {
  std::string vendor;
  std::set<std::string> models;
};
bool is_model_token(std::string_view w) {
  // 1-3 capital letters, 1-4 digits, 0-2 capital letters; not a memory or form factor (HBM3,
  // SXM5, GDDR6), which GPUs of different models share.
  if (w.starts_with("HBM") || w.starts_with("SXM") || w.starts_with("GDDR")) return false;
  std::size_t k = 0;
  const auto run = [&](auto pred, std::size_t lo, std::size_t hi) {
    std::size_t n = 0;
    while (k < w.size() && n < hi && pred(static_cast<unsigned char>(w[k]))) ++k, ++n;
    return n >= lo;
  };
  const auto upper = [](unsigned char c) { return std::isupper(c) != 0; };
  const auto digit = [](unsigned char c) { return std::isdigit(c) != 0; };
  return run(upper, 1, 3) && run(digit, 1, 4) && run(upper, 0, 2) && k == w.size();
}

GpuIdentity gpu_identity(const std::string& name) {
  GpuIdentity id;
  if (name.find("AMD") != std::string::npos || name.find("Instinct") != std::string::npos ||
      name.find("Radeon") != std::string::npos)
    id.vendor = "amd";
  else if (name.find("NVIDIA") != std::string::npos || name.find("Tesla") != std::string::npos ||
           name.find("GeForce") != std::string::npos || name.find("Quadro") != std::string::npos)
    id.vendor = "nvidia";
  else if (name.starts_with("sm_") || name.starts_with("gfx")) {
    // An architecture and a PCI bus id ("sm_90 GPU at 0000:B3:00.0"): no model ("B3" is an address).
    id.vendor = name.starts_with("sm_") ? "nvidia" : "amd";
    return id;
  }
  // Words split at anything but letters and digits ("A100-SXM4-40GB": A100, SXM4, 40GB).
  const auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  std::string_view rest = name;
  while (!rest.empty()) {
    const std::size_t start = static_cast<std::size_t>(std::find_if(rest.begin(), rest.end(), alnum) - rest.begin());
    rest.remove_prefix(start);
    const std::size_t end = static_cast<std::size_t>(std::find_if_not(rest.begin(), rest.end(), alnum) - rest.begin());
    if (is_model_token(rest.substr(0, end))) id.models.emplace(rest.substr(0, end));
    rest.remove_prefix(end);
  }
  return id;
}

/// The check of a table's GPUs against the node's (validate_nccl_tests).
void check_table_gpus(const NcclTestsRun& run, const std::string& path, const topology::Node& node,
                      const std::vector<const topology::Endpoint*>& gpus, std::vector<std::string>* warnings) {
  if (run.gpu_name.empty() || gpus.empty()) return;
  const GpuIdentity table = gpu_identity(run.gpu_name);
  const topology::Endpoint& first = *gpus.front();
  const GpuIdentity ours = gpu_identity(first.model);
  const std::string at = fmt::format("{}:{}", path, run.gpu_line);
  if (!table.vendor.empty() && !ours.vendor.empty() && table.vendor != ours.vendor)
    throw InputError(fmt::format("{}: the table ran on '{}', node '{}''s GPUs are '{}' ({}): another vendor's GPUs "
                                 "and library say nothing of how the node's GPUs run; give the node of the machine it ran "
                                 "on",
                                 at, run.gpu_name, node.name, first.model, first.id));
  const bool common = std::any_of(table.models.begin(), table.models.end(),
                                  [&](const std::string& m) { return ours.models.contains(m); });
  if (!table.models.empty() && !ours.models.empty() && !common && warnings)
    warnings->push_back(fmt::format("{}: the table ran on '{}', node '{}''s GPUs are '{}' ({}): it is scored as if "
                                    "it had run on the node's; give the node of the machine it ran on",
                                    at, run.gpu_name, node.name, first.model, first.id));
}

}  // namespace

std::vector<ValidationCase> validate_nccl_tests(const std::string& dir, const topology::Node& node,
                                                const CallSelection& selection, std::vector<std::string>* warnings) {
  const std::string list = dir + "/nccl_tests.csv";
  std::vector<ValidationCase> out;
  if (!std::filesystem::exists(list)) return out;
  std::vector<const topology::Endpoint*> gpus;
  for (const auto& e : node.endpoints)
    if (e.kind == topology::EndpointKind::gpu) gpus.push_back(&e);
  for (const auto& entry : read_recording_csv(list)) {
    const std::string list_row = where(entry, list);
    const std::string& file = field(entry, "file", list);
    if (file.empty()) throw InputError(fmt::format("{}: no file named; give a nccl-tests output in this folder", list_row));
    const auto listed = entry.find("variant");
    const auto test = entry.find("test");  // one test of the file, e.g. all_gather_perf; empty: each
    const std::string only = test == entry.end() ? std::string() : nccl_tests_name(test->second);
    const std::string path = dir + "/" + file;
    if (std::filesystem::is_directory(path))
      throw InputError(fmt::format("{}: {} is a folder; give a nccl-tests output file", list_row, path));
    bool found = false;
    for (const NcclTestsRun& run : read_nccl_tests_log(path, only)) {
      if (!only.empty() && nccl_tests_name(run.test) != only) continue;
      found = true;
      const std::string at = run.rows.empty() ? path : fmt::format("{}:{}", path, run.rows.front().line);
      if (!run.kind)
        throw InputError(fmt::format("{}: test '{}' is not a collective the simulator runs (all_reduce, all_gather, "
                                     "reduce_scatter, broadcast, reduce, alltoall); name the file's other tests in "
                                     "{}'s test column",
                                     path, run.test, list_row));
      SimOptions o;
      const std::string variant =
          nccl_tests_variant(listed == entry.end() ? std::string() : listed->second, list_row, run, path, o);
      if (run.hosts.size() > 1)
        throw InputError(fmt::format("{}: its {} ranks ran on {} hosts ({}, ...); linkcast simulates one node: give a "
                                     "run on one host",
                                     path, run.ranks, run.hosts.size(), run.hosts.front()));
      if (run.ranks < 2)
        throw InputError(fmt::format("{}: one rank; a collective on one GPU moves nothing between GPUs: give a run of "
                                     "2 or more ranks",
                                     path));
      check_table_gpus(run, path, node, gpus, warnings);
      if (run.ranks > static_cast<int>(gpus.size()))
        throw InputError(fmt::format("{}: its {} ranks take {} GPUs; node '{}' has {}: give a node with as many",
                                     path, run.ranks, run.ranks, node.name, gpus.size()));
      const std::string name(trace::to_string(*run.kind));
      if (!selection.collective.empty() && name != selection.collective) continue;
      if ((selection.launches == Launches::graph_only && !run.graph) ||
          (selection.launches == Launches::eager_only && run.graph))
        continue;
      std::vector<double> small;
      for (const NcclTestsRow& row : run.rows)
        if (is_small_call(row.bytes)) small.push_back(row.out_of_place_us);
      const double small_median_us = run.graph || small.empty() ? 0 : median(small);
      const int calls = std::clamp(run.iters, 1, kNcclTestsCalls);
      ProgressLine progress(fmt::format("simulating {} {}", path, run.test));
      std::uint64_t done = 0;
      for (const NcclTestsRow& row : run.rows) {
        progress.update(done++, run.rows.size(), "rows");
        if (row.bytes < selection.min_bytes || row.bytes > selection.max_bytes) continue;
        const std::string row_at = fmt::format("{}:{}", path, row.line);
        // A rank's buffers past its GPU's memory: nccl-tests cuts its sizes to what fits, so such a
        // row was not run on this node.
        for (int g = 0; g < run.ranks; ++g) {
          const double capacity = gpus[static_cast<std::size_t>(g)]->memory.capacity_gib * 1024.0 * 1024 * 1024;
          if (capacity > 0 && static_cast<double>(row_buffer_bytes(*run.kind, run.ranks, row.bytes)) > capacity)
            throw InputError(fmt::format("{}: the {} of {} needs more than the {} GiB of memory of node '{}''s GPU {}; "
                                         "give the node the run was on",
                                         row_at, name, format_bytes(row.bytes),
                                         gpus[static_cast<std::size_t>(g)]->memory.capacity_gib, node.name, g));
        }
        // Waiting for the process only where the test measured its pace; else nothing but stream order.
        const double issue_us = small_call_pace_us(row.bytes, small_median_us);
        const trace::Trace t =
            collective_calls(*run.kind, run.ranks, row.bytes, calls, issue_us > 0 ? "synthetic" : "cuda-graph");
        SimResult s;
        try {
          s = simulate(issue_us > 0 ? with_issue_time(node, issue_us) : node, t, o);
        } catch (const InputError& e) {
          throw InputError(fmt::format("{}: {} {} of {} on {} ranks (variant '{}'): the simulator refused it: {}",
                                       row_at, run.test, name, format_bytes(row.bytes), run.ranks, variant, e.what()));
        }
        const CollectiveResult& c = s.collectives.at(0);
        ValidationCase v;
        v.group = "nccl-tests/" + variant + (run.graph ? kGraphSuffix : "");
        v.name = name;
        v.bytes = row.bytes;
        v.ops = run.ranks;
        v.measured_ns = row.out_of_place_us * 1e3;
        v.simulated_ns = s.makespan_ns / calls;
        v.baseline_ns = c.nccl_model.time_ns;
        v.note = fmt::format("{}/{}", nccl::to_string(c.algo), nccl::to_string(c.proto));
        v.issue_us = issue_us;
        v.pace = issue_us > 0 ? HostPace::small_calls : run.graph ? HostPace::none : HostPace::unpaced;
        out.push_back(v);
      }
    }
    if (!found) throw InputError(fmt::format("{}: {} holds no test '{}'", list_row, path, test->second));
  }
  return out;
}

std::string_view to_string(HostPace pace) {
  switch (pace) {
    case HostPace::none: return "";
    case HostPace::issue_us: return "issue_us";
    case HostPace::small_calls: return "small calls";
    case HostPace::node: return "node";
    case HostPace::launch_bound: return "launch";
    case HostPace::unpaced: return "unpaced";
  }
  return "";
}

double collective_call_floor_us(const std::string& dir) {
  const std::string bench = dir + "/nccl_bench.csv";
  if (!std::filesystem::exists(bench)) return std::nan("");
  std::vector<double> small;
  for (const auto& r : read_recording_csv(bench))
    if (field(r, "variant", bench) == "default" &&
        is_small_call(whole_field<std::uint64_t>(r, "bytes", bench, 0, std::uint64_t{1} << 50)) &&
        (!r.contains("launch") || r.at("launch") == "eager"))
      small.push_back(number_field(r, "time_us", bench, 0, 86400e6));
  return median(small);
}

double largest_abs(const std::vector<double>& errors) {
  double m = 0;
  for (double e : errors) m = std::max(m, std::fabs(e));
  return m;
}

double mean_abs(const std::vector<double>& errors) {
  if (errors.empty()) return std::numeric_limits<double>::quiet_NaN();
  double sum = 0;
  for (double e : errors) sum += std::fabs(e);
  return sum / static_cast<double>(errors.size());
}

std::size_t count_past(const std::vector<double>& errors, double limit) {
  return static_cast<std::size_t>(std::count_if(
      errors.begin(), errors.end(), [limit](double e) { return std::fabs(e) > limit; }));
}

double geomean_abs(const std::vector<double>& errors) {
  if (errors.empty()) return std::nan("");
  double s = 0;
  for (double e : errors) s += std::log(std::max(std::fabs(e), 1e-4));
  return std::exp(s / static_cast<double>(errors.size()));
}

}  // namespace linkcast::sim
