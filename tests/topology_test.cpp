// topology: loading and validating node files (each error message asserted), routes on the
// shipped nodes, the pair classes, and `topo import`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/strings.hpp"
#include "core/yaml.hpp"
#include "test_util.hpp"
#include "topology/describe.hpp"
#include "topology/edit.hpp"
#include "topology/import.hpp"
#include "topology/loader.hpp"
#include "topology/schema.hpp"

namespace linkcast::topology {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::ThrowsMessage;
using ::testing::StrEq;

// A small two-socket node used by the error tests: errors are reported at file:line:column.
constexpr const char* kMini = R"(schema_version: 1
name: mini
endpoints:
  - id: cpu0
    kind: cpu
    memory: {capacity_gib: 256, bandwidth_gbps: 170}
  - id: cpu1
    kind: cpu
    memory: {capacity_gib: 256, bandwidth_gbps: 170}
  - id: gpu0
    kind: gpu
    memory: {capacity_gib: 16, bandwidth_gbps: 900}
  - id: gpu1
    kind: gpu
    memory: {capacity_gib: 16, bandwidth_gbps: 900}
links:
  - {between: [cpu0, gpu0], type: nvlink, version: 2, count: 2}
  - {between: [cpu1, gpu1], type: nvlink, version: 2, count: 2}
  - {between: [cpu0, cpu1], type: xbus, bandwidth_gbps: 64}
)";

std::string error_of(const std::string& yaml) {
  return test::error_of([&] { (void)parse_node(yaml, "node.yaml"); });
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  EXPECT_THAT(s, HasSubstr(from));
  return s.replace(s.find(from), from.size(), to);
}

TEST(Loader, AcceptsTheMiniNode) {
  const Node n = parse_node(kMini, "node.yaml");
  EXPECT_EQ(n.endpoints.size(), 4u);
  EXPECT_EQ(n.links.size(), 3u);
  EXPECT_EQ(n.links[0].id, "cpu0-gpu0");
  // gpu1's host socket is the nearest cpu by route: cpu1.
  EXPECT_EQ(n.endpoints[3].host, n.find("cpu1"));
}

TEST(Loader, UnknownKeySuggestsTheNearestValidKey) {
  EXPECT_EQ(error_of(replace(kMini, "version: 2, count: 2}\n  - {between: [cpu1", "version: 2, cuont: 2}\n  - {between: [cpu1")),
            "node.yaml:17:55: links[0] (nvlink link): unknown key 'cuont' (did you mean 'count'?); valid keys: "
            "between, type, id, latency_ns, version, count, per_link_gbps");
}

TEST(Loader, ZeroBandwidthIsRejectedWithTheFix) {
  EXPECT_EQ(error_of(replace(kMini, "bandwidth_gbps: 64", "bandwidth_gbps: 0")),
            "node.yaml:19:57: links[2] (cpu0-cpu1).bandwidth_gbps must be > 0, got 0; give the real value from "
            "the datasheet");
  EXPECT_EQ(error_of(replace(kMini, "capacity_gib: 16, bandwidth_gbps: 900}\n  - id: gpu1",
                             "capacity_gib: 16, bandwidth_gbps: -900}\n  - id: gpu1")),
            "node.yaml:12:48: endpoint 'gpu0'.memory.bandwidth_gbps must be > 0, got -900; give the real value "
            "from the datasheet");
}

TEST(Loader, DuplicateIdsAreRejected) {
  EXPECT_EQ(error_of(replace(kMini, "  - id: cpu1\n", "  - id: cpu0\n")),
            "node.yaml:7:9: duplicate endpoint id 'cpu0' (first defined on line 4); give each endpoint a unique id");
}

TEST(Loader, LinksToUnknownEndpointsAreRejected) {
  EXPECT_EQ(error_of(replace(kMini, "[cpu1, gpu1]", "[cpu1, gpu7]")),
            "node.yaml:18:22: links[1].between names unknown endpoint 'gpu7' (did you mean 'gpu0'?); define it "
            "under endpoints first");
}

TEST(Loader, AGpuWithoutARouteToAHostIsRejected) {
  EXPECT_EQ(error_of(replace(kMini, "  - {between: [cpu1, gpu1], type: nvlink, version: 2, count: 2}\n", "")),
            "node.yaml:13:5: gpu 'gpu1' has no route to any cpu; add a link (e.g. PCIe or NVLink) from it, or "
            "from a switch it connects to, to a cpu");
}

TEST(Loader, YamlSyntaxErrorsNameLineAndColumn) {
  // The message names where parsing gave up and where the unclosed sequence began.
  EXPECT_EQ(error_of("schema_version: 1\nname: [x\n"),
            "node.yaml:3:1: YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence at "
            "line 2, column 7)");
}

TEST(Loader, SchemaErrorsNameTheKey) {
  EXPECT_EQ(error_of(replace(kMini, "schema_version: 1", "schema_version: 2")),
            "node.yaml:1:17: schema_version 2 is not supported; this linkcast reads version 1");
  EXPECT_EQ(error_of(replace(kMini, "type: xbus, bandwidth_gbps: 64", "type: xbuss, bandwidth_gbps: 64")),
            "node.yaml:19:35: links[2]: unknown link type 'xbuss' (did you mean 'xbus'?); valid types: pcie, "
            "nvlink, xbus, upi, qpi, infinity_fabric, nvlink_c2c, hypertransport, generic");
  EXPECT_EQ(error_of(replace(kMini, "    kind: gpu\n    memory: {capacity_gib: 16, bandwidth_gbps: 900}\n  - id: gpu1",
                             "    kind: gpu\n  - id: gpu1")),
            "node.yaml:10:5: endpoint 'gpu0': missing required key 'memory'");
  EXPECT_EQ(error_of(replace(kMini, "name: mini\n", "name: mini\nnmae: x\n")),
            "node.yaml:3:1: top level: unknown key 'nmae' (did you mean 'name'?); valid keys: schema_version, name, "
            "description, endpoints, links, calibration, routes, sources");
  EXPECT_EQ(error_of(replace(kMini, "  - id: gpu0\n    kind: gpu\n", "  - id: gpu0\n    kind: gpu\n    copy_engines: many\n")),
            "node.yaml:12:19: endpoint 'gpu0'.copy_engines must be a number, got 'many'");
}

TEST(Loader, PcieParametersAreChecked) {
  const std::string with_pcie = replace(kMini, "  - {between: [cpu0, cpu1], type: xbus, bandwidth_gbps: 64}",
                                        "  - {between: [cpu0, cpu1], type: xbus, bandwidth_gbps: 64}\n"
                                        "  - {between: [cpu0, gpu1], type: pcie, gen: 7, lanes: 16}");
  EXPECT_EQ(error_of(with_pcie), "node.yaml:20:46: links[3] (cpu0-gpu1).gen must be one of 1, 2, 3, 4, 5, 6, got 7");
}

