// Subcommands of the `linkcast` CLI. Each registers its options on the app and returns the
// function that runs it; main() parses, runs the chosen one and turns InputError into exit 2.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>

#include "core/error.hpp"
#include "sim/simulate.hpp"
#include "topology/node.hpp"
#include "trace/trace.hpp"

namespace linkcast::cli {

using Runner = std::function<int()>;

/// Registers `topo` (and `topo import`); `run` is set to the chosen subcommand's runner.
void add_topo_command(CLI::App& app, Runner& run);
void add_models_command(CLI::App& app, Runner& run);
void add_project_command(CLI::App& app, Runner& run);
void add_calibrate_command(CLI::App& app, Runner& run);
void add_hostprobe_command(CLI::App& app, Runner& run);
void add_sweep_command(CLI::App& app, Runner& run);
void add_simulate_command(CLI::App& app, Runner& run);
void add_matrix_command(CLI::App& app, Runner& run);
void add_report_command(CLI::App& app, Runner& run);

/// The help of a positional TRACE: the formats linkcast reads.
inline constexpr const char* kTraceHelp =
    "Trace: nvprof/.nvvp or Nsight Systems SQLite, Kineto JSON(.gz), or linkcast CSV; several files or a folder: "
    "one trace per rank of a job, read as one";

/// The help of --target-host-rates (`project`, `report`).
inline constexpr const char* kTargetHostRatesHelp =
    "Price the target's host with its own measured copy rates even where it is the source's host hardware "
    "(same processor model and memory bandwidth); by default such a host keeps the source's rates: two sessions "
    "of one host measure them apart, which is no change the target brings";

/// The end of `project --help`: which model to trust for what, and which node files to give.
inline constexpr const char* kProjectGuide = R"(
Which model to trust for what:
  default   linkcast's model, anchored on what the trace measured: each operation's recorded time
            x the model's target / source ratio (a collective's wait for other ranks kept as it
            was). Use it to project a recording onto another node: on the bundled H100 -> H200
            recordings 0.6-63.4% WMAPE over all operations, at or below `measured` on each
            (README, Results). A target CPU that is the source's host hardware keeps the
            source's host copy rates (--target-host-rates: the target's own).
  ahead     AHEAD's published LogGP equations; peak and envelope: bandwidth-only baselines. All
            three are unanchored: what the published models say (42-90% WMAPE on the same
            recordings), not what to expect.
  measured  "nothing changes": each operation keeps its source time. The baseline to beat.
  With --actual, WMAPE = sum |actual - projected| / sum actual over the matched operations (same
  kind, memory kinds and size, in order); operations only one recording has stay unmatched.

Which node files:
  --from    the machine the trace was recorded on, described as measured: a testbed node
            (configs/testbed-*.yaml), or your own from `linkcast topo import`, then `linkcast
            hostprobe` and `linkcast calibrate TRACE` for its host copy rates and 1-byte costs
            (README, Node files). The projection is anchored on it: a datasheet node here puts
            its guesses into every ratio.
  --to      a described machine where you have one (testbed-*.yaml, or your own); otherwise a
            generic node (configs/hgx-h100.yaml, hgx-h200, dgx-a100, gb200-nvl72, ...): a product
            from its datasheets and papers (each value cited in the file), for a machine you
            cannot measure.
)";

/// The end of `simulate --help`: which model to trust for what, and which node file to give.
inline constexpr const char* kSimulateGuide = R"(
Which model to trust for what:
  default     linkcast's transfer model (--model, `linkcast models`) with every transfer at once
              on shared links, and NCCL collectives run step by step: 3.4% geometric-mean error
              on the 6191 NCCL collectives of 1 MiB and more recorded on 2 and 4 H200s (2.1%
              from 128 MiB; tools/results/collectives_all.sh), 5.4% on concurrent copies (README,
              Simulation).
  nccl-model  NCCL's own cost model for collectives (19.1%; 12.8% from 128 MiB): the baseline.
  --as-recorded  keeps the recorded time of GPU work: checks the replay itself (what waited for
              what) against a recording.
  To predict a recording on another machine, `linkcast project` is anchored on what it measured.

Which node file:
  The machine you want the answer for. To check a recording, the machine it was recorded on,
  described as measured: a testbed node (configs/testbed-*.yaml), or your own from `linkcast topo
  import`, `linkcast hostprobe` and `linkcast calibrate TRACE` (README, Node files). A generic
  node (configs/hgx-h100.yaml, hgx-h200, dgx-a100, gb200-nvl72, ...) is a product from its
  datasheets and papers, for what-if runs; place a trace's GPUs on it with --gpus or --map.
)";

/// A CLI11 validator for sizes with units (B, KB, MiB, ...).
CLI::Validator size_validator();

/// A CLI11 validator that refuses an empty value (a file, node or map written as `""`, or an unset
/// shell variable), which would otherwise read as the option not given.
CLI::Validator non_empty();

/// Throws InputError where an output (`outputs`: -o, --timeline, --save-trace; "-" and empty ones
/// pass) is the same file as one of the command's inputs (`inputs`: traces, nodes, --actual):
/// writing it would replace that input (`report t.json -o t.json` replaced the trace).
void refuse_outputs_over_inputs(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs);

/// The input of `matrix`, `simulate` and `report`: a trace file (the positional TRACE) or
/// --workload SPEC, exactly one. CLI11 enforces it: the two options form an option group that
/// requires one of them. `usage_error` is what a user who gives neither or both is told.
void add_trace_or_workload(CLI::App& cmd, std::vector<std::string>& traces, std::string& workload, const std::string& workload_help,
                           std::string usage_error);

/// What linkcast prints for a CLI11 parse error of `app`: the chosen command's `usage_error`
/// when the error is its trace-or-workload group's; nullopt for CLI11's own message.
[[nodiscard]] std::optional<std::string> input_usage_error(const CLI::App& app, const CLI::ParseError& error);

/// A ChoiceError as the user of `app`'s chosen command reads it: with the command's option for
/// the choice (--map, --gpus, --algo/--proto) where it has one, else as the library says it.
[[nodiscard]] std::string choice_message(const CLI::App& app, const ChoiceError& error);

/// topology::load_node, but a directory is said to be one (not "the file is empty").
[[nodiscard]] topology::Node load_node(const std::string& path);

/// What linkcast prints for a CLI11 parse error that its own message would point the wrong way:
/// a mistyped command, or a node forgotten before a trace. nullopt for CLI11's own message.
[[nodiscard]] std::optional<std::string> misplaced_usage_error(const CLI::App& app, const CLI::ParseError& error,
                                                                 const std::vector<std::string>& args);

/// True when the chosen command was given `--workload help` (the list is printed instead of a
/// usage error about the command's other options).
[[nodiscard]] bool asks_workload_help(const CLI::App& app);

/// `simulate --timeline` and `project --timeline`: a warning on standard error, before the file is
/// written, where the timeline would pass 100 MiB: its estimated size and the --timeline-ops bound
/// that keeps it near 100 MiB.
void warn_if_huge_timeline(const std::string& path, const topology::Node& node, const trace::Trace& trace,
                           const sim::SimResult& result, std::size_t max_ops);

}  // namespace linkcast::cli
