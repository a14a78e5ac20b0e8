#include "topology/import.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <pugixml.hpp>
#include <set>
#include <variant>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/strings.hpp"
#include "core/utf8.hpp"
#include "topology/schema.hpp"

namespace linkcast::topology {

namespace {

using schema::Section;

// The most NVLinks any NVIDIA GPU has (H100/H200/B200: 18). A GPU whose per-peer NV counts add
// up to more than this cannot be wired directly to all those peers: it sits on an NVSwitch.
constexpr int kMaxNvlinksPerGpu = 18;
// GPU, NIC and NUMA indices: a node has at most a few hundred GPUs (GB200 NVL72: 72).
constexpr long long kMaxIndex = 4095;
// An NCCL dump is tens of kilobytes and `topo -m` a few; 64 MiB is no input of these kinds.
constexpr std::size_t kMaxInputBytes = std::size_t{64} << 20;
// How the note on GPUs whose link width a VM hides begins (import_node drops it once --gpus-csv
// filled them).
constexpr std::string_view kHiddenWidthNote = "the dump gives link_width 0 (a VM hides it)";
// The bus id NCCL gives the NVSwitch a VM hides.
constexpr std::string_view kHiddenSwitch = "fffffff:ff:ff.0";

std::string read_input(const std::string& path, std::string_view what) {
  InputFile in(path, {.file = what});
  std::string text = in.read_all(kMaxInputBytes + 1);
  refuse_git_lfs_pointer(path, text, what);
  refuse_unread_compression(path, text, what);
  if (text.size() > kMaxInputBytes)
    throw InputError(fmt::format("{}: larger than {} MiB, which no {} is; is it the right file?", path,
                                 kMaxInputBytes >> 20, what));
  // UTF-16 (Windows PowerShell's `nvidia-smi topo -m > file`) read as text; InputFile has dropped
  // a UTF-8 byte-order mark.
  std::optional<std::string> utf8 = utf8_text(std::move(text));
  if (!utf8)
    throw InputError(fmt::format("{}: UTF-16 text that is not well formed (an odd length or an unpaired surrogate); "
                                 "save the {} again, as UTF-8",
                                 path, what));
  return std::move(*utf8);
}

std::string number_text(double v) {
  // A whole number prints without a fraction; the cast is defined only inside long long's range
  // (a dump's "speed" can be any number: 1e99 prints as such).
  if (std::isfinite(v) && std::fabs(v) < 9.0e18 && v == std::trunc(v)) return fmt::format("{}", static_cast<long long>(v));
  return fmt::format("{:.4g}", v);
}

/// A whole decimal number in [lo, hi], or nothing.
std::optional<long long> whole(std::string_view s, long long lo, long long hi) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  long long v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi) return std::nullopt;
  return v;
}

// --- the skeleton --------------------------------------------------------------------------------

/// A value an input told, as it is written, and where it came from (a comment beside it).
struct Known {
  std::string text;
  std::string from;
};
using Values = std::map<std::string, Known, std::less<>>;

struct Ep {
  std::string id, kind, model, host;
  Values values;  // endpoint keys (a NIC's bandwidth, a fabric's chips)
  Values memory;  // memory keys
};

struct Ln {
  std::string a, b, type;
  Values values;
  std::vector<std::string> notes;
};

struct Skeleton {
  std::vector<Ep> endpoints;
  std::vector<Ln> links;
  std::vector<std::string> notes;    // for the user: written as comments and returned
  std::vector<std::string> sources;  // the inputs, for the header

  Ep* find(std::string_view id) {
    const auto it = std::find_if(endpoints.begin(), endpoints.end(), [&](const Ep& e) { return e.id == id; });
    return it == endpoints.end() ? nullptr : &*it;
  }
  bool has(std::string_view id) const {
    return std::any_of(endpoints.begin(), endpoints.end(), [&](const Ep& e) { return e.id == id; });
  }
  Ep& add(Ep e) {
    if (Ep* existing = find(e.id)) return *existing;
    endpoints.push_back(std::move(e));
    return endpoints.back();
  }
  std::vector<const Ep*> of_kind(std::string_view kind) const {
    std::vector<const Ep*> out;
    for (const Ep& e : endpoints)
      if (e.kind == kind) out.push_back(&e);
    return out;
  }
};

/// Whether a CPU vendor names AMD's (or Hygon's) processors, whose sockets and NUMA nodes join by
/// Infinity Fabric: NCCL writes the CPUID string (AuthenticAMD, HygonGenuine), RCCL writes "AMD".
bool is_amd_cpu_vendor(std::string_view vendor) {
  const std::string v = to_lower(trim(vendor));
  return v == "authenticamd" || v == "amd" || v == "hygongenuine";
}

/// The note for GPUs (`off`) that show no NVLink where the others (`on`) reach the NVSwitch
/// fabric: imported over PCIe, as the input (`source`: "dump", "matrix") says. `verb` ("list",
/// "show") says what the input does; `cause` says why, "{}" its/their.
std::string off_fabric_note(const std::vector<std::string>& off, const std::vector<std::string>& on,
                            std::string_view verb, std::string_view cause, std::string_view source) {
  const bool one = off.size() == 1;
  return fmt::format("{} {}{} no NVLink where {} reach the NVSwitch fabric: {}; `nvidia-smi nvlink -s` shows them), so "
                     "{} talk{} over PCIe here as the {} says",
                     join(off, ", "), verb, one ? "s" : "", join(on, ", "),
                     fmt::format(fmt::runtime(cause), one ? "its" : "their"), one ? "it" : "they", one ? "s" : "",
                     source);
}

/// A CPU-to-CPU link of unknown values between every two of `cpus` (id, whether AMD's): Infinity
/// Fabric between AMD's, else `other` (UPI between Intel's; a Grace system's, whose CPUs are no
/// Intel's, `generic`).
void link_every_cpu_pair(Skeleton& sk, const std::vector<std::pair<std::string, bool>>& cpus, const std::string& note,
                         const std::string& other = "upi") {
  for (std::size_t i = 0; i < cpus.size(); ++i) {
    for (std::size_t j = i + 1; j < cpus.size(); ++j) {
      Ln l{cpus[i].first, cpus[j].first, cpus[i].second && cpus[j].second ? "infinity_fabric" : other, {}, {}};
      l.notes.push_back(note);
      sk.links.push_back(std::move(l));
    }
  }
}

EndpointKind kind_of(std::string_view kind) {
  static const std::vector<std::string> kinds = endpoint_kind_names();
  return static_cast<EndpointKind>(std::find(kinds.begin(), kinds.end(), kind) - kinds.begin());
}

const schema::Key& link_key(std::string_view type, std::string_view name) {
  return *schema::find(Section::link, name, *model::parse_link_type(type));
}

/// Keeps `value` for `key` when the schema accepts it (its floor, plausible range and allowed
/// values); otherwise the value stays TODO and a note says what the input said and why.
bool keep(Skeleton& sk, Values& values, const schema::Key& key, double value, std::string from, std::string_view what) {
  const std::string text = number_text(value);
  const auto checked = schema::check(key, text);
  if (const auto* problem = std::get_if<schema::Problem>(&checked)) {
    sk.notes.push_back(fmt::format("{} left TODO: {}{}", what, schema::loader_message(key, *problem, what, text),
                                   from.empty() ? "" : fmt::format(" ({})", from)));
    return false;
  }
  values[std::string(key.name)] = {text, std::move(from)};
  return true;
}

/// A PCIe link; generation and width kept where known (> 0) and valid.
void add_pcie(Skeleton& sk, const std::string& a, const std::string& b, int gen, int lanes, std::string note = {}) {
  Ln l{a, b, "pcie", {}, {}};
  const std::string what = fmt::format("link {}-{}", a, b);
  if (gen > 0) (void)keep(sk, l.values, link_key("pcie", "gen"), gen, "", what + " gen");
  if (lanes > 0) (void)keep(sk, l.values, link_key("pcie", "lanes"), lanes, "", what + " lanes");
  if (!note.empty()) l.notes.push_back(std::move(note));
  sk.links.push_back(std::move(l));
}

/// The PCIe link that attaches a GPU or NIC to the tree (the one naming it).
Ln* device_link(Skeleton& sk, std::string_view id) {
  for (Ln& l : sk.links)
    if (l.type == "pcie" && (l.a == id || l.b == id)) return &l;
  return nullptr;
}

/// PCIe 6.0 signals at 64 GT/s (PCI-SIG, PCI Express Base Specification 6.0); a link_speed past
/// that (with room for rounding) is no PCIe rate.
constexpr double kMaxPcieGts = 80;

int pcie_gen_from_speed(std::string_view speed) {
  // NCCL writes sysfs' link speed, "16.0 GT/s PCIe" (Gen4), "32.0 GT/s PCIe" or "16 GT/s".
  double gts = 0;
  const std::string_view s = trim(speed);
  (void)std::from_chars(s.data(), s.data() + s.size(), gts);
  if (gts > kMaxPcieGts) return 0;  // no PCIe rate: left to fill in (noted by the reader)
  if (gts >= 60) return 6;
  if (gts >= 30) return 5;
  if (gts >= 15) return 4;
  if (gts >= 7.5) return 3;
  if (gts >= 4.5) return 2;
  if (gts > 0) return 1;
  return 0;
}

/// GA102 (compute capability 8.6: RTX 3090, RTX A6000, A40) runs NVLink 3 on narrow links: four
/// x4 links of 14.0625 GB/s per direction, 56.25 GB/s in all (NVIDIA Ampere GA102 GPU
/// architecture whitepaper), not the 25 GB/s links of an A100.
constexpr int kGa102Sm = 86;
constexpr double kGa102NvlinkGbps = 14.0625;

/// NCCL writes an NVIDIA GPU's compute capability as major x 10 + minor (`sm="90"` for an H100,
/// 100 and 103 for Blackwell B200/B300, 120 and 121 for RTX Blackwell and GB10): above 199 it is
/// none (RCCL writes its own numbers, 304 for an MI300X, beside a `gcn` name).
constexpr int kMaxNvidiaSm = 199;

int nvlink_version_from_sm(int sm) {
  if (sm >= 100) return 5;
  if (sm >= 90) return 4;
  if (sm >= 80) return 3;
  if (sm >= 70) return 2;
  if (sm >= 60) return 1;
  return 0;
}

/// The NVLink generation of an NVIDIA GPU named as nvidia-smi names it ("NVIDIA H100 80GB HBM3",
/// "Tesla V100-SXM2-16GB"), from the architecture whitepapers model/link.hpp cites: P100 1, V100
/// 2, A100/A800 3, H100/H200/H800/GH200 4, B100/B200/B300/GB200 5; 0 when the name says none.
int nvlink_version_from_name(std::string_view name) {
  const std::string n = to_lower(name);
  auto has = [&](std::string_view s) { return n.find(s) != std::string::npos; };
  if (has("b100") || has("b200") || has("b300") || has("gb200") || has("gb300")) return 5;
  if (has("h100") || has("h200") || has("h800") || has("gh200") || has("h20")) return 4;
  if (has("a100") || has("a800")) return 3;
  if (has("v100")) return 2;
  if (has("p100")) return 1;
  return 0;
}

// --- NCCL topology XML ---------------------------------------------------------------------------

bool gpu_class(std::string_view cls) {
  return cls.starts_with("0x0300") || cls.starts_with("0x0302") || cls.starts_with("0x1200");
}
bool nic_class(std::string_view cls) { return cls.starts_with("0x0200") || cls.starts_with("0x0207"); }
bool bridge_class(std::string_view cls) { return cls.starts_with("0x0604"); }
constexpr std::string_view kNvidia = "0x10de";
constexpr std::string_view kAmd = "0x1002";

/// Whether the GPU of PCI device `pci` (whose <gpu> element is `gpu`, where it has one) is AMD's: by
/// the device's vendor, a `gcn` name, or a processing-accelerator class (0x1200, as RCCL lists them).
bool is_amd_gpu(const pugi::xml_node& pci, const pugi::xml_node& gpu, bool in_pci) {
  const std::string cls = in_pci ? to_lower(pci.attribute("class").as_string()) : "";
  return to_lower(pci.attribute("vendor").as_string()) == kAmd || (gpu && !std::string_view(gpu.attribute("gcn").as_string()).empty()) ||
         cls.starts_with("0x1200");
}

struct XmlGpu {
  std::string id, busid, cpu;
  int numa = -1;  // the <cpu> element's numaid; -1 unknown (VMs)
  int sm = 0;
  bool amd = false;
  pugi::xml_node gpu;  // the <gpu> element; empty for a GPU listed only as a PCI device
};

struct XmlImport {
  std::vector<XmlGpu> gpus;
  bool gpu_links = false;  // NVLink or xGMI between GPUs or to a fabric
};

class XmlReader {
 public:
  XmlReader(const std::string& path, Skeleton& sk) : path_(path), sk_(sk) {}