/// The mini node with one more link line (line 20).
std::string with_link(const std::string& link) {
  return replace(kMini, "  - {between: [cpu0, cpu1], type: xbus, bandwidth_gbps: 64}",
                 "  - {between: [cpu0, cpu1], type: xbus, bandwidth_gbps: 64}\n  - " + link);
}

TEST(Loader, NumbersMustBeDecimalAndFinite) {
  // strtod read '0x10' as 16; a node file writes numbers in decimal.
  EXPECT_THAT(error_of(with_link("{between: [cpu0, gpu1], type: pcie, gen: 4, lanes: '0x10'}")),
              HasSubstr("node.yaml:20:56: links[3] (cpu0-gpu1).lanes must be a decimal number, got '0x10' "
                        "(hexadecimal); write 16"));
  EXPECT_THAT(error_of(replace(kMini, "bandwidth_gbps: 64", "bandwidth_gbps: '0x10'")),
              HasSubstr("links[2] (cpu0-cpu1).bandwidth_gbps must be a decimal number, got '0x10' (hexadecimal); "
                        "write 16"));
  EXPECT_THAT(error_of(replace(kMini, "bandwidth_gbps: 64", "bandwidth_gbps: 1e9999")),
              HasSubstr("links[2] (cpu0-cpu1).bandwidth_gbps must be a number, got '1e9999'"));
  EXPECT_THAT(error_of(replace(kMini, "bandwidth_gbps: 64", "bandwidth_gbps: 64 GB/s")),
              HasSubstr("links[2] (cpu0-cpu1).bandwidth_gbps must be a number, got '64 GB/s'"));
  for (const char* bad : {"nan", "inf", "-inf", ".nan"}) {
    const std::string e = error_of(replace(kMini, "bandwidth_gbps: 64", std::string("bandwidth_gbps: ") + bad));
    EXPECT_THAT(e, HasSubstr("links[2] (cpu0-cpu1).bandwidth_gbps must be")) << bad;
    EXPECT_THAT(e, HasSubstr(std::string("got '") + bad + "'")) << bad;
  }
  // A positive value so small no hardware has it is a slip, not a rate.
  EXPECT_THAT(error_of(replace(kMini, "bandwidth_gbps: 64", "bandwidth_gbps: 1e-300")),
              HasSubstr("links[2] (cpu0-cpu1).bandwidth_gbps must be between 0.01 and 10000 GB/s, got 1e-300"));
  EXPECT_THAT(error_of(std::string(kMini) + "calibration: {h2d_pinned_ns: 1e-300}\n"),
              HasSubstr("node.yaml:20:30: calibration.h2d_pinned_ns must be between 1 and 100000000 ns, got 1e-300"));
}

TEST(Loader, WholeNumbersMustFitAnInt) {
  EXPECT_THAT(error_of(replace(kMini, "version: 2, count: 2}\n  - {between: [cpu1", "version: 2, count: 3e9}\n  - {between: [cpu1")),
              HasSubstr("node.yaml:17:62: links[0] (cpu0-gpu0).count must be a whole number, got 3e9"));
  EXPECT_THAT(error_of(replace(kMini, "version: 2, count: 2}\n  - {between: [cpu1",
                               "version: 2, count: 99999999999999999999}\n  - {between: [cpu1")),
              HasSubstr("links[0] (cpu0-gpu0).count must be a whole number, got 99999999999999999999"));
  EXPECT_THAT(error_of(replace(kMini, "schema_version: 1", "schema_version: 4294967297")),
              HasSubstr("node.yaml:1:17: schema_version must be a whole number, got 4294967297"));
}

TEST(Loader, ImplausibleHardwareValuesAreRefusedWithTheRange) {
  // Host memory bandwidth written in MB/s.
  EXPECT_THAT(error_of(replace(kMini, "{capacity_gib: 256, bandwidth_gbps: 170}\n  - id: cpu1",
                               "{capacity_gib: 256, bandwidth_gbps: 170000}\n  - id: cpu1")),
              HasSubstr("node.yaml:6:49: endpoint 'cpu0'.memory.bandwidth_gbps must be between 1 and 10000 GB/s, got "
                        "170000: host memory delivers up to a few TB/s per socket; check the value and its unit"));
  // GPU memory written in MiB.
  EXPECT_THAT(error_of(replace(kMini, "{capacity_gib: 16, bandwidth_gbps: 900}\n  - id: gpu1",
                               "{capacity_gib: 16384, bandwidth_gbps: 900}\n  - id: gpu1")),
              HasSubstr("endpoint 'gpu0'.memory.capacity_gib must be between 0.001 and 1024 GiB, got 16384: no GPU has "
                        "more than 1 TiB of memory"));
  EXPECT_THAT(error_of(with_link("{between: [cpu0, gpu1], type: pcie, gen: 4, lanes: 3}")),
              HasSubstr("links[3] (cpu0-gpu1).lanes must be one of 1, 2, 4, 8, 16, 32, got 3"));
  EXPECT_THAT(error_of(with_link("{between: [cpu0, gpu1], type: pcie, gen: 4, lanes: 16, mps: 100}")),
              HasSubstr("links[3] (cpu0-gpu1).mps must be one of 128, 256, 512, 1024, 2048, 4096, got 100"));
  EXPECT_THAT(error_of(with_link("{between: [cpu0, gpu1], type: nvlink, version: 4, count: 18, per_link_gbps: 2500}")),
              HasSubstr("links[3] (cpu0-gpu1).per_link_gbps must be between 0.1 and 1000 GB/s, got 2500"));
  EXPECT_THAT(error_of(with_link("{between: [cpu0, gpu1], type: upi, bandwidth_gbps: 50, latency_ns: 5e9}")),
              HasSubstr("links[3] (cpu0-gpu1).latency_ns must be between 0 and 1000000 ns, got 5e9"));
  EXPECT_THAT(error_of(replace(kMini, "  - id: gpu0\n    kind: gpu\n", "  - id: gpu0\n    kind: gpu\n    copy_engines: 500\n")),
              HasSubstr("node.yaml:12:19: endpoint 'gpu0'.copy_engines must be between 1 and 64, got 500"));
  const std::string nvswitch = "  - {id: sw0, kind: nvswitch, chips: 0}\nlinks:";
  EXPECT_THAT(error_of(replace(kMini, "links:", nvswitch)),
              HasSubstr("node.yaml:16:38: endpoint 'sw0'.chips must be between 1 and 1024, got 0"));
}

