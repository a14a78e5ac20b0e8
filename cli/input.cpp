// What the commands share about their input and their errors: the trace-or-workload choice
// that CLI11 enforces, and the options that fix a ChoiceError.
#include <fmt/format.h>

#include <map>

#include "cli/commands.hpp"

namespace linkcast::cli {

namespace {

constexpr std::string_view kInputGroup = "input";

/// The usage error of each command's trace-or-workload group.
std::map<const CLI::App*, std::string>& usage_errors() {
  static std::map<const CLI::App*, std::string> errors;
  return errors;
}

/// The subcommand the user chose, if any.
const CLI::App* chosen(const CLI::App& app) {
  const auto subs = app.get_subcommands();
  return subs.empty() ? nullptr : subs.front();
}

bool has_option(const CLI::App& cmd, const std::string& name) { return cmd.get_option_no_throw(name) != nullptr; }

}  // namespace

void add_trace_or_workload(CLI::App& cmd, std::vector<std::string>& traces, std::string& workload, const std::string& workload_help,
                           std::string usage_error) {
  auto* group = cmd.add_option_group(std::string(kInputGroup), "A trace or a synthetic workload (one of them)");
  group->add_option("trace", traces, kTraceHelp);
  group->add_option("--workload", workload, workload_help);
  group->require_option(1);
  usage_errors()[group] = std::move(usage_error);
}

std::optional<std::string> input_usage_error(const CLI::App& app, const CLI::ParseError& error) {
  const CLI::App* cmd = chosen(app);
  if (cmd == nullptr || error.get_name() != "RequiredError") return std::nullopt;
  const CLI::App* group = nullptr;
  try {
    group = cmd->get_option_group(std::string(kInputGroup));
  } catch (const CLI::OptionNotFound&) {
    return std::nullopt;
  }
  // CLI11 checks the command's own required options before its groups: the error is the
  // group's when those are all given and the group is not satisfied.
  for (const CLI::Option* opt : cmd->get_options())
    if (opt->get_required() && opt->count() == 0) return std::nullopt;
  if (group->count_all() == 1) return std::nullopt;
  const auto it = usage_errors().find(group);
  return it != usage_errors().end() ? std::optional<std::string>(it->second) : std::nullopt;
}

std::string choice_message(const CLI::App& app, const ChoiceError& error) {
  const CLI::App* cmd = chosen(app);
  if (cmd == nullptr) return error.what();
  using Choice = ChoiceError::Choice;
  switch (error.choice()) {
    case Choice::map_endpoint:
      if (has_option(*cmd, "--map")) return error.with_hint(fmt::format(" with --map {}=<endpoint>", error.endpoint()));
      break;
    case Choice::map_entry:
      if (has_option(*cmd, "--map")) return error.with_hint("--map");
      break;
    case Choice::gpu_list:
      if (has_option(*cmd, "--gpus")) return error.with_hint("--gpus");
      break;
    case Choice::place_gpus:
      if (has_option(*cmd, "--gpus")) return error.with_hint("; give --gpus to place the trace's GPUs on the node's");
      break;
    case Choice::collective:
      if (has_option(*cmd, "--algo") && has_option(*cmd, "--proto")) return error.with_hint(" with --algo/--proto");
      break;
  }
  return error.what();
}

}  // namespace linkcast::cli
