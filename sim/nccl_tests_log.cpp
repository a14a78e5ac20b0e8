#include "sim/nccl_tests_log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "core/error.hpp"
#include "core/strings.hpp"

namespace linkcast::sim {

namespace {

/// A nccl-tests output is kilobytes; a file far larger is not one (and is not read into memory).
constexpr std::uintmax_t kMaxLogBytes = 64ull << 20;
/// Sizes and times a row may give: up to 1 PiB and from 10 ns to a day a call (no NCCL call takes
/// less than a kernel launch, microseconds; a time of 0 cannot be scored).
constexpr std::uint64_t kMaxRowBytes = 1ull << 50;
constexpr double kMinRowUs = 0.01, kMaxRowUs = 86400e6;

std::vector<std::string_view> tokens(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\r') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

std::optional<std::uint64_t> parse_u64(std::string_view s) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_number(std::string_view s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

/// mpirun --tag-output writes "[1,0]<stdout>:" before each line of a rank.
std::string_view without_mpirun_tag(std::string_view line) {
  if (line.starts_with("[")) {
    const std::size_t tag = line.find("]<std");
    if (tag != std::string_view::npos && tag < 32) {
      const std::size_t colon = line.find(">:", tag);
      if (colon != std::string_view::npos) return line.substr(colon + 2);
    }
  }
  return line;
}

/// The test named by a file name such as all_gather_ring.out or reduce_scatter_perf_8gpu.log.
std::string test_of_file_name(const std::string& path) {
  const std::string stem = to_lower(std::filesystem::path(path).stem().string());
  // Longest first: reduce_scatter before reduce.
  for (std::string_view name : {"reduce_scatter", "all_reduce", "all_gather", "alltoall", "broadcast", "reduce"})
    if (stem.starts_with(name)) return std::string(name);
  return {};
}

/// NCCL's log line "... NCCL INFO NCCL_ALGO set by environment to Ring": the value, else empty.
std::string environment_value(std::string_view line, std::string_view variable) {
  const std::string key = fmt::format("{} set by environment to", variable);
  const std::size_t at = line.find(key);
  if (at == std::string_view::npos) return {};
  const auto rest = tokens(line.substr(at + key.size()));
  return rest.empty() ? std::string() : std::string(rest.front());
}

bool same_name(std::string_view a, std::string_view b) { return to_lower(a) == to_lower(b); }

/// NCCL_ALGO's or NCCL_PROTO's value as NCCL's log prints it, read for one collective as NCCL's
/// parseList reads it (src/graph/tuning.cc): a comma list ("ring,tree"), a '^' before it for all
/// but those ("^NVLS"), and entries for one function after a ';' ("ring;allreduce:tree": the first
/// entry, which alone may name no function, for every function; a later one replaces it for its
/// function). `func` is NCCL's function ("allreduce"; empty: only an entry without one applies),
/// `all` NCCL's names, `simulated` those the simulator runs. Returns the one of `simulated` the
/// value leaves, as written ("Tree"); empty where it leaves all of them and names nothing else
/// (NCCL chooses among them, as the simulator does) or sets nothing for `func`; else the value as
/// it is, which the caller refuses, with `several` set where it leaves NCCL more than one of
/// `simulated` and fewer than all ("^LL128": LL and Simple), a choice the simulator cannot hold a
/// run to (robustness hunt 39: a real log's "ring,tree" and NCCL's common "^NVLS" were refused as
/// algorithms the simulator does not run).
struct EnvChoice {
  std::string value;
  bool several = false;
};
EnvChoice env_choice(const std::string& value, std::string_view func, std::span<const std::string_view> all,
                     std::span<const std::string_view> simulated) {
  std::optional<std::string_view> list;  // the last entry that applies to `func`
  const std::vector<std::string_view> entries = split(value, ';');
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::size_t colon = entries[i].find(':');
    if (colon == std::string_view::npos) {
      if (i > 0) return {value};  // NCCL refuses it
      list = entries[i];
    } else if (!func.empty() && same_name(entries[i].substr(0, colon), func)) {
      list = entries[i].substr(colon + 1);
    }
  }
  if (!list) return {};
  const bool negated = list->starts_with('^');
  if (negated) list->remove_prefix(1);
  std::vector<std::string_view> named;
  for (std::string_view e : split(*list, ',')) {
    e = trim(e);
    if (std::none_of(all.begin(), all.end(), [&](std::string_view a) { return same_name(a, e); })) return {value};
    named.push_back(e);
  }
  const auto is_named = [&](std::string_view a) {
    return std::any_of(named.begin(), named.end(), [&](std::string_view e) { return same_name(a, e); });
  };
  std::vector<std::string_view> left;  // of `simulated`, as the value writes them where it names them
  for (std::string_view s : simulated) {
    if (is_named(s) == negated) continue;
    const auto it = std::find_if(named.begin(), named.end(), [&](std::string_view e) { return same_name(s, e); });
    left.push_back(negated || it == named.end() ? s : *it);
  }
  const bool names_other = !negated && std::any_of(named.begin(), named.end(), [&](std::string_view e) {
    return std::none_of(simulated.begin(), simulated.end(), [&](std::string_view s) { return same_name(s, e); });
  });
  if (names_other) return {value};
  if (left.size() == simulated.size()) return {};
  if (left.size() == 1) return {std::string(left.front())};
  return {value, true};
}

struct Reader {
  const std::string& path;
  std::vector<NcclTestsRun> runs;
  std::vector<int> first_lines;           // where each run's first line of its own is
  std::vector<std::vector<bool>> seen;    // each run's rank numbers listed
  std::optional<std::size_t> time_field;  // the header's first "time" column in the current run
  std::size_t header_fields = 0;          // the columns the header names
  std::size_t rows = 0;                   // over every run
  std::string algo, proto;                // NCCL's environment lines seen so far
  int algo_line = 0;

  std::string where(int line) const { return fmt::format("{}:{}", path, line); }

  NcclTestsRun& begin_run(int line) {
    runs.emplace_back();
    runs.back().nccl_algo = algo;
    runs.back().nccl_proto = proto;
    runs.back().nccl_algo_line = algo_line;
    first_lines.push_back(line);
    seen.emplace_back();
    time_field.reset();
    header_fields = 0;
    return runs.back();
  }
  /// The run a header line belongs to: the current one until it has rows, else a new one.
  NcclTestsRun& header_run(int line) {
    if (runs.empty() || !runs.back().rows.empty()) return begin_run(line);
    return runs.back();
  }

  void rank(const std::vector<std::string_view>& t, int line) {
    if (runs.empty()) begin_run(line);
    NcclTestsRun& run = runs.back();
    if (!run.rows.empty())
      throw InputError(fmt::format("{}: a rank listed after its test's table; each test's header (its '# nThread' "
                                   "and '#  Rank' lines) comes before its rows",
                                   where(line)));
    const std::uint64_t number = *parse_u64(t[1]);
    std::vector<bool>& listed = seen.back();
    if (number > 100000)
      throw InputError(fmt::format("{}: rank {} of a test on one node; nccl-tests numbers ranks from 0", where(line), t[1]));
    if (listed.size() <= number) listed.resize(number + 1, false);
    if (listed[number])
      throw InputError(fmt::format("{}: rank {} is listed twice; keep one '#  Rank' line a rank", where(line), number));
    listed[number] = true;
    ++run.ranks;
    const auto on = std::find(t.begin(), t.end(), "on");
    if (on != t.end() && on + 1 != t.end()) {
      const std::string host(*(on + 1));
      if (std::find(run.hosts.begin(), run.hosts.end(), host) == run.hosts.end()) run.hosts.push_back(host);
    }
    if (run.gpu_name.empty()) {
      const auto bus = std::find_if(t.begin(), t.end(), [](std::string_view s) { return s.starts_with("["); });
      std::string name;
      for (auto it = bus == t.end() ? t.end() : bus + 1; it != t.end(); ++it)
        name += (name.empty() ? "" : " ") + std::string(*it);
      run.gpu_name = name;
      run.gpu_line = line;
    }
  }

  void comment(std::string_view body, int line) {
    const auto t = tokens(body);
    if (t.empty()) return;
    if (body.starts_with("Collective test starting:")) {
      NcclTestsRun& run = header_run(line);
      run.test = t.size() > 3 ? std::string(t[3]) : std::string();
    } else if (t[0] == "nThread") {
      NcclTestsRun& run = runs.empty() || !runs.back().rows.empty() || runs.back().ranks > 0 ? begin_run(line)
                                                                                              : runs.back();
      for (std::size_t i = 0; i + 1 < t.size(); ++i) {
        const bool loop_iters = t[i] == "iters:" && (i == 0 || (t[i - 1] != "warmup" && t[i - 1] != "agg"));
        if (loop_iters || t[i] == "graph:") {
          const auto v = parse_u64(t[i + 1]);
          if (!v || *v > 1'000'000'000)
            throw InputError(fmt::format("{}: '{} {}' is not a count; nccl-tests prints a whole number there",
                                         where(line), t[i], t[i + 1]));
          if (loop_iters) run.iters = static_cast<int>(std::max<std::uint64_t>(*v, 1));
          else run.graph = *v > 0;
        }
      }
    } else if (t[0] == "Rank" && t.size() >= 2 && parse_u64(t[1])) {
      rank(t, line);
    } else if (t[0] == "size" && std::find(t.begin(), t.end(), "cputime") != t.end()) {
      // nccl-tests -C 1 (--report_cputime): the host's time to issue the calls, read before they
      // are waited for, in the place of their time (robustness hunt 39).
      throw InputError(fmt::format("{}: the table gives 'cputime' (nccl-tests run with -C 1): the host's time to issue "
                                   "a call, not the call's time; run the test again without -C (or with -C 0)",
                                   where(line)));
    } else if (t[0] == "size" && std::find(t.begin(), t.end(), "time") != t.end()) {
      if (runs.empty()) begin_run(line);
      time_field = static_cast<std::size_t>(std::find(t.begin(), t.end(), "time") - t.begin());
      header_fields = t.size();
      // nccl-tests -S 1 (--report_timestamps, since 2.17.5) ends each row with the time it was printed,
      // "%Y-%m-%d %H:%M:%S": two fields under the header's one "timestamp" (robustness hunt 39).
      if (t.back() == "timestamp") ++header_fields;
    }
  }

  void row(std::string_view text, int line) {
    const auto t = tokens(text);
    // Under a header, a line that starts as a number does is a row; others are a job's own output.
    if (t.empty() || !time_field) return;
    const char first = t[0].front();
    if (!(std::isdigit(static_cast<unsigned char>(first)) || first == '-' || first == '+')) return;
    const auto bytes = parse_u64(t[0]);
    if (!bytes || *bytes > kMaxRowBytes)
      throw InputError(fmt::format("{}: size '{}' is not a whole number of bytes up to 1 PiB; keep nccl-tests' rows "
                                   "as it printed them",
                                   where(line), t[0]));
    if (t.size() != header_fields)
      throw InputError(fmt::format("{}: a row of {} fields under a header that names {}; keep nccl-tests' header and "
                                   "rows whole",
                                   where(line), t.size(), header_fields));
    const auto us = parse_number(t[*time_field]);
    if (!us || *us < kMinRowUs || *us > kMaxRowUs)
      throw InputError(fmt::format("{}: time '{}' is not a time in microseconds (0.01 us to a day)", where(line),
                                   t[*time_field]));
    if (*bytes == 0) return;  // nccl-tests' empty calls time nothing but the launch
    if (++rows > kMaxNcclTestsRows)
      throw InputError(fmt::format("{}: more than {} rows; a nccl-tests table holds tens a test: give fewer tests or "
                                   "sizes a file",
                                   where(line), kMaxNcclTestsRows));
    runs.back().rows.push_back({*bytes, *us, line});
  }
};

}  // namespace

std::string nccl_tests_name(std::string test) {
  test = to_lower(test);
  if (test.ends_with("_perf")) test.resize(test.size() - 5);
  return test;
}

std::optional<trace::OpKind> nccl_tests_collective(std::string test) {
  test = nccl_tests_name(std::move(test));
  static constexpr std::array<std::pair<std::string_view, trace::OpKind>, 6> kNames{{
      {"all_reduce", trace::OpKind::allreduce},
      {"all_gather", trace::OpKind::allgather},
      {"reduce_scatter", trace::OpKind::reducescatter},
      {"broadcast", trace::OpKind::broadcast},
      {"reduce", trace::OpKind::reduce},
      {"alltoall", trace::OpKind::alltoall},
  }};
  for (const auto& [name, kind] : kNames)
    if (test == name) return kind;
  const auto kind = trace::parse_op_kind(test);
  if (kind && (*kind == trace::OpKind::allreduce || *kind == trace::OpKind::allgather ||
               *kind == trace::OpKind::reducescatter || *kind == trace::OpKind::broadcast ||
               *kind == trace::OpKind::reduce || *kind == trace::OpKind::alltoall))
    return kind;
  return std::nullopt;
}

std::vector<NcclTestsRun> read_nccl_tests_log(const std::string& path, const std::string& fallback_test) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw InputError(fmt::format("{}: cannot read it ({})", path, ec.message()));
  if (size > kMaxLogBytes)
    throw InputError(fmt::format("{}: {} MiB is not a nccl-tests output (kilobytes); give the program's printed "
                                 "table",
                                 path, size >> 20));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open it", path));
  Reader r{path, {}, {}, {}, {}, 0, 0, {}, {}, 0};
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    if (line == 1 && raw.starts_with("\xEF\xBB\xBF")) raw.erase(0, 3);  // a UTF-8 byte order mark
    if (raw.find('\0') != std::string::npos)
      throw InputError(fmt::format("{}: a NUL byte; this is not nccl-tests' text output", r.where(line)));
    const std::string_view text = trim(without_mpirun_tag(raw));
    if (text.starts_with("#")) {
      r.comment(trim(text.substr(1)), line);
    } else if (text.find("NCCL INFO") != std::string_view::npos) {
      if (auto v = environment_value(text, "NCCL_ALGO"); !v.empty()) {
        r.algo = v;
        r.algo_line = line;
        if (!r.runs.empty() && r.runs.back().rows.empty()) {
          r.runs.back().nccl_algo = v;
          r.runs.back().nccl_algo_line = line;
        }
      }
      if (auto v = environment_value(text, "NCCL_PROTO"); !v.empty()) {
        r.proto = v;
        // A log that sets only the protocol is named at its line, not at line 0.
        if (r.algo.empty()) r.algo_line = line;
        if (!r.runs.empty() && r.runs.back().rows.empty()) {
          r.runs.back().nccl_proto = v;
          if (r.runs.back().nccl_algo.empty()) r.runs.back().nccl_algo_line = line;
        }
      }
    } else if (!r.runs.empty()) {
      r.row(text, line);
    }
  }
  if (r.runs.empty())
    throw InputError(fmt::format("{}: no nccl-tests table (no '# nThread ...' or '# Collective test starting' "
                                 "line); give the output of all_reduce_perf or its kin as it printed it",
                                 path));
  const std::string from_name = test_of_file_name(path);
  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    NcclTestsRun& run = r.runs[i];
    const std::string at = r.where(r.first_lines[i]);
    if (run.test.empty()) run.test = !fallback_test.empty() ? fallback_test : from_name;
    if (run.test.empty())
      throw InputError(fmt::format("{}: the test does not say which collective it ran (nccl-tests before 2.13 "
                                   "print no '# Collective test starting' line); name the file after it "
                                   "(all_gather_perf.out) or the test in nccl_tests.csv's test column",
                                   at));
    run.kind = nccl_tests_collective(run.test);
    static constexpr std::array<std::string_view, 7> kAlgos{"Tree", "Ring", "CollNetDirect", "CollNetChain",
                                                            "NVLS", "NVLSTree", "PAT"};
    static constexpr std::array<std::string_view, 2> kSimulatedAlgos{"Ring", "Tree"};
    static constexpr std::array<std::string_view, 3> kProtos{"LL", "LL128", "Simple"};
    // NCCL's function names are the simulator's collective names; an alltoall is point-to-point.
    const std::string_view func =
        run.kind && *run.kind != trace::OpKind::alltoall ? trace::to_string(*run.kind) : std::string_view();
    const auto read_env = [&](std::string& value, std::span<const std::string_view> all,
                              std::span<const std::string_view> simulated) {
      if (value.empty()) return;
      EnvChoice choice = env_choice(value, func, all, simulated);
      value = std::move(choice.value);
      run.nccl_env_leaves_several = run.nccl_env_leaves_several || choice.several;
    };
    read_env(run.nccl_algo, kAlgos, kSimulatedAlgos);
    read_env(run.nccl_proto, kProtos, kProtos);
    if (run.ranks == 0)
      throw InputError(fmt::format("{}: the test lists no ranks ('#  Rank  0 Group ... on HOST device ...' "
                                   "lines); keep nccl-tests' header with its table",
                                   at));
    const std::vector<bool>& listed = r.seen[i];
    if (const auto gap = std::find(listed.begin(), listed.end(), false); gap != listed.end())
      throw InputError(fmt::format("{}: the test lists ranks up to {} but not rank {}; nccl-tests lists every rank "
                                   "from 0",
                                   at, listed.size() - 1, gap - listed.begin()));
    if (run.rows.empty())
      throw InputError(fmt::format("{}: the test has no rows of sizes and times under its header", at));
  }
  return r.runs;
}

}  // namespace linkcast::sim
