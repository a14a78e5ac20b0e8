#include "trace/kineto.hpp"

#include <fmt/format.h>

#include <cmath>
#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <optional>
#include <simdjson.h>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/strings.hpp"

namespace linkcast::trace {

namespace {

using model::MemKind;

/// Bytes per element of the dtype names PyTorch writes ("Float", "BFloat16", ...).
std::optional<int> dtype_bytes(std::string_view dtype) {
  static const std::map<std::string, int, std::less<>> kSizes = {
      {"float", 4},    {"float32", 4},  {"double", 8},   {"float64", 8},  {"half", 2},
      {"float16", 2},  {"bfloat16", 2}, {"int", 4},      {"int32", 4},    {"long", 8},
      {"int64", 8},    {"short", 2},    {"int16", 2},    {"char", 1},     {"int8", 1},
      {"byte", 1},     {"uint8", 1},    {"bool", 1},     {"float8_e4m3fn", 1},
      {"float8_e5m2", 1}, {"complexfloat", 8}, {"complexdouble", 16}};
  const auto it = kSizes.find(to_lower(dtype));
  if (it == kSizes.end()) return std::nullopt;
  return it->second;
}

MemKind kineto_mem(std::string_view s) {
  const std::string l = to_lower(trim(s));
  if (l == "pageable") return MemKind::pageable;
  if (l == "pinned") return MemKind::pinned;
  if (l == "device") return MemKind::device;
  if (l == "managed") return MemKind::managed;
  return MemKind::unknown;
}

/// Fields of one complete event the reader uses, reused from event to event.
struct Event {
  std::string_view ph, cat, name;
  double ts = 0, dur = 0;
  bool has_ts = false;
  double bytes = 0, device = 0, stream = 0, from_device = -1, to_device = -1;
  double in_nelems = 0, out_nelems = 0, group_size = 0;
  std::string_view collective, dtype, group_name;
  std::string group_ranks;  // "[0, 1]" whether written as text or as a list
};

class Reader {
 public:
  Reader(Trace& trace, std::string name) : trace_(trace), name_(std::move(name)) {}

  void read(simdjson::ondemand::document& doc) {
    bool saw_events = false;
    for (auto field : doc.get_object()) {
      const std::string_view key = field.unescaped_key();
      if (key == "traceEvents") {
        saw_events = true;
        for (auto value : field.value().get_array()) event(value.get_object());
      } else if (key == "deviceProperties") {
        for (auto value : field.value().get_array()) device(value.get_object());
      }
    }
    if (!saw_events)
      throw InputError(fmt::format("{}: JSON without a \"traceEvents\" list: not a PyTorch profiler / "
                                   "Kineto Chrome trace", name_));
    std::stable_sort(ops_.begin(), ops_.end(), [](const Op& a, const Op& b) { return a.start_ns < b.start_ns; });
    trace_.reserve(ops_.size());
    for (const Op& op : ops_) trace_.push(op);
  }

  std::set<std::string> unknown_dtypes;
  std::size_t skipped = 0;

 private:
  static double number(simdjson::ondemand::value v) {
    if (v.type() == simdjson::ondemand::json_type::string) return std::atof(std::string(v.get_string().value()).c_str());
    return v.get_double();
  }

  void device(simdjson::ondemand::object obj) {
    int id = -1;
    std::string device_name;
    for (auto field : obj) {
      const std::string_view key = field.unescaped_key();
      if (key == "id") id = static_cast<int>(number(field.value()));
      else if (key == "name") device_name = std::string(field.value().get_string().value());
    }
    if (id < 0) return;
    if (trace_.device_names.size() <= static_cast<std::size_t>(id)) trace_.device_names.resize(static_cast<std::size_t>(id) + 1);
    trace_.device_names[static_cast<std::size_t>(id)] = device_name;
  }

  void event(simdjson::ondemand::object obj) {
    Event e;
    for (auto field : obj) {
      const std::string_view key = field.unescaped_key();
      if (key == "ph") e.ph = field.value().get_string();
      else if (key == "cat") e.cat = field.value().get_string();
      else if (key == "name") e.name = field.value().get_string();
      else if (key == "ts") {
        e.ts = number(field.value());
        e.has_ts = true;
      } else if (key == "dur") e.dur = number(field.value());
      else if (key == "args") args(field.value().get_object(), e);
    }
    finish_event(e);
  }

