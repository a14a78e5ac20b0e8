// What the commands share about their input and their errors: the trace-or-workload choice
// that CLI11 enforces, and the options that fix a ChoiceError.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>

#include "core/input_file.hpp"
#include "core/strings.hpp"
#include "topology/loader.hpp"

#include "cli/commands.hpp"
#include "trace/ranks.hpp"
#include "topology/plausibility.hpp"
#include "trace/reader.hpp"

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
  const CLI::App* cmd = nullptr;
  // Down to the innermost command given (`topo import`), passing over option groups.
  for (const CLI::App* at = &app;;) {
    const auto subs = at->get_subcommands([](const CLI::App* a) { return !a->get_name().empty(); });
    const auto given = std::find_if(subs.begin(), subs.end(), [](const CLI::App* a) { return a->parsed(); });
    if (given == subs.end()) return cmd;
    cmd = at = *given;
  }
}

/// "topo import" for `linkcast topo import`: the command's name after its parents'.
std::string command_path(const CLI::App& cmd) {
  std::string path = cmd.get_name();
  for (const CLI::App* p = cmd.get_parent(); p != nullptr && p->get_parent() != nullptr; p = p->get_parent())
    if (!p->get_name().empty()) path = p->get_name() + " " + path;
  return path;
}

bool has_option(const CLI::App& cmd, const std::string& name) { return cmd.get_option_no_throw(name) != nullptr; }

/// The chosen command's trace-or-workload group, if it has one.
const CLI::App* input_group(const CLI::App& cmd) {
  try {
    return cmd.get_option_group(std::string(kInputGroup));
  } catch (const CLI::OptionNotFound&) {
    return nullptr;
  }
}

}  // namespace

CLI::Validator non_empty() {
  return CLI::Validator(
      [](std::string& value) {
        return value.empty() ? std::string("an empty value (an unset shell variable?); give one") : std::string();
      },
      "", "non-empty");
}

void refuse_outputs_over_inputs(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs) {
  // A folder of traces is its trace files (a report written over one of them replaced a rank's
  // trace); `equivalent` compares the files themselves, whatever the spelling or link.
  std::vector<std::string> files;
  for (const std::string& in : inputs) {
    std::error_code ec;
    if (in.empty()) continue;
    if (!std::filesystem::is_directory(in, ec)) {
      files.push_back(in);
      continue;
    }
    try {
      for (std::string& f : trace::expand_trace_paths({in})) files.push_back(std::move(f));
    } catch (const InputError&) {
      // A folder without traces: reading it says so.
    }
  }
  for (const std::string& out : outputs) {
    if (out.empty() || out == "-") continue;
    for (const std::string& in : files) {
      std::error_code ec;
      if (std::filesystem::equivalent(out, in, ec) && !ec)
        throw InputError(fmt::format("{}: an output of this command, and {} is one of its inputs: writing it would "
                                     "replace that input; give another output file",
                                     out, in));
    }
  }
}

void add_trace_or_workload(CLI::App& cmd, std::vector<std::string>& traces, std::string& workload, const std::string& workload_help,
                           std::string usage_error) {
  auto* group = cmd.add_option_group(std::string(kInputGroup), "A trace or a synthetic workload (one of them)");
  group->add_option("trace", traces, kTraceHelp)->check(non_empty());
  // An empty spec would read as no workload given, and the command as one without a trace.
  group->add_option("--workload", workload, workload_help)
      ->check(CLI::Validator(
          [](std::string& spec) {
            return spec.empty() ? std::string("an empty workload; give one, e.g. nccl-allreduce:bytes=1GiB (`--workload "
                                              "help` lists them)")
                                : std::string();
          },
          "", "a workload spec"));
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
      // --gpus places the trace's gpu<k> on its k-th GPU; a trace on gpu2 alone is placed by name.
      if (has_option(*cmd, "--gpus") && has_option(*cmd, "--map") && !error.endpoint().empty())
        return error.with_hint("--gpus") + fmt::format(", or place it by name with --map {}=<a node GPU>", error.endpoint());
      if (has_option(*cmd, "--gpus")) return error.with_hint("--gpus");
      break;
    case Choice::place_gpus:
      if (has_option(*cmd, "--map") && !error.endpoint().empty())
        return error.with_hint(fmt::format("; place the trace's GPUs on the node's with --map {}=<a node GPU>{}",
                                           error.endpoint(), has_option(*cmd, "--gpus") ? " (or --gpus)" : ""));
      if (has_option(*cmd, "--gpus")) return error.with_hint("; give --gpus to place the trace's GPUs on the node's");
      break;
    case Choice::collective:
      if (has_option(*cmd, "--algo") && has_option(*cmd, "--proto")) return error.with_hint(" with --algo/--proto");
      break;
  }
  return error.what();
}

