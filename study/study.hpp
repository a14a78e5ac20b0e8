// What-if studies for procurement: a study file names a base node, axes over any node value (or
// whole alternative node files), the traces to project and the workloads to simulate on every
// point of the grid. `linkcast sweep` evaluates it (sweep.hpp).
//
//   study_version: 1
//   name: summit-options
//   base: ../summit.yaml                  # paths are relative to the study file
//   axes:
//     - path: links[type=nvlink,between=cpu*].count    # topology/edit.hpp: any node value
//       values: [1, 2, 3]
//     - path: node                        # whole alternative node files
//       values: [../summit.yaml, ../hgx-h100.yaml]
//   traces:                               # projected onto every point
//     - {name: lammps, file: ../../data/lammps.nvvp, from: ../summit.yaml, map: "gpu0=gpu1"}
//   workloads:                            # simulated on every point
//     - {name: allreduce, spec: "nccl-allreduce:bytes=256MiB,gpus=0-7"}
//   models: [default, ahead]              # projection models; the first is the figure of merit
//   sim_model: default                    # transfer model of the simulator
//   target_host_rates: false              # true: the base's own host rates where it is the
//                                         # trace's source host (projection/same_host.hpp)
#pragma once

#include <string>
#include <vector>

#include "projection/projector.hpp"
#include "topology/edit.hpp"
#include "topology/node.hpp"

namespace linkcast::study {

/// Most grid points a study may have (the product of its axes' sizes): a sweep keeps every point's
/// results in memory; 10,000 points take about a second per 100,000 trace operations.
inline constexpr std::size_t kMaxStudyPoints = 1'000'000;

struct StudyAxis {
  std::string name;                 // the path as written, or "node"
  bool whole_node = false;
  topology::AxisPath path;          // when !whole_node
  std::vector<std::string> values;  // as written; for whole_node, resolved file paths
  std::vector<std::string> labels;  // for results: the value, or the node's name
  std::vector<topology::Node> nodes;  // whole_node: the loaded alternatives
  int line = 0;
};

struct StudyTrace {
  std::string name, file, from_file;
  projection::EndpointMap map;
  int line = 0;
};

struct StudyWorkload {
  std::string name, spec;
  int line = 0;
};

struct Study {
  std::string file, name, description;
  std::string base_file;
  topology::Node base;
  std::vector<StudyAxis> axes;
  std::vector<StudyTrace> traces;
  std::vector<StudyWorkload> workloads;
  std::vector<std::string> models = {"default"};
  std::string sim_model = "default";
  /// Price the points' host with their own measured rates even where a trace's source node is the
  /// same host hardware (projection::HostRateChoice).
  bool target_host_rates = false;

  /// Number of grid points (the product of the axes' sizes; 1 without axes).
  std::size_t points() const;
  /// The value index of every axis at grid point `p` (the last axis varies fastest).
  std::vector<std::size_t> coordinates(std::size_t p) const;
  /// The node of point `p`: the base (or the whole-node axis' choice) with every other axis'
  /// value written into it. Throws InputError when a value does not apply to that node.
  topology::Node node_at(std::size_t p) const;
  /// The node point `p` starts from before the other axes' values: the base, or the whole-node
  /// axis' choice.
  const topology::Node& start_at(std::size_t p) const;
};

/// Every file `study` reads: the study file, its base node, the node files of a whole-node axis,
/// its traces (a file or a folder) and their source nodes.
[[nodiscard]] std::vector<std::string> input_files(const Study& study);

/// Loads and validates a study: every path parses and selects something in the base node, every
/// value applies to it, node files and traces exist, names are unique. Errors name
/// `file:line:column` and the path.
[[nodiscard]] Study load_study(const std::string& path);

}  // namespace linkcast::study
