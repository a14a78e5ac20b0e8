// One host under two node files. Two nodes built on the same host hardware (one processor model,
// memory of one datasheet bandwidth: channels x transfer rate) copy pageable memory at the same
// rates; what two such files measured differently is the session they were measured in (on the
// lent VMs, 18-47% from one session to the next on the same machine kind: README "Held out: a
// second pair of sessions"), not a change the target brings. Memory capacity does not set a copy
// rate: the 2 x H200 VM (twice the 1-GPU VMs' memory) ran its pageable copies 1.5-1.6x as fast as
// the H100 VM in one session and like the 1-GPU VMs in another. A projection between two such
// nodes carries the host-bound part of each pageable copy unchanged: the target's CPU takes the
// source's measured host rates.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "topology/node.hpp"

namespace linkcast::projection {

/// How a projection prices the target's host where it is the source's hardware.
struct HostRateChoice {
  /// Price the target's host with its own measured rates even where it is the source's hardware
  /// (`project --target-host-rates`).
  bool target_rates = false;
  /// The node a study's point starts from (Study::start_at): a rate the target sets apart from this
  /// node's is the point's axes varying it, and stays the target's.
  const topology::Node* varied_from = nullptr;
};

/// Whether CPU endpoints `a` and `b` are one host's hardware: both CPUs, one processor model (not
/// empty), the same datasheet memory bandwidth. Capacity and measured rates do not enter.
[[nodiscard]] bool same_host_hardware(const topology::Endpoint& a, const topology::Endpoint& b);

/// `to` with the source's measured host rates (model::HostRates: copy, warm copy, first touch,
/// pageable H2D and D2H) on each CPU that is the same host hardware as `from`'s CPU of the same id,
/// where they differ and `choice` allows; std::nullopt where nothing changes. Each carried CPU adds
/// a note to `notes` naming both nodes and the rates.
[[nodiscard]] std::optional<topology::Node> carry_source_host_rates(const topology::Node& from,
                                                                    const topology::Node& to,
                                                                    const HostRateChoice& choice,
                                                                    std::vector<std::string>& notes);

}  // namespace linkcast::projection
