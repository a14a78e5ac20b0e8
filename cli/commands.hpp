// Subcommands of the `linkcast` CLI. Each registers its options on the app and returns the
// function that runs it; main() parses, runs the chosen one and turns InputError into exit 2.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>

#include "core/error.hpp"
#include "topology/node.hpp"

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

/// A CLI11 validator for sizes with units (B, KB, MiB, ...).
CLI::Validator size_validator();

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

/// Throws when one of `traces` is a node file (.yaml/.yml): `command` reads traces, not nodes.
void reject_node_files(const std::vector<std::string>& traces, std::string_view command);

/// What linkcast prints for a CLI11 parse error that its own message would point the wrong way:
/// a mistyped command, or a node forgotten before a trace. nullopt for CLI11's own message.
[[nodiscard]] std::optional<std::string> misplaced_usage_error(const CLI::App& app, const CLI::ParseError& error,
                                                                 const std::vector<std::string>& args);

/// True when the chosen command was given `--workload help` (the list is printed instead of a
/// usage error about the command's other options).
[[nodiscard]] bool asks_workload_help(const CLI::App& app);

}  // namespace linkcast::cli
