#include "projection/calibrate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <ostream>
#include <vector>

#include "topology/schema.hpp"
#include "trace/category.hpp"
#include "projection/projector.hpp"

namespace linkcast::projection {

using trace::Category;

namespace {

struct Rate {
  double gbps, bytes, ns;
};

Measured total(const std::vector<Rate>& rates, std::size_t begin, std::size_t end) {
  double bytes = 0, ns = 0;
  for (std::size_t k = begin; k < end; ++k) {
    bytes += rates[k].bytes;
    ns += rates[k].ns;
  }
  return {end - begin, ns > 0 ? bytes / ns : 0.0};
}

/// The split of `rates` (sorted by rate) into a slower and a faster group that minimises the sum of
/// squared deviations of log rate within the groups: the index of the faster group's first element.
std::size_t two_means(const std::vector<Rate>& rates) {
  std::vector<double> logs;
  for (const Rate& r : rates) logs.push_back(std::log(r.gbps));
  std::vector<double> sum(logs.size() + 1, 0.0), sq(logs.size() + 1, 0.0);
  for (std::size_t k = 0; k < logs.size(); ++k) {
    sum[k + 1] = sum[k] + logs[k];
    sq[k + 1] = sq[k] + logs[k] * logs[k];
  }
  auto sse = [&](std::size_t a, std::size_t b) {
    const double n = static_cast<double>(b - a), s1 = sum[b] - sum[a];
    return (sq[b] - sq[a]) - s1 * s1 / n;
  };
  std::size_t best = 0;
  double best_sse = std::numeric_limits<double>::infinity();
  for (std::size_t k = 1; k < logs.size(); ++k) {
    const double e = sse(0, k) + sse(k, logs.size());
    if (e < best_sse) {
      best_sse = e;
      best = k;
    }
  }
  return best;
}

/// Splits `rates` into (slow, fast) groups where their rates differ by at least `factor`; else the
/// whole set is the `single` group. Returns the ratio of the groups' rates, 0 when not split.
double split(std::vector<Rate> rates, double factor, Measured& slow, Measured& fast, bool single_is_fast) {
  if (rates.empty()) return 0;
  std::sort(rates.begin(), rates.end(), [](const Rate& a, const Rate& b) { return a.gbps < b.gbps; });
  const std::size_t k = rates.size() >= 2 ? two_means(rates) : 0;
  if (k > 0) {
    const Measured lo = total(rates, 0, k), hi = total(rates, k, rates.size());
    if (lo.value > 0 && hi.value >= factor * lo.value) {
      slow = lo;
      fast = hi;
      return hi.value / lo.value;
    }
  }
  (single_is_fast ? fast : slow) = total(rates, 0, rates.size());
  return 0;
}

/// One trace to calibrate from, with its operations' categories where an index has them (else
/// they are worked out here, for the copies and memsets alone: `simulate` needs no index).
struct Source {
  const trace::Trace* trace;
  const std::vector<Category>* categories;
};

Calibration calibrate_from(const std::vector<Source>& sources) {
  Calibration c;
  struct Sum {
    double bytes = 0, ns = 0;
    std::size_t count = 0;
    void add(double b, double t) { bytes += b; ns += t; ++count; }
    Measured rate() const { return {count, ns > 0 ? bytes / ns : 0.0}; }
  } h2d_pageable, d2h_pageable, both, h2d_pinned, d2h_pinned;
  std::vector<Rate> h2d_rates, d2h_rates;
  std::array<std::vector<std::int64_t>, model::kCopyClassCount> small;
  for (const Source& source : sources) {
    const trace::Trace& trace = *source.trace;
    if (!c.trace_file.empty()) c.trace_file += ", ";
    c.trace_file += trace.source_file;
    const std::vector<char> host = source.categories ? std::vector<char>() : trace::host_flags(trace);
    for (std::size_t i = 0; i < trace.size(); ++i) {
      const trace::OpKind kind = trace.kinds()[i];
      if (kind != trace::OpKind::copy && kind != trace::OpKind::memset) continue;
      const std::int64_t d = trace.durations()[i];
      const std::uint64_t bytes = trace.bytes()[i];
      const Category cat = source.categories ? (*source.categories)[i] : trace::categorize(trace, i, host);
      // The 1-byte costs: the medians a projection takes from a trace (trace::TraceIndex).
      if (trace::measures_fixed_cost(kind, bytes, d))
        if (const auto cls = trace::copy_class_of(cat)) small[static_cast<std::size_t>(*cls)].push_back(d);
      if (kind != trace::OpKind::copy || !trace::is_timed(d) || bytes < kStagingMinBytes) continue;
      if ((trace.flags()[i] & trace::kBesideCompute) != 0) {
        ++c.beside_compute;
        continue;
      }
      const auto b = static_cast<double>(bytes), t = static_cast<double>(d);
      switch (cat) {
        case Category::h2d_pageable:
          h2d_pageable.add(b, t);
          both.add(b, t);
          h2d_rates.push_back({b / t, b, t});
          break;
        case Category::d2h_pageable:
          d2h_pageable.add(b, t);
          both.add(b, t);
          d2h_rates.push_back({b / t, b, t});
          break;
        case Category::h2d_pinned: h2d_pinned.add(b, t); break;
        case Category::d2h_pinned: d2h_pinned.add(b, t); break;
        default: break;
      }
    }
  }
  for (std::size_t k = 0; k < small.size(); ++k) {
    auto& v = small[k];
    if (v.empty()) continue;
    std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
    c.one_byte_ns[k] = {v.size(), static_cast<double>(v[v.size() / 2])};
  }
  c.pageable_h2d_gbps = h2d_pageable.rate();
  c.pageable_d2h_gbps = d2h_pageable.rate();
  c.pageable_gbps = both.rate();
  c.pinned_h2d_gbps = h2d_pinned.rate();
  c.pinned_d2h_gbps = d2h_pinned.rate();
  // A single host-to-device group is taken as cold (the staging rate from DRAM), a single
  // device-to-host one as used pages.
  c.h2d_split = split(std::move(h2d_rates), kWarmSplit, c.cold_h2d_gbps, c.warm_h2d_gbps, false);
  c.d2h_split = split(std::move(d2h_rates), kFreshSplit, c.fresh_d2h_gbps, c.used_d2h_gbps, true);
  return c;
}

}  // namespace

Calibration calibrate(const trace::Trace& trace) { return calibrate_from({{&trace, nullptr}}); }

Calibration calibrate(const trace::TraceIndex& index) { return calibrate_from({{index.trace, &index.categories}}); }

Calibration calibrate(const std::vector<const trace::TraceIndex*>& indexes) {
  std::vector<Source> sources;
  for (const trace::TraceIndex* index : indexes) sources.push_back({index->trace, &index->categories});
  return calibrate_from(sources);
}

std::array<double, model::kCopyClassCount> fixed_costs_ns(const Calibration& c) {
  std::array<double, model::kCopyClassCount> ns;
  for (std::size_t k = 0; k < model::kCopyClassCount; ++k)
    ns[k] = c.one_byte_ns[k].count > 0 ? c.one_byte_ns[k].value : std::nan("");
  return ns;
}

void render_calibration_yaml(const Calibration& c, std::ostream& out) {
  out << fmt::format("# Measured by `linkcast calibrate {}`\n", c.trace_file);
  // The measured costs as lines to paste; a cost the node file's loader refuses is said, not given
  // (as for the rates below: a broken timer's times are not a copy's).
  std::string values, refused;
  bool any = false;
  for (std::size_t k = 0; k < c.one_byte_ns.size(); ++k) {
    const Measured& m = c.one_byte_ns[k];
    if (m.count == 0) continue;
    any = true;
    const auto cls = static_cast<model::CopyClass>(k);
    const std::string key = fmt::format("{}_ns", model::to_string(cls));
    const char* what = cls == model::CopyClass::memset ? "memsets" : "copies";
    const topology::schema::Key* spec = topology::schema::find(topology::schema::Section::calibration, key);
    if (spec != nullptr && (m.value < spec->min || m.value > spec->max))
      refused += fmt::format("# {}: not measured: the median of its {} {} <= 64 B in {} is {:.4g} ns, outside the "
                             "{:g}-{:g} ns a node file takes: their recorded times are not a copy's\n",
                             key, m.count, what, c.trace_file, m.value, spec->min, spec->max);
    else
      values += fmt::format("  {}: {:.0f}  # median of {} {} <= 64 B in {}\n", key, m.value, m.count, what, c.trace_file);
  }
  if (!values.empty()) out << "calibration:\n" << values;
  out << refused;
  if (!any) out << "# no copies <= 64 B: no 1-byte costs (calibration:) can be measured from this trace\n";
  if (c.pageable_gbps.count > 0) {
    out << "# for each cpu's memory: block (rates of the pageable copies, by the state of their host end):\n";
    auto line = [&](std::string_view key, const Measured& m, std::string_view what) {
      if (m.count == 0) return;
      // A rate the node file's loader refuses is no value to paste: said instead (copies timed at
      // 1 ns by a broken timer gave 8388608 GB/s).
      const topology::schema::Key* spec = topology::schema::find(topology::schema::Section::memory, key);
      if (spec != nullptr && (m.value < spec->min || m.value > spec->max)) {
        out << fmt::format("      # {}: not measured: its {} pageable {} >= {} MiB in {} ran at {:.4g} GB/s, outside "
                           "the {}-{} GB/s a node file takes: their recorded times are not a copy's\n",
                           key, m.count, what, kStagingMinBytes >> 20, c.trace_file, m.value, spec->min, spec->max);
        return;
      }
      out << fmt::format("      {}: {:.2f}  # {} pageable {} >= {} MiB in {}\n", key, m.value, m.count, what,
                         kStagingMinBytes >> 20, c.trace_file);
    };
    const std::string split_h2d =
        c.h2d_split > 0 ? fmt::format(", the slower of two rate groups ({:.2f}x apart)", c.h2d_split) : "";
    const std::string split_d2h =
        c.d2h_split > 0 ? fmt::format(", the faster of two rate groups ({:.2f}x apart)", c.d2h_split) : "";
    line("pageable_h2d_gbps", c.cold_h2d_gbps, "H2D copies from a cold source" + split_h2d);
    line("warm_copy_gbps", c.warm_h2d_gbps,
         fmt::format("H2D copies from a cache-warm source, the faster of two rate groups ({:.2f}x apart)", c.h2d_split));
    line("pageable_d2h_gbps", c.used_d2h_gbps, "D2H copies into used pages" + split_d2h);
    line("first_touch_gbps", c.fresh_d2h_gbps,
         fmt::format("D2H copies into fresh pages, the slower of two rate groups ({:.2f}x apart)", c.d2h_split));
    out << fmt::format("# all pageable copies >= {} MiB: {:.2f} GB/s over {} ops (h2d {:.2f} GB/s, {} ops; d2h {:.2f} "
                       "GB/s, {} ops)\n",
                       kStagingMinBytes >> 20, c.pageable_gbps.value, c.pageable_gbps.count, c.pageable_h2d_gbps.value,
                       c.pageable_h2d_gbps.count, c.pageable_d2h_gbps.value, c.pageable_d2h_gbps.count);
    const double pinned = std::max(c.pinned_h2d_gbps.value, c.pinned_d2h_gbps.value);
    const double fastest = std::max({c.cold_h2d_gbps.value, c.warm_h2d_gbps.value, c.used_d2h_gbps.value});
    if (pinned > 0 && fastest > 0.8 * pinned)
      out << fmt::format("# note: pageable copies ran at up to {:.0f}% of the pinned rate ({:.2f} GB/s): the link, not "
                         "the CPU copy, may be the limit, so these are lower bounds on the host's rates\n",
                         100.0 * fastest / pinned, pinned);
  } else {
    out << fmt::format("# no pageable copies >= {} MiB: the host's pageable rates cannot be measured from this trace\n",
                       kStagingMinBytes >> 20);
  }
  if (c.beside_compute > 0)
    out << fmt::format("# left out of every rate: {} copies >= {} MiB that ran beside a kernel on their GPU (they "
                       "measure the competition, not the node)\n",
                       c.beside_compute, kStagingMinBytes >> 20);
}

}  // namespace linkcast::projection