  XmlImport read() {
    text_ = read_input(path_, "NCCL topology dump");
    const pugi::xml_parse_result ok = doc_.load_buffer(text_.data(), text_.size());
    if (!ok) {
      // pugixml reports a document cut short (a dump pasted in part, a copy interrupted) as an
      // unclosed tag at the end of the text: say that it is truncated.
      const bool at_end = ok.offset >= 0 && static_cast<std::size_t>(ok.offset) + 2 >= trim(text_).size() &&
                          (ok.status == pugi::status_end_element_mismatch || ok.status == pugi::status_bad_end_element ||
                           ok.status == pugi::status_unrecognized_tag || ok.status == pugi::status_bad_start_element);
      if (at_end) {
        throw InputError(fmt::format("{}:{}: the dump ends before its elements close (</system> missing): it is "
                                     "truncated; give the whole file NCCL_TOPO_DUMP_FILE wrote",
                                     path_, line_at(text_.find_last_not_of(" \t\r\n"))));
      }
      throw InputError(fmt::format("{}:{}: not a readable NCCL topology XML ({}); produce it with "
                                   "NCCL_TOPO_DUMP_FILE=<file> during any NCCL run",
                                   path_, line_at(static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, ok.offset))),
                                   ok.description()));
    }
    if (doc_.child("graphs")) {
      throw InputError(fmt::format("{}: an NCCL graph file (<graphs>, written by NCCL_GRAPH_DUMP_FILE), not a "
                                   "topology; dump the topology with NCCL_TOPO_DUMP_FILE=<file> instead",
                                   path_));
    }
    const pugi::xml_node system = doc_.child("system");
    if (!system && doc_.child("topology"))
      throw InputError(fmt::format("{}: an hwloc topology (<topology>, as `lstopo --of xml` writes it), not an NCCL "
                                   "topology dump; dump the node with NCCL_TOPO_DUMP_FILE=<file> during any NCCL run",
                                   path_));
    if (!system) throw InputError(fmt::format("{}: no <system> element; this is not an NCCL topology dump", path_));
    // XML has one root; pugixml reads on past it, so two dumps joined (`cat a.xml b.xml`) would
    // give the first one's node unsaid.
    pugi::xml_node first;
    for (pugi::xml_node root = doc_.first_child(); root; root = root.next_sibling()) {
      if (root.type() != pugi::node_element) continue;
      if (!first) {
        first = root;
        continue;
      }
      throw InputError(fmt::format("{}:{}: a second <{}> after the <{}> of line {}: two files joined? An NCCL "
                                   "dump is one <system>; give one node's NCCL_TOPO_DUMP_FILE",
                                   path_, line_of(root), root.name(), first.name(), line_of(first)));
    }
    sk_.sources.push_back(fmt::format("NCCL topology dump {}", path_));
    prepass(system);
    read_cpus(system);
    if (cpus_.empty()) throw InputError(fmt::format("{}: no <cpu> element under <system>", path_));
    walk(system);
    if (result_.gpus.empty()) {
      throw InputError(fmt::format(
          "{}: no GPU in the dump: no <gpu> element and no <pci> device of a GPU class (0x0300xx, 0x0302xx, "
          "0x1200xx) from NVIDIA or AMD{}; there is nothing to import. Dump the topology on the GPU machine "
          "with NCCL_TOPO_DUMP_FILE=<file> during an NCCL run",
          path_, classless_ ? " (its <pci> elements carry no class attribute)" : ""));
    }
    refuse_unread_gpus(system);
    gpu_links();
    cpu_links();
    note_odd_values(system);
    if (!emulated_.empty()) {
      sk_.notes.push_back(fmt::format(
          "{} bridge{} {} while the devices below run faster: a VM's emulated bridge{}, left out (the devices below "
          "are linked to the bridge's parent directly): {}",
          emulated_.size(), emulated_.size() == 1 ? " reports" : "s report", "a link of 2.5 GT/s x1 or less",
          emulated_.size() == 1 ? "" : "s", join(emulated_, ", ")));
    }
    if (!unknown_width_.empty()) {
      sk_.notes.push_back(fmt::format("{} for {}: their lanes stay TODO; "
                                      "--gpus-csv FILE (nvidia-smi --query-gpu) fills them",
                                      kHiddenWidthNote, join(unknown_width_, ", ")));
    }
    if (!bad_width_.empty()) {
      sk_.notes.push_back(fmt::format("the dump gives a link_width that is no PCIe width (1 to 64 lanes) for {}: their "
                                      "lanes stay TODO",
                                      join(bad_width_, ", ")));
    }
    if (!socket_nics_.empty()) {
      sk_.notes.push_back(fmt::format(
          "NCCL lists {} socket interface{} on the CPUs ({}): no PCI device, so no link is written for them",
          socket_nics_.size(), socket_nics_.size() == 1 ? "" : "s", join(socket_nics_, ", ")));
    }
    for (XmlGpu& g : result_.gpus) g.gpu = {};  // the document goes with this reader
    return std::move(result_);
  }

 private:
  std::size_t line_at(std::size_t offset) const {
    offset = std::min(offset, text_.size());
    return 1 + static_cast<std::size_t>(std::count(text_.begin(), text_.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
  }
  std::size_t line_of(const pugi::xml_node& n) const {
    const std::ptrdiff_t off = n.offset_debug();
    return off < 0 ? 0 : line_at(static_cast<std::size_t>(off));
  }
  std::string where(const pugi::xml_node& n) const {
    const std::ptrdiff_t off = n.offset_debug();
    return off < 0 ? path_ : fmt::format("{}:{}", path_, line_at(static_cast<std::size_t>(off)));
  }

  /// A whole-number attribute in [lo, hi]; `fallback` when absent or empty, an error otherwise.
  long long index_attr(const pugi::xml_node& n, const char* attr, long long lo, long long hi, long long fallback,
                       std::string_view means) const {
    const pugi::xml_attribute a = n.attribute(attr);
    const std::string_view text = a.as_string();
    if (!a || trim(text).empty()) return fallback;
    const auto v = whole(text, lo, hi);
    if (!v) {
      throw InputError(fmt::format("{}: <{} {}=\"{}\">: {} must be a whole number from {} to {}", where(n), n.name(),
                                   attr, text, means, lo, hi));
    }
    return *v;
  }

  /// PCI nesting depth (refused past kMaxPciDepth before anything else reads the tree), the largest
  /// GPU and NIC indices (GPUs and NICs listed only as PCI devices are numbered after them).
  void prepass(const pugi::xml_node& system) {
    std::vector<std::pair<pugi::xml_node, int>> stack;
    for (pugi::xml_node c = system.last_child(); c; c = c.previous_sibling())
      if (c.type() == pugi::node_element) stack.emplace_back(c, 0);
    while (!stack.empty()) {
      const auto [n, outer] = stack.back();
      stack.pop_back();
      const std::string_view name = n.name();
      const int depth = outer + (name == "pci" ? 1 : 0);
      if (depth > kMaxPciDepth) {
        throw InputError(fmt::format("{}: <pci> elements nested {} deep; no machine has PCIe trees deeper than a "
                                     "few switch levels (this reader stops at {}): the file is not a topology dump",
                                     where(n), depth, kMaxPciDepth));
      }
      if (name == "gpu") max_gpu_ = std::max(max_gpu_, index_attr(n, "dev", 0, kMaxIndex, -1, "a GPU's dev"));
      if (name == "net") max_net_ = std::max(max_net_, index_attr(n, "dev", 0, kMaxIndex, -1, "a NIC's dev"));
      if (name == "pci" && !n.attribute("class")) classless_ = true;
      for (pugi::xml_node c = n.last_child(); c; c = c.previous_sibling())
        if (c.type() == pugi::node_element) stack.emplace_back(c, depth);
    }
  }

  void read_cpus(const pugi::xml_node& system) {
    refuse_several_hosts(system);
    std::set<long long> used;
    std::vector<std::pair<pugi::xml_node, long long>> numas;
    for (const pugi::xml_node& cpu : system.children("cpu")) {
      const long long numa = index_attr(cpu, "numaid", -1, kMaxIndex, -1, "a CPU's numaid");
      numas.emplace_back(cpu, numa);
      if (numa >= 0) used.insert(numa);
    }
    std::set<long long> taken;
    for (const auto& [cpu, numa] : numas) {
      long long index = numa;
      if (numa < 0 || taken.count(numa)) {  // a VM's -1, or a repeated id: the lowest free number
        index = 0;
        while (taken.count(index) || (index != numa && used.count(index))) ++index;
        if (numa < 0)
          sk_.notes.push_back(fmt::format("{}: <cpu numaid=\"-1\"> (no NUMA node: a VM hides them, or the machine "
                                          "has one) is called cpu{}",
                                          where(cpu), index));
        else
          sk_.notes.push_back(fmt::format("{}: a second <cpu numaid=\"{}\"> (each NUMA node is one <cpu> in NCCL's "
                                          "dump): called cpu{}; check which socket its devices are on",
                                          where(cpu), numa, index));
      }
      taken.insert(index);
      const std::string id = fmt::format("cpu{}", index);
      Ep e{id, "cpu", "", "", {}, {}};
      // "x86_64 GenuineIntel family 6 model 143", each part only where the dump gives it (a GB10's
      // <cpu> gives its arch alone).
      std::vector<std::string> parts;
      for (const auto& [label, attr] : {std::pair{"", "arch"}, {"", "vendor"}, {"family ", "familyid"}, {"model ", "modelid"}})
        if (const std::string_view v = trim(cpu.attribute(attr).as_string()); !v.empty())
          parts.push_back(fmt::format("{}{}", label, v));
      e.model = join(parts, " ");
      sk_.add(std::move(e));
      cpus_.push_back({cpu, id, numa < 0 ? -1 : static_cast<int>(numa), cpu.attribute("vendor").as_string()});
    }
  }

  struct Cpu {
    pugi::xml_node node;
    std::string id;
    int numa;
    std::string vendor;
  };

  /// Walks every CPU's tree in document order without recursion. A frame is an element, the
  /// endpoint it hangs from, the <pci> element it sits in (none directly under a <cpu>) and its CPU.
  struct Frame {
    pugi::xml_node node;
    std::string parent;
    pugi::xml_node enclosing;
    const Cpu* cpu;
  };

  static void push_children(std::vector<Frame>& stack, const pugi::xml_node& n, const std::string& parent,
                            const pugi::xml_node& enclosing, const Cpu* cpu) {
    for (pugi::xml_node c = n.last_child(); c; c = c.previous_sibling())
      if (c.type() == pugi::node_element) stack.push_back({c, parent, enclosing, cpu});
  }

  static int lanes_of(const pugi::xml_node& pci) {
    return static_cast<int>(whole(pci.attribute("link_width").as_string(), 0, 64).value_or(0));
  }
  static int gen_of(const pugi::xml_node& pci) { return pcie_gen_from_speed(pci.attribute("link_speed").as_string()); }

  /// Whether a GPU or NIC sits below `pci`.
  static bool has_device_below(const pugi::xml_node& pci) {
    return static_cast<bool>(pci.find_node([](const pugi::xml_node& n) {
      const std::string_view name = n.name();
      if (name == "gpu" || name == "nic") return true;
      if (name != "pci") return false;
      const std::string cls = to_lower(n.attribute("class").as_string());
      return gpu_class(cls) || nic_class(cls);
    }));
  }

  /// A VM's emulated bridge: it reports 2.5 GT/s x1 (or less) while a device below it runs faster.
  static bool emulated_bridge(const pugi::xml_node& pci) {
    const int gen = gen_of(pci), lanes = lanes_of(pci);
    if (gen > 1 || lanes > 1) return false;
    return static_cast<bool>(pci.find_node([](const pugi::xml_node& n) {
      return std::string_view(n.name()) == "pci" && (gen_of(n) > 1 || lanes_of(n) > 1);
    }));
  }

  void walk(const pugi::xml_node& system) {
    (void)system;
    std::vector<Frame> stack;
    for (auto it = cpus_.rbegin(); it != cpus_.rend(); ++it) push_children(stack, it->node, it->id, {}, &*it);
    while (!stack.empty()) {
      const Frame f = stack.back();
      stack.pop_back();
      const std::string_view tag = f.node.name();
      if (tag == "pci") pci(f, stack);
      else if (tag == "nic") nic(f);
      else if (tag == "gpu") add_gpu(f.node.parent(), f.node, f);  // a <gpu> outside a <pci>: link unknown
    }
  }

  void pci(const Frame& f, std::vector<Frame>& stack) {
    const pugi::xml_node& p = f.node;
    const std::string cls = to_lower(p.attribute("class").as_string());
    const std::string vendor = to_lower(p.attribute("vendor").as_string());
    if (const pugi::xml_node gpu = p.child("gpu")) {
      if (const pugi::xml_node second = gpu.next_sibling("gpu")) {
        // NCCL 2.29's dump of a GPU split in two by MLOPart (CUDA 13.1+): one PCI device, two
        // <gpu> (mlopart="0", "1") sharing its NVLinks and C2C link. Read as one, the second was lost.
        throw InputError(fmt::format("{}:{}: PCI device {} holds a second GPU (dev {}, rank {}{}); linkcast reads one "
                                     "GPU per PCI device: a GPU split by MLOPart is not supported yet, dump the node "
                                     "with MLOPart off",
                                     path_, line_of(second), p.attribute("busid").as_string(),
                                     second.attribute("dev").as_string(), second.attribute("rank").as_string(),
                                     second.attribute("mlopart") ? fmt::format(", mlopart {}", second.attribute("mlopart").as_string()) : ""));
      }
      add_gpu(p, gpu, f);
    } else if (gpu_class(cls)) {
      if (vendor.empty() || vendor == kNvidia || vendor == kAmd) {
        add_gpu(p, {}, f);
      } else {
        sk_.notes.push_back(fmt::format("{}: PCI display device {} of vendor {} left out: not an NVIDIA or AMD GPU "
                                        "(a server's BMC VGA controller?)",
                                        where(p), p.attribute("busid").as_string(), vendor));
      }
    } else if (bridge_class(cls)) {
      if (!has_device_below(p)) return;
      if (emulated_bridge(p)) {
        emulated_.push_back(fmt::format("{} ({} x{}, line {})", p.attribute("busid").as_string(),
                                        trim(p.attribute("link_speed").as_string()), lanes_of(p), line_of(p)));
        push_children(stack, p, f.parent, p, f.cpu);
        return;
      }
      const std::string id = fmt::format("pcisw{}", switches_++);
      sk_.add({id, "pcie_switch", fmt::format("PCIe switch at {}", p.attribute("busid").as_string()), "", {}, {}});
      add_pcie(sk_, f.parent, id, gen_of(p), lanes_of(p));
      push_children(stack, p, id, p, f.cpu);
    } else if (nic_class(cls) && !p.child("nic")) {
      const std::string id = fmt::format("nic{}", ++max_net_);
      sk_.add({id, "nic",
               fmt::format("PCI {} device at {} (no <nic> element)", cls.starts_with("0x0207") ? "InfiniBand" : "Ethernet",
                           p.attribute("busid").as_string()),
               "", {}, {}});
      add_pcie(sk_, f.parent, id, gen_of(p), lanes_of(p));
    } else {
      // A NIC with its <nic>, a host bridge, or anything else: what is below hangs from our parent.
      push_children(stack, p, f.parent, p, f.cpu);
    }
  }

  void nic(const Frame& f) {
    const bool adapter = f.enclosing && nic_class(to_lower(f.enclosing.attribute("class").as_string()));
    const std::vector<pugi::xml_node> ports(f.node.children("net").begin(), f.node.children("net").end());
    const std::string device = adapter ? pci_device_of(f) : std::string();
    if (!device.empty() && !ports.empty() && join_sibling_function(f, device, ports)) return;
    const std::size_t before = sk_.endpoints.size();
    nic_ports(f, adapter, ports);
    if (!device.empty() && sk_.endpoints.size() > before) nic_of_device_.emplace(device, sk_.endpoints[before].id);
  }

  /// The PCI device of a NIC function: its parent and its bus id up to the function
  /// ("0000:0c:00" of "0000:0c:00.1"); empty where the bus id has no function.
  static std::string pci_device_of(const Frame& f) {
    const std::string busid = f.enclosing.attribute("busid").as_string();
    const std::size_t dot = busid.rfind('.');
    return dot == std::string::npos ? std::string() : f.parent + "|" + to_lower(busid.substr(0, dot));
  }

  void nic_ports(const Frame& f, bool adapter, const std::vector<pugi::xml_node>& ports) {
    // The ports of one adapter (a dual-port ConnectX: one <pci> function of a network class, a
    // <net> per port) are one NIC over the adapter's one PCIe link, their rates summed, as NCCL's
    // one NIC node with its ports below it (nccl#2397's 2 x A100 dump had its one Gen4 x8 link
    // twice, port to port through the CPU). One endpoint, not a switch with a port under each:
    // a switch would put a GPU beside the adapter a hop further (PXB where topo -m says PIX).
    if (adapter && ports.size() > 1) {
      const auto [names, mbps] = port_names_and_speed(ports);
      const std::optional<std::string> id = nic_id(ports.front(), join(names, " + "));
      if (!id) return;
      add_nic(*id,
              fmt::format("{}: {} ports of one adapter at {}, {}", join(names, " + "), ports.size(),
                          f.enclosing.attribute("busid").as_string(),
                          mbps > 0 ? fmt::format("{:g} Gb/s in all", mbps / 1000) : std::string("the dump gives no speed")),
              mbps, fmt::format("NCCL: {} ports, {:g} Gb/s in all", ports.size(), mbps / 1000), f.parent,
              gen_of(f.enclosing), lanes_of(f.enclosing));
      return;
    }
    for (const pugi::xml_node& net : f.node.children("net")) {
      const std::string name = net.attribute("name").as_string();
      if (!f.enclosing) {  // directly under a <cpu>: a socket interface (eth0 of a VM, docker or veth bridges)
        if (std::find(socket_nics_.begin(), socket_nics_.end(), name) == socket_nics_.end()) socket_nics_.push_back(name);
        continue;
      }
      const std::optional<std::string> found = nic_id(net, name);
      if (!found) continue;
      const std::string& id = *found;
      const double mbps = net.attribute("speed").as_double();
      // The link is the enclosing device's own when that is the NIC (or a host bridge NCCL put it
      // under); under a switch port it is unknown.
      const bool own = !bridge_class(to_lower(f.enclosing.attribute("class").as_string()));
      const std::string model = mbps > 0 ? fmt::format("{} {:g} Gb/s", name, mbps / 1000)
                                         : fmt::format("{} (the dump gives no speed)", name);
      add_nic(id, model, mbps, fmt::format("NCCL: {:g} Gb/s", mbps / 1000), f.parent,
              own ? gen_of(f.enclosing) : 0, own ? lanes_of(f.enclosing) : 0);
    }
  }

  /// The interface names of a NIC's ports and their speeds added (Mb/s), each port's dev counted
  /// among the NICs' numbers.
  std::pair<std::vector<std::string>, double> port_names_and_speed(const std::vector<pugi::xml_node>& ports) {
    std::vector<std::string> names;
    double mbps = 0;
    for (const pugi::xml_node& net : ports) {
      names.emplace_back(net.attribute("name").as_string());
      mbps += net.attribute("speed").as_double();
      max_net_ = std::max(max_net_, index_attr(net, "dev", 0, kMaxIndex, -1, "a NIC's dev"));
    }
    return {names, mbps};
  }

  /// Functions of one PCI device (bus ids that differ only after the '.', a dual-port card dumped
  /// as two <pci> functions) share the device's one PCIe link, as NCCL merges them (busId &
  /// ~0xf, "merge multi-port NICs into one PCI device", src/graph/topo.cc): the ports of a NIC
  /// function whose device already gave a NIC under the same parent join that NIC, their rates
  /// added, with a note (robustness hunt 38: a dual-function ConnectX-6 had two Gen4 x16 links,
  /// twice the card's one slot). Returns whether they joined (`device`: pci_device_of).
  bool join_sibling_function(const Frame& f, const std::string& device, const std::vector<pugi::xml_node>& ports) {
    const std::string busid = f.enclosing.attribute("busid").as_string();
    const auto first = nic_of_device_.find(device);
    if (first == nic_of_device_.end()) return false;
    Ep* nic = sk_.find(first->second);
    if (!nic) return false;
    const auto [names, mbps] = port_names_and_speed(ports);
    for (const std::string& name : names) nic_names_[first->second] += " + " + name;
    nic->model += fmt::format(" + {} (function {} of the same PCI device)", join(names, " + "), busid);
    // The rates add up; a function without one leaves the other's, and a sum the schema refuses
    // leaves the NIC's rate to fill in (keep's note says why).
    if (mbps > 0) {
      const auto bw = nic->values.find("bandwidth_gbps");
      const std::string from = (bw == nic->values.end() ? std::string("NCCL") : bw->second.from) +
                               fmt::format(" + {:g} Gb/s of function {}", mbps / 1000, busid);
      double& total_mbps = nic_mbps_[first->second];
      total_mbps += mbps;
      if (!keep(sk_, nic->values, *schema::find(Section::endpoint, "bandwidth_gbps", EndpointKind::nic),
                total_mbps / 8000, from, fmt::format("{}.bandwidth_gbps", first->second)))
        nic->values.erase("bandwidth_gbps");
    }
    sk_.notes.push_back(fmt::format("{}: {} at {} is another function of the PCI device of {}: read as ports of that "
                                    "NIC, on its one PCIe link (as NCCL merges them)",
                                    where(f.enclosing), join(names, " + "), busid, first->second));
    return true;
  }

  /// The id of the NIC whose first <net> is `net` and whose interfaces are called `name`: nic<dev>,
  /// nothing where that NIC is already read (the same interface listed again, under each CPU),
  /// or the next free number where another NIC took nic<dev>: each network plugin numbers its
  /// own devices from 0 (an RCCL dump's Ethernet port and InfiniBand HCA both dev 0), with a note.
  std::optional<std::string> nic_id(const pugi::xml_node& net, const std::string& name) {
    long long dev = index_attr(net, "dev", 0, kMaxIndex, -1, "a NIC's dev");
    if (dev < 0) dev = ++max_net_;
    std::string id = fmt::format("nic{}", dev);
    if (const Ep* taken = sk_.find(id)) {
      const auto named = nic_names_.find(id);
      if (named != nic_names_.end() && named->second == name) return std::nullopt;
      const std::string first = named != nic_names_.end() ? named->second : taken->model;
      id = fmt::format("nic{}", ++max_net_);
      sk_.notes.push_back(fmt::format("{}: NICs '{}' and '{}' both have dev {} (each network plugin numbers its own "
                                      "devices); '{}' read as {}",
                                      where(net), first, name, dev, name, id));
    }
    nic_names_[id] = name;
    return id;
  }

  /// A NIC endpoint `id` at `mbps` (NCCL's speed, Mb/s; unknown at 0, `rate_source` says where it
  /// came from) on a PCIe link of `gen` and `lanes` (0: unknown, left to fill in) to `parent`.
  void add_nic(const std::string& id, const std::string& model, double mbps, const std::string& rate_source,
               const std::string& parent, int gen, int lanes) {
    Ep& e = sk_.add({id, "nic", model, "", {}, {}});
    nic_mbps_[id] = std::max(mbps, 0.0);
    if (mbps > 0) {
      (void)keep(sk_, e.values, *schema::find(Section::endpoint, "bandwidth_gbps", EndpointKind::nic), mbps / 8000,
                 rate_source, fmt::format("{}.bandwidth_gbps", id));
    }
    add_pcie(sk_, parent, id, gen, lanes,
             gen > 0 && lanes > 0 ? "" : "gen/lanes: TODO (NCCL did not report the NIC's link)");
  }

  void add_gpu(const pugi::xml_node& p, const pugi::xml_node& gpu, const Frame& f) {
    XmlGpu g;
    long long dev = gpu ? index_attr(gpu, "dev", 0, kMaxIndex, -1, "a GPU's dev") : -1;
    if (dev < 0) dev = ++max_gpu_;
    g.id = fmt::format("gpu{}", dev);
    if (sk_.has(g.id)) {
      throw InputError(fmt::format("{}: a second GPU with dev {}; every <gpu> of a dump has its own dev",
                                   where(gpu ? gpu : p), dev));
    }
    const bool in_pci = std::string_view(p.name()) == "pci";
    g.busid = in_pci ? to_lower(p.attribute("busid").as_string()) : "";
    for (const XmlGpu& other : result_.gpus)
      if (!g.busid.empty() && other.busid == g.busid)
        throw InputError(fmt::format("{}: {} at PCI {}, where {} is already{}: two GPUs at one PCI address; "
                                     "the dump was edited or joined from two machines, dump the node again",
                                     where(gpu ? gpu : p), g.id, g.busid, other.id,
                                     other.gpu ? fmt::format(" (line {})", line_of(other.gpu)) : ""));
    g.cpu = f.cpu->id;
    g.numa = f.cpu->numa;
    g.gpu = gpu;
    const std::string cls = in_pci ? to_lower(p.attribute("class").as_string()) : "";
    const std::string gcn = gpu ? gpu.attribute("gcn").as_string() : "";
    g.amd = is_amd_gpu(p, gpu, in_pci);
    g.sm = gpu ? static_cast<int>(whole(gpu.attribute("sm").as_string(), 0, 100000).value_or(0)) : 0;
    if (!g.amd && g.sm > kMaxNvidiaSm) g.sm = 0;  // no compute capability: noted by note_odd_values
    std::string model;
    if (!gpu) {
      model = fmt::format("GPU at {} (PCI class {}{}; listed without a <gpu> element)", g.busid, cls,
                          p.attribute("device") ? fmt::format(", device {}", p.attribute("device").as_string()) : "");
      bare_gpus_.push_back(g.id);
    } else if (g.amd) {
      model = fmt::format("{} GPU at {}", gcn.empty() ? "AMD" : gcn, g.busid);
    } else {
      const std::string_view sm = trim(gpu.attribute("sm").as_string());
      model = g.sm > 0     ? fmt::format("sm_{} GPU at {}", g.sm, g.busid)
              : sm.empty() ? fmt::format("GPU at {} (the dump gives no sm)", g.busid)
                           : fmt::format("GPU at {} (sm '{}': no compute capability)", g.busid, sm);
    }
    sk_.add({g.id, "gpu", model, "", {}, {}});
    if (in_pci && lanes_of(p) == 0) {
      const std::string width(trim(p.attribute("link_width").as_string()));
      if (width.empty() || width == "0") unknown_width_.push_back(g.id);
      else bad_width_.push_back(fmt::format("{} ('{}', line {})", g.id, width, line_of(p)));
    }
    if (in_pci) add_pcie(sk_, f.parent, g.id, gen_of(p), lanes_of(p));
    else add_pcie(sk_, f.parent, g.id, 0, 0, "gen/lanes: TODO (the <gpu> element is not inside a <pci>)");
    result_.gpus.push_back(std::move(g));
  }

  /// NCCL fuses the dumps of every host of a multi-node NVLink domain (GB200/GB300 racks) into
  /// one, each <cpu> with its host's host_hash; their GPUs repeat each other's dev and bus ids.
  void refuse_several_hosts(const pugi::xml_node& system) const {
    std::vector<std::string> hosts;
    for (const pugi::xml_node& cpu : system.children("cpu")) {
      const std::string hash = cpu.attribute("host_hash").as_string();
      if (!hash.empty() && std::find(hosts.begin(), hosts.end(), hash) == hosts.end()) hosts.push_back(hash);
    }
    if (hosts.size() > 1)
      throw InputError(fmt::format("{}: the dump covers {} hosts (host_hash {}: a multi-node NVLink domain, as NCCL "
                                   "writes for a rack's nodes together); linkcast reads one node: dump the topology "
                                   "on one host with NCCL_TOPO_DUMP_FILE=<file> and NCCL_MNNVL_ENABLE=0",
                                   path_, hosts.size(), join(hosts, ", ")));
  }

  /// A <gpu> that the walk from the <cpu> elements under <system> did not reach (below a <cpu>
  /// inside a <cpu>, or an element NCCL does not write) would be dropped unsaid: refused.
  void refuse_unread_gpus(const pugi::xml_node& system) const {
    std::set<const void*> read;
    for (const XmlGpu& g : result_.gpus)
      if (g.gpu) read.insert(g.gpu.internal_object());
    for (const pugi::xpath_node& n : system.select_nodes(".//gpu")) {
      const pugi::xml_node gpu = n.node();
      if (read.count(gpu.internal_object()) != 0) continue;
      pugi::xml_node holder = gpu.parent();
      while (std::string_view(holder.name()) == "pci") holder = holder.parent();
      const std::string place =
          std::string_view(holder.name()) == "cpu"
              ? fmt::format("a <cpu> (line {}) inside <{}> (line {})", line_of(holder), holder.parent().name(),
                            line_of(holder.parent()))
              : fmt::format("<{}> (line {}), an element NCCL does not write", holder.name(), line_of(holder));
      throw InputError(fmt::format("{}: a <gpu> (dev {}) below {}: an NCCL dump's GPUs sit in the <pci> tree of a "
                                   "<cpu> under <system>, and this one would be dropped; the dump was edited, dump the "
                                   "node again",
                                   where(gpu), gpu.attribute("dev").as_string(), place));
    }
  }

  /// Notes for values no dump of a real machine holds: a PCIe link_speed past PCIe 6.0's 64 GT/s
  /// (its generation stays TODO) and a GPU's sm that is no compute capability (its NVLink
  /// generation is unknown).
  void note_odd_values(const pugi::xml_node& system) {
    std::vector<std::string> speeds, sms, nic_speeds;
    for (const pugi::xpath_node& n : system.select_nodes(".//pci[@link_speed]")) {
      // Empty where sysfs knew no speed (real dumps have it); a number that is no rate (negative,
      // nan, past PCIe 6.0, or no number at all) is odd.
      const std::string_view speed = trim(n.node().attribute("link_speed").as_string());
      if (speed.empty()) continue;
      double gts = 0;
      const auto [end, ec] = std::from_chars(speed.data(), speed.data() + speed.size(), gts);
      if (ec != std::errc() || !(gts > 0 && gts <= kMaxPcieGts))
        speeds.push_back(fmt::format("'{}' (line {})", speed, line_of(n.node())));
    }
    for (const pugi::xpath_node& n : system.select_nodes(".//net[@speed]")) {
      const std::string_view speed = trim(n.node().attribute("speed").as_string());
      double mbps = 0;
      const auto [end, ec] = std::from_chars(speed.data(), speed.data() + speed.size(), mbps);
      if (!speed.empty() && (ec != std::errc() || end != speed.data() + speed.size() || !(mbps > 0) || !std::isfinite(mbps)))
        nic_speeds.push_back(fmt::format("'{}' (line {})", speed, line_of(n.node())));
    }
    for (const pugi::xpath_node& n : system.select_nodes(".//gpu[@sm]")) {
      const std::string_view sm = trim(n.node().attribute("sm").as_string());
      const bool amd = is_amd_gpu(n.node().parent(), n.node(), n.node().parent().name() == std::string_view("pci"));
      if (!whole(sm, 0, amd ? 100000 : kMaxNvidiaSm)) sms.push_back(fmt::format("'{}' (line {})", sm, line_of(n.node())));
    }
    if (!speeds.empty())
      sk_.notes.push_back(fmt::format("the dump gives a link_speed that is no PCIe rate (up to 64 GT/s) at {}: the "
                                      "generation of those links stays TODO",
                                      join(speeds, ", ")));
    if (!nic_speeds.empty())
      sk_.notes.push_back(fmt::format("the dump gives a NIC speed that is no rate (Mb/s above 0) at {}: those NICs' "
                                      "bandwidth stays TODO",
                                      join(nic_speeds, ", ")));
    if (!sms.empty())
      sk_.notes.push_back(fmt::format("the dump gives an sm that is no compute capability at {}: those GPUs' model and "
                                      "NVLink generation are unknown, their NVLink versions stay TODO",
                                      join(sms, ", ")));
  }

  /// NVLink and xGMI. One <nvlink> per NVSwitch chip is summed into one GPU-fabric link.
  void gpu_links() {
    std::map<std::string, const XmlGpu*> by_busid;
    for (const XmlGpu& g : result_.gpus)
      if (!g.busid.empty()) by_busid[g.busid] = &g;
    struct Pair {
      long long count_a = 0, count_b = 0;  // as the lower and the higher id lists it
      std::string type;                    // nvlink or infinity_fabric
      int version = 0;
      bool ga102 = false;                  // a GA102 GPU's narrow NVLink bridge (kGa102NvlinkGbps)
    };
    std::map<std::pair<std::string, std::string>, Pair> pairs;
    std::set<std::string> chips;
    std::vector<std::string> on_fabric;  // GPUs with NVLinks to the NVSwitch fabric
    std::set<std::string> c2c_gpus;      // GPUs whose <c2c> is read
    const schema::Key& count_key = link_key("nvlink", "count");
    for (const XmlGpu& g : result_.gpus) {
      if (!g.gpu) continue;
      long long to_switch = 0;
      const int version = g.amd ? 0 : nvlink_version_from_sm(g.sm);
      for (const pugi::xml_node& link : g.gpu.children()) {
        const std::string_view tag = link.name();
        if (tag == "c2c") {
          // NCCL writes one <c2c> a GPU, its links counted in it; a second would become a
          // parallel link and double the GPU's C2C bandwidth.
          if (c2c_gpus.count(g.id) != 0) {
            sk_.notes.push_back(fmt::format("{}: {} has a second <c2c> (NCCL writes one a GPU, its links in its count): "
                                            "left out",
                                            where(link), g.id));
            continue;
          }
          c2c_gpus.insert(g.id);
          add_c2c(g, link);
          continue;
        }
        if (tag != "nvlink" && tag != "xgmi") continue;
        const std::string target = to_lower(link.attribute("target").as_string());
        const std::string tclass = to_lower(link.attribute("tclass").as_string());
        const long long count = index_attr(link, "count", 0, static_cast<long long>(count_key.max), 0,
                                           tag == "xgmi" ? "an xGMI count" : "an NVLink count");
        if (count == 0) continue;
        if (tag == "nvlink" && (tclass == "0x068001")) {  // NCCL's class for an NVLink to the CPU (POWER9)
          Ln l{g.id, g.cpu, "nvlink", {}, {}};
          (void)keep(sk_, l.values, count_key, static_cast<double>(count), "", fmt::format("link {}-{} count", g.id, g.cpu));
          if (version > 0) (void)keep(sk_, l.values, link_key("nvlink", "version"), version, "", "version");
          sk_.links.push_back(std::move(l));
          result_.gpu_links = true;
          continue;
        }
        const bool to_gpu = tag == "xgmi" || gpu_class(tclass);
        if (!to_gpu) {  // 0x068000 and, as NCCL reads them, any other class: an NVSwitch
          to_switch += count;
          if (target != kHiddenSwitch) chips.insert(target);
          continue;
        }
        if (target == g.busid) {
          sk_.notes.push_back(fmt::format(
              "{}: {} lists {} {} to itself (target {} is its own bus id): NCCL's way of writing a link whose peer "
              "it cannot see; no link written (add the NVLink bridge's peer by hand if the GPU has one)",
              where(link), g.id, count, tag == "xgmi" ? "xGMI links" : "NVLinks", target));
          continue;
        }
        const auto peer = by_busid.find(target);
        if (peer == by_busid.end()) {
          sk_.notes.push_back(fmt::format("{}: {} lists {} {} to {} (class {}), which is no GPU of the dump; no link "
                                          "written (add it by hand)",
                                          where(link), g.id, count, tag == "xgmi" ? "xGMI links" : "NVLinks", target,
                                          tclass));
          continue;
        }
        const std::string& other = peer->second->id;
        const bool low = id_number(g.id) < id_number(other);
        Pair& pr = pairs[low ? std::pair{g.id, other} : std::pair{other, g.id}];
        (low ? pr.count_a : pr.count_b) += count;
        pr.type = tag == "xgmi" ? "infinity_fabric" : "nvlink";
        pr.version = std::max(pr.version, version);
        pr.ga102 = pr.ga102 || (!g.amd && g.sm == kGa102Sm);
      }
      if (to_switch > 0) {
        on_fabric.push_back(g.id);
        if (!sk_.has("nvswitch0")) sk_.add({"nvswitch0", "nvswitch", "", "", {}, {}});
        Ln l{g.id, "nvswitch0", "nvlink", {}, {}};
        if (version > 0) (void)keep(sk_, l.values, link_key("nvlink", "version"), version, "", fmt::format("{} NVLink version", g.id));
        (void)keep(sk_, l.values, count_key, static_cast<double>(to_switch), "",
                   fmt::format("the NVLinks of {} to the NVSwitch fabric (the sum of its <nvlink> entries)", g.id));
        sk_.links.push_back(std::move(l));
        result_.gpu_links = true;
      }
    }
    if (!on_fabric.empty()) {
      // A GPU of an NVSwitch node that lists no NVLink at all: NCCL saw none of its links (a
      // link or driver fault); imported as the dump says, over PCIe, and said.
      std::vector<std::string> off;
      for (const XmlGpu& g : result_.gpus) {
        if (!g.gpu || g.amd || std::find(on_fabric.begin(), on_fabric.end(), g.id) != on_fabric.end()) continue;
        const bool any_link = std::any_of(pairs.begin(), pairs.end(), [&](const auto& p) {
          return p.first.first == g.id || p.first.second == g.id;
        });
        if (!any_link) off.push_back(g.id);
      }
      if (!off.empty())
        sk_.notes.push_back(off_fabric_note(off, on_fabric, "list", "NCCL saw none of {} links (a link or driver fault",
                                            "dump"));
    }
    if (Ep* fabric = sk_.find("nvswitch0")) {
      fabric->model = chips.empty() ? "NVSwitch fabric (one vertex, as in NCCL; its chips are hidden from the VM)"
                                    : fmt::format("NVSwitch fabric of {} chips (one vertex, as in NCCL: each GPU's "
                                                  "links to all chips are summed, NVSwitch being non-blocking)",
                                                  chips.size());
      if (!chips.empty())
        (void)keep(sk_, fabric->values, *schema::find(Section::endpoint, "chips", EndpointKind::nvswitch),
                   static_cast<double>(chips.size()), "NVSwitch chips the GPUs' <nvlink> entries name", "nvswitch0.chips");
    }
    for (const auto& [ids, pr] : pairs) {
      const long long count = pr.count_a > 0 ? pr.count_a : pr.count_b;
      if (pr.count_a > 0 && pr.count_b > 0 && pr.count_a != pr.count_b) {
        sk_.notes.push_back(fmt::format("{} lists {} links to {} but {} lists {}: {} kept", ids.first, pr.count_a,
                                        ids.second, ids.second, pr.count_b, pr.count_a));
      }
      Ln l{ids.first, ids.second, pr.type, {}, {}};
      if (pr.type == "nvlink") {
        if (pr.version > 0) (void)keep(sk_, l.values, link_key("nvlink", "version"), pr.version, "", "NVLink version");
        if (pr.ga102)
          (void)keep(sk_, l.values, link_key("nvlink", "per_link_gbps"), kGa102NvlinkGbps,
                     "NVIDIA Ampere GA102 GPU architecture whitepaper: four x4 NVLinks of 14.0625 GB/s per direction "
                     "(sm_86 with an NVLink bridge: RTX 3090, RTX A6000, A40)",
                     "NVLink rate");
        (void)keep(sk_, l.values, count_key, static_cast<double>(count), "",
                   fmt::format("link {}-{} count", ids.first, ids.second));
      } else {
        l.notes.push_back(fmt::format("xGMI: {} link{} (RCCL's count); bandwidth_gbps is their sum per direction", count,
                                      count == 1 ? "" : "s"));
      }
      sk_.links.push_back(std::move(l));
      result_.gpu_links = true;
    }
    if (!bare_gpus_.empty()) {
      sk_.notes.push_back(fmt::format(
          "{} listed only as PCI devices of a GPU class (no <gpu> element, as the topology files of cloud instances "
          "are): the dump gives their PCIe links but not their NVLinks; add `nvidia-smi topo -m` of the machine "
          "with --smi for those",
          join(bare_gpus_, ", ")));
    } else if (!result_.gpu_links && result_.gpus.size() > 1) {
      sk_.notes.push_back("the dump lists no NVLink or xGMI between the GPUs: they talk over PCIe; if they have "
                          "NVLink, add `nvidia-smi topo -m` of the machine with --smi");
    }
  }

  /// NVLink-C2C between a GPU and its CPU (GH200, GB200, GB10): NCCL's <c2c bw="MB/s a link"
  /// count="links"> under the <gpu>, bw x count / 1000 GB/s each way (ncclTopoAddC2c,
  /// src/graph/topo.cc of NCCL 2.28). The GPU's PCIe link stays beside it.
  void add_c2c(const XmlGpu& g, const pugi::xml_node& link) {
    const long long count = index_attr(link, "count", 0, kMaxIndex, 0, "an NVLink-C2C link count");
    const long long mbps = index_attr(link, "bw", 0, 10'000'000, 0, "an NVLink-C2C link's bandwidth (MB/s)");
    Ln l{g.id, g.cpu, "nvlink_c2c", {}, {}};
    const std::string what = fmt::format("link {}-{} bandwidth_gbps", g.id, g.cpu);
    if (count > 0 && mbps > 0) {
      (void)keep(sk_, l.values, link_key("nvlink_c2c", "bandwidth_gbps"), static_cast<double>(count * mbps) / 1000,
                 fmt::format("NCCL: <c2c bw=\"{}\" count=\"{}\">, bw x count / 1000 GB/s each way", mbps, count), what);
    } else {
      const std::string missing = count > 0 ? "its bw" : mbps > 0 ? "a link count (count 0 or none)" : "its bw and count";
      sk_.notes.push_back(fmt::format("{}: {} has an NVLink-C2C link to {} without {}; {} left TODO", where(link), g.id,
                                      g.cpu, missing, what));
    }
    sk_.links.push_back(std::move(l));
  }

  static long long id_number(std::string_view id) {
    std::size_t k = 0;
    while (k < id.size() && !std::isdigit(static_cast<unsigned char>(id[k]))) ++k;
    return whole(id.substr(k), 0, kMaxIndex).value_or(0);
  }

  /// A link between every two CPUs (NUMA nodes), as NCCL joins them (ncclTopoConnectCpus): a chain
  /// in the dump's order put Perlmutter's first NUMA node three hops from its last.
  void cpu_links() {
    std::vector<std::pair<std::string, bool>> cpus;  // id, AMD's
    bool arm = false, power = false;  // NCCL's arch="arm64" (Grace), "ppc64" (POWER)
    for (const Cpu& c : cpus_) {
      cpus.emplace_back(c.id, is_amd_cpu_vendor(c.vendor));
      const std::string arch = to_lower(trim(c.node.attribute("arch").as_string()));
      arm = arm || arch == "arm64";
      power = power || arch == "ppc64";
    }
    link_every_cpu_pair(sk_, cpus, "type and bandwidth: TODO (not in the NCCL dump)",
                        power ? "xbus" : arm ? "generic" : "upi");
  }

  std::string path_;
  Skeleton& sk_;
  std::string text_;
  pugi::xml_document doc_;
  std::vector<Cpu> cpus_;
  XmlImport result_;
  long long max_gpu_ = -1, max_net_ = -1;
  int switches_ = 0;
  bool classless_ = false;
  std::vector<std::string> socket_nics_;
  std::map<std::string, std::string> nic_names_;  // nic<N> -> the interfaces it was read from
  std::map<std::string, std::string> nic_of_device_;  // parent|domain:bus:device -> the NIC of its first function
  std::map<std::string, double> nic_mbps_;            // nic<N> -> its ports' speeds together (Mb/s)
  std::vector<std::string> bare_gpus_;
  std::vector<std::string> emulated_;       // a VM's emulated bridges, left out
  std::vector<std::string> unknown_width_;  // GPUs whose link width the dump gives as 0
  std::vector<std::string> bad_width_;      // GPUs whose link width is no PCIe width (1 to 64)
};

// --- nvidia-smi topo -m --------------------------------------------------------------------------

// nvidia-smi colours its matrix on a terminal: drop ESC [ digits/semicolons m sequences.
std::string strip_ansi_colours(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\x1B' && i + 1 < line.size() && line[i + 1] == '[') {
      std::size_t j = i + 2;
      while (j < line.size() && (std::isdigit(static_cast<unsigned char>(line[j])) || line[j] == ';')) ++j;
      if (j < line.size() && line[j] == 'm') {
        i = j;
        continue;
      }
    }
    out += line[i];
  }
  return out;
}

