#include "cli/commands.hpp"

namespace linkcast::cli {
void add_project_command(CLI::App&, Runner&) {}
}  // namespace linkcast::cli
