// linkcast: simulate and project data movement inside GPU nodes.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/huge_pages.hpp"
#include "core/units.hpp"
#include "core/version.hpp"
#include "synthetic/catalog.hpp"

namespace linkcast::cli {

CLI::Validator size_validator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          (void)parse_size_bytes(text);
          return "";
        } catch (const InputError& e) {
          return e.what();
        }
      },
      "SIZE");
}

}  // namespace linkcast::cli

int main(int argc, char** argv) {
  linkcast::restart_with_huge_pages(argv);
  CLI::App app{
      "linkcast: simulate and project data movement inside GPU nodes.\n"
      "Sizes accept B, KB, MB, GB (powers of 1000) and KiB, MiB, GiB (powers of 1024); sizes are printed in\n"
      "KiB, MiB, GiB, rates in GB/s (10^9 bytes a second).\n"
      "Long work shows its progress on a terminal (LINKCAST_PROGRESS=1 asks for it elsewhere, =0 silences it).\n"
      "Exit codes: 0 success, 2 bad input (message names the file, line, key or record)."};
  app.name("linkcast");
  app.require_subcommand(1);
  app.set_version_flag("--version", fmt::format("linkcast {}", linkcast::version()));
  linkcast::cli::Runner run;
  linkcast::cli::add_topo_command(app, run);
  linkcast::cli::add_models_command(app, run);
  linkcast::cli::add_project_command(app, run);
  linkcast::cli::add_calibrate_command(app, run);
  linkcast::cli::add_hostprobe_command(app, run);
  linkcast::cli::add_sweep_command(app, run);
  linkcast::cli::add_simulate_command(app, run);
  linkcast::cli::add_matrix_command(app, run);
  linkcast::cli::add_report_command(app, run);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (linkcast::cli::asks_workload_help(app)) {
      std::cout << linkcast::synthetic::workload_help();
      return 0;
    }
    if (const auto misplaced = linkcast::cli::misplaced_usage_error(app, e, std::vector<std::string>(argv + 1, argv + argc))) {
      std::cerr << "linkcast: error: " << *misplaced << "\n";
    } else if (const auto usage = linkcast::cli::input_usage_error(app, e)) {
      std::cerr << "linkcast: error: " << *usage << "\n";
    } else {
      std::cerr << "linkcast: error: " << e.what() << "\nRun 'linkcast --help' or 'linkcast <command> --help'.\n";
    }
    return linkcast::kExitBadInput;
  }
  try {
    return run ? run() : 0;
  } catch (const linkcast::ChoiceError& e) {
    std::cerr << "linkcast: error: " << linkcast::cli::choice_message(app, e) << "\n";
    return linkcast::kExitBadInput;
  } catch (const linkcast::InputError& e) {
    std::cerr << "linkcast: error: " << e.what() << "\n";
    return linkcast::kExitBadInput;
  } catch (const std::bad_alloc&) {
    std::cerr << "linkcast: error: out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "linkcast: internal error: " << e.what() << "\n";
    return 1;
  }
}