TEST(Loader, KeysOfTheWrongYamlTypeAreRefused) {
  EXPECT_EQ(error_of(std::string(kMini) + "calibration: [1, 2]\n"),
            "node.yaml:20:14: calibration must be a mapping (key: value)");
  EXPECT_EQ(error_of(std::string(kMini) + "calibration: 5\n"), "node.yaml:20:14: calibration must be a mapping (key: value)");
  EXPECT_EQ(error_of(std::string(kMini) + "calibration:\n"), "node.yaml:21:1: calibration must be a mapping (key: value)");
  EXPECT_EQ(error_of(replace(kMini, "name: mini", "name: [mini]")), "node.yaml:2:7: name must be a single value");
  EXPECT_EQ(error_of(replace(kMini, "name: mini", "name: {a: mini}")), "node.yaml:2:7: name must be a single value");
  EXPECT_EQ(error_of(replace(kMini, "name: mini", "name: ~")), "node.yaml:2:7: name must be a single value");
  EXPECT_EQ(error_of(replace(kMini, "bandwidth_gbps: 64", "bandwidth_gbps: [64]")),
            "node.yaml:19:57: links[2] (cpu0-cpu1).bandwidth_gbps must be a number");
  EXPECT_EQ(error_of(std::string(kMini) + "calibration: {d2d_ns: {a: 1}}\n"),
            "node.yaml:20:23: calibration.d2d_ns must be a number");
}

TEST(Loader, SourcesAreCheckedAndKeysUnique) {
  const std::string head = "schema_version: 1\nname: mini\n";
  auto with_sources = [&](const std::string& sources) { return replace(kMini, head, head + sources); };
  const Node n = parse_node(with_sources("sources:\n  - {key: v100-datasheet, title: \"NVIDIA Tesla V100 datasheet\", "
                                         "url: https://images.nvidia.com/v100.pdf}\n  - {key: lscpu, title: "
                                         "\"lscpu of the machine\", file: tests/data/real/h100-1gpu/machine/lscpu.txt}\n"),
                            "node.yaml");
  EXPECT_EQ(n.endpoints.size(), 4u);
  EXPECT_EQ(error_of(with_sources("sources:\n  - {key: a, title: A}\n  - {key: a, title: B}\n")),
            "node.yaml:5:11: sources[1]: duplicate source key 'a' (first defined on line 4); give each source its own key");
  EXPECT_THAT(error_of(with_sources("sources:\n  - {key: H200 brief, title: A}\n")),
              HasSubstr("node.yaml:4:11: sources[0].key 'H200 brief' must be lower-case letters, digits, '-' and '.'"));
  EXPECT_EQ(error_of(with_sources("sources:\n  - {key: a, title: A, url: www.nvidia.com}\n")),
            "node.yaml:4:29: sources[0].url must start with https:// or http://, got 'www.nvidia.com'");
  EXPECT_EQ(error_of(with_sources("sources:\n  - {key: a}\n")), "node.yaml:4:5: sources[0]: missing required key 'title'");
  EXPECT_THAT(error_of(with_sources("sources:\n  - {key: a, title: A, page: 3}\n")),
              HasSubstr("sources[0]: unknown key 'page'; valid keys: key, title, url, file"));
  EXPECT_EQ(error_of(with_sources("sources: {key: a}\n")),
            "node.yaml:3:10: sources must be a list of {key: ..., title: ..., url: ...}");
}

TEST(Loader, AStudyGivenAsANodeIsNamedAsOne) {
  // A study given where a node goes (a study's `base:` naming itself, in round 26's hunt) said
  // "unknown key 'study_version'; valid keys: schema_version, ...": right, and not what to do.
  EXPECT_EQ(error_of("study_version: 1\nname: s\nbase: hgx-h100.yaml\n"),
            "node.yaml: a study file (study_version), not a node; a study goes to `linkcast sweep`, and a node "
            "(schema_version) where a node is asked for");
}

TEST(Loader, ASecondYamlDocumentIsRefused) {
  // A robustness hunt (round 26): a node file followed by `---` and another document (two files
  // joined) loaded the first and dropped the second unsaid. An empty document after `---` is none.
  EXPECT_EQ(error_of(std::string(kMini) + "---\nschema_version: 1\n"),
            "node.yaml:21:1: a second YAML document (after `---`); a node or study file is one document: two files "
            "joined? Give them one by one");
  EXPECT_NO_THROW((void)parse_node(std::string(kMini) + "---\n", "node.yaml"));
  // A ',' outside any flow list (a study file the fuzzer made, tests/data/fuzz/regressions/
  // study_yaml/stray-comma-*): yaml-cpp's parser returns empty documents without end there, and
  // reading every document (YAML::LoadAll) hung, its memory growing past 2 GB. A syntax error.
  EXPECT_EQ(error_of("# PCI4, 5]\n, 5]\n"), "node.yaml:2:1: YAML syntax error: found ',' outside any flow list or map");
}

TEST(Loader, AliasesCannotExpandANodeFileWithoutBound) {
  // A "billion laughs" node file: refused in well under a second, with the file and position.
  std::string text = replace(kMini, "links:", "  - {id: x0, kind: nic, model: &m0 [a, a, a, a, a, a, a, a, a, a]}\nlinks:");
  for (int level = 1; level <= 8; ++level) {
    std::string list;
    for (int k = 0; k < 10; ++k) list += fmt::format("{}*m{}", k ? ", " : "", level - 1);
    text = replace(text, "links:", fmt::format("  - {{id: x{0}, kind: nic, model: &m{0} [{1}]}}\nlinks:", level, list));
  }
  EXPECT_THAT([&] { (void)parse_node(text, "node.yaml"); },
              ThrowsMessage<InputError>(HasSubstr("YAML nodes once its aliases are expanded")));
}

TEST(Loader, ExplicitRoutesMustFollowLinks) {
  const std::string routed = std::string(kMini) + "routes:\n  - {from: gpu0, to: gpu1, via: [cpu1]}\n";
  EXPECT_EQ(error_of(routed),
            "node.yaml:21:5: routes[0]: no link joins 'gpu0' and 'cpu1'; an explicit route must follow links of "
            "the node (add the link or fix 'via')");
}

