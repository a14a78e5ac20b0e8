#include "topology/import.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <functional>
#include <map>
#include <pugixml.hpp>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "core/strings.hpp"
#include "topology/schema.hpp"

namespace linkcast::topology {

namespace {

// The most NVLinks any NVIDIA GPU has (H100/H200/B200: 18). A GPU whose per-peer NV counts add
// up to more than this cannot be wired directly to all those peers: it sits on an NVSwitch.
constexpr int kMaxNvlinksPerGpu = 18;

std::string read_text(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot read the {} file", path, what));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Skeleton {
  struct Ep {
    std::string id, kind, model, note;
    std::string host;
  };
  struct Ln {
    std::string a, b, type;
    int gen = 0, lanes = 0, version = 0, count = 0;
    std::string note;
  };
  std::vector<Ep> endpoints;
  std::vector<Ln> links;
  std::vector<std::string> todo;
  std::vector<std::string> sources;

  bool has(const std::string& id) const {
    return std::any_of(endpoints.begin(), endpoints.end(), [&](const Ep& e) { return e.id == id; });
  }
  void add(Ep e) {
    if (!has(e.id)) endpoints.push_back(std::move(e));
  }
};

int pcie_gen_from_speed(const std::string& speed) {
  // NCCL writes the sysfs current_link_speed, e.g. "16.0 GT/s PCIe" (Gen4) or "32.0 GT/s PCIe".
  const double gts = std::atof(speed.c_str());
  if (gts >= 60) return 6;
  if (gts >= 30) return 5;
  if (gts >= 15) return 4;
  if (gts >= 7.5) return 3;
  if (gts >= 4.5) return 2;
  if (gts > 0) return 1;
  return 0;
}

int nvlink_version_from_sm(int sm) {
  if (sm >= 100) return 5;
  if (sm >= 90) return 4;
  if (sm >= 80) return 3;
  if (sm >= 70) return 2;
  if (sm >= 60) return 1;
  return 0;
}

void import_nccl_xml(const std::string& path, Skeleton& sk) {
  pugi::xml_document doc;
  const pugi::xml_parse_result ok = doc.load_file(path.c_str());
  if (!ok) {
    throw InputError(fmt::format("{}: not a readable NCCL topology XML (offset {}: {}); produce it "
                                 "with NCCL_TOPO_DUMP_FILE=<file> during any NCCL run",
                                 path, ok.offset, ok.description()));
  }
  const pugi::xml_node system = doc.child("system");
  if (!system) throw InputError(fmt::format("{}: no <system> element; this is not an NCCL topology dump", path));
  sk.sources.push_back(fmt::format("NCCL topology dump {}", path));

  std::map<std::string, std::string> busid_to_id;  // GPU bus id -> gpuN
  std::vector<std::tuple<std::string, std::string, int, std::string>> nvlinks;  // gpu, target busid, count, tclass
  int switch_count = 0;
  std::map<std::string, int> gpu_sm;

  // Walk <pci> subtrees under one cpu; `parent` is the endpoint id the current pci hangs from.
  std::function<void(const pugi::xml_node&, const std::string&)> walk = [&](const pugi::xml_node& pci,
                                                                          const std::string& parent) {
    for (const pugi::xml_node& child : pci.children()) {
      const std::string tag = child.name();
      if (tag == "pci") {
        const std::string cls = child.attribute("class").as_string();
        const int gen = pcie_gen_from_speed(child.attribute("link_speed").as_string());
        const int lanes = child.attribute("link_width").as_int();
        const pugi::xml_node gpu = child.child("gpu");
        if (gpu) {
          const std::string id = fmt::format("gpu{}", gpu.attribute("dev").as_int());
          const int sm = gpu.attribute("sm").as_int();
          gpu_sm[id] = sm;
          sk.add({id, "gpu", fmt::format("sm_{} GPU at {}", sm, child.attribute("busid").as_string()),
                  "memory: TODO", ""});
          busid_to_id[to_lower(child.attribute("busid").as_string())] = id;
          sk.links.push_back({parent, id, "pcie", gen, lanes, 0, 0, ""});
          for (const pugi::xml_node& nv : gpu.children("nvlink"))
            nvlinks.emplace_back(id, to_lower(nv.attribute("target").as_string()), nv.attribute("count").as_int(),
                                 nv.attribute("tclass").as_string());
        } else if (cls.starts_with("0x0604")) {  // PCI-to-PCI bridge: a PCIe switch port
          const std::string id = fmt::format("pcisw{}", switch_count++);
          sk.add({id, "pcie_switch", fmt::format("PCIe switch at {}", child.attribute("busid").as_string()), "", ""});
          sk.links.push_back({parent, id, "pcie", gen, lanes, 0, 0, ""});
          walk(child, id);
        } else if (child.child("nic")) {
          walk(child, parent);
        } else {
          walk(child, parent);
        }
      } else if (tag == "nic") {
        for (const pugi::xml_node& net : child.children("net")) {
          const std::string id = fmt::format("nic{}", net.attribute("dev").as_int());
          const double gbps = net.attribute("speed").as_double() / 8000.0;  // Mb/s -> GB/s
          sk.add({id, "nic", fmt::format("{} {:g} Gb/s", net.attribute("name").as_string(), gbps * 8), "", ""});
          if (parent != id) sk.links.push_back({parent, id, "pcie", 0, 0, 0, 0, "gen/lanes: TODO (NCCL did not report the NIC's link)"});
        }
      }
    }
  };

  std::vector<std::string> cpus;
  for (const pugi::xml_node& cpu : system.children("cpu")) {
    // Virtual machines report numaid -1: call that socket cpu0.
    const std::string id = fmt::format("cpu{}", std::max(0, cpu.attribute("numaid").as_int()));
    cpus.push_back(id);
    sk.add({id, "cpu",
            fmt::format("{} {} family {} model {}", cpu.attribute("arch").as_string(), cpu.attribute("vendor").as_string(),
                        cpu.attribute("familyid").as_string(), cpu.attribute("modelid").as_string()),
            "memory: TODO", ""});
    walk(cpu, id);
  }
  if (cpus.empty()) throw InputError(fmt::format("{}: no <cpu> element under <system>", path));
  for (std::size_t i = 0; i + 1 < cpus.size(); ++i)
    sk.links.push_back({cpus[i], cpus[i + 1], "upi", 0, 0, 0, 0, "type and bandwidth: TODO (not in the NCCL dump)"});

  bool fabric = false;
  for (const auto& [gpu, target, count, tclass] : nvlinks) {
    const int version = nvlink_version_from_sm(gpu_sm[gpu]);
    if (tclass == "0x068000") {  // NVSwitch (PCI class "bridge, other")
      if (!fabric) sk.add({"nvswitch0", "nvswitch", "NVSwitch fabric (one vertex, as in NCCL)", "", ""});
      fabric = true;
      sk.links.push_back({gpu, "nvswitch0", "nvlink", 0, 0, version, count, ""});
    } else if (busid_to_id.count(target)) {
      const std::string& peer = busid_to_id[target];
      if (gpu < peer) sk.links.push_back({gpu, peer, "nvlink", 0, 0, version, count, ""});
    } else {
      sk.todo.push_back(fmt::format("{} has {} NVLinks to {} (tclass {}): a CPU? add the link by hand",
                                    gpu, count, target, tclass));
    }
  }
}

// nvidia-smi colours its matrix on a terminal: drop ESC [ digits/semicolons m sequences.
std::string strip_ansi_colours(const std::string& line) {
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

void import_smi(const std::string& path, Skeleton& sk) {
  const std::string text = read_text(path, "nvidia-smi topo -m");
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) {
    line = strip_ansi_colours(line);
    std::vector<std::string> cells;
    std::istringstream ls(line);
    for (std::string c; ls >> c;) cells.push_back(c);
    if (cells.empty()) continue;
    if (columns.empty() && cells[0].starts_with("GPU0")) {
      columns = cells;  // header: GPU0 GPU1 ... NIC0 ... CPU Affinity NUMA Affinity ...
      continue;
    }
    if (!columns.empty() && cells[0].starts_with("GPU") && cells.size() > 1) rows.push_back(cells);
  }
  if (columns.empty() || rows.empty()) {
    throw InputError(fmt::format("{}: no GPU matrix found; expected the output of `nvidia-smi topo -m` "
                                 "(a header line starting with GPU0)", path));
  }
  sk.sources.push_back(fmt::format("nvidia-smi topo -m output {}", path));
  std::size_t ngpu = 0;
  while (ngpu < columns.size() && columns[ngpu].starts_with("GPU")) ++ngpu;
  // The NUMA affinity column is the last number-like cell after the matrix and CPU affinity.
  std::map<std::string, std::string> host_of;
  for (const auto& r : rows) {
    const std::string gpu = "gpu" + r[0].substr(3);
    std::string numa = "0";
    if (r.size() >= ngpu + 3) {
      // cells: GPUi, ngpu matrix cells, NIC cells..., CPU affinity, NUMA affinity, [GPU NUMA ID]
      for (std::size_t k = r.size(); k-- > 1;) {
        if (std::all_of(r[k].begin(), r[k].end(), ::isdigit) && k >= ngpu + 2) { numa = r[k]; break; }
      }
    }
    host_of[gpu] = "cpu" + numa;
  }
  std::set<std::string> cpu_ids;
  for (const auto& [gpu, cpu] : host_of) cpu_ids.insert(cpu);
  for (const std::string& cpu : cpu_ids) sk.add({cpu, "cpu", "", "memory: TODO", ""});
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string gpu = "gpu" + rows[i][0].substr(3);
    sk.add({gpu, "gpu", "", "memory: TODO", host_of[gpu]});
  }
  // NVLink: NV# cells. A GPU whose NV counts add up past kMaxNvlinksPerGpu is on an NVSwitch.
  bool switched = false;
  for (const auto& r : rows) {
    int sum = 0;
    for (std::size_t j = 1; j <= ngpu && j < r.size(); ++j)
      if (r[j].starts_with("NV")) sum += std::atoi(r[j].c_str() + 2);
    if (sum > kMaxNvlinksPerGpu) switched = true;
  }
  const bool have_nvlinks = std::any_of(sk.links.begin(), sk.links.end(), [](const auto& l) { return l.type == "nvlink"; });
  if (!have_nvlinks) {
    if (switched) {
      sk.add({"nvswitch0", "nvswitch", "NVSwitch fabric (inferred: NV counts exceed any GPU's links)", "", ""});
      for (const auto& r : rows) {
        int count = 0;
        for (std::size_t j = 1; j <= ngpu && j < r.size(); ++j)
          if (r[j].starts_with("NV")) count = std::max(count, std::atoi(r[j].c_str() + 2));
        if (count > 0)
          sk.links.push_back({"gpu" + r[0].substr(3), "nvswitch0", "nvlink", 0, 0, 0, count, "version: TODO"});
      }
    } else {
      for (std::size_t i = 0; i < rows.size(); ++i)
        for (std::size_t j = i + 2; j <= ngpu && j < rows[i].size(); ++j)
          if (rows[i][j].starts_with("NV"))
            sk.links.push_back({"gpu" + rows[i][0].substr(3), fmt::format("gpu{}", j - 1), "nvlink", 0, 0, 0,
                                std::atoi(rows[i][j].c_str() + 2), "version: TODO"});
    }
  }
  const bool have_host_links = std::any_of(sk.links.begin(), sk.links.end(), [](const auto& l) { return l.type == "pcie"; });
  if (!have_host_links) {
    // PIX pairs share a PCIe switch; without the NCCL dump we cannot see more structure.
    std::map<std::string, std::string> switch_of;
    int sw = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const std::string gi = "gpu" + rows[i][0].substr(3);
      for (std::size_t j = 1; j <= ngpu && j < rows[i].size(); ++j) {
        const std::string gj = fmt::format("gpu{}", j - 1);
        if (rows[i][j] == "PIX" && gi != gj) {
          if (!switch_of.count(gi) && !switch_of.count(gj)) {
            const std::string id = fmt::format("pcisw{}", sw++);
            sk.add({id, "pcie_switch", "PCIe switch (inferred from PIX)", "", ""});
            sk.links.push_back({host_of[gi], id, "pcie", 0, 0, 0, 0, "gen/lanes: TODO"});
            switch_of[gi] = id;
          }
          if (!switch_of.count(gi)) switch_of[gi] = switch_of[gj];
          if (!switch_of.count(gj)) switch_of[gj] = switch_of[gi];
        }
      }
    }
    for (const auto& r : rows) {
      const std::string g = "gpu" + r[0].substr(3);
      sk.links.push_back({switch_of.count(g) ? switch_of[g] : host_of[g], g, "pcie", 0, 0, 0, 0, "gen/lanes: TODO"});
    }
    std::vector<std::string> cpus(cpu_ids.begin(), cpu_ids.end());
    for (std::size_t i = 0; i + 1 < cpus.size(); ++i)
      sk.links.push_back({cpus[i], cpus[i + 1], "upi", 0, 0, 0, 0, "type and bandwidth: TODO"});
  }
}

