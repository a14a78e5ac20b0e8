#include "workloads/kineto.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <cmath>
#include <algorithm>
#include <map>
#include <set>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/strings.hpp"

namespace linkcast::workloads {

std::string read_maybe_gzip(const std::string& path, std::size_t max_bytes) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw InputError(fmt::format("{}: cannot open the trace file", path));
  gzbuffer(f, 1 << 20);
  std::string out;
  std::vector<char> buf(1 << 22);
  while (true) {
    const int n = gzread(f, buf.data(), static_cast<unsigned>(buf.size()));
    if (n < 0) {
      int err = 0;
      const std::string msg = gzerror(f, &err);
      gzclose(f);
      throw InputError(fmt::format("{}: cannot decompress ({}); the gzip file is corrupt or truncated", path, msg));
    }
    if (n == 0) break;
    out.append(buf.data(), static_cast<std::size_t>(n));
    if (max_bytes > 0 && out.size() >= max_bytes) {
      gzclose(f);
      out.resize(max_bytes);
      return out;
    }
  }
  int err = 0;
  const char* msg = gzerror(f, &err);
  if (err != Z_OK && err != Z_STREAM_END) {
    const std::string m = msg;
    gzclose(f);
    throw InputError(fmt::format("{}: cannot decompress ({}); the gzip file is corrupt or truncated", path, m));
  }
  gzclose(f);
  return out;
}

namespace {

using nlohmann::json;
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

/// One complete event's fields we care about, gathered by the SAX handler.
struct Event {
  std::string ph, cat, name;
  double ts = 0, dur = 0;
  bool has_ts = false;
  std::map<std::string, std::string, std::less<>> args;  // values as text
  void clear() {
    ph.clear();
    cat.clear();
    name.clear();
    ts = dur = 0;
    has_ts = false;
    args.clear();
  }
};

class Handler : public json::json_sax_t {
 public:
  Handler(Trace& trace, std::string name) : trace_(trace), name_(std::move(name)) {}

  bool null() override { return scalar("null"); }
  bool boolean(bool v) override { return scalar(v ? "true" : "false"); }
  bool number_integer(number_integer_t v) override { return number(static_cast<double>(v), std::to_string(v)); }
  bool number_unsigned(number_unsigned_t v) override { return number(static_cast<double>(v), std::to_string(v)); }
  bool number_float(number_float_t v, const string_t& s) override { return number(v, s); }
  bool string(string_t& v) override { return scalar(v); }
  bool binary(binary_t&) override { return true; }

