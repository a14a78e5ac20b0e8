// linkcast topo NODE.yaml [--format table|json|dot] [-o FILE]
// linkcast topo import [--nccl-xml FILE] [--smi FILE] [--gpus-csv FILE] [--name NAME] [-o FILE]
#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/output.hpp"
#include "topology/describe.hpp"
#include "topology/import.hpp"
#include "topology/loader.hpp"

namespace linkcast::cli {

void add_topo_command(CLI::App& app, Runner& run) {
  auto* topo = app.add_subcommand(
      "topo", "Describe a node: endpoints, links and the route between every endpoint pair");
  struct Options {
    std::string node, format = "table", output = "-";
    topology::ImportInputs import;
    std::string import_output = "-";
  };
  auto opt = std::make_shared<Options>();
  topo->add_option("node", opt->node, "Node description (YAML, see configs/SCHEMA.md)")->check(non_empty());
  topo->add_option("--format", opt->format, "table | json | dot")
      ->check(CLI::IsMember({"table", "json", "dot"}))
      ->capture_default_str();
  topo->add_option("-o,--output", opt->output, "Write here instead of standard output")->check(non_empty());
  topo->callback([opt, &run, topo]() {
    if (topo->got_subcommand("import")) return;
    run = [opt]() {
      if (opt->node.empty())
        throw InputError("topo: give a node file, e.g. `linkcast topo configs/summit.yaml`");
      cli::refuse_outputs_over_inputs({opt->output}, {opt->node});
      const topology::Node node = cli::load_node(opt->node);
      const topology::Routes routes(node, topology::Routes::Compute::on_demand);
      AtomicOutput out(opt->output);
      if (opt->format == "json") topology::write_json(node, routes, out.stream());
      else if (opt->format == "dot") out.stream() << topology::describe_dot(node);
      else out.stream() << topology::describe_table(node, routes);
      out.commit();
      return 0;
    };
  });

  auto* imp = topo->add_subcommand(
      "import", "Write a node YAML skeleton from an NCCL topology dump and/or `nvidia-smi topo -m`");
  imp->add_option("--nccl-xml", opt->import.nccl_xml_path, "NCCL_TOPO_DUMP_FILE output (XML)")->check(non_empty())
      ->check(CLI::ExistingFile);
  imp->add_option("--smi", opt->import.smi_path, "Saved output of `nvidia-smi topo -m`")->check(non_empty())
      ->check(CLI::ExistingFile);
  imp->add_option("--gpus-csv", opt->import.gpus_csv_path,
                  "Saved output of `nvidia-smi --query-gpu=index,name,pci.bus_id,pcie.link.gen.max,"
                  "pcie.link.width.max,memory.total --format=csv`: fills the GPUs' names, memory and PCIe links")->check(non_empty())
      ->check(CLI::ExistingFile);
  imp->add_option("--name", opt->import.name, "Node name to write")->capture_default_str();
  imp->add_option("-o,--output", opt->import_output, "Write the skeleton here")->check(non_empty());
  imp->callback([opt, &run]() {
    run = [opt]() {
      cli::refuse_outputs_over_inputs({opt->import_output},
                                      {opt->import.nccl_xml_path, opt->import.smi_path, opt->import.gpus_csv_path});
      AtomicOutput out(opt->import_output);  // an unwritable output fails before the inputs are read
      const topology::ImportResult result = topology::import_node(opt->import);
      out.stream() << result.yaml;
      out.commit();
      // What the user must still do, all at once: the notes, then every TODO with what fills it.
      for (const std::string& note : result.notes) std::cerr << "linkcast: note: " << note << '\n';
      const std::string name = opt->import_output == "-" ? "the skeleton" : opt->import_output;
      const std::vector<topology::Todo> todos = topology::find_todos(result.yaml, name);
      if (!todos.empty()) {
        std::cerr << fmt::format("linkcast: {} value{} to fill in before {} loads:\n", todos.size(),
                                 todos.size() == 1 ? "" : "s", name);
        for (const topology::Todo& t : todos)
          std::cerr << fmt::format("  line {}: {}{}\n", t.line, t.what, t.hint.empty() ? "" : ": " + t.hint);
        const bool gpu_memory = std::any_of(todos.begin(), todos.end(), [](const topology::Todo& t) {
          return t.what.find("(gpu") != std::string::npos && t.what.ends_with("memory.capacity_gib");
        });
        if (gpu_memory && opt->import.gpus_csv_path.empty())
          std::cerr << "linkcast: --gpus-csv FILE fills the GPUs' names, memory and PCIe links from `nvidia-smi "
                       "--query-gpu=index,name,pci.bus_id,pcie.link.gen.max,pcie.link.width.max,memory.total "
                       "--format=csv`\n";
      }
      return 0;
    };
  });
}

}  // namespace linkcast::cli