/// What the inputs told of a link's value, or "" (the skeleton then writes TODO).
std::string known_value(const Skeleton::Ln& l, std::string_view key) {
  if (key == "gen" && l.gen > 0) return std::to_string(l.gen);
  if (key == "lanes" && l.lanes > 0) return std::to_string(l.lanes);
  if (key == "version" && l.version > 0) return std::to_string(l.version);
  if (key == "count") return std::to_string(l.count);
  return "";
}

/// "key: value", or "key: TODO" with the schema's hint for whoever fills it in.
std::string value_line(const schema::Key& key, const std::string& known) {
  if (!known.empty()) return fmt::format("{}: {}", key.name, known);
  const std::string todo = fmt::format("{}: TODO", key.name);
  return key.todo.empty() ? todo : fmt::format("{:<25} # {}", todo, key.todo);
}

}  // namespace

std::string import_skeleton(const ImportInputs& inputs) {
  if (inputs.nccl_xml_path.empty() && inputs.smi_path.empty())
    throw InputError("topo import: give --nccl-xml FILE (NCCL_TOPO_DUMP_FILE output) and/or --smi FILE "
                     "(`nvidia-smi topo -m` output)");
  Skeleton sk;
  if (!inputs.nccl_xml_path.empty()) import_nccl_xml(inputs.nccl_xml_path, sk);
  if (!inputs.smi_path.empty()) import_smi(inputs.smi_path, sk);

  std::string y;
  y += "# linkcast node skeleton made by `linkcast topo import` from:\n";
  for (const auto& s : sk.sources) y += "#   " + s + "\n";
  y += "# Fill in every TODO (loading fails at each one until you do), add a source comment to\n"
       "# every value (configs/SCHEMA.md), then check it with `linkcast topo FILE`.\n";
  for (const auto& t : sk.todo) y += "# TODO: " + t + "\n";
  y += "schema_version: 1\n";
  y += fmt::format("name: {}\n", inputs.name);
  y += "endpoints:\n";
  static const std::vector<std::string> kinds = endpoint_kind_names();
  for (const auto& e : sk.endpoints) {
    y += fmt::format("  - id: {}\n    kind: {}\n", e.id, e.kind);
    if (!e.model.empty()) y += fmt::format("    model: \"{}\"\n", e.model);
    const auto kind = static_cast<EndpointKind>(std::find(kinds.begin(), kinds.end(), e.kind) - kinds.begin());
    for (const schema::Key* k : schema::keys_of(schema::Section::endpoint, kind)) {
      if (k->type != schema::Type::mapping) continue;
      y += fmt::format("    {}:\n", k->name);
      for (const schema::Key* m : schema::keys_of(k->holds, kind))
        if (m->is_number() && (m->required || !m->todo.empty())) y += "      " + value_line(*m, "") + "\n";
    }
    if (!e.host.empty()) y += fmt::format("    host: {}\n", e.host);
  }
  y += "links:\n";
  for (const auto& l : sk.links) {
    y += fmt::format("  - between: [{}, {}]\n    type: {}\n", l.a, l.b, l.type);
    for (const schema::Key* k : schema::keys_of(schema::Section::link, *model::parse_link_type(l.type)))
      if (k->is_number() && (k->required || !k->todo.empty())) y += "    " + value_line(*k, known_value(l, k->name)) + "\n";
    if (!l.note.empty()) y += "    # " + l.note + "\n";
  }
  return y;
}

}  // namespace linkcast::topology
