// linkcast models: list the transfer-time models.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "core/table.hpp"
#include "model/models.hpp"

namespace linkcast::cli {

void add_models_command(CLI::App& app, Runner& run) {
  auto* cmd = app.add_subcommand("models", "List the transfer-time models usable with --model");
  cmd->callback([&run]() {
    run = []() {
      TextTable t({"model", "description"}, {TextTable::Align::left, TextTable::Align::left});
      for (const auto& m : model::all_models()) t.add_row({std::string(m.name), std::string(m.description)});
      std::cout << t.render();
      return 0;
    };
  });
}

}  // namespace linkcast::cli