std::vector<std::string> tokens(std::string_view line) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const std::size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) {
      // A CPU list written with a blank after its commas ("0-47, 96-143", a paste's reflow) is
      // one cell: no other cell of the matrix ends with a comma.
      if (!out.empty() && out.back().ends_with(',')) out.back() += line.substr(start, i - start);
      else out.emplace_back(line.substr(start, i - start));
    }
  }
  return out;
}

/// The `topo -m` values a matrix token holds, in the order written: one, or several where a paste
/// lost the blanks between cells ("PIXNODE", "NODENODE": an issue thread's 8 x H20 matrix). SOC,
/// older drivers' name for SYS, reads as SYS. Nothing where the token is not made of such values.
std::optional<std::vector<std::string>> matrix_values(std::string_view token) {
  static constexpr std::array<std::string_view, 7> kWords = {"X", "SYS", "SOC", "NODE", "PHB", "PXB", "PIX"};
  std::vector<std::string> out;
  while (!token.empty()) {
    if (token.starts_with("NV")) {
      std::size_t k = 2;
      while (k < token.size() && std::isdigit(static_cast<unsigned char>(token[k]))) ++k;
      if (k == 2) return std::nullopt;
      out.emplace_back(token.substr(0, k));
      token.remove_prefix(k);
      continue;
    }
    const auto word = std::find_if(kWords.begin(), kWords.end(), [&](std::string_view w) { return token.starts_with(w); });
    if (word == kWords.end()) return std::nullopt;
    out.emplace_back(*word == "SOC" ? "SYS" : *word);
    token.remove_prefix(word->size());
  }
  return out;
}

