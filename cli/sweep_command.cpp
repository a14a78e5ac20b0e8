// linkcast sweep STUDY.yaml [-j N] [-o results.csv|results.json]
// Under `mpirun -n K`, rank r evaluates points r, r+K, r+2K, ... and rank 0 gathers, writes the
// results (identical to a single-process run) and prints the summary.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <optional>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/output.hpp"
#include "core/progress.hpp"
#include "study/sweep.hpp"

#ifdef LINKCAST_HAVE_MPI
#include <mpi.h>
#endif

namespace linkcast::study {

// Point results cross ranks as JSON, field by field; doubles round-trip exactly.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ItemResult, ok, error, figure_s, model_totals_s, by_kind_s, bound_by, bound_share)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PointResult, point, node_name, items)

}  // namespace linkcast::study

namespace linkcast::cli {

namespace {

/// MPI when launched by an MPI launcher (Open MPI, MPICH/PMI), else a single process.
class Ranks {
 public:
  Ranks() {
#ifdef LINKCAST_HAVE_MPI
    if (std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE") || std::getenv("PMIX_RANK")) {
      MPI_Init(nullptr, nullptr);
      MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
      MPI_Comm_size(MPI_COMM_WORLD, &size_);
      active_ = true;
    }
#endif
  }
  ~Ranks() {
#ifdef LINKCAST_HAVE_MPI
    if (active_) MPI_Finalize();
#endif
  }
  int rank() const { return rank_; }
  int size() const { return size_; }

  /// Rank 0 receives every rank's text (in rank order); other ranks get an empty list.
  std::vector<std::string> gather(const std::string& text) const {
    if (size_ == 1) return {text};
#ifdef LINKCAST_HAVE_MPI
    const int length = static_cast<int>(text.size());
    std::vector<int> lengths(static_cast<std::size_t>(size_));
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> offsets(static_cast<std::size_t>(size_), 0);
    for (std::size_t r = 1; r < offsets.size(); ++r) offsets[r] = offsets[r - 1] + lengths[r - 1];
    std::string all(rank_ == 0 ? static_cast<std::size_t>(offsets.back() + lengths.back()) : 0, '\0');
    MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0,
                MPI_COMM_WORLD);
    std::vector<std::string> out;
    if (rank_ == 0)
      for (std::size_t r = 0; r < lengths.size(); ++r)
        out.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
    return out;
#else
    return {text};
#endif
  }

 private:
  int rank_ = 0, size_ = 1;
#ifdef LINKCAST_HAVE_MPI
  bool active_ = false;
#endif
};


/// A progress bar on a terminal, drawn at once and redrawn at most ten times a second as points
/// advance (a point being evaluated counts by how far it got): points done of all, rate and time
/// left. Quiet where standard error is no terminal, unless LINKCAST_PROGRESS=1 asks for plain
/// lines (every 10%).
class Progress {
 public:
  Progress(std::size_t total, bool enabled)
      : total_(total), enabled_(enabled && total > 0 && ProgressLine::watched()), tty_(::isatty(2) != 0) {
    if (enabled_ && tty_) draw(0.0, std::chrono::steady_clock::now());
  }
  ~Progress() { finish(); }
  /// Ends the bar's line (before the summary goes to standard output).
  void finish() {
    if (enabled_ && tty_ && drawn_) std::cerr << "\n" << std::flush;
    drawn_ = false;
  }
  void update(double done) {
    if (!enabled_) return;
    std::lock_guard<std::mutex> lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    const auto whole = static_cast<std::size_t>(std::floor(done + 1e-9));
    if (tty_) {
      if (whole < total_ && now - last_ < std::chrono::milliseconds(100)) return;
      draw(done, now);
    } else if (const std::size_t decile = 10 * whole / total_; decile > last_decile_) {
      last_decile_ = decile;
      std::cerr << fmt::format("sweep: {}/{} points ({}%)\n", whole, total_, 100 * whole / total_);
    }
  }

