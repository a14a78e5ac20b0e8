#include "topology/node.hpp"

#include <fmt/format.h>

#include <array>

#include "core/error.hpp"
#include "core/strings.hpp"

namespace linkcast::topology {

namespace {

/// EndpointKind's names, in its order.
constexpr auto kEndpointKindNames = std::to_array<std::string_view>({"cpu", "gpu", "pcie_switch", "nvswitch", "nic"});
static_assert(kEndpointKindNames.size() == kEndpointKindCount, "one name per EndpointKind");

}  // namespace

std::string_view to_string(EndpointKind kind) {
  const auto i = static_cast<std::size_t>(kind);
  return i < kEndpointKindNames.size() ? kEndpointKindNames[i] : "cpu";
}

std::vector<std::string> endpoint_kind_names() {
  return {kEndpointKindNames.begin(), kEndpointKindNames.end()};
}

int Node::find(std::string_view id) const {
  for (std::size_t i = 0; i < endpoints.size(); ++i)
    if (endpoints[i].id == id) return static_cast<int>(i);
  return -1;
}

int Node::require(std::string_view id, std::string_view context) const {
  const int index = find(id);
  if (index < 0) {
    throw InputError(fmt::format("{}: node '{}' ({}) has no endpoint '{}'{}; it has {}", context,
                                 name, file, id, did_you_mean(id, endpoint_ids()),
                                 join(endpoint_ids(), ", ")));
  }
  return index;
}

std::vector<int> Node::gpus() const {
  std::vector<int> out;
  for (std::size_t i = 0; i < endpoints.size(); ++i)
    if (endpoints[i].kind == EndpointKind::gpu) out.push_back(static_cast<int>(i));
  return out;
}

std::vector<int> Node::cpus() const {
  std::vector<int> out;
  for (std::size_t i = 0; i < endpoints.size(); ++i)
    if (endpoints[i].kind == EndpointKind::cpu) out.push_back(static_cast<int>(i));
  return out;
}

std::vector<std::string> Node::endpoint_ids() const {
  std::vector<std::string> out;
  for (const Endpoint& e : endpoints) out.push_back(e.id);
  return out;
}

}  // namespace linkcast::topology