/// The device columns a `topo -m` header token names: one, or several where a paste lost the
/// blanks between them ("NIC11NIC12": an issue thread's 8 x B200 header, whose rows then had one
/// cell more than it named). Only a token made of GPU<N> and NIC<N> names, the last of them
/// perhaps a NIC's interface name ("GPU7mlx5_0"), is taken apart.
std::vector<std::string> device_names(const std::string& token) {
  std::vector<std::string> out;
  std::string_view rest = token;
  while (!rest.empty()) {
    const std::size_t prefix = rest.starts_with("GPU") || rest.starts_with("NIC") ? 3 : 0;
    std::size_t k = prefix;
    while (k < rest.size() && std::isdigit(static_cast<unsigned char>(rest[k]))) ++k;
    if (prefix == 0 || k == prefix) {
      // A NIC's own interface name glued after the devices ("GPU7mlx5_0", a DGX-1 header pasted
      // into a web page): the rest of the token, where it reads as one (a letter first, a digit
      // last).
      const bool interface = std::isalpha(static_cast<unsigned char>(rest.front())) &&
                             std::isdigit(static_cast<unsigned char>(rest.back()));
      if (out.empty() || !interface) return {token};
      out.emplace_back(rest);
      break;
    }
    out.emplace_back(rest.substr(0, k));
    rest.remove_prefix(k);
  }
  return out.empty() ? std::vector<std::string>{token} : out;
}