  void args(simdjson::ondemand::object obj, Event& e) {
    for (auto field : obj) {
      const std::string_view key = field.unescaped_key();
      if (key == "bytes") e.bytes = number(field.value());
      else if (key == "device") e.device = number(field.value());
      else if (key == "stream") e.stream = number(field.value());
      else if (key == "fromDevice") e.from_device = number(field.value());
      else if (key == "toDevice") e.to_device = number(field.value());
      else if (key == "Collective name") e.collective = field.value().get_string();
      else if (key == "In msg nelems") e.in_nelems = number(field.value());
      else if (key == "Out msg nelems") e.out_nelems = number(field.value());
      else if (key == "Group size") e.group_size = number(field.value());
      else if (key == "dtype") e.dtype = field.value().get_string();
      else if (key == "Process Group Name") e.group_name = field.value().get_string();
      else if (key == "Process Group Ranks") {
        auto v = field.value();
        if (v.type() == simdjson::ondemand::json_type::array) {
          e.group_ranks = "[";
          for (auto r : v.get_array()) {
            if (e.group_ranks.size() > 1) e.group_ranks += ", ";
            e.group_ranks += fmt::format("{:g}", r.get_double().value());
          }
          e.group_ranks += "]";
        } else {
          e.group_ranks = std::string(v.get_string().value());
        }
      }
    }
  }

  std::uint16_t gpu(int index) {
    index = std::max(0, index);
    const auto i = static_cast<std::size_t>(index);
    if (i < gpu_ids_.size() && gpu_ids_[i] != kNoEndpoint) return gpu_ids_[i];
    const std::uint16_t id = trace_.endpoint(fmt::format("gpu{}", index));
    if (gpu_ids_.size() <= i) gpu_ids_.resize(i + 1, kNoEndpoint);
    gpu_ids_[i] = id;
    return id;
  }

  void finish_event(const Event& e) {
    if (e.ph != "X" || !e.has_ts) return;
    const bool memcpy = e.cat == "gpu_memcpy", memset = e.cat == "gpu_memset";
    const bool nccl = e.cat == "kernel" && e.name.starts_with("nccl");
    if (!memcpy && !memset && !nccl) return;
    Op op;
    op.start_ns = std::llround(e.ts * 1000.0);
    op.duration_ns = std::llround(e.dur * 1000.0);
    op.stream = static_cast<std::uint32_t>(std::max(0.0, e.stream));
    const int device = static_cast<int>(e.device);
    if (memcpy) {
      // "Memcpy HtoD (Pinned -> Device)"
      const std::string_view n = e.name;
      const std::size_t open = n.find('('), arrow = n.find("->"), close = n.find(')');
      if (open != std::string_view::npos && arrow != std::string_view::npos && close != std::string_view::npos) {
        op.src_mem = kineto_mem(n.substr(open + 1, arrow - open - 1));
        op.dst_mem = kineto_mem(n.substr(arrow + 2, close - arrow - 2));
      }
      op.bytes = static_cast<std::uint64_t>(std::max(0.0, e.bytes));
      if (host_ == kNoEndpoint) host_ = trace_.endpoint("host");
      if (n.find("HtoD") != std::string_view::npos) { op.src = host_; op.dst = gpu(device); }
      else if (n.find("DtoH") != std::string_view::npos) { op.src = gpu(device); op.dst = host_; }
      else if (n.find("PtoP") != std::string_view::npos) {
        op.src = gpu(e.from_device >= 0 ? static_cast<int>(e.from_device) : device);
        op.dst = gpu(e.to_device >= 0 ? static_cast<int>(e.to_device) : device);
      } else if (n.find("DtoD") != std::string_view::npos) { op.src = op.dst = gpu(device); }
      else if (n.find("HtoH") != std::string_view::npos) { op.src = op.dst = host_; }
      else { ++skipped; return; }
      op.kind = OpKind::copy;
      ops_.push_back(op);
    } else if (memset) {
      op.kind = OpKind::memset;
      op.src = op.dst = gpu(device);
      op.src_mem = op.dst_mem = MemKind::device;
      op.bytes = static_cast<std::uint64_t>(std::max(0.0, e.bytes));
      ops_.push_back(op);
    } else {
      collective(op, device, e);
    }
  }