namespace {

/// What people give where a node belongs that is no node file: a gzip'd one (node files are read
/// plain), a trace (the arguments in the wrong order).
void refuse_non_nodes(const std::string& path) {
  if (!trace::is_yaml_file_name(path)) {
    throw InputError(fmt::format("{}: given as the node, but a node is a .yaml file (configs/ has them); is this the "
                                 "trace? The node is {}",
                                 path, trace::kWhereTheNodeGoes));
  }
  if (is_gzip_file(path)) {
    throw InputError(fmt::format("{}: gzip-compressed; node files are read plain: `zcat {} > node.yaml` and give that",
                                 path, path));
  }
}

}  // namespace

topology::Node load_node(const std::string& path) {
  topology::refuse_directory(path);  // before refuse_non_nodes reads its head
  refuse_pipe(path, "node file");
  refuse_non_nodes(path);
  topology::Node node = topology::load_node(path);
  for (const std::string& w : topology::unusual_values(node)) std::cerr << "linkcast: warning: " << w << "\n";
  return node;
}

std::optional<std::string> misplaced_usage_error(const CLI::App& app, const CLI::ParseError& error,
                                                 const std::vector<std::string>& args) {
  const CLI::App* cmd = chosen(app);
  if (cmd == nullptr) {
    if (args.empty() || args.front().empty() || args.front().front() == '-') return std::nullopt;
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      if (!sub->get_name().empty()) names.push_back(sub->get_name());
    if (std::find(names.begin(), names.end(), args.front()) != names.end()) return std::nullopt;
    return unknown_name("command", args.front(), names) + "; run 'linkcast --help'";
  }
  // An option the command does not have, whatever CLI11 noticed first (a mistyped `--form`
  // leaves `--from` missing): name it, with the nearest option.
  std::vector<std::string> options;
  auto collect = [&options](const CLI::App& a) {
    for (const CLI::Option* o : a.get_options())
      for (const std::string& n : o->get_lnames())
        if (std::find(options.begin(), options.end(), "--" + n) == options.end()) options.push_back("--" + n);
  };
  collect(*cmd);
  for (const CLI::App* g : cmd->get_subcommands([](const CLI::App* a) { return a->get_name().empty(); })) collect(*g);
  for (std::size_t k = 1; k < args.size() && args[k] != "--"; ++k) {
    const std::string& a = args[k];
    if (!a.starts_with("--") || a.size() < 3) continue;
    const std::string name = a.substr(0, a.find('='));
    if (std::find(options.begin(), options.end(), name) != options.end()) continue;
    if (name == "--node" && cmd->get_option_no_throw("node") != nullptr)
      return fmt::format("{0}: the node is its first argument, not an option: `linkcast {0} NODE.yaml ...`",
                         cmd->get_name());
    return fmt::format("{}: {}; see `linkcast {} --help`", command_path(*cmd), unknown_name("option", name, options),
                       command_path(*cmd));
  }
  // `simulate TRACE`: the trace filled the NODE positional and the input group is empty.
  if (error.get_name() != "RequiredError") return std::nullopt;
  const CLI::App* group = input_group(*cmd);
  const CLI::Option* node = cmd->get_option_no_throw("node");
  if (group == nullptr || node == nullptr || group->count_all() != 0 || node->count() != 1) return std::nullopt;
  const std::string given = node->results().front();
  if (trace::is_yaml_file_name(given)) return std::nullopt;
  return fmt::format("{0}: '{1}' was given as the node, but it is not a node file (.yaml): the node is missing; give "
                     "it before the trace, e.g. `linkcast {0} configs/dgx1-v100.yaml {1}`",
                     cmd->get_name(), given);
}

bool asks_workload_help(const CLI::App& app) {
  const CLI::App* cmd = chosen(app);
  if (cmd == nullptr) return false;
  const CLI::App* group = input_group(*cmd);
  const CLI::Option* workload = group ? group->get_option_no_throw("--workload") : cmd->get_option_no_throw("--workload");
  return workload != nullptr && workload->count() == 1 && workload->results().front() == "help";
}

}  // namespace linkcast::cli