struct SmiRow {
  std::vector<std::string> cells;  // one per device column
  std::string cpu_affinity, numa;  // "" when the column is absent
  std::size_t line = 0;
};

struct Smi {
  std::string path;
  std::vector<std::string> devices;  // GPU0 .. GPUn-1, then NICs
  std::size_t ngpu = 0;
  std::vector<SmiRow> rows;  // GPU rows, by index
  bool cpu_column = false, numa_column = false, gpu_numa_column = false;
  bool gpu_memory_numa = false;  // a GPU NUMA ID cell gives a node number
  std::vector<std::string> hosts;  // cpu<N> of each GPU
  std::map<std::pair<std::size_t, std::size_t>, long long> nv;  // NV# of GPU pairs (i < j)
  bool switched = false;  // NV counts exceed what a GPU has: an NVSwitch
  std::string placed_by;  // "NUMA Affinity", "CPU Affinity" or "" (all on cpu0)
  std::vector<std::pair<std::size_t, std::string>> glued;  // line, token: cells written together
  std::vector<std::pair<std::size_t, std::string>> numa_lists;  // line, cell: NUMA Affinity lists
  std::map<std::string, std::string> nic_names;  // NIC Legend: "NIC0" -> "mlx5_0"
  std::pair<std::size_t, std::size_t> wrapped_header{0, 0};  // first and last line of a wrapped header
  std::map<std::size_t, std::vector<std::string>> nic_rows;  // NIC rows read whole, by device column

  /// The matrix's cell between devices a and b (columns of `devices`): GPU rows, else a NIC's row;
  /// "" where neither was read.
  std::string cell(std::size_t a, std::size_t b) const {
    if (a < ngpu) return rows[a].cells[b];
    if (b < ngpu) return rows[b].cells[a];
    if (const auto it = nic_rows.find(a); it != nic_rows.end()) return it->second[b];
    if (const auto it = nic_rows.find(b); it != nic_rows.end()) return it->second[a];
    return {};
  }
};

bool is_gpu_column(std::string_view t, std::size_t k) { return t == fmt::format("GPU{}", k); }

/// The digits a NUMA node list begins with ("0,3-9,11-17": "0").
std::string first_number(std::string_view list) {
  std::size_t k = 0;
  while (k < list.size() && std::isdigit(static_cast<unsigned char>(list[k]))) ++k;
  return std::string(list.substr(0, k));
}

/// `nvidia-smi topo -mp` (--matrix_pci) prints the same matrix with the NVLinks left out: GPUs
/// joined by NVLink show NODE or SYS, and the legend has no NV# entry. Read as `topo -m` it
/// describes a machine without NVLink (robustness hunt 38: an 8 x H20 board from a DeepEP issue
/// imported as GPUs talking over PCIe), so it is refused where the paste shows its command or
/// its legend.
void refuse_pcie_only_matrix(const std::string& path, const std::vector<std::string>& lines) {
  // Words, not a regular expression: libstdc++'s std::regex recurses per character and a long
  // hostile line would exhaust the stack.
  const auto names_mp = [](const std::vector<std::string>& t) {
    for (std::size_t k = 0; k + 2 < t.size(); ++k)
      if (t[k].ends_with("nvidia-smi") && t[k + 1] == "topo" && (t[k + 2] == "-mp" || t[k + 2] == "--matrix_pci"))
        return true;
    return false;
  };
  const std::string fix = "give the output of `nvidia-smi topo -m`, which shows the NVLinks (NV#)";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (names_mp(tokens(lines[i])))
      throw InputError(fmt::format("{}:{}: the output of `nvidia-smi topo -mp`, the PCIe paths only (it hides the "
                                   "NVLinks between GPUs); {}",
                                   path, i + 1, fix));
    if (lines[i].find("Legend:") == std::string::npos) continue;
    // The legend's entries ("X    = Self", "PIX  = ...") follow it, blank lines between them, up to
    // the first other text. A legend with NODE (drivers since NVLink: `topo -m` then also lists
    // NV#) but no NV# is -mp's; drivers before NVLink printed SOC and no NODE, and are read.
    bool node = false, nv = false;
    for (std::size_t j = i + 1; j < lines.size(); ++j) {
      const std::vector<std::string> t = tokens(lines[j]);
      if (t.empty()) continue;
      if (t.size() < 2 || t[1] != "=") break;
      if (t[0] == "NODE") node = true;
      if (t[0].starts_with("NV#")) nv = true;
    }
    if (node && !nv)
      throw InputError(fmt::format("{}:{}: a legend without NV#: the output of `nvidia-smi topo -mp`, the PCIe paths "
                                   "only (it hides the NVLinks between GPUs); {}",
                                   path, i + 1, fix));
  }
}