 private:
  void draw(double done, std::chrono::steady_clock::time_point now) {
    last_ = now;
    drawn_ = true;
    const double share = std::clamp(done / static_cast<double>(total_), 0.0, 1.0);
    const std::size_t width = 40, fill = static_cast<std::size_t>(share * width);
    const double seconds = std::chrono::duration<double>(now - start_).count();
    std::string rate;
    if (done > 0 && seconds > 0.5) {
      const double per_s = done / seconds;
      rate = fmt::format(", {:.3g} points/s", per_s);
      if (share < 1) {
        const double left = (static_cast<double>(total_) - done) / per_s;
        rate += left < 60 ? fmt::format(", about {:.0f} s left", std::max(1.0, std::ceil(left)))
                          : fmt::format(", about {:.0f} min left", std::ceil(left / 60));
      }
    }
    std::cerr << fmt::format("\rsweep [{}{}] {:3.0f}% {:.1f}/{} points{}\x1b[K", std::string(fill, '#'),
                             std::string(width - fill, '.'), std::floor(100 * share), done, total_, rate)
              << std::flush;
  }

  std::size_t total_;
  bool enabled_, tty_, drawn_ = false;
  std::size_t last_decile_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_ = start_;
  std::mutex mutex_;
};

}  // namespace

void add_sweep_command(CLI::App& app, Runner& run) {
  auto* cmd = app.add_subcommand(
      "sweep",
      "What-if study: evaluate a study file's grid of node variants on its traces (projected) and "
      "workloads (simulated); under mpirun the grid is split across ranks");
  struct Options {
    std::string study, output;
    int threads = 0;
    bool quiet = false;
  };
  auto opt = std::make_shared<Options>();
  cmd->add_option("study", opt->study, "Study file (YAML; examples in configs/studies/)")->check(non_empty())->required();
  cmd->add_option("-j,--jobs", opt->threads, "Worker threads per process (default: all cores)")->check(CLI::Range(1, 1024));
  cmd->add_option("-o,--output", opt->output, "Write the results here: .json for JSON, anything else CSV")->check(non_empty());
  cmd->add_flag("-q,--quiet", opt->quiet, "No progress on standard error");
  cmd->callback([opt, &run]() {
    run = [opt]() {
      const Ranks ranks;
      const study::Study study = study::load_study(opt->study);
      cli::refuse_outputs_over_inputs({opt->output}, study::input_files(study));
      // Fail on an unwritable output before the (possibly long) sweep; the temporary is removed if
      // anything below throws or the sweep is interrupted.
      std::optional<AtomicOutput> out;
      if (!opt->output.empty() && ranks.rank() == 0) out.emplace(opt->output);
      // Reading the traces shows its progress (core/input_file.hpp); then the sweep shows its own,
      // not its threads' workloads and simulations.
      if (opt->quiet || ranks.rank() != 0) ProgressLine::disable_all();
      const study::Sweep sweep(study);
      ProgressLine::disable_all();
      const std::size_t total = study.points();
      std::vector<std::size_t> mine;
      for (std::size_t p = static_cast<std::size_t>(ranks.rank()); p < total; p += static_cast<std::size_t>(ranks.size()))
        mine.push_back(p);
      const int threads = opt->threads > 0 ? opt->threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
      // Rank 0 shows its own share's progress (the ranks advance together).
      Progress progress(mine.size(), !opt->quiet && ranks.rank() == 0);
      std::vector<study::PointResult> rows =
          sweep.run(mine, threads, [&](double done) { progress.update(done); });
      progress.finish();
      if (ranks.size() > 1) {
        nlohmann::json local = nlohmann::json::array();
        for (const auto& r : rows) local.push_back(r);
        const std::vector<std::string> parts = ranks.gather(local.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
        rows.clear();
        for (const std::string& part : parts)
          for (const auto& j : nlohmann::json::parse(part)) rows.push_back(j.get<study::PointResult>());
        if (ranks.rank() != 0) return 0;
        std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.point < b.point; });
      }
      const study::PointResult base = sweep.evaluate_base();
      if (out) {
        const bool json = opt->output.size() >= 5 && opt->output.substr(opt->output.size() - 5) == ".json";
        if (json) study::write_results_json(sweep, base, rows, out->stream());
        else study::write_results_csv(sweep, base, rows, out->stream());
        out->commit();
      }
      std::cout << study::summarize_sweep(sweep, base, rows);
      if (!opt->output.empty()) std::cout << fmt::format("\nResults: {}\n", opt->output);
      return 0;
    };
  });
}

}  // namespace linkcast::cli
