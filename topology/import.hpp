// `linkcast topo import`: turn what users have at hand -- an NCCL topology dump
// (NCCL_TOPO_DUMP_FILE XML) and/or `nvidia-smi topo -m` output -- into a node YAML skeleton.
// What neither source tells (memory sizes and bandwidths, socket links) is written as TODO with a
// comment, so loading the skeleton fails at exactly the lines the user must still fill in.
#pragma once

#include <string>

namespace linkcast::topology {

struct ImportInputs {
  std::string nccl_xml_path;  // may be empty
  std::string smi_path;       // may be empty
  std::string name = "imported-node";
};

/// Returns the YAML text. Throws InputError for unreadable or malformed inputs.
std::string import_skeleton(const ImportInputs& inputs);

}  // namespace linkcast::topology