Smi parse_smi(const std::string& path) {
  Smi t;
  t.path = path;
  const std::string text = read_input(path, "nvidia-smi topo -m output");
  if (text.find("ROCm System Management Interface") != std::string::npos) {
    throw InputError(fmt::format("{}: the output of `rocm-smi` (--showtopo), not of `nvidia-smi topo -m`; for AMD GPUs "
                                 "give RCCL's topology dump instead (run once with NCCL_TOPO_DUMP_FILE=FILE) with "
                                 "--nccl-xml FILE",
                                 path));
  }
  std::vector<std::string> lines;
  for (std::string_view l : split(text, '\n')) {
    // `topo -m` prints text: a NUL byte or invalid UTF-8 would cut or garble the messages that
    // quote its cells (robustness hunt 37), so the line is named instead.
    if (l.find('\0') != std::string_view::npos || !is_valid_utf8(l))
      throw InputError(fmt::format("{}:{}: {} in the line; `nvidia-smi topo -m` prints text: give its output as "
                                   "printed",
                                   path, lines.size() + 1,
                                   l.find('\0') != std::string_view::npos ? "a NUL byte" : "bytes that are not UTF-8"));
    lines.push_back(strip_ansi_colours(l));
  }
  refuse_pcie_only_matrix(path, lines);
  std::size_t header = lines.size();
  std::vector<std::string> head;
  // The header's first device column, alone or written together with the next ("GPU0GPU1").
  const auto names_gpu0 = [](const std::string& token) { return device_names(token).front() == "GPU0"; };
  // nvidia-smi begins its header line with GPU0; a line that names GPU0 further on is text before
  // the matrix ("Note: GPU0 detected at startup"), taken as the header only where no line begins so.
  for (const bool leading : {true, false}) {
    for (std::size_t i = 0; i < lines.size() && header == lines.size(); ++i) {
      head = tokens(lines[i]);
      const auto it = std::find_if(head.begin(), head.end(), names_gpu0);
      if (it != head.end() && (!leading || it == head.begin())) header = i;
    }
    if (header != lines.size()) break;
  }
  if (header == lines.size()) {
    throw InputError(fmt::format("{}: no GPU matrix found; expected the output of `nvidia-smi topo -m` "
                                 "(a header line starting with GPU0)", path));
  }
  if (head.size() > 1 && head[0] == "GPU0" && matrix_values(head[1])) {
    throw InputError(fmt::format("{}:{}: GPU0's row comes without the header line above it that names the columns "
                                 "(GPU0 GPU1 ... CPU Affinity); paste the whole output of `nvidia-smi topo -m`",
                                 path, header + 1));
  }
  // A header wrapped by a narrow terminal or a paste goes on over the next lines: lines that begin
  // with a column name (GPU<N>, NIC<N>, CPU Affinity), not a row's name and its first cell.
  std::string header_text = lines[header];
  std::size_t header_end = header;
  while (header_end + 1 < lines.size()) {
    const std::vector<std::string> more = tokens(lines[header_end + 1]);
    const bool column_name = !more.empty() && (more[0] == "CPU" || more[0] == "NUMA" || device_names(more[0]).size() > 1 ||
                                               more[0].starts_with("GPU") || more[0].starts_with("NIC"));
    if (!column_name || (more.size() > 1 && matrix_values(more[1]))) break;
    ++header_end;
    head.insert(head.end(), more.begin(), more.end());
    header_text += " " + lines[header_end];
  }
  if (header_end > header) t.wrapped_header = {header + 1, header_end + 1};
  const auto first = std::find_if(head.begin(), head.end(), names_gpu0);
  for (auto it = first; it != head.end() && *it != "CPU" && *it != "NUMA" && *it != "GPU"; ++it) {
    const std::vector<std::string> names = device_names(*it);
    if (names.size() > 1) t.glued.emplace_back(header + 1, *it);
    t.devices.insert(t.devices.end(), names.begin(), names.end());
  }
  while (t.ngpu < t.devices.size() && is_gpu_column(t.devices[t.ngpu], t.ngpu)) ++t.ngpu;
  // nvidia-smi numbers its GPUs 0, 1, 2, ... whatever CUDA_VISIBLE_DEVICES says: a GPU column out
  // of that run is an edited matrix, whose later GPUs would otherwise be read as NICs.
  for (std::size_t k = t.ngpu; k < t.devices.size(); ++k) {
    if (!t.devices[k].starts_with("GPU")) continue;
    throw InputError(fmt::format("{}:{}: the header names {} where GPU{} comes next; nvidia-smi numbers its GPUs 0, 1, "
                                 "2, ... without a gap, so the matrix was edited (a GPU's row and column taken out?): "
                                 "paste the whole output of `nvidia-smi topo -m`, or number the GPUs' columns and rows "
                                 "again from GPU0",
                                 path, header + 1, t.devices[k], t.ngpu));
  }
  t.cpu_column = header_text.find("CPU Affinity") != std::string::npos;
  t.numa_column = header_text.find("NUMA Affinity") != std::string::npos;
  t.gpu_numa_column = header_text.find("GPU NUMA ID") != std::string::npos;
  t.rows.resize(t.ngpu);
  std::vector<bool> seen(t.ngpu, false);
  for (std::size_t i = header_end + 1; i < lines.size(); ++i) {
    const std::vector<std::string> cells = tokens(lines[i]);
    if (cells.empty()) continue;
    if (cells[0] == "Legend:") {
      // The NIC Legend after it names each NIC column ("NIC0: mlx5_0").
      for (std::size_t l = i + 1; l < lines.size(); ++l) {
        const std::vector<std::string> legend = tokens(lines[l]);
        if (legend.size() != 2 || !legend[0].starts_with("NIC") || !legend[0].ends_with(":")) continue;
        const std::string nic = legend[0].substr(0, legend[0].size() - 1);
        const auto [it, fresh] = t.nic_names.emplace(nic, legend[1]);
        if (!fresh && it->second != legend[1])
          throw InputError(fmt::format("{}:{}: the NIC Legend names {} twice ({}, then {}); nvidia-smi names each NIC "
                                       "once: the output was edited or joined",
                                       path, l + 1, nic, it->second, legend[1]));
      }
      break;
    }
    std::size_t k = 0;
    while (k < t.ngpu && cells[0] != t.devices[k]) ++k;
    if (k == t.ngpu) {
      // A NIC row: its cells to the other NICs (PIX, PXB) tell which share switches. Read where
      // whole; a row cut or edited only loses that.
      const auto nic = std::find(t.devices.begin() + static_cast<std::ptrdiff_t>(t.ngpu), t.devices.end(), cells[0]);
      if (nic == t.devices.end()) continue;  // text
      std::vector<std::string> nic_cells;
      for (std::size_t j = 1; j < cells.size() && nic_cells.size() < t.devices.size(); ++j) {
        const auto values = matrix_values(cells[j]);
        if (!values) break;
        nic_cells.insert(nic_cells.end(), values->begin(), values->end());
      }
      if (nic_cells.size() == t.devices.size())
        t.nic_rows[static_cast<std::size_t>(nic - t.devices.begin())] = std::move(nic_cells);
      continue;
    }
    if (seen[k]) throw InputError(fmt::format("{}:{}: a second row {}", path, i + 1, cells[0]));
    seen[k] = true;
    SmiRow& r = t.rows[k];
    r.line = i + 1;
    // The matrix's cells, one per device column, each a topo -m value; cells written together
    // are taken apart (and said in a note), anything else is refused: read as cells, the
    // affinity columns after them had shifted and put every GPU on cpu0, silently.
    std::size_t j = 1;
    for (; j < cells.size() && r.cells.size() < t.devices.size(); ++j) {
      const auto values = matrix_values(cells[j]);
      const std::string& column = t.devices[r.cells.size()];
      const bool affinity_text = !cells[j].empty() && std::all_of(cells[j].begin(), cells[j].end(), [](char ch) {
        return std::isdigit(static_cast<unsigned char>(ch)) || ch == ',' || ch == '-';
      });
      if (!values && affinity_text) {
        // The row's matrix ends early: its CPU Affinity where the header names another device.
        throw InputError(fmt::format("{}:{}: row {} has {} cells, but the header names {} devices ({}); '{}' under {} "
                                     "is a CPU or NUMA affinity: is a column name in the header doubled or written "
                                     "together with another, or the matrix cut?",
                                     path, i + 1, cells[0], r.cells.size(), t.devices.size(), join(t.devices, " "),
                                     cells[j], column));
      }
      if (!values) {
        throw InputError(fmt::format("{}:{}: row {}, column {}: '{}' is not a `nvidia-smi topo -m` value (X, SYS, "
                                     "NODE, PHB, PXB, PIX or NV followed by a count); is the matrix cut, or edited?",
                                     path, i + 1, cells[0], column, cells[j]));
      }
      if (r.cells.size() + values->size() > t.devices.size()) {
        throw InputError(fmt::format("{}:{}: row {}: '{}' from column {} on runs past the header's {} devices ({})",
                                     path, i + 1, cells[0], cells[j], column, t.devices.size(), join(t.devices, " ")));
      }
      if (values->size() > 1) t.glued.emplace_back(i + 1, cells[j]);
      r.cells.insert(r.cells.end(), values->begin(), values->end());
    }
    if (r.cells.size() < t.devices.size()) {
      throw InputError(fmt::format("{}:{}: row {} has {} cells, but the header names {} devices ({}); is the "
                                   "matrix cut or wrapped?",
                                   path, i + 1, cells[0], r.cells.size(), t.devices.size(), join(t.devices, " ")));
    }
    auto affinity_like = [](std::string_view s) {
      return s == "N/A" || (!s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == ',' || c == '-';
      }));
    };
    // The affinity columns after the matrix. nvidia-smi may leave CPU Affinity empty (GB200 in a
    // container: "...NODE\t\t1\t\tN/A"); split on blanks the empty cell vanished and the NUMA
    // node was read as a CPU set. A row with fewer cells than the header has columns after the
    // matrix lacks its first ones: its cells are the last columns'.
    // A NUMA Affinity cell: N/A, a node, or a Grace system's list of them, the CPU's node first
    // ("0,3-9,11-17"; a lone range is a CPU set).
    auto numa_like = [&](std::string_view s) {
      return s == "N/A" || whole(s, 0, kMaxIndex) ||
             (s.find(',') != std::string_view::npos && affinity_like(s) && whole(first_number(s), 0, kMaxIndex));
    };
    std::vector<std::string> rest(cells.begin() + static_cast<std::ptrdiff_t>(j), cells.end());
    const std::size_t trailing = (t.cpu_column ? 1 : 0) + (t.numa_column ? 1 : 0) + (t.gpu_numa_column ? 1 : 0);
    if (t.cpu_column && t.numa_column && rest.size() < trailing) {
      std::vector<std::string> aligned = rest;
      aligned.insert(aligned.begin(), trailing - rest.size(), std::string());
      if (numa_like(aligned[1])) rest = std::move(aligned);
    }
    std::size_t a = 0;
    if (t.cpu_column && a < rest.size() && (rest[a].empty() || affinity_like(rest[a]))) {
      r.cpu_affinity = rest[a].empty() ? "N/A" : rest[a];
      ++a;
    }
    if (t.numa_column && a < rest.size()) {
      const std::string& cell = rest[a];
      if (!numa_like(cell)) {
        throw InputError(fmt::format("{}:{}: {} NUMA Affinity '{}' is not a NUMA node number (0 to {}), a list of "
                                     "them or N/A",
                                     path, i + 1, cells[0], cell, kMaxIndex));
      }
      r.numa = cell.find(',') == std::string::npos ? cell : first_number(cell);
      if (cell.find(',') != std::string::npos) t.numa_lists.emplace_back(i + 1, cell);
      // GPU NUMA ID: the GPU's memory as a NUMA node of its own (a coherent, Grace, system).
      if (t.gpu_numa_column && a + 1 < rest.size() && whole(rest[a + 1], 0, kMaxIndex)) t.gpu_memory_numa = true;
    }
  }
  if (t.ngpu == 0) {
    throw InputError(fmt::format("{}: no GPU matrix found; expected the output of `nvidia-smi topo -m` "
                                 "(a header line starting with GPU0)", path));
  }
  for (std::size_t k = 0; k < t.ngpu; ++k)
    if (!seen[k]) throw InputError(fmt::format("{}: the header names GPU{} but there is no row for it", path, k));
  // The GPU matrix is symmetric; a cell written together with the next column's text ("NV181":
  // NV18 and a NUMA node 1) reads as another value and breaks that.
  for (std::size_t i = 0; i < t.ngpu; ++i) {
    for (std::size_t j = i + 1; j < t.ngpu; ++j) {
      if (t.rows[i].cells[j] == t.rows[j].cells[i]) continue;
      throw InputError(fmt::format("{}:{}: cell GPU{}/GPU{} is '{}' but GPU{}/GPU{} (line {}) is '{}'; `nvidia-smi topo "
                                   "-m` gives both the same: is a cell written together with the text after it, or "
                                   "the matrix edited?",
                                   path, t.rows[i].line, i, j, t.rows[i].cells[j], j, i, t.rows[j].line,
                                   t.rows[j].cells[i]));
    }
  }

  // NVLink cells. NV# of a pair is the number of bonded links; counts are checked as link counts.
  const schema::Key& count_key = link_key("nvlink", "count");
  std::vector<long long> sum(t.ngpu, 0);
  for (std::size_t i = 0; i < t.ngpu; ++i) {
    for (std::size_t j = 0; j < t.ngpu; ++j) {
      const std::string& cell = t.rows[i].cells[j];
      if (i == j || !cell.starts_with("NV")) continue;
      const std::string digits = cell.substr(2);
      const auto checked = schema::check(count_key, digits);
      if (const auto* p = std::get_if<schema::Problem>(&checked)) {
        throw InputError(fmt::format("{}:{}: cell GPU{}/GPU{} '{}': {}", path, t.rows[i].line, i, j, cell,
                                     schema::loader_message(count_key, *p, "the NVLink count", digits)));
      }
      const auto count = static_cast<long long>(std::get<double>(checked));
      sum[i] += count;
      const auto key = std::pair{std::min(i, j), std::max(i, j)};
      t.nv[key] = std::max(t.nv[key], count);
    }
    if (sum[i] > kMaxNvlinksPerGpu) t.switched = true;
  }

  // Which CPU each GPU is on: NUMA Affinity, else (older drivers have no such column, and some
  // machines say N/A) the CPU Affinity sets, numbered by their lowest core.
  const bool all_numa = std::all_of(t.rows.begin(), t.rows.end(), [](const SmiRow& r) { return whole(r.numa, 0, kMaxIndex).has_value(); });
  const bool all_affinity = std::all_of(t.rows.begin(), t.rows.end(), [](const SmiRow& r) {
    return !r.cpu_affinity.empty() && r.cpu_affinity != "N/A";
  });
  if (all_numa) {
    t.placed_by = "NUMA Affinity";
    for (const SmiRow& r : t.rows) t.hosts.push_back("cpu" + r.numa);
  } else if (all_affinity) {
    t.placed_by = "CPU Affinity";
    std::map<long long, std::string> by_first_core;  // lowest core -> affinity text
    auto first_core = [](const std::string& a) {
      long long lowest = -1;
      for (std::string_view part : split(a, ',')) {
        const std::string_view lo = part.substr(0, part.find('-'));
        if (const auto v = whole(lo, 0, 1LL << 40); v && (lowest < 0 || *v < lowest)) lowest = *v;
      }
      return lowest;
    };
    for (const SmiRow& r : t.rows) by_first_core[first_core(r.cpu_affinity)] = r.cpu_affinity;
    std::map<std::string, std::size_t> index;
    for (const auto& [core, affinity] : by_first_core) index.emplace(affinity, index.size());
    for (const SmiRow& r : t.rows) t.hosts.push_back(fmt::format("cpu{}", index[r.cpu_affinity]));
  } else {
    t.hosts.assign(t.ngpu, "cpu0");
  }
  return t;
}

/// The note of a `topo -m` whose cells were written together, if any.
void smi_glued_note(const Smi& t, Skeleton& sk) {
  if (t.glued.empty()) return;
  std::set<std::size_t> lines;
  for (const auto& [line, token] : t.glued) lines.insert(line);
  const bool one = t.glued.size() == 1;
  sk.notes.push_back(fmt::format("{}: {} token{} on {} line{} hold{} cells or column names written together without "
                                 "blanks (line {}: '{}'), read apart",
                                 t.path, t.glued.size(), one ? "" : "s", lines.size(), lines.size() == 1 ? "" : "s",
                                 one ? "s" : "", t.glued.front().first, t.glued.front().second));
}

/// The notes of a `topo -m` reading: cells written together, how the GPUs were placed, and matrix
/// cells that disagree with it.
void smi_notes(const Smi& t, Skeleton& sk) {
  smi_glued_note(t, sk);
  if (t.wrapped_header.first > 0) {
    sk.notes.push_back(fmt::format("{}: the header line is wrapped over lines {}-{}, read as one ({} devices)", t.path,
                                   t.wrapped_header.first, t.wrapped_header.second, t.devices.size()));
  }
  if (!t.numa_lists.empty()) {
    sk.notes.push_back(fmt::format("{}: NUMA Affinity lists several nodes on {} row{} (line {}: '{}'): a Grace "
                                   "system's CPU node, then those of the GPUs' memory; each GPU placed on the first",
                                   t.path, t.numa_lists.size(), t.numa_lists.size() == 1 ? "" : "s",
                                   t.numa_lists.front().first, t.numa_lists.front().second));
  }
  if (t.placed_by != "NUMA Affinity") {
    std::vector<std::string> placed;
    for (std::size_t k = 0; k < t.ngpu; ++k) placed.push_back(fmt::format("gpu{} on {}", k, t.hosts[k]));
    sk.notes.push_back(fmt::format("{}: {}; GPUs placed {}: {}", t.path,
                                   t.numa_column ? "NUMA Affinity is N/A" : "no NUMA Affinity column (an older driver)",
                                   t.placed_by.empty() ? "on cpu0 (no CPU Affinity either)"
                                                       : "by their CPU Affinity, sets numbered by their lowest core",
                                   join(placed, ", ")));
  }
  std::vector<std::string> same, cross;
  for (std::size_t i = 0; i < t.ngpu; ++i) {
    for (std::size_t j = i + 1; j < t.ngpu; ++j) {
      const std::string& c = t.rows[i].cells[j];
      if (c == "SYS" && t.hosts[i] == t.hosts[j]) same.push_back(fmt::format("GPU{}-GPU{}", i, j));
      if ((c == "NODE" || c == "PHB" || c == "PXB" || c == "PIX") && t.hosts[i] != t.hosts[j])
        cross.push_back(fmt::format("GPU{}-GPU{} {}", i, j, c));
    }
  }
  if (!same.empty())
    sk.notes.push_back(fmt::format("{}: the matrix says SYS (across sockets) for {} though both are on one NUMA node",
                                   t.path, join(same, ", ")));
  if (!cross.empty())
    sk.notes.push_back(fmt::format("{}: the matrix joins {} within a socket though they are on different NUMA nodes",
                                   t.path, join(cross, ", ")));
  // A NIC the matrix joins within a socket (NODE, PHB, PXB, PIX) to GPUs on different NUMA nodes:
  // it can sit on one of them only, so the others reach it across the sockets (SYS).
  std::vector<std::string> nic_cross;
  for (std::size_t m = t.ngpu; m < t.devices.size(); ++m) {
    std::set<std::string> hosts;
    for (std::size_t k = 0; k < t.ngpu; ++k) {
      const std::string& c = t.rows[k].cells[m];
      if (c == "NODE" || c == "PHB" || c == "PXB" || c == "PIX") hosts.insert(t.hosts[k]);
    }
    if (hosts.size() > 1) nic_cross.push_back(fmt::format("{} ({})", t.devices[m], join(std::vector(hosts.begin(), hosts.end()), ", ")));
  }
  if (!nic_cross.empty()) {
    sk.notes.push_back(fmt::format("{}: the matrix joins {} within a socket to GPUs on different NUMA nodes; each NIC is "
                                   "placed on one, and the GPUs of the other reach it across the sockets (SYS): check "
                                   "the GPUs' NUMA Affinity",
                                   t.path, join(nic_cross, ", ")));
  }
}