TEST(Loader, ARouteThatLoopsOrIsGivenTwiceIsRefused) {
  // A robustness hunt (round 26): via [cpu0, gpu0, cpu0] loaded, and simulate then stopped with
  // "internal error: FlowNetwork::add_route: a resource twice in one route" (exit 1); two routes
  // for one pair loaded, one of them unused.
  const std::string loop = std::string(kMini) + "routes:\n  - {from: gpu0, to: gpu1, via: [cpu0, gpu0, cpu0]}\n";
  EXPECT_EQ(error_of(loop), "node.yaml:21:5: routes[0]: 'gpu0' comes twice on the route from 'gpu0' to 'gpu1'; a route "
                            "passes each endpoint once (remove the loop from 'via')");
  const std::string self = std::string(kMini) + "routes:\n  - {from: gpu0, to: gpu0, via: [cpu0]}\n";
  EXPECT_THAT(error_of(self), HasSubstr("routes[0]: 'gpu0' comes twice on the route from 'gpu0' to 'gpu0'"));
  const std::string twice = std::string(kMini) + "routes:\n  - {from: gpu0, to: gpu1, via: [cpu0, cpu1]}\n"
                                                 "  - {from: gpu1, to: gpu0, via: [cpu1, cpu0]}\n";
  EXPECT_EQ(error_of(twice), "node.yaml:22:5: routes[1]: routes[0] (line 21) and routes[1] (line 22) both route 'gpu0' "
                             "to 'gpu1': routes[1] is symmetric (the default) and so routes the way back too; give it "
                             "`symmetric: false` for routes that differ each way");
  // A robustness hunt (round 29): with routes[0] one-way, the message blamed routes[0] for the
  // direction routes[1]'s own reverse sets.
  const std::string one_way_then_both = std::string(kMini) +
                                        "routes:\n  - {from: gpu0, to: gpu1, via: [cpu0, cpu1], symmetric: false}\n"
                                        "  - {from: gpu1, to: gpu0, via: [cpu1, cpu0]}\n";
  EXPECT_THAT(error_of(one_way_then_both), HasSubstr("both route 'gpu0' to 'gpu1': routes[1] is symmetric"));
  const std::string same_way = std::string(kMini) + "routes:\n  - {from: gpu0, to: gpu1, via: [cpu0, cpu1]}\n"
                                                    "  - {from: gpu0, to: gpu1, via: [cpu0, cpu1]}\n";
  EXPECT_EQ(error_of(same_way), "node.yaml:22:5: routes[1]: a second route from 'gpu0' to 'gpu1' (routes[0] gives one, "
                                "line 21); give each pair one route");
  const std::string each_way = std::string(kMini) +
                               "routes:\n  - {from: gpu0, to: gpu1, via: [cpu0, cpu1], symmetric: false}\n"
                               "  - {from: gpu1, to: gpu0, via: [cpu1, cpu0], symmetric: false}\n";
  EXPECT_NO_THROW((void)parse_node(each_way, "node.yaml"));
}

TEST(Loader, GpuIdsAreTheIndicesTracesWrite) {
  // A robustness hunt (round 26): gpu00 loaded beside gpu0, and a trace's gpu0 then meant both
  // (an allreduce of gpu0 with itself); gpu99999999999999999999 loaded too.
  for (const std::string id : {"gpu00", "gpu01", "gpu4096", "gpu99999999999999999999"})
    EXPECT_THAT(error_of(replace(kMini, "id: gpu1\n", "id: " + id + "\n")),
                HasSubstr("endpoint '" + id + "': a gpu's id must be gpu<N>, N from 0 to 4095 without leading zeros "
                          "(e.g. gpu0)"))
        << id;
  EXPECT_THAT(error_of(replace(kMini, "id: cpu1\n", "id: cpu007\n")),
              HasSubstr("a cpu's id must be cpu<N>, N from 0 to 4095 without leading zeros"));
}

TEST(Loader, ASecondLinkOfOneTypeBetweenTwoEndpointsIsRefused) {
  // A robustness hunt (round 26): two nvlink entries for one pair loaded and were listed, but the
  // route took one of them (a copy ran as over one link). Two types stay (a Grace GPU's
  // NVLink-C2C beside its PCIe link: the route takes the better; ImportField.AGraceDump...).
  const std::string twice =
      replace(kMini, "  - {between: [cpu0, cpu1], type: xbus, bandwidth_gbps: 64}\n",
              "  - {between: [cpu0, cpu1], type: xbus, bandwidth_gbps: 64}\n  - {between: [gpu0, cpu0], type: nvlink, "
              "version: 2, count: 2}\n");
  EXPECT_EQ(error_of(twice), "node.yaml:20:15: links[3]: a second nvlink link between 'gpu0' and 'cpu0' (link "
                             "'cpu0-gpu0', line 17); a route takes one link between two endpoints: give one link, with "
                             "`count:` for several NVLinks or its lanes or bandwidth together");
}

TEST(Loader, AGpusHostMustBeReachableFromIt) {
  // A robustness hunt (round 26): gpu1 given `host: cpu0` where only cpu1 links to it loaded, and
  // every copy between gpu1 and the host then failed ("no route"). In the mini node gpu1 reaches
  // cpu0 through cpu1 (CPUs forward): loads. Without the X-Bus it does not: refused.
  EXPECT_NO_THROW((void)parse_node(replace(kMini, "  - id: gpu1\n    kind: gpu\n", "  - id: gpu1\n    kind: gpu\n    host: cpu0\n"),
                                   "node.yaml"));
  const std::string island = replace(replace(kMini, "  - id: gpu1\n    kind: gpu\n", "  - id: gpu1\n    kind: gpu\n    host: cpu0\n"),
                                     "  - {between: [cpu0, cpu1], type: xbus, bandwidth_gbps: 64}\n", "");
  EXPECT_THAT(error_of(island), HasSubstr("gpu 'gpu1' has host 'cpu0', which no link path reaches from it (through "
                                          "CPUs and switches)"));
}

TEST(Loader, MissingFileSaysWhereNodesAre) {
  EXPECT_THAT([] { (void)load_node("no/such/node.yaml"); },
              ThrowsMessage<InputError>(
                  StrEq("no/such/node.yaml: no such file; shipped nodes are in configs/ (e.g. configs/summit.yaml)")));
}

TEST(Describe, DotQuotesWhatTheNodeFileWrites) {
  // A robustness hunt (round 26): a model `H100" fillcolor="red" URL="javascript:alert(1)` ended
  // DOT's string and set attributes of its own (invalid DOT, and an injected link in an SVG).
  const Node n = parse_node(replace(kMini, "  - id: gpu0\n    kind: gpu\n",
                                    "  - id: gpu0\n    kind: gpu\n    model: 'H100\" fillcolor=\"red\" x=\\y'\n"),
                            "node.yaml");
  const std::string dot = describe_dot(n);
  EXPECT_THAT(dot, HasSubstr("label=\"gpu0\\nH100\\\" fillcolor=\\\"red\\\" x=\\\\y\"];"));
  EXPECT_THAT(dot, Not(HasSubstr("fillcolor=\"red\"")));
}

