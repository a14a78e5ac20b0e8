// The node schema (configs/SCHEMA.md), declared once, in the manner of ns-3's attributes: every key
// a node file may hold, where it applies (top level, a source, an endpoint kind, its memory, a link
// type, the calibration, a route), its unit, its check, one line of documentation and the hint
// `topo import` writes beside a value it cannot fill in. The loader, the sweep editor
// (topology/edit.hpp), `topo --format json`, the import skeleton and SCHEMA.md's key reference all
// read this table, so a new key is one entry in schema.cpp (plus the member it fills in node.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/link.hpp"
#include "topology/node.hpp"

namespace linkcast::topology::schema {

/// Where in a node file a key is written.
enum class Section : unsigned char { top, source, endpoint, memory, link, calibration, route };
std::string_view to_string(Section s);

/// The endpoint kinds (endpoint and memory keys) or link types (link keys) a key applies to.
using Applies = std::uint32_t;
inline constexpr Applies kEvery = ~Applies{0};
constexpr Applies bit(EndpointKind k) { return Applies{1} << static_cast<unsigned>(k); }
constexpr Applies bit(model::LinkType t) { return Applies{1} << static_cast<unsigned>(t); }
/// xbus, upi, qpi, infinity_fabric, nvlink_c2c, hypertransport and generic: the link classes
/// described by bandwidth and latency alone (model::is_generic).
Applies generic_links();

/// What a key's value is.
enum class Type : unsigned char {
  text,       // one scalar, kept as written
  integer,    // a whole decimal number
  number,     // a finite decimal number
  boolean,    // true or false
  choice,     // one of a fixed list of names (an endpoint's kind, a link's type)
  endpoint,   // the id of an endpoint of the node
  endpoints,  // a list of endpoint ids
  mapping,    // a mapping whose keys are the section `holds`
  list,       // a list of mappings whose keys are the section `holds`
};

/// The least value a number may take. The floor is checked before the plausible range and keeps
/// the wording the loader has always used for it.
enum class Floor : unsigned char { none, positive, zero, one };

/// How `linkcast topo --format json` shows the key (a pure value of the node, not a derived one).
enum class Json : unsigned char { omit, always, when_set };

/// Where a value lives in a loaded node.
struct Field {
  double (*endpoint_get)(const Endpoint&) = nullptr;  // endpoint and memory keys
  void (*endpoint_set)(Endpoint&, double) = nullptr;
  double (*link_get)(const model::LinkSpec&) = nullptr;  // link keys
  void (*link_set)(model::LinkSpec&, double) = nullptr;
  int calibration_slot = -1;  // calibration keys: the model::CopyClass
};

struct Key {
  std::string_view name{};
  Section section = Section::top;
  Applies applies = kEvery;
  Type type = Type::text;
  bool required = false;
  Section holds = Section::top;  // mapping and list keys: the section of their entries
  std::string_view unit{};       // "GB/s", "GiB", "ns", "bytes", "bits", ""
  // Numbers. A value must reach the floor, lie in [min, max] (the plausible range for hardware,
  // `plausible` says why) and, for integers with `allowed`, be one of those.
  Floor floor = Floor::none;
  std::string_view floor_note{};  // said when the floor is missed, e.g. "the number of NVLinks"
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  std::string_view plausible{};
  std::vector<int> allowed{};
  std::vector<std::string> (*choices)() = nullptr;  // choice keys
  std::string_view default_text{};  // what an absent optional key means
  std::string_view doc{};           // one line, for SCHEMA.md
  std::string_view todo{};          // the import skeleton's hint beside "TODO"
  Json json = Json::omit;
  bool sweepable = false;  // an axis path of a study may set it (topology/edit.hpp)
  Field field{};

  [[nodiscard]] bool applies_to(EndpointKind k) const { return (applies & bit(k)) != 0; }
  [[nodiscard]] bool applies_to(model::LinkType t) const { return (applies & bit(t)) != 0; }
  [[nodiscard]] bool is_number() const { return type == Type::integer || type == Type::number; }
};

/// Every key, in the order files and messages list them.
[[nodiscard]] std::span<const Key> keys();

/// The keys of a section (all of them, or those applying to one endpoint kind or link type), in
/// table order.
[[nodiscard]] const std::vector<const Key*>& keys_of(Section s);
[[nodiscard]] const std::vector<const Key*>& keys_of(Section s, EndpointKind k);
[[nodiscard]] const std::vector<const Key*>& keys_of(Section s, model::LinkType t);

/// The names of those keys, each once, as messages list them: for links the keys of every link
/// type first, then the type's own.
[[nodiscard]] const std::vector<std::string>& names(Section s);
[[nodiscard]] const std::vector<std::string>& names(Section s, EndpointKind k);
[[nodiscard]] const std::vector<std::string>& names(Section s, model::LinkType t);

/// The key called `name` in section `s` that applies to kind `k` (or type `t`); nullptr if none.
[[nodiscard]] const Key* find(Section s, std::string_view name);
[[nodiscard]] const Key* find(Section s, std::string_view name, EndpointKind k);
[[nodiscard]] const Key* find(Section s, std::string_view name, model::LinkType t);

/// "cpus", "cpus and gpus"; "pcie", "generic (xbus, upi, ...)": who a key applies to, for messages.
[[nodiscard]] std::string endpoint_kinds_text(Applies a);
[[nodiscard]] std::string link_types_text(Applies a);

/// Why a number was refused.
struct Problem {
  enum class Code : unsigned char {
    not_number,   // not a decimal number at all
    hexadecimal,  // 0x..: `decimal` is what it means
    not_finite,   // inf, nan
    not_whole,    // an integer key given a fraction, or beyond +-1e9
    below_floor,  // misses the key's floor
    not_allowed,  // an integer outside the key's allowed values
    implausible,  // outside [min, max]
  };
  Code code = Code::not_number;
  double value = 0;  // as read, where it could be
  std::string decimal{};
};

/// Reads `text` as the value of the number key `key`: the value, or why it is not one.
[[nodiscard]] std::variant<double, Problem> check(const Key& key, std::string_view text);

/// The message for a refused value, in the loader's words ("WHAT must be ..., got V") and in the
/// sweep editor's ("WHAT: V is not ..."). `what` names the value, `text` is what was written.
[[nodiscard]] std::string loader_message(const Key& key, const Problem& p, std::string_view what, std::string_view text);
[[nodiscard]] std::string editor_message(const Key& key, const Problem& p, std::string_view what, std::string_view text);

/// The key reference of configs/SCHEMA.md (one Markdown table per section), made from the table.
[[nodiscard]] std::string markdown();

/// What is wrong with an endpoint's values taken together, where each is in its own range: a GPU
/// whose measured streaming rate (memory.stream_gbps) is above its memory's peak
/// (memory.bandwidth_gbps), which no measurement gives (a unit slip). nullopt when nothing is.
[[nodiscard]] std::optional<std::string> endpoint_values_problem(const Endpoint& e);

}  // namespace linkcast::topology::schema
