// Subcommands of the `linkcast` CLI. Each registers its options on the app and returns the
// function that runs it; main() parses, runs the chosen one and turns InputError into exit 2.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace linkcast::cli {

using Runner = std::function<int()>;

/// Registers `topo` (and `topo import`); `run` is set to the chosen subcommand's runner.
void add_topo_command(CLI::App& app, Runner& run);
void add_models_command(CLI::App& app, Runner& run);
void add_project_command(CLI::App& app, Runner& run);
void add_calibrate_command(CLI::App& app, Runner& run);
void add_sweep_command(CLI::App& app, Runner& run);
void add_simulate_command(CLI::App& app, Runner& run);
void add_matrix_command(CLI::App& app, Runner& run);
void add_report_command(CLI::App& app, Runner& run);

/// A CLI11 validator for sizes with units (B, KB, MiB, ...).
CLI::Validator size_validator();

}  // namespace linkcast::cli
