// `linkcast topo import`: turn what users have at hand -- an NCCL/RCCL topology dump
// (NCCL_TOPO_DUMP_FILE XML, plain or gzip'd), `nvidia-smi topo -m` output and the CSV of
// `nvidia-smi --query-gpu=... --format=csv` -- into a node YAML skeleton.
//
// What the inputs tell is filled in and checked against the schema's plausible ranges
// (topology/schema.hpp); what none tells (host memory sizes and bandwidths, socket links, ...) is
// written as TODO with the schema's hint, so loading the skeleton fails listing exactly the values
// the user must still fill in (all of them at once: topology/loader.hpp find_todos).
//
// The NCCL dump gives the structure: CPUs (NUMA nodes), the PCIe tree with switches and link
// generations and widths, GPUs (as <gpu> elements, or as bare PCI devices of a GPU class in the
// topology files cloud providers ship), NICs, NVLinks and AMD xGMI links. One <nvlink> entry per
// NVSwitch chip (bare-metal A100: six of count 2; H100: 5, 5, 4, 4) is summed into one GPU-fabric
// link: NVSwitch is non-blocking, so the GPU's bonded width (NV12, NV18) is the sum. A VM's
// emulated 2.5 GT/s x1 bridges are left out (their devices hang from the bridge's parent).
// `topo -m` adds the NVLink matrix where the dump has none and, alone, the GPUs' NUMA nodes (the
// NUMA Affinity column, or CPU Affinity from older drivers). Inputs that disagree (GPU counts,
// NUMA nodes) are refused with both files named.
#pragma once

#include <string>
#include <vector>

namespace linkcast::topology {

struct ImportInputs {
  std::string nccl_xml_path;  // may be empty
  std::string smi_path;       // may be empty
  std::string name = "imported-node";
  std::string gpus_csv_path = {};  // may be empty: nvidia-smi --query-gpu=index,name,pci.bus_id,... --format=csv
};

struct ImportResult {
  std::string yaml;                // the skeleton
  std::vector<std::string> notes;  // what the inputs said that the skeleton left out or guessed (also in the YAML)
};

/// The skeleton and its notes. Throws InputError for unreadable, malformed or disagreeing inputs.
[[nodiscard]] ImportResult import_node(const ImportInputs& inputs);

/// import_node(inputs).yaml.
[[nodiscard]] std::string import_skeleton(const ImportInputs& inputs);

/// The deepest PCI nesting `topo import` reads: a real machine has a root port and a few levels
/// of switches (about 6); a dump nested deeper is refused with a message.
inline constexpr int kMaxPciDepth = 32;

}  // namespace linkcast::topology