/// NVLinks from the matrix. `ids[k]` is the skeleton's id of GPUk; `versions[k]` its NVLink version (0 unknown).
void smi_nvlinks(const Smi& t, Skeleton& sk, const std::vector<std::string>& ids, const std::vector<int>& versions) {
  const schema::Key& count_key = link_key("nvlink", "count");
  if (t.switched) {
    sk.add({"nvswitch0", "nvswitch", "NVSwitch fabric (inferred: NV counts exceed any GPU's links)", "", {}, {}});
    std::vector<std::string> on_fabric, off_fabric;
    for (std::size_t i = 0; i < t.ngpu; ++i) {
      long long count = 0;
      for (const auto& [pair, n] : t.nv)
        if (pair.first == i || pair.second == i) count = std::max(count, n);
      if (count == 0) {
        off_fabric.push_back(ids[i]);
        continue;
      }
      on_fabric.push_back(ids[i]);
      Ln l{ids[i], "nvswitch0", "nvlink", {}, {}};
      if (versions[i] > 0) (void)keep(sk, l.values, link_key("nvlink", "version"), versions[i], "", "NVLink version");
      (void)keep(sk, l.values, count_key, static_cast<double>(count), "", fmt::format("{} NVLink count", ids[i]));
      sk.links.push_back(std::move(l));
    }
    // A GPU with no NV cell where the others reach the fabric: its links are down (a link or
    // fabric-manager fault); imported over PCIe as the matrix says, and said, as for NCCL dumps.
    if (!off_fabric.empty())
      sk.notes.push_back(t.path + ": " +
                         off_fabric_note(off_fabric, on_fabric, "show", "{} links are down (a link or fabric-manager fault",
                                         "matrix"));
    return;
  }
  for (const auto& [pair, count] : t.nv) {
    Ln l{ids[pair.first], ids[pair.second], "nvlink", {}, {}};
    const int version = std::max(versions[pair.first], versions[pair.second]);
    if (version > 0) (void)keep(sk, l.values, link_key("nvlink", "version"), version, "", "NVLink version");
    (void)keep(sk, l.values, count_key, static_cast<double>(count), "", "NVLink count");
    sk.links.push_back(std::move(l));
  }
}

/// Moves GPU `gpu`'s link from its CPU to the PCIe switch `sw`, which becomes its switch.
void move_under_switch(const Smi& t, Skeleton& sk, const std::vector<std::string>& ids, std::size_t gpu,
                       const std::string& sw, std::map<std::size_t, std::string>& switch_of) {
  for (Ln& l : sk.links)
    if (l.type == "pcie" && l.b == ids[gpu] && l.a == t.hosts[gpu]) l.a = sw;
  switch_of[gpu] = sw;
}

/// A new PCIe switch of `topo -m`'s skeleton, pcisw<n> numbered in the order made, under `cpu`;
/// returns its id.
std::string add_smi_switch(Skeleton& sk, const std::string& cpu, std::string model) {
  const std::string sw = fmt::format("pcisw{}", sk.of_kind("pcie_switch").size());
  sk.add({sw, "pcie_switch", std::move(model), "", {}, {}});
  add_pcie(sk, cpu, sw, 0, 0);
  return sw;
}

/// The GPU `gpu`'s PCIe switch: the one `switch_of` gives it, else a new one (add_smi_switch)
/// between it and its CPU, its link moved under it where it has one (`why` says
/// what the matrix showed).
std::string switch_of_gpu(const Smi& t, Skeleton& sk, const std::vector<std::string>& ids, std::size_t gpu,
                          const std::string& why, std::map<std::size_t, std::string>& switch_of) {
  if (const auto it = switch_of.find(gpu); it != switch_of.end()) return it->second;
  const std::string sw = add_smi_switch(sk, t.hosts[gpu], fmt::format("PCIe switch of GPU{} and {}", gpu, why));
  move_under_switch(t, sk, ids, gpu, sw, switch_of);
  return sw;
}

/// The columns of a `topo -m` after its GPUs (NIC<n>, or a device's own name on older drivers:
/// "mlx5_0"), each a NIC endpoint nic<k> placed by its cells in the GPU rows: under the PCIe
/// switch of the GPUs it is PIX to (a switch made for the first where they have none, the others
/// PIX to it moved under it too), else of the first GPU it is PXB to, else on the CPU of the first
/// it is NODE or PHB to; SYS to every GPU, on the first CPU, said in a note (the matrix places it
/// on no CPU of its GPUs). NIC-to-NIC cells are not read. Links' generation and width and the NICs'
/// rates are left to fill in.
void smi_nics(const Smi& t, Skeleton& sk, const std::vector<std::string>& cpus, const std::vector<std::string>& ids,
              std::map<std::size_t, std::string>& switch_of) {
  std::vector<std::string> unplaced;
  for (std::size_t c = t.ngpu; c < t.devices.size(); ++c) {
    const std::string& column = t.devices[c];
    const std::string id = fmt::format("nic{}", c - t.ngpu);
    const auto name = t.nic_names.find(column);
    sk.add({id, "nic",
            name == t.nic_names.end() ? fmt::format("{} of `topo -m`", column)
                                      : fmt::format("{} ({} of `topo -m`)", name->second, column),
            "", {}, {}});
    std::vector<std::size_t> pix, pxb, node;
    for (std::size_t g = 0; g < t.ngpu; ++g) {
      const std::string& cell = t.rows[g].cells[c];
      if (cell == "PIX") pix.push_back(g);
      if (cell == "PXB") pxb.push_back(g);
      if (cell == "NODE" || cell == "PHB") node.push_back(g);
    }
    // An earlier NIC this one is PIX to (two ports of one adapter, or one switch).
    std::size_t pix_nic = c;
    for (std::size_t m = t.ngpu; m < c && pix_nic == c; ++m)
      if (t.cell(c, m) == "PIX") pix_nic = m;
    std::string parent;
    if (!pix.empty()) {
      parent = switch_of_gpu(t, sk, ids, pix.front(), fmt::format("{} (inferred from PIX)", column), switch_of);
      for (std::size_t g : pix)
        if (!switch_of.count(g)) move_under_switch(t, sk, ids, g, parent, switch_of);
    } else if (pix_nic != c) {
      const std::string other = fmt::format("nic{}", pix_nic - t.ngpu);
      Ln* uplink = device_link(sk, other);
      parent = uplink->a;
      if (parent.starts_with("cpu")) {
        parent = add_smi_switch(sk, parent, fmt::format("PCIe switch of {} and {} (inferred from PIX)",
                                                        t.devices[pix_nic], column));
        device_link(sk, other)->a = parent;
      }
    } else if (!pxb.empty() || !node.empty()) {
      // PXB: below a switch above the GPU's own (smi_pxb_switches), not on the GPU's switch (PIX).
      parent = t.hosts[pxb.empty() ? node.front() : pxb.front()];
    } else {
      parent = cpus.front();
      unplaced.push_back(fmt::format("{} ({})", id, column));
    }
    add_pcie(sk, parent, id, 0, 0);
  }
  if (!unplaced.empty()) {
    sk.notes.push_back(fmt::format("{}: NICs that are SYS to every GPU, on a CPU the matrix does not name, put on {}: "
                                   "move each under its CPU: {}",
                                   t.path, cpus.front(), join(unplaced, ", ")));
  }
}

/// GPUs that are PXB to each other (several PCIe bridges, no host bridge between them) hang from
/// one switch above their own switches, or above themselves where they have none: a switch made
/// for each such group under its CPU, their links to the CPU moved under it, so that their traffic
/// does not cross the host bridge (read as PHB before: an 8 x P40 machine's two groups of four).
void smi_pxb_switches(const Smi& t, Skeleton& sk) {
  const std::size_t n = t.devices.size();
  // Each device's skeleton id (gpu<k>, nic<k>), and what hangs from its CPU for it: its switch, or
  // itself where it sits on the CPU; devices on no CPU's PCIe (an NVSwitch's) are left out.
  std::vector<std::string> id(n), unit(n), cpu_of(n);
  for (std::size_t d = 0; d < n; ++d) {
    id[d] = d < t.ngpu ? fmt::format("gpu{}", d) : fmt::format("nic{}", d - t.ngpu);
    const Ln* up = device_link(sk, id[d]);
    if (up == nullptr) continue;
    unit[d] = up->a.starts_with("cpu") ? id[d] : up->a;
    for (const Ln& l : sk.links)
      if (l.type == "pcie" && l.b == unit[d] && l.a.starts_with("cpu")) cpu_of[d] = l.a;
  }
  std::vector<std::size_t> root(n);
  for (std::size_t k = 0; k < n; ++k) root[k] = k;
  const auto find = [&](std::size_t k) {
    while (root[k] != k) k = root[k] = root[root[k]];
    return k;
  };
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (t.cell(i, j) == "PXB" && !cpu_of[i].empty() && cpu_of[i] == cpu_of[j]) root[find(j)] = find(i);
  std::map<std::size_t, std::vector<std::size_t>> groups;
  for (std::size_t k = 0; k < n; ++k) groups[find(k)].push_back(k);
  for (const auto& [first, members] : groups) {
    std::set<std::string> below;  // each member's switch, or the member itself
    for (std::size_t k : members) below.insert(unit[k]);
    if (below.size() < 2) continue;
    std::vector<std::string> names;
    for (std::size_t k : members) names.push_back(t.devices[k]);
    const std::string cpu = cpu_of[first];
    // PXB crosses two bridges at least: a member straight on the CPU gets a switch of its own
    // below the one above them all (else the two would be PIX).
    for (std::size_t k : members) {
      if (unit[k] != id[k]) continue;
      below.erase(id[k]);
      unit[k] = add_smi_switch(sk, cpu, fmt::format("PCIe switch of {} (inferred from PXB)", t.devices[k]));
      device_link(sk, id[k])->a = unit[k];
      below.insert(unit[k]);
    }
    // Their links to the CPU, found before the new switch adds its own (indices: adding a link may
    // move the others).
    std::vector<std::size_t> uplinks;
    for (std::size_t i = 0; i < sk.links.size(); ++i)
      if (sk.links[i].type == "pcie" && sk.links[i].a == cpu && below.count(sk.links[i].b)) uplinks.push_back(i);
    const std::string sw = add_smi_switch(sk, cpu, fmt::format("PCIe switch above {} (inferred from PXB)", join(names, ", ")));
    for (std::size_t i : uplinks) sk.links[i].a = sw;
  }
}