TEST(Routing, PrefersLowerLatencyThenHigherBottleneck) {
  // gpu0 -> gpu1 in the mini node: gpu0 -> cpu0 -> cpu1 -> gpu1 is the only path (GPUs do not
  // forward): 3 hops, 100 + 120 + 100 ns, bottleneck min(50, 64, 50) = 50 GB/s.
  const Node n = parse_node(kMini, "node.yaml");
  const Routes r(n);
  const Path& p = r.path(n.find("gpu0"), n.find("gpu1"));
  ASSERT_TRUE(p.reachable);
  EXPECT_EQ(p.hops, 3);
  EXPECT_DOUBLE_EQ(p.latency_ns, 320.0);
  EXPECT_DOUBLE_EQ(p.bottleneck_gbps, 50.0);
  EXPECT_EQ(pair_class(n, p), "SYS");
  // Add a direct PCIe Gen3 x16 gpu0-gpu1 link (150 ns): lower latency wins over the NVLink path.
  const Node m = parse_node(std::string(kMini) + "  - {between: [gpu0, gpu1], type: pcie, gen: 3, lanes: 16}\n", "m.yaml");
  const Routes rm(m);
  EXPECT_EQ(rm.path(m.find("gpu0"), m.find("gpu1")).hops, 1);
  // Two equal-latency parallel links (of two types: two of one type are refused, see
  // Loader.ASecondLinkOfOneTypeBetweenTwoEndpointsIsRefused): the wider one is chosen, one NVLink2
  // (25 GB/s) over PCIe Gen3 x16 (15.75 GB/s).
  const Node w = parse_node(std::string(kMini) +
                                "  - {between: [gpu0, gpu1], type: nvlink, version: 2, count: 1}\n"
                                "  - {between: [gpu0, gpu1], type: pcie, gen: 3, lanes: 16, latency_ns: 100}\n",
                            "w.yaml");
  const Routes rw(w);
  EXPECT_DOUBLE_EQ(rw.path(w.find("gpu0"), w.find("gpu1")).bottleneck_gbps, 25.0);
}

TEST(Routing, ARouteOfMoreThan64LinksIsRefusedAndRoutesAreMadeOneSourceAtATime) {
  // A robustness hunt (round 26): a node of 1,000 PCIe switches in a chain took 4.7 GB and 10 s in
  // `topo` (every pair's path, up to 1,001 links each, held at once), 3,000 of them ran out of
  // time; a node of 4,096 GPUs took 1.6 GB to simulate one copy (n x n paths made up front).
  std::string chain = "schema_version: 1\nname: chain\nendpoints:\n  - {id: cpu0, kind: cpu, memory: {capacity_gib: "
                      "64, bandwidth_gbps: 100}}\n";
  for (int k = 0; k < 70; ++k) chain += fmt::format("  - {{id: sw{}, kind: pcie_switch}}\n", k);
  chain += "  - {id: gpu0, kind: gpu, memory: {capacity_gib: 16, bandwidth_gbps: 900}}\nlinks:\n"
           "  - {between: [cpu0, sw0], type: pcie, gen: 4, lanes: 16}\n";
  for (int k = 1; k < 70; ++k) chain += fmt::format("  - {{between: [sw{}, sw{}], type: pcie, gen: 4, lanes: 16}}\n", k - 1, k);
  chain += "  - {between: [sw69, gpu0], type: pcie, gen: 4, lanes: 16}\n";
  const Node c = parse_node(chain, "chain.yaml");
  EXPECT_THAT([&] { (void)Routes(c).path(c.find("cpu0"), c.find("gpu0")); },
              ThrowsMessage<InputError>(HasSubstr("chain.yaml: the route from 'cpu0' to 'sw64' takes more than 64 "
                                                  "links; no node nests switches that deep")));
  // Asked for one source, a Routes holds that source's paths alone; released, none.
  const Node n = parse_node(kMini, "node.yaml");
  const Routes r(n, Routes::Compute::on_demand);
  EXPECT_EQ(r.path(n.find("gpu0"), n.find("gpu1")).hops, 3);
  r.release(n.find("gpu0"));
  EXPECT_EQ(r.path(n.find("gpu0"), n.find("gpu1")).hops, 3);  // made again
}

TEST(Routing, AGpusDefaultHostIsTheNearestCpuThroughForwardingEndpoints) {
  // gpu0 hangs off a PCIe switch on cpu1 (150 + 150 ns) and has a slower generic link to cpu0
  // (500 ns): its host is cpu1. gpu1 reaches cpu0 only through gpu0, which does not forward.
  const std::string text = R"(schema_version: 1
name: hosts
endpoints:
  - {id: cpu0, kind: cpu, memory: {capacity_gib: 64, bandwidth_gbps: 100}}
  - {id: cpu1, kind: cpu, memory: {capacity_gib: 64, bandwidth_gbps: 100}}
  - {id: sw0, kind: pcie_switch}
  - {id: gpu0, kind: gpu, memory: {capacity_gib: 16, bandwidth_gbps: 900}}
  - {id: gpu1, kind: gpu, memory: {capacity_gib: 16, bandwidth_gbps: 900}}
  - {id: gpu2, kind: gpu, memory: {capacity_gib: 16, bandwidth_gbps: 900}}
links:
  - {between: [cpu1, sw0], type: pcie, gen: 4, lanes: 16}
  - {between: [sw0, gpu0], type: pcie, gen: 4, lanes: 16}
  - {between: [cpu0, gpu0], type: generic, bandwidth_gbps: 10, latency_ns: 500}
  - {between: [gpu0, gpu1], type: nvlink, version: 3, count: 4}
  - {between: [cpu1, gpu2], type: pcie, gen: 4, lanes: 16}
  - {between: [cpu0, gpu2], type: pcie, gen: 4, lanes: 16}
)";
  EXPECT_EQ(error_of(text), "node.yaml:8:5: gpu 'gpu1' has no route to any cpu; add a link (e.g. PCIe or NVLink) from it, "
                            "or from a switch it connects to, to a cpu");
  const Node n = parse_node(replace(text, "  - {between: [gpu0, gpu1], type: nvlink, version: 3, count: 4}\n",
                                    "  - {between: [sw0, gpu1], type: pcie, gen: 4, lanes: 16}\n"),
                            "node.yaml");
  EXPECT_EQ(n.endpoints[static_cast<std::size_t>(n.find("gpu0"))].host, n.find("cpu1"));
  EXPECT_EQ(n.endpoints[static_cast<std::size_t>(n.find("gpu1"))].host, n.find("cpu1"));
  // gpu2 is 150 ns from both sockets: the tie goes to the lower-numbered one.
  EXPECT_EQ(n.endpoints[static_cast<std::size_t>(n.find("gpu2"))].host, n.find("cpu0"));
}

TEST(Routing, ExplicitRoutesOverrideInBothDirections) {
  const std::string routed = std::string(kMini) +
                             "  - {between: [gpu0, gpu1], type: pcie, gen: 3, lanes: 16}\n"
                             "routes:\n  - {from: gpu0, to: gpu1, via: [cpu0, cpu1]}\n";
  const Node n = parse_node(routed, "node.yaml");
  const Routes r(n);
  const Path& p = r.path(n.find("gpu0"), n.find("gpu1"));
  EXPECT_TRUE(p.overridden);
  EXPECT_EQ(p.hops, 3);
  EXPECT_EQ(r.path(n.find("gpu1"), n.find("gpu0")).hops, 3);
}

// --- shipped nodes ----------------------------------------------------------------------------

