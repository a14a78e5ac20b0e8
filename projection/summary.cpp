#include "projection/summary.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <algorithm>
#include <array>
#include <ostream>

#include "core/parallel.hpp"
#include "core/table.hpp"
#include "core/units.hpp"

namespace linkcast::projection {

using trace::Category;
using trace::kCategoryCount;
using trace::kSizeBucketCount;
using trace::size_bucket_label;
using trace::size_bucket;

namespace {
/// summarize() sums operations in chunks of at least this many (a trace of fewer is summed in
/// one, in order), and of no more than kMaxSummaryChunks chunks.
constexpr std::size_t kSummaryChunkOps = std::size_t{1} << 16;
constexpr std::size_t kMaxSummaryChunks = 256;
}  // namespace

OpTimes::OpTimes(const Projector& projector, const std::vector<const model::Model*>& models)
    : projector_(&projector), models_(&models) {
  const trace::TraceIndex& index = projector.index();
  const auto& first = index.group_first;
  column_.assign(models.size(), kPerOp);
  for (std::size_t m = 0; m < models.size(); ++m)
    if (!models[m]->anchored && models[m] != &measured_model()) column_[m] = cached_++;
  // A group's price is kept where it is read again: where operations repeat, on average twice or
  // more a group. Where most operations have their own size, pricing each where it is read costs
  // the same and keeps no table (2 x 8 bytes x models a group; issue 17).
  if (2 * first.size() > projector.trace().size()) cached_ = 0;
  if (cached_ == 0) return;
  target_.resize(first.size() * cached_);
  source_.resize(first.size() * cached_);
  for (std::size_t m = 0; m < models.size(); ++m) {
    if (column_[m] == kPerOp) continue;
    for (std::size_t g = 0; g < first.size(); ++g) {
      target_[g * cached_ + column_[m]] = projector.time_ns(first[g], *models[m]);
      source_[g * cached_ + column_[m]] = projector.source_time_ns(first[g], *models[m]);
    }
  }
}

double OpTimes::target(std::size_t i, std::size_t m) const {
  if (column_[m] == kPerOp || cached_ == 0) return projector_->time_ns(i, *(*models_)[m]);
  return target_[projector_->index().group_of[i] * cached_ + column_[m]];
}

double OpTimes::source(std::size_t i, std::size_t m) const {
  if (column_[m] == kPerOp || cached_ == 0) return projector_->source_time_ns(i, *(*models_)[m]);
  return source_[projector_->index().group_of[i] * cached_ + column_[m]];
}

void OpTimes::times(std::size_t i, double* target, double* source) const {
  if (cached_ == 0) return projector_->times_ns(i, *models_, target, source);
  for (std::size_t m = 0; m < models_->size(); ++m) {
    target[m] = this->target(i, m);
    source[m] = this->source(i, m);
  }
}

ProjectionSummary summarize(const Projector& projector, const std::vector<const model::Model*>& models,
                            const trace::Trace* actual, const MatchResult* match) {
  const trace::Trace& trace = projector.trace();
  ProjectionSummary s;
  s.trace_file = trace.source_file;
  s.trace_format = trace.format;
  s.from_name = projector.source().name;
  s.from_file = projector.source().file;
  s.to_name = projector.target().name;
  s.to_file = projector.target().file;
  for (const auto* m : models) s.models.emplace_back(m->name);
  s.ops = trace.size();
  s.timed_ops = static_cast<std::size_t>(std::count_if(trace.durations().begin(), trace.durations().end(),
                                                       [](std::int64_t d) { return trace::is_timed(d); }));
  s.has_actual = actual && match;
  if (s.has_actual) {
    s.actual_file = actual->source_file;
    s.matched = match->matched;
    s.unmatched_source = match->unmatched_source;
    s.unmatched_actual = match->unmatched_actual;
  }
  s.overall.resize(models.size());
  s.by_category.resize(models.size());
  s.by_bucket.resize(models.size());
  s.fixed = projector.fixed_costs();
  s.warnings = projector.warnings();
  for (const auto& w : trace.warnings) s.warnings.push_back(w);

  const auto& bytes = trace.bytes();
  const auto& durations = trace.durations();
  const OpTimes times(projector, models);
  // Each chunk of operations is summed apart (on the machine's cores: where every operation has
  // its own size, each is priced under every model on both nodes), then the chunks in order.
  struct Sums {
    std::vector<Cell> overall;
    std::vector<std::array<Cell, trace::kCategoryCount>> by_category;
    std::vector<std::array<Cell, trace::kSizeBucketCount>> by_bucket;
  };
  const std::size_t chunk_ops = std::max(kSummaryChunkOps, trace.size() / kMaxSummaryChunks + 1);
  std::vector<Sums> chunks(chunk_count(trace.size(), chunk_ops));
  parallel_chunks(trace.size(), chunk_ops, [&](std::size_t k, std::size_t begin, std::size_t end) {
    Sums& sums = chunks[k];
    sums.overall.resize(models.size());
    sums.by_category.resize(models.size());
    sums.by_bucket.resize(models.size());
    std::vector<double> target(models.size()), on_source(models.size());
    for (std::size_t i = begin; i < end; ++i) {
      times.times(i, target.data(), on_source.data());
      const auto c = static_cast<std::size_t>(projector.category(i));
      const std::size_t b = size_bucket(bytes[i]);
      const double source = durations[i] > 0 ? static_cast<double>(durations[i]) : 0.0;
      const std::int64_t a_index = s.has_actual ? match->actual_index[i] : -1;
      const double a = a_index >= 0 ? static_cast<double>(actual->durations()[static_cast<std::size_t>(a_index)]) : 0.0;
      for (std::size_t m = 0; m < models.size(); ++m) {
        const double p = target[m];
        for (Cell* cell : {&sums.overall[m], &sums.by_category[m][c], &sums.by_bucket[m][b]}) {
          ++cell->count;
          cell->source_ns += source;
          cell->model_source_ns += on_source[m];
          cell->projected_ns += p;
          if (a_index >= 0) cell->error.add(a, p);
        }
      }
    }
  });
  for (const Sums& sums : chunks)
    for (std::size_t m = 0; m < models.size(); ++m) {
      s.overall[m].merge(sums.overall[m]);
      for (std::size_t c = 0; c < trace::kCategoryCount; ++c) s.by_category[m][c].merge(sums.by_category[m][c]);
      for (std::size_t b = 0; b < trace::kSizeBucketCount; ++b) s.by_bucket[m][b].merge(sums.by_bucket[m][b]);
    }
  return s;
}

namespace {

std::string pct(double v) { return fmt::format("{:.2f}%", v); }
std::string secs(double ns) { return format_duration_ns(ns); }

}  // namespace

void render_table(const ProjectionSummary& s, std::ostream& out) {
  out << fmt::format("Projection of {} ({}, {} ops) recorded on {} ({}) onto {} ({})\n", s.trace_file,
                     s.trace_format, s.ops, s.from_name, s.from_file, s.to_name, s.to_file);
  if (s.has_actual)
  {
    out << fmt::format("Scored against {}: {} ops matched, {} source ops and {} actual ops unmatched\n", s.actual_file,
                       s.matched, s.unmatched_source, s.unmatched_actual);
    out << "(matched: same kind, memory kinds and size, in order of occurrence; operations only one recording has, "
           "such as peer copies a machine with more GPUs adds, stay unmatched. WMAPE = sum |actual - projected| / "
           "sum actual over matched operations, `-` where they measured no time; `measured` is \"nothing "
           "changes\": each operation keeps its "
           "source time)\n";
  }
  out << "\n1-byte transfer cost (L + O) per copy class\n";
  TextTable fixed({"class", "L+O", "from"}, {TextTable::Align::left, TextTable::Align::right, TextTable::Align::left});
  for (std::size_t c = 0; c < s.fixed.size(); ++c)
    fixed.add_row({std::string(model::to_string(static_cast<model::CopyClass>(c))),
                   s.fixed[c].known ? secs(s.fixed[c].ns) : "-", s.fixed[c].origin});
  out << fixed.render();

  // Totals per model.
  out << "\nTotals\n";
  std::vector<std::string> header = {"model", "on source", "projected", "change"};
  if (s.has_actual) header.insert(header.end(), {"actual (matched)", "projected (matched)", "WMAPE"});
  TextTable totals(header);
  for (std::size_t m = 0; m < s.models.size(); ++m) {
    const Cell& c = s.overall[m];
    std::vector<std::string> row = {s.models[m], secs(c.model_source_ns), secs(c.projected_ns),
                                    c.model_source_ns > 0 ? fmt::format("{:.3f}x", c.projected_ns / c.model_source_ns) : "-"};
    if (s.has_actual)
      row.insert(row.end(), {secs(c.error.actual), secs(c.error.projected), c.error.defined() ? pct(c.error.wmape()) : "-"});
    totals.add_row(row);
  }
  if (!s.overall.empty()) {
    // Where some operations have no recorded time, the source's sum holds the timed ones alone and
    // `measured` prices the others with `default`: said, so the two figures do not seem to disagree.
    const bool measured_shown = std::find(s.models.begin(), s.models.end(), "measured") != s.models.end();
    out << fmt::format("measured on the source node: {}{}\n", secs(s.overall[0].source_ns),
                       s.timed_ops == s.ops ? ""
                       : measured_shown     ? fmt::format(" ({} of {} operations timed; `measured` prices the others "
                                                          "with `default`)",
                                                          s.timed_ops, s.ops)
                                            : fmt::format(" ({} of {} operations timed)", s.timed_ops, s.ops));
  }
  out << totals.render();
  out << "(on source: the model's own figure on the source node; change: projected / on source)\n";

  auto breakdown = [&](const char* title, std::size_t n, auto label, auto cell) {
    out << "\n" << title << "\n";
    std::vector<std::string> h = {"", "ops", "source"};
    if (s.has_actual) h.push_back("actual");
    for (const auto& m : s.models) {
      h.push_back(m);
      if (s.has_actual) h.push_back(m + " WMAPE");
    }
    TextTable t(h);
    for (std::size_t k = 0; k < n; ++k) {
      if (s.models.empty() || cell(0, k).count == 0) continue;
      std::vector<std::string> row = {std::string(label(k)), std::to_string(cell(0, k).count), secs(cell(0, k).source_ns)};
      if (s.has_actual) row.push_back(secs(cell(0, k).error.actual));
      for (std::size_t m = 0; m < s.models.size(); ++m) {
        row.push_back(secs(cell(m, k).projected_ns));
        if (s.has_actual) row.push_back(cell(m, k).error.defined() ? pct(cell(m, k).error.wmape()) : "-");
      }
      t.add_row(row);
    }
    out << t.render();
  };
  breakdown("By kind (time)", kCategoryCount, [](std::size_t k) { return to_string(static_cast<Category>(k)); },
            [&](std::size_t m, std::size_t k) -> const Cell& { return s.by_category[m][k]; });
  breakdown("By size (time; AHEAD Fig. 1b)", kSizeBucketCount, [](std::size_t k) { return size_bucket_label(k); },
            [&](std::size_t m, std::size_t k) -> const Cell& { return s.by_bucket[m][k]; });
}

void render_json(const ProjectionSummary& s, std::ostream& out) {
  using nlohmann::json;
  json j;
  j["trace"] = {{"file", s.trace_file}, {"format", s.trace_format}, {"ops", s.ops}};
  j["source"] = {{"name", s.from_name}, {"file", s.from_file}};
  j["target"] = {{"name", s.to_name}, {"file", s.to_file}};
  if (s.has_actual) j["actual"] = s.actual_file;
  j["matched_ops"] = s.has_actual ? s.matched : 0;
  j["unmatched_ops"] = s.has_actual ? s.unmatched_source + s.unmatched_actual : 0;
  if (s.has_actual) j["unmatched"] = {{"source", s.unmatched_source}, {"actual", s.unmatched_actual}};
  j["source_total_s"] = s.overall.empty() ? 0.0 : s.overall[0].source_ns / 1e9;
  json models = json::object();
  for (std::size_t m = 0; m < s.models.size(); ++m) {
    const Cell& c = s.overall[m];
    json jm = {{"projected_total_s", c.projected_ns / 1e9}, {"source_total_s", c.model_source_ns / 1e9}};
    if (s.has_actual) {
      jm["wmape_pct"] = c.error.defined() ? json(c.error.wmape()) : json(nullptr);
      jm["actual_total_s"] = c.error.actual / 1e9;
      jm["matched_projected_s"] = c.error.projected / 1e9;
    }
    models[s.models[m]] = jm;
  }
  j["models"] = models;
  auto section = [&](std::size_t n, auto label, auto cell) {
    json sec = json::object();
    for (std::size_t k = 0; k < n; ++k) {
      if (s.models.empty() || cell(0, k).count == 0) continue;
      json entry = {{"ops", cell(0, k).count}, {"source_total_s", cell(0, k).source_ns / 1e9}};
      for (std::size_t m = 0; m < s.models.size(); ++m) {
        const Cell& c = cell(m, k);
        json jm = {{"projected_total_s", c.projected_ns / 1e9}, {"source_total_s", c.model_source_ns / 1e9}};
        if (s.has_actual && c.error.count) {
          jm["wmape_pct"] = c.error.defined() ? json(c.error.wmape()) : json(nullptr);
          jm["actual_total_s"] = c.error.actual / 1e9;
          jm["matched_ops"] = c.error.count;
        }
        entry[s.models[m]] = jm;
      }
      sec[std::string(label(k))] = entry;
    }
    return sec;
  };
  j["by_kind"] = section(kCategoryCount, [](std::size_t k) { return to_string(static_cast<Category>(k)); },
                         [&](std::size_t m, std::size_t k) -> const Cell& { return s.by_category[m][k]; });
  j["by_size"] = section(kSizeBucketCount, [](std::size_t k) { return size_bucket_label(k); },
                         [&](std::size_t m, std::size_t k) -> const Cell& { return s.by_bucket[m][k]; });
  json fixed = json::object();
  for (std::size_t c = 0; c < s.fixed.size(); ++c) {
    const auto& f = s.fixed[c];
    fixed[std::string(model::to_string(static_cast<model::CopyClass>(c)))] =
        f.known ? json{{"ns", f.ns}, {"from", f.origin}} : json{{"ns", nullptr}, {"from", f.origin}};
  }
  j["one_byte_cost"] = fixed;
  j["warnings"] = s.warnings;
  out << j.dump(2) << "\n";
}

void render_ops_csv(const Projector& projector, const std::vector<const model::Model*>& models,
                    const trace::Trace* actual, const MatchResult* match, std::ostream& out) {
  const trace::Trace& trace = projector.trace();
  std::string line = "index,kind,category,src,dst,bytes,source_ns,regime";
  if (match) line += ",actual_ns";
  for (const auto* m : models) {
    line += fmt::format(",{}_ns", m->name);
    if (match) line += fmt::format(",{}_error_pct", m->name);
  }
  out << line << "\n";
  std::string row;
  const OpTimes times(projector, models);
  for (std::size_t i = 0; i < trace.size(); ++i) {
    row.clear();
    const auto d = trace.durations()[i];
    fmt::format_to(std::back_inserter(row), "{},{},{},{},{},{},", i, trace::to_string(trace.kinds()[i]),
                   to_string(projector.category(i)), trace.endpoint_name(trace.srcs()[i]),
                   trace.endpoint_name(trace.dsts()[i]), trace.bytes()[i]);
    if (d >= 0) fmt::format_to(std::back_inserter(row), "{}", d);
    row += ',';
    if (is_pageable(projector.category(i)) && d > 0) row += model::to_string(projector.regime(i));
    double a = -1;
    if (match) {
      row += ',';
      const std::int64_t j = match->actual_index[i];
      if (j >= 0) {
        a = static_cast<double>(actual->durations()[static_cast<std::size_t>(j)]);
        fmt::format_to(std::back_inserter(row), "{:.0f}", a);
      }
    }
    for (std::size_t m = 0; m < models.size(); ++m) {
      const double p = times.target(i, m);
      fmt::format_to(std::back_inserter(row), ",{:.1f}", p);
      if (match) {
        row += ',';
        if (a > 0) fmt::format_to(std::back_inserter(row), "{:.2f}", 100.0 * (p - a) / a);
      }
    }
    row += '\n';
    out << row;
  }
}

}  // namespace linkcast::projection