  bool start_object(std::size_t) override {
    path_.push_back(pending_key_);
    pending_key_.clear();
    if (in_events() && path_.size() == 3) event_.clear();
    if (path_.size() == 3 && path_[1] == "deviceProperties") device_ = {};
    return true;
  }
  bool end_object() override {
    if (in_events() && path_.size() == 3) finish_event();
    if (path_.size() == 3 && path_[1] == "deviceProperties" && device_.id >= 0) {
      const auto id = static_cast<std::size_t>(device_.id);
      if (trace_.device_names.size() <= id) trace_.device_names.resize(id + 1);
      trace_.device_names[id] = device_.name;
    }
    path_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override {
    if (path_.size() == 1 && pending_key_ == "traceEvents") saw_events_ = true;
    path_.push_back(pending_key_);
    pending_key_.clear();
    array_text_.clear();
    return true;
  }
  bool end_array() override {
    // Arrays inside args (e.g. Process Group Ranks as a list) are kept as "[a, b]" text.
    if (in_events() && path_.size() == 5 && path_[3] == "args")
      event_.args[path_[4]] = "[" + array_text_ + "]";
    path_.pop_back();
    return true;
  }
  bool key(string_t& k) override {
    pending_key_ = k;
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    throw InputError(fmt::format("{}: invalid JSON at byte {} ({}); the file is not a Kineto trace or "
                                 "is truncated", name_, position, ex.what()));
  }

  /// Checks the document was a Kineto trace and moves the ops, in start order, into the trace.
  void finish() {
    if (!saw_events_)
      throw InputError(fmt::format("{}: JSON without a \"traceEvents\" list: not a PyTorch profiler / "
                                   "Kineto Chrome trace", name_));
    std::stable_sort(ops_.begin(), ops_.end(), [](const Op& a, const Op& b) { return a.start_ns < b.start_ns; });
    trace_.reserve(ops_.size());
    for (const Op& op : ops_) trace_.push(op);
  }

 private:
  bool in_events() const { return path_.size() >= 2 && path_[1] == "traceEvents"; }

  bool number(double v, const std::string& text) {
    if (in_events() && path_.size() == 3) {
      if (pending_key_ == "ts") { event_.ts = v; event_.has_ts = true; }
      else if (pending_key_ == "dur") event_.dur = v;
      return true;
    }
    return scalar(text);
  }

  bool scalar(const std::string& v) {
    if (in_events()) {
      if (path_.size() == 3) {
        if (pending_key_ == "ph") event_.ph = v;
        else if (pending_key_ == "cat") event_.cat = v;
        else if (pending_key_ == "name") event_.name = v;
      } else if (path_.size() == 4 && path_[3] == "args") {
        event_.args[pending_key_] = v;
      } else if (path_.size() == 5 && path_[3] == "args") {
        if (!array_text_.empty()) array_text_ += ", ";
        array_text_ += v;
      }
    } else if (path_.size() == 3 && path_[1] == "deviceProperties") {
      if (pending_key_ == "id") device_.id = std::atoi(v.c_str());
      else if (pending_key_ == "name") device_.name = v;
    }
    pending_key_.clear();
    return true;
  }

  std::string arg(std::string_view key) const {
    const auto it = event_.args.find(key);
    return it == event_.args.end() ? std::string() : it->second;
  }
  int int_arg(std::string_view key, int fallback) const {
    const std::string s = arg(key);
    return s.empty() ? fallback : std::atoi(s.c_str());
  }

  std::uint16_t gpu(int index) { return trace_.endpoint(fmt::format("gpu{}", std::max(0, index))); }

  void finish_event() {
    if (event_.ph != "X" || !event_.has_ts) return;
    Op op;
    op.start_ns = std::llround(event_.ts * 1000.0);
    op.duration_ns = std::llround(event_.dur * 1000.0);
    op.stream = static_cast<std::uint32_t>(std::max(0, int_arg("stream", 0)));
    const int device = int_arg("device", 0);
    if (event_.cat == "gpu_memcpy") {
      // "Memcpy HtoD (Pinned -> Device)"
      const std::string& n = event_.name;
      const std::size_t open = n.find('('), arrow = n.find("->"), close = n.find(')');
      if (open != std::string::npos && arrow != std::string::npos && close != std::string::npos) {
        op.src_mem = kineto_mem(std::string_view(n).substr(open + 1, arrow - open - 1));
        op.dst_mem = kineto_mem(std::string_view(n).substr(arrow + 2, close - arrow - 2));
      }
      op.bytes = static_cast<std::uint64_t>(std::max(0.0, std::atof(arg("bytes").c_str())));
      const std::uint16_t host = trace_.endpoint("host");
      if (n.find("HtoD") != std::string::npos) { op.src = host; op.dst = gpu(device); }
      else if (n.find("DtoH") != std::string::npos) { op.src = gpu(device); op.dst = host; }
      else if (n.find("PtoP") != std::string::npos) {
        op.src = gpu(int_arg("fromDevice", device));
        op.dst = gpu(int_arg("toDevice", device));
      } else if (n.find("DtoD") != std::string::npos) { op.src = op.dst = gpu(device); }
      else if (n.find("HtoH") != std::string::npos) { op.src = op.dst = host; }
      else { ++skipped_; return; }
      op.kind = OpKind::copy;
      ops_.push_back(op);
    } else if (event_.cat == "gpu_memset") {
      op.kind = OpKind::memset;
      op.src = op.dst = gpu(device);
      op.src_mem = op.dst_mem = MemKind::device;
      op.bytes = static_cast<std::uint64_t>(std::max(0.0, std::atof(arg("bytes").c_str())));
      ops_.push_back(op);
    } else if (event_.cat == "kernel" && starts_with(event_.name, "nccl")) {
      collective(op, device);
    }
  }

  void collective(Op& op, int device) {
    std::string cname = to_lower(arg("Collective name"));
    std::string lname = to_lower(event_.name);
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
    else { ++skipped_; return; }
    const std::string dtype = arg("dtype");
    const auto size = dtype_bytes(dtype);
    if (!size && !dtype.empty()) unknown_dtypes_.insert(dtype);
    const double nelems = std::atof(arg(use_out ? "Out msg nelems" : "In msg nelems").c_str());
    op.bytes = static_cast<std::uint64_t>(std::max(0.0, nelems) * size.value_or(1));
    op.src = op.dst = gpu(device);
    op.src_mem = op.dst_mem = MemKind::device;
    // Ranks of the group -> GPUs (one GPU per rank on one node).
    std::vector<std::uint16_t> members;
    std::string ranks = arg("Process Group Ranks");
    for (char& c : ranks) if (c == '[' || c == ']') c = ' ';
    for (std::string_view r : split(ranks, ',')) {
      r = trim(r);
      if (!r.empty()) members.push_back(gpu(std::atoi(std::string(r).c_str())));
    }
    if (members.empty()) {
      const int n = int_arg("Group size", 1);
      for (int i = 0; i < n; ++i) members.push_back(gpu(i));
    }
    op.group = trace_.add_group(members);
    const std::string pg = arg("Process Group Name");
    op.comm = trace_.comms.intern(pg.empty() ? "default_pg" : "pg:" + pg);
    ops_.push_back(op);
  }

  Trace& trace_;
  std::string name_;
  std::vector<std::string> path_ = {};
  std::string pending_key_;
  std::string array_text_;
  Event event_;
  bool saw_events_ = false;
  struct Device {
    int id = -1;
    std::string name;
  } device_;
  std::vector<Op> ops_;
  std::size_t skipped_ = 0;

 public:
  std::set<std::string> unknown_dtypes_;
  std::size_t skipped() const { return skipped_; }
};

}  // namespace

Trace parse_kineto(const std::string& text, const std::string& name) {
  Trace trace;
  trace.format = "kineto";
  trace.source_file = name;
  Handler handler(trace, name);
  json::sax_parse(text, &handler);
  handler.finish();
  if (handler.skipped() > 0)
    trace.warnings.push_back(fmt::format("{}: skipped {} copy or NCCL events of unrecognised kind", name, handler.skipped()));
  for (const std::string& d : handler.unknown_dtypes_)
    trace.warnings.push_back(fmt::format("{}: unknown dtype '{}' in NCCL events; counted 1 byte per element", name, d));
  return trace;
}

}  // namespace linkcast::workloads