/// A skeleton from `topo -m` alone: GPUs on their CPUs, PCIe switches where the matrix says PIX.
void skeleton_from_smi(const Smi& t, Skeleton& sk) {
  sk.sources.push_back(fmt::format("nvidia-smi topo -m output {}", t.path));
  std::set<std::string> cpu_ids(t.hosts.begin(), t.hosts.end());
  std::vector<std::string> cpus(cpu_ids.begin(), cpu_ids.end());
  std::sort(cpus.begin(), cpus.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  for (const std::string& cpu : cpus) sk.add({cpu, "cpu", "", "", {}, {}});
  std::vector<std::string> ids;
  for (std::size_t k = 0; k < t.ngpu; ++k) {
    ids.push_back(fmt::format("gpu{}", k));
    sk.add({ids.back(), "gpu", "", t.hosts[k], {}, {}});
  }
  smi_nvlinks(t, sk, ids, std::vector<int>(t.ngpu, 0));
  if (t.nv.empty() && t.ngpu > 1)
    sk.notes.push_back("the matrix shows no NVLink (NV#) between the GPUs: they talk over PCIe; if they have NVLink, "
                       "this is not `nvidia-smi topo -m` output (`topo -mp` hides the NVLinks): give `topo -m`");
  // PIX pairs share a PCIe switch; without the NCCL dump we cannot see more structure.
  std::map<std::size_t, std::string> switch_of;  // by GPU
  for (std::size_t i = 0; i < t.ngpu; ++i) {
    for (std::size_t j = 0; j < t.ngpu; ++j) {
      if (i == j || t.rows[i].cells[j] != "PIX" || t.hosts[i] != t.hosts[j]) continue;
      if (!switch_of.count(i) && switch_of.count(j)) switch_of[i] = switch_of[j];
      const std::string sw = switch_of_gpu(t, sk, ids, i, fmt::format("GPU{} (inferred from PIX)", j), switch_of);
      if (!switch_of.count(j)) switch_of[j] = sw;
    }
  }
  // A Grace system (NUMA Affinity lists: the CPU's node, then the GPUs' memory; and, where the
  // output has the column, a GPU NUMA ID: the GPU's memory a node of its own) joins each GPU to its
  // Grace by NVLink-C2C (GH200, GB200), which `topo -m` does not show: written so, its bandwidth
  // TODO, where a PCIe link priced the host's copies several times too slow.
  const bool grace = !t.numa_lists.empty() && (!t.gpu_numa_column || t.gpu_memory_numa);
  for (std::size_t k = 0; k < t.ngpu; ++k) {
    if (grace && !switch_of.count(k)) {
      Ln l{t.hosts[k], ids[k], "nvlink_c2c", {}, {}};
      l.notes.push_back("a Grace system: GPU-CPU over NVLink-C2C (not shown by topo -m); bandwidth_gbps: TODO "
                        "(GH200 450, GB200 225 GB/s each way; configs/gb200-nvl72.yaml)");
      sk.links.push_back(std::move(l));
      continue;
    }
    add_pcie(sk, switch_of.count(k) ? switch_of[k] : t.hosts[k], ids[k], 0, 0);
  }
  smi_nics(t, sk, cpus, ids, switch_of);
  smi_pxb_switches(t, sk);
  std::vector<std::pair<std::string, bool>> cpu_pairs;
  for (const std::string& cpu : cpus) cpu_pairs.emplace_back(cpu, false);
  link_every_cpu_pair(sk, cpu_pairs, grace ? "two Grace CPUs: type and bandwidth: TODO" : "type and bandwidth: TODO",
                      grace ? "generic" : "upi");
  smi_notes(t, sk);
}

/// The order of the dump's GPUs that `topo -m` numbers GPU0, GPU1, ...: NVML numbers GPUs by PCI
/// bus id; without bus ids, the dump's own order.
std::vector<const XmlGpu*> smi_order(const XmlImport& xml) {
  std::vector<const XmlGpu*> order;
  for (const XmlGpu& g : xml.gpus) order.push_back(&g);
  const bool busids = std::all_of(order.begin(), order.end(), [](const XmlGpu* g) { return !g->busid.empty(); });
  if (busids) std::stable_sort(order.begin(), order.end(), [](const XmlGpu* a, const XmlGpu* b) { return a->busid < b->busid; });
  return order;
}

/// `topo -m` beside an NCCL dump: the dump gives the structure; the matrix must describe the same
/// GPUs on the same NUMA nodes, and gives NVLinks where the dump has none.
void merge_smi(const Smi& t, const XmlImport& xml, const std::string& xml_path, Skeleton& sk) {
  sk.sources.push_back(fmt::format("nvidia-smi topo -m output {}", t.path));
  smi_glued_note(t, sk);
  if (t.ngpu != xml.gpus.size()) {
    throw InputError(fmt::format(
        "{} lists {} GPU{} but {} lists {}: the two describe different machines (or a job that saw only some of the "
        "GPUs, e.g. with CUDA_VISIBLE_DEVICES); give the NCCL dump and the `nvidia-smi topo -m` of the same machine, "
        "or only one of them",
        xml_path, xml.gpus.size(), xml.gpus.size() == 1 ? "" : "s", t.path, t.ngpu));
  }
  const std::vector<const XmlGpu*> order = smi_order(xml);
  for (std::size_t k = 0; k < t.ngpu; ++k) {
    const XmlGpu& g = *order[k];
    const auto numa = whole(t.rows[k].numa, 0, kMaxIndex);
    if (numa && g.numa >= 0 && *numa != g.numa) {
      throw InputError(fmt::format(
          "{}:{}: GPU{} is on NUMA node {}, but {} puts it ({}{}) under <cpu numaid=\"{}\">: the two files disagree "
          "(taken on different machines, or after a BIOS change); give the NCCL dump and the `nvidia-smi topo -m` of "
          "the same machine, or only the NCCL dump",
          t.path, t.rows[k].line, k, *numa, xml_path, g.id, g.busid.empty() ? "" : " at " + g.busid, g.numa));
    }
  }
  if (!xml.gpu_links && !t.nv.empty()) {
    std::vector<std::string> ids;
    std::vector<int> versions;
    for (const XmlGpu* g : order) {
      ids.push_back(g->id);
      versions.push_back(g->amd ? 0 : nvlink_version_from_sm(g->sm));
    }
    smi_nvlinks(t, sk, ids, versions);
  }
}

// --- nvidia-smi --query-gpu CSV ------------------------------------------------------------------

/// "00000000:00:06.0" (nvidia-smi) and "0000:00:06.0" (NCCL) -> "0000:00:06.0".
std::string normal_busid(std::string_view id) {
  std::string s = to_lower(trim(id));
  const std::size_t colon = s.find(':');
  if (colon == std::string::npos || colon <= 4) return s;
  const std::string domain = s.substr(0, colon);
  const std::size_t nonzero = domain.find_first_not_of('0');
  const std::string digits = nonzero == std::string::npos ? "0" : domain.substr(nonzero);
  return (digits.size() >= 4 ? digits : std::string(4 - digits.size(), '0') + digits) + s.substr(colon);
}

/// One CSV value without its unit ("81559 MiB" -> 81559); nothing for [N/A] and the like.
std::optional<double> csv_number(std::string_view s) {
  s = trim(s);
  const std::size_t space = s.find(' ');
  if (space != std::string_view::npos) s = s.substr(0, space);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

void apply_gpus_csv(const std::string& path, const XmlImport* xml, Skeleton& sk) {
  const std::string text = read_input(path, "nvidia-smi --query-gpu CSV");
  sk.sources.push_back(fmt::format("nvidia-smi --query-gpu CSV {}", path));
  std::vector<std::string> lines;
  for (std::string_view l : split(text, '\n'))
    if (!trim(l).empty()) lines.emplace_back(trim(l));
  if (lines.empty()) throw InputError(fmt::format("{}: empty; expected `nvidia-smi --query-gpu=index,name,... --format=csv`", path));
  std::vector<std::string> header;
  for (std::string_view h : split(lines[0], ',')) header.push_back(to_lower(trim(h)));
  auto column = [&](std::initializer_list<std::string_view> names) -> std::optional<std::size_t> {
    for (std::string_view name : names)
      for (std::size_t c = 0; c < header.size(); ++c)
        if (header[c] == name || header[c].starts_with(std::string(name) + " ")) return c;
    return std::nullopt;
  };
  const auto index_col = column({"index"});
  if (!index_col) {
    throw InputError(fmt::format("{}:1: no 'index' column; expected the CSV of `nvidia-smi "
                                 "--query-gpu=index,name,pci.bus_id,pcie.link.gen.max,pcie.link.width.max,memory.total "
                                 "--format=csv`",
                                 path));
  }
  const auto name_col = column({"name"});
  const auto bus_col = column({"pci.bus_id"});
  const auto gen_col = column({"pcie.link.gen.max", "pcie.link.gen.current"});
  const auto width_col = column({"pcie.link.width.max", "pcie.link.width.current"});
  const auto mem_col = column({"memory.total"});

  // How the CSV's GPUs are found in the skeleton: by bus id where the dump gave them, else by index.
  std::map<std::string, std::string> by_busid;
  if (xml)
    for (const XmlGpu& g : xml->gpus)
      if (!g.busid.empty()) by_busid[g.busid] = g.id;
  const bool match_busid = bus_col && xml && by_busid.size() == xml->gpus.size();
  std::set<std::string> filled;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string_view> f = split(lines[i], ',');
    if (f.size() != header.size()) {
      throw InputError(fmt::format("{}:{}: {} fields, but the header has {}", path, i + 1, f.size(), header.size()));
    }
    const auto index = whole(f[*index_col], 0, kMaxIndex);
    if (!index) throw InputError(fmt::format("{}:{}: index '{}' is not a GPU index (0 to {})", path, i + 1, trim(f[*index_col]), kMaxIndex));
    std::string id = fmt::format("gpu{}", *index);
    if (match_busid) {
      const std::string bus = normal_busid(f[*bus_col]);
      const auto it = by_busid.find(bus);
      if (it == by_busid.end()) {
        throw InputError(fmt::format("{}:{}: GPU {} at bus {} is not in the NCCL dump (its GPUs are at {}): the files "
                                     "come from different machines; give the CSV of the same machine",
                                     path, i + 1, *index, bus, [&] {
                                       std::vector<std::string> ids;
                                       for (const auto& [b, g] : by_busid) ids.push_back(b);
                                       return join(ids, ", ");
                                     }()));
      }
      id = it->second;
    }
    Ep* gpu = sk.find(id);
    if (gpu == nullptr || gpu->kind != "gpu") {
      std::vector<std::string> ids;
      for (const Ep* e : sk.of_kind("gpu")) ids.push_back(e->id);
      throw InputError(fmt::format("{}:{}: GPU {} is not in the skeleton ({}): the files come from different "
                                   "machines; give the CSV of the same machine",
                                   path, i + 1, *index, join(ids, ", ")));
    }
    filled.insert(id);
    const std::string where = fmt::format("{}:{}", path, i + 1);
    if (name_col) {
      const std::string name(trim(f[*name_col]));
      gpu->model = gpu->model.empty() ? name : fmt::format("{} ({})", name, gpu->model);
      if (const int version = nvlink_version_from_name(name); version > 0) {
        for (Ln& l : sk.links)
          if (l.type == "nvlink" && (l.a == id || l.b == id) && !l.values.count("version"))
            (void)keep(sk, l.values, link_key("nvlink", "version"), version, fmt::format("{} is NVLink {}", name, version),
                       fmt::format("{} NVLink version", id));
      }
    }
    if (mem_col) {
      if (const auto mib = csv_number(f[*mem_col])) {
        (void)keep(sk, gpu->memory, *schema::find(Section::memory, "capacity_gib", EndpointKind::gpu), *mib / 1024,
                   fmt::format("nvidia-smi memory.total {} MiB [{}]", number_text(*mib), where),
                   fmt::format("{}.memory.capacity_gib", id));
      }
    }
    Ln* link = device_link(sk, id);
    if (link == nullptr) continue;
    auto fill = [&](const std::optional<std::size_t>& col, std::string_view key) {
      if (!col) return;
      const auto v = csv_number(f[*col]);
      if (!v) return;
      const std::string written = number_text(*v);
      const auto it = link->values.find(key);
      if (it == link->values.end()) {
        (void)keep(sk, link->values, link_key("pcie", key), *v, fmt::format("nvidia-smi {} [{}]", header[*col], where),
                   fmt::format("link {}-{} {}", link->a, link->b, key));
      } else if (it->second.text != written) {
        sk.notes.push_back(fmt::format("link {}-{}: the NCCL dump says {} {}, {} says {} {}: the dump's kept",
                                       link->a, link->b, key, it->second.text, where, header[*col], written));
      }
    };
    fill(gen_col, "gen");
    fill(width_col, "lanes");
  }
  std::vector<std::string> missing;
  for (const Ep* e : sk.of_kind("gpu"))
    if (!filled.count(e->id)) missing.push_back(e->id);
  if (!missing.empty())
    sk.notes.push_back(fmt::format("{} has no row for {}", path, join(missing, ", ")));
}

// --- writing -------------------------------------------------------------------------------------

/// Text from a dump as one line of a YAML comment: valid UTF-8, control characters (a newline
/// would end the comment and start YAML) as blanks.
std::string comment_text(std::string_view text) {
  std::string out = valid_utf8(text);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  return out;
}

/// Text from a dump as a YAML double-quoted scalar: valid UTF-8, with quotes, backslashes and
/// control characters escaped, so that a name holding `"` or a newline cannot end the string and
/// write YAML of its own (robustness hunt 37: a net name added an endpoint to the node).
std::string yaml_quoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : valid_utf8(text)) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      out += fmt::format("\\x{:02x}", u);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

/// "key: value  # from", or "key: TODO" with the schema's hint for whoever fills it in.
std::string value_line(const schema::Key& key, const Known* known) {
  if (known != nullptr)
    return known->from.empty() ? fmt::format("{}: {}", key.name, known->text)
                               : fmt::format("{}: {}  # {}", key.name, known->text, comment_text(known->from));
  const std::string todo = fmt::format("{}: TODO", key.name);
  return key.todo.empty() ? todo : fmt::format("{:<25} # {}", todo, key.todo);
}

const Known* known_of(const Values& values, std::string_view key) {
  const auto it = values.find(key);
  return it == values.end() ? nullptr : &it->second;
}

std::string write_yaml(const Skeleton& sk, const std::string& name) {
  std::string y;
  y += "# linkcast node skeleton made by `linkcast topo import` from:\n";
  for (const auto& s : sk.sources) y += "#   " + comment_text(s) + "\n";
  y += "# Fill in every TODO (loading fails listing each one until you do), add a source comment to\n"
       "# every value (configs/SCHEMA.md), then check it with `linkcast topo FILE`.\n";
  for (const auto& n : sk.notes) y += "# note: " + comment_text(n) + "\n";
  y += "schema_version: 1\n";
  y += fmt::format("name: {}\n", name);
  y += "endpoints:\n";
  for (const auto& e : sk.endpoints) {
    const EndpointKind kind = kind_of(e.kind);
    y += fmt::format("  - id: {}\n    kind: {}\n", e.id, e.kind);
    if (!e.model.empty()) y += fmt::format("    model: {}\n", yaml_quoted(e.model));
    for (const schema::Key* k : schema::keys_of(Section::endpoint, kind)) {
      if (k->type == schema::Type::mapping) {
        y += fmt::format("    {}:\n", k->name);
        for (const schema::Key* m : schema::keys_of(k->holds, kind)) {
          const Known* known = known_of(e.memory, m->name);
          if (m->is_number() && (known != nullptr || m->required || !m->todo.empty()))
            y += "      " + value_line(*m, known) + "\n";
        }
      } else if (k->is_number()) {
        if (const Known* known = known_of(e.values, k->name)) y += "    " + value_line(*k, known) + "\n";
      }
    }
    if (!e.host.empty()) y += fmt::format("    host: {}\n", e.host);
  }
  y += "links:\n";
  for (const auto& l : sk.links) {
    y += fmt::format("  - between: [{}, {}]\n    type: {}\n", l.a, l.b, l.type);
    for (const schema::Key* k : schema::keys_of(Section::link, *model::parse_link_type(l.type))) {
      const Known* known = known_of(l.values, k->name);
      if (k->is_number() && (known != nullptr || k->required || !k->todo.empty())) y += "    " + value_line(*k, known) + "\n";
    }
    for (const auto& n : l.notes) y += "    # " + comment_text(n) + "\n";
  }
  return y;
}

}  // namespace

ImportResult import_node(const ImportInputs& inputs) {
  if (inputs.nccl_xml_path.empty() && inputs.smi_path.empty()) {
    throw InputError(fmt::format("topo import: give --nccl-xml FILE (NCCL_TOPO_DUMP_FILE output) and/or --smi FILE "
                                 "(`nvidia-smi topo -m` output){}",
                                 inputs.gpus_csv_path.empty() ? ""
                                                              : "; --gpus-csv tells the GPUs, not how they are connected"));
  }
  Skeleton sk;
  std::optional<XmlImport> xml;
  if (!inputs.nccl_xml_path.empty()) xml = XmlReader(inputs.nccl_xml_path, sk).read();
  if (!inputs.smi_path.empty()) {
    const Smi t = parse_smi(inputs.smi_path);
    if (xml) merge_smi(t, *xml, inputs.nccl_xml_path, sk);
    else skeleton_from_smi(t, sk);
  }
  if (!inputs.gpus_csv_path.empty()) {
    apply_gpus_csv(inputs.gpus_csv_path, xml ? &*xml : nullptr, sk);
    // The dump's note on hidden link widths asks for the CSV: once it filled every PCIe link's
    // lanes, the note is past.
    const bool lanes_known = std::all_of(sk.links.begin(), sk.links.end(),
                                         [](const Ln& l) { return l.type != "pcie" || l.values.count("lanes") > 0; });
    if (lanes_known) std::erase_if(sk.notes, [](const std::string& n) { return n.starts_with(kHiddenWidthNote); });
  }

  // Every CPU carries something or joins another: a CPU linked to nothing is a skeleton that
  // cannot be right.
  for (const Ep& e : sk.endpoints) {
    const bool linked = std::any_of(sk.links.begin(), sk.links.end(), [&](const Ln& l) { return l.a == e.id || l.b == e.id; });
    if (!linked && sk.endpoints.size() > 1)
      throw InputError(fmt::format("topo import: {} would be linked to nothing; the inputs do not describe one machine",
                                   e.id));
  }
  return {write_yaml(sk, inputs.name), sk.notes};
}

std::string import_skeleton(const ImportInputs& inputs) { return import_node(inputs).yaml; }

}  // namespace linkcast::topology