std::vector<std::string> shipped_configs() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(test::source_dir() + "/configs"))
    if (e.path().extension() == ".yaml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(ShippedConfigs, AllLoadAndEveryGpuReachesAHost) {
  const auto files = shipped_configs();
  ASSERT_GE(files.size(), 11u);
  for (const auto& f : files) {
    SCOPED_TRACE(f);
    const Node n = load_node(f);
    EXPECT_FALSE(n.gpus().empty());
    for (int g : n.gpus()) EXPECT_GE(n.endpoints[static_cast<std::size_t>(g)].host, 0);
  }
}

/// A line of a node file split at its comment: the '#' that starts a comment is at the line's
/// start or after a blank, outside quotes.
std::pair<std::string, std::string> split_comment(const std::string& line) {
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if ((c == '"' || c == '\'') && (i == 0 || std::string_view(" :[{,").find(line[i - 1]) != std::string_view::npos)) {
      quote = c;
    } else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
      return {line.substr(0, i), line.substr(i)};
    }
  }
  return {line, ""};
}

/// The keys a comment cites: "[key]" with key of a-z, 0-9, '-' and '.', starting with a letter or digit.
std::set<std::string> cited_keys(const std::string& comment) {
  std::set<std::string> keys;
  for (std::size_t open = comment.find('['); open != std::string::npos; open = comment.find('[', open + 1)) {
    const std::size_t close = comment.find(']', open);
    if (close == std::string::npos) break;
    const std::string key = comment.substr(open + 1, close - open - 1);
    const auto allowed = [](char c) { return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.'; };
    if (!key.empty() && std::isalnum(static_cast<unsigned char>(key[0])) && std::all_of(key.begin(), key.end(), allowed))
      keys.insert(key);
  }
  return keys;
}

/// The key of a "key: value" line (also "- key: value"), or "" for other lines.
std::string value_key(std::string_view code) {
  code = trim(code);
  if (code.starts_with("- ")) code = trim(code.substr(2));
  std::size_t end = 0;
  while (end < code.size() && (std::isalpha(static_cast<unsigned char>(code[end])) || code[end] == '_')) ++end;
  if (end == 0 || end >= code.size() || code[end] != ':') return "";
  return trim(code.substr(end + 1)).empty() ? "" : std::string(code.substr(0, end));
}

TEST(ShippedConfigs, EveryValueCitesADeclaredSource) {
  // configs/SCHEMA.md, "Sources of the shipped nodes": every value line cites a key of the file's
  // sources: as [key] (a run of one-line flow entries may be cited by the comment above it), every
  // cited key is declared and every declared one cited; a source's file exists and its url is in
  // configs/SOURCES.md's list. YAML parsers drop comments, so this is checked here.
  const std::string bibliography = test::read_file(test::source_dir() + "/configs/SOURCES.md");
  for (const auto& f : shipped_configs()) {
    SCOPED_TRACE(f);
    const std::string text = test::read_file(f);
    std::set<std::string> declared, cited;
    const YAML::Node root = yaml::parse(text, f);
    const auto sources = yaml::find(root, "sources");
    ASSERT_TRUE(sources) << "no sources:";
    for (const YAML::Node& source : *sources) {
      declared.insert(yaml::find(source, "key")->Scalar());
      if (const auto file = yaml::find(source, "file")) {
        EXPECT_TRUE(std::filesystem::exists(test::source_dir() + "/" + file->Scalar())) << file->Scalar();
      }
      if (const auto url = yaml::find(source, "url")) {
        EXPECT_THAT(bibliography, HasSubstr(url->Scalar())) << "configs/SOURCES.md does not list it";
      }
    }
    std::istringstream in(text);
    std::string line;
    int no = 0;
    bool in_sources = false, run_cited = false;
    while (std::getline(in, line)) {
      ++no;
      const auto [code, comment] = split_comment(line);
      const std::set<std::string> keys = cited_keys(comment);
      for (const std::string& k : keys) EXPECT_TRUE(declared.count(k)) << f << ":" << no << ": [" << k << "] is not under sources:";
      cited.insert(keys.begin(), keys.end());
      if (!code.empty() && !std::isspace(static_cast<unsigned char>(code[0]))) in_sources = code.starts_with("sources:");
      const std::string_view body = trim(code);
      if (in_sources) continue;
      if (body.empty()) {  // a comment line: it cites the run of one-line entries below it
        if (!comment.empty()) run_cited = run_cited || !keys.empty();
        continue;
      }
      if (body.starts_with("- {")) {
        EXPECT_TRUE(!keys.empty() || run_cited) << f << ":" << no << ": entry without a source: " << line;
        continue;
      }
      run_cited = false;
      const std::string key = value_key(code);
      if (key.empty() || key == "schema_version" || key == "name") continue;
      EXPECT_FALSE(keys.empty()) << f << ":" << no << ": value without a source key: " << line;
    }
    for (const std::string& k : declared) EXPECT_TRUE(cited.count(k)) << "source '" << k << "' is never cited";
  }
}

TEST(ShippedConfigs, SummitCrossSocketGpuPairsGoThroughBothCpus) {
  // Summit: gpu0 (socket 0) to gpu3 (socket 1): NVLink2 to cpu0, X-Bus, NVLink2 to gpu3.
  const Node n = load_node(test::config("summit.yaml"));
  const Routes r(n);
  const Path& p = r.path(n.find("gpu0"), n.find("gpu3"));
  EXPECT_EQ(p.endpoints, (std::vector<int>{n.find("gpu0"), n.find("cpu0"), n.find("cpu1"), n.find("gpu3")}));
  EXPECT_DOUBLE_EQ(p.bottleneck_gbps, 50.0);
  EXPECT_EQ(pair_class(n, r.path(n.find("gpu0"), n.find("gpu1"))), "NV2");
}

TEST(ShippedConfigs, Dgx1HybridCubeMeshHasSingleAndDoubleLinks) {
  // DGX-1 V100 (nvidia-smi topo -m): gpu0-gpu3 and gpu0-gpu4 are NV2, gpu0-gpu1 and gpu0-gpu2
  // NV1, gpu0-gpu5 has no NVLink (PCIe through both sockets).
  const Node n = load_node(test::config("dgx1-v100.yaml"));
  const Routes r(n);
  auto cls = [&](const char* a, const char* b) { return pair_class(n, r.path(n.find(a), n.find(b))); };
  EXPECT_EQ(cls("gpu0", "gpu3"), "NV2");
  EXPECT_EQ(cls("gpu0", "gpu4"), "NV2");
  EXPECT_EQ(cls("gpu0", "gpu1"), "NV1");
  EXPECT_EQ(cls("gpu0", "gpu2"), "NV1");
  EXPECT_EQ(cls("gpu0", "gpu5"), "SYS");
  // Each V100 has 6 NVLinks in all.
  for (int g : n.gpus()) {
    int links = 0;
    for (const Link& l : n.links)
      if (l.spec.type == model::LinkType::nvlink && (l.a == g || l.b == g)) links += l.spec.nvlink.count;
    EXPECT_EQ(links, 6) << n.endpoints[static_cast<std::size_t>(g)].id;
  }
}

TEST(ShippedConfigs, HgxBoardsJoinAllGpuPairsNv18ThroughNvswitch) {
  for (const char* file : {"hgx-h100.yaml", "hgx-h200.yaml"}) {
    const Node n = load_node(test::config(file));
    const Routes r(n);
    ASSERT_EQ(n.gpus().size(), 8u) << file;
    for (int a : n.gpus())
      for (int b : n.gpus()) {
        if (a == b) continue;
        const Path& p = r.path(a, b);
        EXPECT_EQ(pair_class(n, p), "NV18") << file;
        EXPECT_EQ(p.hops, 2);
        EXPECT_DOUBLE_EQ(p.bottleneck_gbps, 450.0);  // 18 x 25 GB/s per direction
      }
    // PCIe Gen5 x16 host links: 63.0 GB/s per direction.
    EXPECT_NEAR(r.path(n.find("cpu0"), n.find("gpu0")).bottleneck_gbps, 63.015, 0.01) << file;
  }
}

TEST(ShippedConfigs, Gb200Nvl72Has72GpusAnd36Graces) {
  const Node n = load_node(test::config("gb200-nvl72.yaml"));
  EXPECT_EQ(n.gpus().size(), 72u);
  EXPECT_EQ(n.cpus().size(), 36u);
  const Routes r(n);
  EXPECT_DOUBLE_EQ(r.path(n.find("gpu0"), n.find("gpu71")).bottleneck_gbps, 900.0);  // NVLink5 x18
}

TEST(Describe, JsonListsEveryOrderedPair) {
  const Node n = parse_node(kMini, "node.yaml");
  const Routes r(n);
  const std::string json = describe_json(n, r);
  // 4 endpoints -> 12 ordered pairs.
  std::size_t pairs = 0;
  for (std::size_t at = json.find("\"src\""); at != std::string::npos; at = json.find("\"src\"", at + 1)) ++pairs;
  EXPECT_EQ(pairs, 12u);
  EXPECT_THAT(json, HasSubstr("\"latency_us\": 0.32"));
}

// --- the schema table ---------------------------------------------------------------------------

TEST(Schema, ReferenceInSchemaMdIsTheTable) {
  // configs/SCHEMA.md's key reference is made from the table; LINKCAST_UPDATE_GOLDEN=1 rewrites it.
  const std::string path = test::source_dir() + "/configs/SCHEMA.md";
  const std::string begin = "<!-- BEGIN key reference: generated from topology/schema.cpp, do not edit by hand -->\n";
  const std::string end = "<!-- END key reference -->";
  std::string doc = test::read_file(path);
  ASSERT_THAT(doc, HasSubstr(begin)) << path;
  ASSERT_THAT(doc, HasSubstr(end)) << path;
  const std::size_t from = doc.find(begin), to = doc.find(end);
  const std::size_t body = from + begin.size();
  if (std::getenv("LINKCAST_UPDATE_GOLDEN")) {
    std::ofstream(path) << doc.replace(body, to - body, schema::markdown());
    GTEST_SKIP() << "updated " << path;
  }
  EXPECT_EQ(doc.substr(body, to - body), schema::markdown()) << path << " differs from topology/schema.cpp";
}

TEST(Schema, EveryKeyIsDeclaredCompletely) {
  for (const schema::Key& k : schema::keys()) {
    SCOPED_TRACE(std::string(k.name));
    EXPECT_FALSE(k.doc.empty());
    if (k.type == schema::Type::mapping || k.type == schema::Type::list) {
      EXPECT_NE(k.holds, k.section);
    }
    if (k.type == schema::Type::choice) {
      EXPECT_NE(k.choices, nullptr);
    }
    if (k.required) {
      EXPECT_TRUE(k.default_text.empty());
    }
    if (!k.is_number()) {
      EXPECT_TRUE(k.allowed.empty());
      EXPECT_FALSE(k.sweepable);
      continue;
    }
    const bool endpoint = k.section == schema::Section::endpoint || k.section == schema::Section::memory;
    const bool link = k.section == schema::Section::link;
    // What a study may set or JSON shows must live in the node.
    if (k.sweepable || k.json != schema::Json::omit) {
      EXPECT_TRUE(endpoint || link);
      EXPECT_TRUE(endpoint ? k.field.endpoint_set && k.field.endpoint_get : k.field.link_set && k.field.link_get);
    }
    if (k.section == schema::Section::calibration) {
      EXPECT_GE(k.field.calibration_slot, 0);
    }
    EXPECT_LE(k.min, k.max);
    if (std::isfinite(k.max)) {
      EXPECT_FALSE(k.plausible.empty());
    }
    for (int a : k.allowed) EXPECT_TRUE(a >= k.min && a <= k.max) << a;
  }
  // Within a section, two keys of one name apply to different kinds (memory.capacity_gib of a cpu
  // and of a gpu) or types.
  for (const schema::Key& a : schema::keys())
    for (const schema::Key& b : schema::keys())
      if (&a != &b && a.section == b.section && a.name == b.name) {
        EXPECT_EQ(a.applies & b.applies, 0u) << a.name;
      }
}

TEST(Schema, TheEditorSetsTheSweepableKeysWithTheLoadersChecks) {
  Node n = load_node(test::config("summit.yaml"));
  for (const schema::Key& k : schema::keys()) {
    if (k.section != schema::Section::memory && k.section != schema::Section::endpoint &&
        k.section != schema::Section::link)
      continue;
    const std::string field = (k.section == schema::Section::memory ? "memory." : "") + std::string(k.name);
    const std::string path = (k.section == schema::Section::link ? "links[*]." : "endpoints[*].") + field;
    if (!k.sweepable) {
      EXPECT_THAT([&] { (void)parse_axis_path(path); }, ThrowsMessage<InputError>(HasSubstr("unknown field"))) << path;
      continue;
    }
    EXPECT_NO_THROW((void)parse_axis_path(path)) << path;
  }
  // The plausible ranges hold for studies too.
  EXPECT_EQ(test::error_of([&] { apply(n, parse_axis_path("endpoints[kind=gpu].memory.capacity_gib"), "4096"); }),
            "endpoints[kind=gpu].memory.capacity_gib: 4096 is outside 0.001..1024 GiB: no GPU has more than 1 TiB of "
            "memory");
  EXPECT_EQ(test::error_of([&] { apply(n, parse_axis_path("endpoints[kind=gpu].memory.copy_bandwidth_gbps"), "10"); }),
            "endpoints[kind=gpu].memory.copy_bandwidth_gbps: copy_bandwidth_gbps applies to cpus; 'gpu0' is a gpu");
  EXPECT_EQ(test::error_of([&] { apply(n, parse_axis_path("links[type=xbus].bandwidth_gbps"), "0x40"); }),
            "links[type=xbus].bandwidth_gbps: '0x40' is not a number");
  EXPECT_EQ(test::error_of([&] { apply(n, parse_axis_path("links[type=nvlink].count"), "0"); }),
            "links[type=nvlink].count: 0 must be >= 1");
  apply(n, parse_axis_path("links[type=nvlink].latency_ns"), "80");
  EXPECT_EQ(current_value(n, parse_axis_path("links[type=nvlink].latency_ns")), "80");
}

TEST(Schema, JsonShowsTheKeysTheTableMarks) {
  const Node n = load_node(test::config("testbed-h100-1gpu.yaml"));
  const std::string json = describe_json(n, Routes(n));
  for (const char* shown : {"\"capacity_gib\"", "\"copy_bandwidth_gbps\"", "\"gen\"", "\"rcb\"", "\"latency_ns\""})
    EXPECT_THAT(json, HasSubstr(shown));
  for (const char* hidden : {"\"copy_engines\"", "\"per_link_gbps\"", "\"chips\""}) EXPECT_THAT(json, Not(HasSubstr(hidden)));
}

// --- import -------------------------------------------------------------------------------------

TEST(Import, NcclTopologyDumpBecomesASkeletonWithTodos) {
  // A two-GPU NCCL dump: both GPUs behind one PCIe Gen5 switch, NV18 to an NVSwitch.
  const std::string xml = test::write_temp("topo.xml", R"(<system version="1">
  <cpu numaid="0" affinity="ffff" arch="x86_64" vendor="GenuineIntel" familyid="6" modelid="143">
    <pci busid="0000:17:00.0" class="0x060400" link_speed="32.0 GT/s PCIe" link_width="16">
      <pci busid="0000:19:00.0" class="0x030200" link_speed="32.0 GT/s PCIe" link_width="16">
        <gpu dev="0" sm="90" rank="0" gdr="1"><nvlink target="0000:05:00.0" count="18" tclass="0x068000"/></gpu>
      </pci>
      <pci busid="0000:1a:00.0" class="0x030200" link_speed="32.0 GT/s PCIe" link_width="16">
        <gpu dev="1" sm="90" rank="1" gdr="1"><nvlink target="0000:05:00.0" count="18" tclass="0x068000"/></gpu>
      </pci>
    </pci>
  </cpu>
</system>
)");
  const std::string yaml = import_skeleton({xml, "", "two-h100"});
  EXPECT_THAT(yaml, HasSubstr("  - id: gpu1\n    kind: gpu\n"));
  EXPECT_THAT(yaml, HasSubstr("  - between: [pcisw0, gpu0]\n    type: pcie\n    gen: 5\n    lanes: 16\n"));
  EXPECT_THAT(yaml, HasSubstr("  - between: [gpu1, nvswitch0]\n    type: nvlink\n    version: 4\n    count: 18\n"));
  // Loading it fails listing every value the user must fill in (import_test.cpp has the list).
  EXPECT_THAT([&] { (void)parse_node(yaml, "skeleton.yaml"); },
              ThrowsMessage<InputError>(AllOf(HasSubstr("values are still TODO; fill in every one"),
                                              HasSubstr("endpoints[0] (cpu0) memory.capacity_gib: GiB of host memory on "
                                                        "this socket"))))
      << "the skeleton should not load before its TODOs are filled in";
}

TEST(Import, TodoHintsComeFromTheSchema) {
  const std::string smi = test::write_temp("smi1.txt", "\tGPU0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"
                                                       "GPU0\t X \t0-47\t0\t\tN/A\n");
  const std::string yaml = import_skeleton({"", smi, "one"});
  // Every value a cpu's and a gpu's memory must have, or that has a hint, is written with its hint.
  for (EndpointKind kind : {EndpointKind::cpu, EndpointKind::gpu})
    for (const schema::Key* k : schema::keys_of(schema::Section::memory, kind)) {
      const std::string line = std::string(k->name) + ": TODO";
      EXPECT_THAT(yaml, HasSubstr(k->todo.empty() ? line : fmt::format("{:<25} # {}\n", line, k->todo))) << k->name;
    }
  EXPECT_THAT(yaml, HasSubstr("      capacity_gib: TODO        # GiB of host memory on this socket\n"));
  EXPECT_THAT(yaml, HasSubstr("    gen: TODO\n    lanes: TODO\n"));
}

TEST(Import, NvidiaSmiTopoInfersAnNvswitchFromNvCounts) {
  // 4 GPUs all NV18 to each other: 3 x 18 links per GPU is more than any GPU has -> NVSwitch.
  const std::string smi = test::write_temp("smi.txt",
                                           "\tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"
                                           "GPU0\t X \tNV18\tNV18\tNV18\t0-47\t0\t\tN/A\n"
                                           "GPU1\tNV18\t X \tNV18\tNV18\t0-47\t0\t\tN/A\n"
                                           "GPU2\tNV18\tNV18\t X \tNV18\t48-95\t1\t\tN/A\n"
                                           "GPU3\tNV18\tNV18\tNV18\t X \t48-95\t1\t\tN/A\n");
  const std::string yaml = import_skeleton({"", smi, "four"});
  EXPECT_THAT(yaml, HasSubstr("kind: nvswitch"));
  EXPECT_THAT(yaml, HasSubstr("  - id: gpu3\n    kind: gpu\n"));
  EXPECT_THAT(yaml, HasSubstr("host: cpu1"));
}

TEST(Import, NvidiaSmiColourCodesAreIgnored) {
  // nvidia-smi topo -m on a terminal wraps the header in ESC[4m ... ESC[0m (underline); the
  // skeleton must be the one the plain text gives.
  const std::string plain = "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"
                            "GPU0\t X \tNV18\t0-47\t0\t\tN/A\n"
                            "GPU1\tNV18\t X \t0-47\t0\t\tN/A\n";
  const std::string coloured = "\x1B[4m\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\x1B[0m\n"
                               "\x1B[4mGPU0\x1B[0m\t X \tNV18\t0-47\t0\t\tN/A\n"
                               "\x1B[4mGPU1\x1B[0m\tNV18\t X \t0-47\t0\t\tN/A\n";
  const std::string a = import_skeleton({"", test::write_temp("plain.txt", plain), "two"});
  const std::string b = import_skeleton({"", test::write_temp("coloured.txt", coloured), "two"});
  EXPECT_THAT(a, HasSubstr("  - id: gpu1\n    kind: gpu\n"));
  // The header comment names the input file, which differs; everything after it must match.
  EXPECT_EQ(a.substr(a.find("schema_version")), b.substr(b.find("schema_version")));
}

TEST(Import, RejectsFilesThatAreNotTopologies) {
  const std::string bad = test::write_temp("bad.xml", "<html></html>");
  EXPECT_THAT([&] { (void)import_skeleton({bad, "", "x"}); },
              ThrowsMessage<InputError>(HasSubstr("no <system> element; this is not an NCCL topology dump")));
}

}  // namespace
}  // namespace linkcast::topology