  void collective(Op& op, int device, const Event& e) {
    const std::string cname = to_lower(e.collective);
    const std::string lname = to_lower(e.name);
    auto has = [&](const char* s) { return cname.find(s) != std::string::npos || (cname.empty() && lname.find(s) != std::string::npos); };
    bool use_out = false;
    if (has("allgather") || has("all_gather")) { op.kind = OpKind::allgather; use_out = true; }
    else if (has("reducescatter") || has("reduce_scatter")) op.kind = OpKind::reducescatter;
    else if (has("allreduce") || has("all_reduce")) op.kind = OpKind::allreduce;
    else if (has("alltoall") || has("all_to_all")) op.kind = OpKind::alltoall;
    else if (has("broadcast")) op.kind = OpKind::broadcast;
    else if (has("reduce")) op.kind = OpKind::reduce;
    else if (has("send")) op.kind = OpKind::send;
    else if (has("recv")) op.kind = OpKind::recv;
    else { ++skipped; return; }
    const auto size = dtype_bytes(e.dtype);
    if (!size && !e.dtype.empty()) unknown_dtypes.insert(std::string(e.dtype));
    const double nelems = use_out ? e.out_nelems : e.in_nelems;
    op.bytes = static_cast<std::uint64_t>(std::max(0.0, nelems) * size.value_or(1));
    op.src = op.dst = gpu(device);
    op.src_mem = op.dst_mem = MemKind::device;
    // Ranks of the group -> GPUs (one GPU per rank on one node).
    std::vector<std::uint16_t> members;
    std::string ranks = e.group_ranks;
    for (char& c : ranks) if (c == '[' || c == ']') c = ' ';
    for (std::string_view r : split(ranks, ',')) {
      r = trim(r);
      if (!r.empty()) members.push_back(gpu(std::atoi(std::string(r).c_str())));
    }
    if (members.empty())
      for (int i = 0; i < std::max(1, static_cast<int>(e.group_size)); ++i) members.push_back(gpu(i));
    op.group = trace_.add_group(members);
    op.comm = trace_.comms.intern(e.group_name.empty() ? std::string("default_pg") : "pg:" + std::string(e.group_name));
    ops_.push_back(op);
  }

  Trace& trace_;
  std::string name_;
  std::vector<Op> ops_;
  std::vector<std::uint16_t> gpu_ids_;
  std::uint16_t host_ = kNoEndpoint;
};

}  // namespace

Trace read_kineto(const std::string& path) {
  std::string text = InputFile(path, {.file = "trace file"}).read_all();
  // Spare capacity for the JSON parser's padding, so it can read in place.
  text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
  return parse_kineto(text, path);
}

Trace parse_kineto(const std::string& text, const std::string& name) {
  Trace trace;
  trace.format = "kineto";
  trace.source_file = name;
  Reader reader(trace, name);
  // simdjson reads SIMDJSON_PADDING bytes past the end: use the string's own spare capacity
  // when it has it (read_kineto leaves it), else a padded copy.
  std::optional<simdjson::padded_string> copy;
  simdjson::padded_string_view view;
  if (text.capacity() >= text.size() + simdjson::SIMDJSON_PADDING) {
    view = simdjson::padded_string_view(text.data(), text.size(), text.capacity());
  } else {
    copy.emplace(text);
    view = *copy;
  }
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc;
  try {
    doc = parser.iterate(view);
    reader.read(doc);
  } catch (const simdjson::simdjson_error& e) {
    throw InputError(
        fmt::format("{}: invalid JSON ({}); the file is not a Kineto trace or is truncated", name, e.what()));
  }
  if (reader.skipped > 0)
    trace.warnings.push_back(fmt::format("{}: skipped {} copy or NCCL events of unrecognised kind", name, reader.skipped));
  for (const std::string& d : reader.unknown_dtypes)
    trace.warnings.push_back(fmt::format("{}: unknown dtype '{}' in NCCL events; counted 1 byte per element", name, d));
  return trace;
}

}  // namespace linkcast::trace
