// `linkcast topo import` on real inputs from the field (issue 15, "Node descriptions") and on
// hostile ones (issue 16): one test per item. Each names the system under test (topology/import,
// the loader or the CLI), the input, what is expected and why.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <regex>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <tuple>

#include "core/error.hpp"
#include "test_util.hpp"
#include "topology/describe.hpp"
#include "topology/import.hpp"
#include "topology/loader.hpp"
#include "topology/routing.hpp"

namespace linkcast::topology {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::ThrowsMessage;

std::string wild(const std::string& relative) { return test::source_dir() + "/tests/data/wild/" + relative; }
std::string real(const std::string& relative) { return test::source_dir() + "/tests/data/real/" + relative; }

/// The skeleton of `inputs` with its TODOs filled blindly, loaded.
Node load_filled(const ImportInputs& inputs) {
  return parse_node(test::fill_todos(import_skeleton(inputs)), inputs.name + ".yaml");
}

const Path& route(const Node& n, const Routes& r, const std::string& a, const std::string& b) {
  return r.path(n.find(a), n.find(b));
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// --- NVSwitch boards -----------------------------------------------------------------------------

TEST(ImportField, A100SixSwitchEntriesOfTwoAreOneNv12LinkOf300GBps) {
  // topology/import on a bare-metal HGX A100 dump (SimAI): each GPU lists one <nvlink> per NVSwitch
  // chip, six of count 2. They are one bonded link of 12 to the fabric (NVSwitch is non-blocking),
  // so GPU pairs route NV12 at 12 x 25 = 300 GB/s, the published figure, not NV2 / 50 GB/s.
  const ImportInputs in{wild("nccl_topo/simai_hgx_a100_8gpu_baremetal.xml"), "", "hgx-a100"};
  const std::string yaml = import_skeleton(in);
  EXPECT_THAT(yaml, HasSubstr("  - between: [gpu0, nvswitch0]\n    type: nvlink\n    version: 3\n    count: 12\n"));
  EXPECT_EQ(count_of(yaml, "nvswitch0]\n    type: nvlink"), 8u) << "one fabric link per GPU";
  EXPECT_THAT(yaml, HasSubstr("chips: 6"));
  const Node n = load_filled(in);
  const Routes r(n);
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b) {
      if (a == b) continue;
      const Path& p = route(n, r, fmt::format("gpu{}", a), fmt::format("gpu{}", b));
      EXPECT_DOUBLE_EQ(p.bottleneck_gbps, 300) << a << "-" << b;
      EXPECT_EQ(pair_class(n, p), "NV12") << a << "-" << b;
    }
}

TEST(ImportField, H100FiveFiveFourFourSwitchEntriesAreNv18Of450GBps) {
  // The IBM Cloud H100 VSI dump shows the NVSwitches to the VM: four entries of 5, 5, 4, 4 per GPU.
  // Summed: NV18 at 18 x 25 = 450 GB/s (DGX H100's published GPU-to-GPU rate), not NV5 / 125.
  const ImportInputs in{wild("nccl_topo/ibm_h100_vsi_nvswitch_5544_emulated_bridges.xml"), "", "ibm-h100"};
  const std::string yaml = import_skeleton(in);
  EXPECT_THAT(yaml, HasSubstr("  - between: [gpu7, nvswitch0]\n    type: nvlink\n    version: 4\n    count: 18\n"));
  const Node n = load_filled(in);
  const Routes r(n);
  const Path& p = route(n, r, "gpu0", "gpu7");
  EXPECT_DOUBLE_EQ(p.bottleneck_gbps, 450);
  EXPECT_EQ(pair_class(n, p), "NV18");
}

// --- device classes that vanished ----------------------------------------------------------------

TEST(ImportField, GpusWrittenAsPciDevicesWithoutAGpuChildAreGpus) {
  // Azure's and AWS's shipped 8-GPU topology files list GPUs as <pci class="0x030200"> with no
  // <gpu> child (NDv2 gives no vendor at all). Every one is a GPU of the skeleton, on its PCIe
  // link, with a note that the dump tells no NVLinks; before, the skeleton had no GPU and exit 0.
  for (const char* file : {"azure_ndv2_v100_pci_only.xml", "aws_p4d_a100_pci_only.xml", "azure_ndv4_a100_pci_only.xml",
                           "azure_ndv5_h100_pci_only.xml"}) {
    const ImportResult r = import_node({wild(std::string("nccl_topo/") + file), "", "cloud"});
    for (int g = 0; g < 8; ++g) EXPECT_THAT(r.yaml, HasSubstr(fmt::format("  - id: gpu{}\n    kind: gpu\n", g))) << file;
    EXPECT_THAT(r.notes, testing::Contains(HasSubstr("listed only as PCI devices of a GPU class"))) << file;
    const Node n = parse_node(test::fill_todos(r.yaml), file);
    EXPECT_EQ(n.gpus().size(), 8u) << file;
  }
  // A VGA device of another vendor (a BMC's) is not a GPU.
  const std::string bmc = test::write_temp("bmc.xml", R"(<system version="1"><cpu numaid="0">
  <pci busid="0000:02:00.0" class="0x030000" vendor="0x1a03" link_speed="5 GT/s" link_width="1"/>
  <pci busid="0000:03:00.0" class="0x030200" vendor="0x10de" link_speed="16 GT/s" link_width="16"/>
</cpu></system>)");
  const ImportResult r = import_node({bmc, "", "bmc"});
  EXPECT_THAT(r.yaml, Not(HasSubstr("id: gpu1\n")));
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("not an NVIDIA or AMD GPU")));
}

TEST(ImportField, AmdXgmiLinksAreInfinityFabricLinks) {
  // RCCL dumps of 8 x MI300X: 7 <xgmi> entries of count 1 per GPU, a full mesh. Each GPU pair is
  // one infinity_fabric link (28), its xGMI count in a comment and its bandwidth left to fill.
  const std::string yaml = import_skeleton({wild("nccl_topo/rccl_mi300x_8gpu_xgmi.xml"), "", "mi300x"});
  EXPECT_EQ(count_of(yaml, "    type: infinity_fabric\n    bandwidth_gbps: TODO"), 28u);
  EXPECT_THAT(yaml, HasSubstr("  - between: [gpu0, gpu7]\n    type: infinity_fabric\n"));
  EXPECT_THAT(yaml, HasSubstr("# xGMI: 1 link (RCCL's count)"));
  EXPECT_THAT(yaml, HasSubstr("model: \"gfx942 GPU at 0000:0c:00.0\""));
  // MI250X GCDs: counts 1, 2 and 4 between GCD pairs.
  const std::string mi250 = import_skeleton({wild("nccl_topo/rccl_mi250x_16gcd_xgmi_1_2_4.xml"), "", "mi250x"});
  EXPECT_THAT(mi250, HasSubstr("  - between: [gpu0, gpu1]\n    type: infinity_fabric\n    bandwidth_gbps: TODO      "
                               "# per direction\n    # xGMI: 4 links"));
}

TEST(ImportField, NvlinkToTheGpuItselfIsANoteNotALink) {
  // Azure NC A100 v4: each GPU lists 12 NVLinks whose target is its own bus id. No link can join a
  // GPU to itself: the skeleton has none, and a note names each GPU (not silently dropped).
  const ImportResult r = import_node({wild("nccl_topo/azure_ncv4_a100_self_nvlink.xml"), "", "ncv4"});
  EXPECT_THAT(r.yaml, Not(HasSubstr("type: nvlink")));
  for (int g = 0; g < 4; ++g)
    EXPECT_THAT(r.notes, testing::Contains(HasSubstr(fmt::format("gpu{} lists 12 NVLinks to itself", g))));
  EXPECT_NO_THROW((void)parse_node(test::fill_todos(r.yaml), "ncv4.yaml"));
}

// --- two inputs that disagree --------------------------------------------------------------------

TEST(ImportField, AnEightGpuDumpWithATwoGpuTopoMIsRefusedNamingBoth) {
  // The 8-GPU SimAI dump with a 2-GPU `topo -m`: not one machine. Refused naming both files and
  // the counts; before, GPUs and CPUs of both were mixed (CPUs linked to nothing).
  const std::string xml = wild("nccl_topo/simai_hgx_a100_8gpu_baremetal.xml");
  const std::string smi = wild("smi_topo/mleng_2gpu_nv2_workstation.txt");
  EXPECT_THAT([&] { (void)import_skeleton({xml, smi, "x"}); },
              ThrowsMessage<InputError>(AllOf(HasSubstr(xml + " lists 8 GPUs but " + smi + " lists 2"),
                                              HasSubstr("give the NCCL dump and the `nvidia-smi topo -m` of the same "
                                                        "machine, or only one of them"))));
}

TEST(ImportField, NumaNodesThatDisagreeAreRefused) {
  // The same machine's dump says gpu0 hangs under <cpu numaid="0">; a `topo -m` saying NUMA 1.
  const std::string xml = test::write_temp("numa.xml", R"(<system version="1">
  <cpu numaid="0" vendor="GenuineIntel"><pci busid="0000:17:00.0" class="0x030200" vendor="0x10de" link_speed="16 GT/s" link_width="16"><gpu dev="0" sm="80"/></pci></cpu>
  <cpu numaid="1" vendor="GenuineIntel"><pci busid="0000:b1:00.0" class="0x030200" vendor="0x10de" link_speed="16 GT/s" link_width="16"><gpu dev="1" sm="80"/></pci></cpu>
</system>)");
  const std::string smi = test::write_temp("numa.txt", "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n"
                                                       "GPU0\t X \tSYS\t0-15\t1\n"
                                                       "GPU1\tSYS\t X \t16-31\t0\n");
  EXPECT_THAT([&] { (void)import_skeleton({xml, smi, "x"}); },
              ThrowsMessage<InputError>(AllOf(HasSubstr(smi + ":2: GPU0 is on NUMA node 1, but " + xml),
                                              HasSubstr("under <cpu numaid=\"0\">: the two files disagree"))));
  // Files that agree merge: the dump's structure, the matrix's NVLinks where the dump has none.
  const std::string agree = test::write_temp("agree.txt", "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n"
                                                          "GPU0\t X \tNV12\t0-15\t0\n"
                                                          "GPU1\tNV12\t X \t16-31\t1\n");
  const std::string yaml = import_skeleton({xml, agree, "x"});
  EXPECT_THAT(yaml, HasSubstr("  - between: [gpu0, gpu1]\n    type: nvlink\n    version: 3\n    count: 12\n"));
  EXPECT_EQ(count_of(yaml, "kind: cpu"), 2u);
}

// --- VMs, NICs, gzip ----------------------------------------------------------------------------

TEST(ImportField, EmulatedVmBridgesAreNotLinks) {
  // The IBM VSI puts every GPU and NIC behind a TI bridge reporting 2.5 GT/s x1 (emulated). As a
  // link it made every CPU-GPU route 0.25 GB/s; it is left out (with a note), and the GPU hangs
  // from the CPU on its own Gen5 link.
  const ImportResult r = import_node({wild("nccl_topo/ibm_h100_vsi_nvswitch_5544_emulated_bridges.xml"), "", "ibm"});
  EXPECT_THAT(r.yaml, Not(HasSubstr("kind: pcie_switch")));
  EXPECT_THAT(r.yaml, Not(HasSubstr("gen: 1\n")));
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("8 bridges report a link of 2.5 GT/s x1 or less while the devices "
                                                   "below run faster: a VM's emulated bridges, left out")));
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("0000:a1:00.0 (2.5 GT/s PCIe x1, line 3)")));
  EXPECT_THAT(r.yaml, HasSubstr("  - between: [cpu0, gpu0]\n    type: pcie\n    gen: 5\n    lanes: TODO\n"));
  const Node n = parse_node(test::fill_todos(r.yaml), "ibm.yaml");
  const Routes routes(n);
  EXPECT_GT(route(n, routes, "cpu0", "gpu0").bottleneck_gbps, 20);
}

TEST(ImportHostile, APciDeviceHoldingTwoGpusIsRefusedNotReadAsOne) {
  // NCCL's design note on MLOPart (a VR200 GPU split in two, CUDA 13.1+) prints a dump whose one
  // <pci> holds two <gpu>, mlopart="0" and "1": the second was dropped without a word (1 GPU of 2).
  const std::string xml = test::write_temp(
      "mlopart.xml",
      "<system version=\"1\">\n<cpu numaid=\"0\" arch=\"arm64\">\n"
      "<pci busid=\"0002:81:00.0\" class=\"0x030200\" vendor=\"0x10de\" link_speed=\"64.0 GT/s PCIe\" link_width=\"2\">\n"
      "<gpu dev=\"0\" sm=\"107\" mlopart=\"0\" rank=\"0\" gdr=\"1\"/>\n"
      "<gpu dev=\"0\" sm=\"107\" mlopart=\"1\" rank=\"1\" gdr=\"1\"/>\n"
      "</pci>\n</cpu>\n</system>\n");
  EXPECT_THAT([&] { (void)import_skeleton({xml, "", "x"}); },
              ThrowsMessage<InputError>(HasSubstr(xml + ":5: PCI device 0002:81:00.0 holds a second GPU (dev 0, rank 1, "
                                                        "mlopart 1); linkcast reads one GPU per PCI device")));
}

TEST(ImportHostile, ATruncatedDumpIsSaidToBeTruncated) {
  // nccl-tests#256 pastes an H200 dump cut off inside a <nic>: the error said "Start-end tags
  // mismatch" on the line past its end. A dump whose text ends before its elements close is now
  // named truncated.
  std::ifstream in(wild("nccl_topo/ibm_h100_vsi_nvswitch_5544_emulated_bridges.xml"));
  const std::string whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(whole.size(), 400u);
  const std::string cut = test::write_temp("cut.xml", whole.substr(0, whole.rfind("</pci>", whole.size() / 2)));
  EXPECT_THAT([&] { (void)import_skeleton({cut, "", "x"}); },
              ThrowsMessage<InputError>(HasSubstr("the dump ends before its elements close (</system> missing): it is "
                                                  "truncated")));
}

TEST(ImportField, ALinkWidthThatIsNoPcieWidthIsNotedAsWhatItIs) {
  // link_width="999" was noted as "the dump gives link_width 0 (a VM hides it)".
  const std::string xml = test::write_temp(
      "width999.xml",
      "<system version=\"1\">\n<cpu numaid=\"0\">\n"
      "<pci busid=\"0000:18:00.0\" class=\"0x030200\" vendor=\"0x10de\" link_speed=\"32.0 GT/s PCIe\" link_width=\"999\">\n"
      "<gpu dev=\"0\" sm=\"90\" rank=\"0\" gdr=\"1\"/>\n</pci>\n</cpu>\n</system>\n");
  const ImportResult r = import_node({xml, "", "x"});
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("the dump gives a link_width that is no PCIe width (1 to 64 lanes) "
                                                   "for gpu0 ('999', line 3)")));
  EXPECT_THAT(r.notes, testing::Not(testing::Contains(HasSubstr("link_width 0"))));
}

TEST(ImportHostile, GpusTheWalkWouldDropAndDumpsOfSeveralHostsAreRefused) {
  // Hostile edits of a real 8-GPU dump (a robustness hunt): the second socket's <cpu> moved inside
  // the first, or wrapped in an element NCCL does not write (<domain>), gave a 4-GPU skeleton with
  // no note. And a multi-node NVLink dump (two hosts' <cpu> elements, host_hash apart, their GPUs
  // repeating dev 0-3) was refused as "a second GPU with dev 0".
  const auto gpu_pci = [](const std::string& busid, int dev) {
    return "<pci busid=\"" + busid + "\" class=\"0x030200\" vendor=\"0x10de\" link_speed=\"32.0 GT/s PCIe\" "
           "link_width=\"16\">\n<gpu dev=\"" + std::to_string(dev) + "\" sm=\"90\" rank=\"" + std::to_string(dev) +
           "\" gdr=\"1\"/>\n</pci>\n";
  };
  const auto cpu = [](int numa, const std::string& hash, const std::string& inside) {
    return "<cpu numaid=\"" + std::to_string(numa) + "\" host_hash=\"" + hash + "\" arch=\"x86_64\">\n" + inside + "</cpu>\n";
  };
  const std::string nested = test::write_temp(
      "nested.xml", "<system version=\"1\">\n" +
                        cpu(0, "0xa", gpu_pci("0000:18:00.0", 0) + cpu(1, "0xa", gpu_pci("0000:9a:00.0", 1))) +
                        "</system>\n");
  EXPECT_THAT([&] { (void)import_skeleton({nested, "", "x"}); },
              ThrowsMessage<InputError>(HasSubstr(nested + ":8: a <gpu> (dev 1) below a <cpu> (line 6) inside <cpu> "
                                                          "(line 2)")));
  const std::string wrapped = test::write_temp(
      "wrapped.xml", "<system version=\"1\">\n" + cpu(0, "0xa", gpu_pci("0000:18:00.0", 0)) + "<domain>\n" +
                         cpu(1, "0xa", gpu_pci("0000:9a:00.0", 1)) + "</domain>\n</system>\n");
  EXPECT_THAT([&] { (void)import_skeleton({wrapped, "", "x"}); },
              ThrowsMessage<InputError>(HasSubstr("a <gpu> (dev 1) below a <cpu> (line 8) inside <domain> (line 7)")));
  const std::string hosts = test::write_temp(
      "hosts.xml", "<system version=\"1\">\n" + cpu(0, "0xa", gpu_pci("0000:18:00.0", 0)) +
                       cpu(0, "0xb", gpu_pci("0000:18:00.0", 0)) + "</system>\n");
  EXPECT_THAT([&] { (void)import_skeleton({hosts, "", "x"}); },
              ThrowsMessage<InputError>(HasSubstr(hosts + ": the dump covers 2 hosts (host_hash 0xa, 0xb")));
  const std::string one = test::write_temp(
      "one.xml", "<system version=\"1\">\n" + cpu(0, "0xa", gpu_pci("0000:18:00.0", 0)) +
                     cpu(1, "0xa", gpu_pci("0000:9a:00.0", 1)) + "</system>\n");
  const std::string skeleton = import_skeleton({one, "", "x"});
  EXPECT_THAT(skeleton, HasSubstr("id: gpu0"));
  EXPECT_THAT(skeleton, HasSubstr("id: gpu1"));
}

TEST(ImportHostile, ATopoMSavedAsUtf16OrWithAByteOrderMarkIsRead) {
  // Windows PowerShell's `nvidia-smi topo -m > topo.txt` writes UTF-16LE with a byte-order mark:
  // "no GPU matrix found"; with a UTF-8 mark the header was taken for a row. Both read as the
  // plain file does (a real 2-GPU workstation's output).
  const std::string path = wild("smi_topo/mleng_2gpu_nv2_workstation.txt");
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string utf16 = "\xFF\xFE";
  for (const char c : text) {
    utf16 += c;
    utf16 += '\0';
  }
  // The skeletons from "schema_version" on (above it, their comments name the files).
  const auto body = [](const std::string& yaml) { return yaml.substr(yaml.find("schema_version")); };
  const std::string plain = body(import_skeleton({"", path, "x"}));
  EXPECT_EQ(body(import_skeleton({"", test::write_temp("utf16.txt", utf16), "x"})), plain);
  EXPECT_EQ(body(import_skeleton({"", test::write_temp("bom.txt", "\xEF\xBB\xBF" + text), "x"})), plain);
}

TEST(ImportHostile, ANicNamedTwiceInTheLegendIsRefused) {
  // A hunt's edit of a real 8 x H100 `topo -m`: NIC0 named twice in the NIC Legend (mlx5_0, then
  // mlx5_9) took the last name unsaid. nvidia-smi names each NIC once: refused naming the line.
  const std::string path = wild("smi_topo/issue_sglang30401_8x_h100_nv18_8nics_pix.txt");
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  const std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  const std::string twice = test::write_temp("legend.txt", text + "\n  NIC0: mlx5_9\n");
  EXPECT_THAT([&] { (void)import_skeleton({"", twice, "x"}); },
              ThrowsMessage<InputError>(HasSubstr(fmt::format("{}:{}: the NIC Legend names NIC0 twice (mlx5_0, then "
                                                              "mlx5_9)",
                                                              twice, lines + 1))));
  EXPECT_NO_THROW((void)import_skeleton({"", test::write_temp("again.txt", text + "\n  NIC0: mlx5_0\n"), "x"}));
}

TEST(ImportField, ACpuListWithBlanksAfterItsCommasIsOneCell) {
  // A hunt's edit of a real 8 x H100 `topo -m` ("0-47, 96-143", as a paste may reflow it) was
  // refused as "GPU0 NUMA Affinity '96-143' is not a NUMA node number". The list is one cell: the
  // skeleton is the plain file's.
  const std::string path = wild("smi_topo/issue_sglang30401_8x_h100_nv18_8nics_pix.txt");
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string spaced = std::regex_replace(text, std::regex("([0-9]),([0-9])"), "$1, $2");
  ASSERT_NE(spaced, text);
  const auto body = [](const std::string& yaml) { return yaml.substr(yaml.find("schema_version")); };
  EXPECT_EQ(body(import_skeleton({"", test::write_temp("spaced.txt", spaced), "x"})), body(import_skeleton({"", path, "x"})));
}

TEST(ImportField, ARepeatedNumaIdAndAC2cLinkWithoutItsCountAreNoted) {
  // Hunt edits: two <cpu numaid="0"> were renumbered without a word; a GB10's <c2c bw="43125"
  // count="0"> was said to come "without its bw and count" where only its count is missing.
  const std::string gpu = "<pci busid=\"000f:01:00.0\" class=\"0x030000\" vendor=\"0x10de\" link_speed=\"\" "
                          "link_width=\"0\">\n<gpu dev=\"0\" sm=\"121\" rank=\"0\" gdr=\"1\">\n"
                          "<c2c bw=\"43125\" count=\"0\"/>\n</gpu>\n</pci>\n";
  const std::string xml = test::write_temp("numa.xml", "<system version=\"1\">\n<cpu numaid=\"0\">\n" + gpu +
                                                           "</cpu>\n<cpu numaid=\"0\">\n</cpu>\n</system>\n");
  const ImportResult r = import_node({xml, "", "x"});
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("a second <cpu numaid=\"0\"> (each NUMA node is one <cpu> in NCCL's "
                                                   "dump): called cpu1")));
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("gpu0 has an NVLink-C2C link to cpu0 without a link count (count 0 "
                                                   "or none)")));
  // Two <c2c> on one GPU gave two parallel links (gpu0-cpu0 and gpu0-cpu0#2): the second is left
  // out, said.
  std::string two = gpu;
  two.replace(two.find("<c2c"), 0, "<c2c bw=\"43125\" count=\"8\"/>\n");
  const ImportResult r2 = import_node(
      {test::write_temp("c2c2.xml", "<system version=\"1\">\n<cpu numaid=\"0\">\n" + two + "</cpu>\n</system>\n"), "", "x"});
  EXPECT_THAT(r2.notes, testing::Contains(HasSubstr("gpu0 has a second <c2c> (NCCL writes one a GPU, its links in its "
                                                    "count): left out")));
  EXPECT_THAT(r2.yaml, testing::Not(HasSubstr("#2")));
}

TEST(ImportField, AGpuWithoutNvlinksBesideGpusOnTheFabricIsNoted) {
  // A hunt's edit of an 8 x B200 dump: one GPU without its <nvlink> (NCCL dropped a GPU's 18 links
  // on a public GB300 machine). Imported as the dump says (over PCIe), and now said.
  const auto gpu = [](const std::string& busid, int dev, bool nvlink) {
    return "<pci busid=\"" + busid + "\" class=\"0x030200\" vendor=\"0x10de\" link_speed=\"32.0 GT/s PCIe\" "
           "link_width=\"16\">\n<gpu dev=\"" + std::to_string(dev) + "\" sm=\"100\" rank=\"" + std::to_string(dev) +
           "\" gdr=\"1\">\n" + (nvlink ? "<nvlink target=\"fffffff:ff:ff.0\" count=\"18\" tclass=\"0x068000\"/>\n" : "") +
           "</gpu>\n</pci>\n";
  };
  const std::string xml = test::write_temp(
      "lost.xml", "<system version=\"1\">\n<cpu numaid=\"0\">\n" + gpu("0000:18:00.0", 0, true) +
                      gpu("0000:2a:00.0", 1, false) + gpu("0000:3a:00.0", 2, true) + "</cpu>\n</system>\n");
  EXPECT_THAT(import_node({xml, "", "x"}).notes,
              testing::Contains(HasSubstr("gpu1 lists no NVLink where gpu0, gpu2 reach the NVSwitch fabric")));
  const std::string all = test::write_temp(
      "all.xml", "<system version=\"1\">\n<cpu numaid=\"0\">\n" + gpu("0000:18:00.0", 0, true) +
                     gpu("0000:2a:00.0", 1, true) + "</cpu>\n</system>\n");
  EXPECT_THAT(import_node({all, "", "x"}).notes, testing::Not(testing::Contains(HasSubstr("lists no NVLink"))));
}

TEST(ImportHostile, AnHwlocTopologyIsNamedAsOne) {
  // A public repository's topo.xml was hwloc's (lstopo --of xml: <topology version="2.0">), refused
  // as "no <system> element". It is named, with what to dump instead.
  const std::string xml = test::write_temp(
      "lstopo.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
                    "<topology version=\"2.0\">\n<object type=\"Machine\" os_index=\"0\"/>\n</topology>\n");
  EXPECT_THAT([&] { (void)import_skeleton({xml, "", "x"}); },
              ThrowsMessage<InputError>(HasSubstr(xml + ": an hwloc topology (<topology>, as `lstopo --of xml` writes "
                                                        "it), not an NCCL topology dump")));
}

TEST(ImportHostile, TwoGpusAtOnePciAddressAreRefusedAndOddValuesNoted) {
  // Hostile edits of a real dump (a robustness hunt), each imported without a word before: gpu1
  // given gpu0's busid (NVLink peers are found by busid, so one of them lost its links);
  // link_speed="1e308 GT/s PCIe" read as PCIe Gen6; sm="ninety" read as "sm_0 GPU" with an
  // NVLink version left TODO unexplained.
  const auto dump = [](const std::string& speed, const std::string& sm, const std::string& second_busid) {
    return "<system version=\"1\">\n<cpu numaid=\"0\">\n"
           "<pci busid=\"0000:18:00.0\" class=\"0x030200\" vendor=\"0x10de\" link_speed=\"" + speed +
           "\" link_width=\"16\">\n<gpu dev=\"0\" sm=\"" + sm + "\" rank=\"0\" gdr=\"1\"/>\n</pci>\n"
           "<pci busid=\"" + second_busid + "\" class=\"0x030200\" vendor=\"0x10de\" link_speed=\"32.0 GT/s PCIe\" "
           "link_width=\"16\">\n<gpu dev=\"1\" sm=\"90\" rank=\"1\" gdr=\"1\"/>\n</pci>\n</cpu>\n</system>\n";
  };
  const ImportResult plain = import_node({test::write_temp("plain.xml", dump("32.0 GT/s PCIe", "90", "0000:3a:00.0")), "", "x"});
  EXPECT_THAT(plain.notes, testing::Not(testing::Contains(HasSubstr("no PCIe rate"))));
  EXPECT_THAT(plain.notes, testing::Not(testing::Contains(HasSubstr("no compute capability"))));
  const std::string same = test::write_temp("busid.xml", dump("32.0 GT/s PCIe", "90", "0000:18:00.0"));
  EXPECT_THAT([&] { (void)import_skeleton({same, "", "x"}); },
              ThrowsMessage<InputError>(HasSubstr(same + ":7: gpu1 at PCI 0000:18:00.0, where gpu0 is already (line 4): "
                                                         "two GPUs at one PCI address")));
  const ImportResult odd = import_node({test::write_temp("odd.xml", dump("1e308 GT/s PCIe", "ninety", "0000:3a:00.0")), "", "x"});
  EXPECT_THAT(odd.notes, testing::Contains(HasSubstr("the dump gives a link_speed that is no PCIe rate (up to 64 GT/s) "
                                                     "at '1e308 GT/s PCIe' (line 3)")));
  EXPECT_THAT(odd.notes, testing::Contains(HasSubstr("the dump gives an sm that is no compute capability at 'ninety' "
                                                     "(line 4)")));
}

TEST(ImportHostile, AnSmPastAnyComputeCapabilityLeavesTheNvlinkVersionTodo) {
  // sm="100000" on the H200s of a real dump (tests/data/real/h200-4gpu's, plain) was read as a Blackwell:
  // its NVLinks written as version 5, with no word. NCCL writes major x 10 + minor (90 for an
  // H100, 100 for a B200, 121 for a GB10); RCCL's 304 for an MI300X, beside its gcn name, is
  // RCCL's own and stays unremarked (tests/data/wild/nccl_topo/rccl_mi300x_8gpu_xgmi.xml).
  std::ifstream in(test::source_dir() + "/tests/data/fuzz/seeds/nccl_xml/h200-4gpu-nccl_topo.xml");
  std::stringstream text;
  text << in.rdbuf();
  std::string xml = text.str();
  for (std::size_t at = xml.find("sm=\"90\""); at != std::string::npos; at = xml.find("sm=\"90\"", at))
    xml.replace(at, 7, "sm=\"100000\"");
  const ImportResult odd = import_node({test::write_temp("sm.xml", xml), "", "x"});
  EXPECT_THAT(odd.notes, testing::Contains(HasSubstr("the dump gives an sm that is no compute capability at '100000' "
                                                     "(line 4)")));
  const std::string yaml = import_skeleton({test::write_temp("sm.xml", xml), "", "x"});
  EXPECT_THAT(yaml, HasSubstr("model: \"GPU at 0000:00:06.0 (sm '100000': no compute capability)\""));
  EXPECT_THAT(yaml, testing::Not(HasSubstr("version: 5")));
  const ImportResult amd = import_node({wild("nccl_topo/rccl_mi300x_8gpu_xgmi.xml"), "", "x"});
  EXPECT_THAT(amd.notes, testing::Not(testing::Contains(HasSubstr("no compute capability"))));
}

TEST(ImportField, NicLinksComeFromTheDumpWhenItGivesSpeedAndWidth) {
  // SimAI's ConnectX-6 NICs: <pci class="0x020000" link_speed="16 GT/s" link_width="16"> around
  // <nic><net speed="200000">. Their link is Gen4 x16 and their port 25 GB/s.
  const std::string yaml = import_skeleton({wild("nccl_topo/simai_hgx_a100_8gpu_baremetal.xml"), "", "x"});
  EXPECT_THAT(yaml, HasSubstr("  - between: [cpu0, nic0]\n    type: pcie\n    gen: 4\n    lanes: 16\n"));
  EXPECT_THAT(yaml, HasSubstr("  - id: nic0\n    kind: nic\n    model: \"mlx5_bond_0 200 Gb/s\"\n    bandwidth_gbps: 25  "
                              "# NCCL: 200 Gb/s\n"));
  // NICs only as PCI devices (Azure NDv4's InfiniBand): endpoints with their links too.
  const std::string ndv4 = import_skeleton({wild("nccl_topo/azure_ndv4_a100_pci_only.xml"), "", "x"});
  EXPECT_EQ(count_of(ndv4, "kind: nic\n"), 8u);
  // Socket interfaces (docker, veth, calico bridges listed under every CPU) are named in a note,
  // not linked 4 times each.
  const ImportResult veth = import_node({wild("nccl_topo/sugarlxn_4x_rtx4090_nps4_veth_nics.xml"), "", "x"});
  EXPECT_EQ(count_of(veth.yaml, "kind: nic\n"), 1u);
  EXPECT_THAT(veth.notes, testing::Contains(HasSubstr("socket interfaces on the CPUs (tunl0, br-702d9f064725")));
}

TEST(ImportField, GzippedDumpsAreRead) {
  // tests/data/real ships its dumps gzip'd; they were refused as unreadable XML.
  const std::string yaml = import_skeleton({real("h200-4gpu/nccl_topo.xml.gz"), "", "h200x4"});
  EXPECT_THAT(yaml, HasSubstr("  - between: [gpu3, nvswitch0]\n    type: nvlink\n    version: 4\n    count: 18\n"));
  EXPECT_THAT(yaml, HasSubstr("#   NCCL topology dump " + real("h200-4gpu/nccl_topo.xml.gz")));
}

TEST(ImportField, TopoMWithoutNumaColumnUsesCpuAffinity) {
  // DGX-1 `topo -m` from driver 440 has no NUMA Affinity column. GPUs 0-3 (cores 0-11,24-35) go
  // on cpu0 and 4-7 on cpu1, so GPU0-GPU5 (SYS in the matrix, no NVLink) crosses sockets, as
  // the matrix says; before, all 8 landed on cpu0 and GPU0-GPU5 was PHB.
  const ImportResult r = import_node({"", wild("smi_topo/dlperf_v100_sxm2_8gpu_drv440_no_numa_column.txt"), "dgx1"});
  EXPECT_THAT(r.yaml, HasSubstr("  - id: gpu3\n    kind: gpu\n    memory:\n"));
  EXPECT_EQ(count_of(r.yaml, "host: cpu0\n"), 4u);
  EXPECT_EQ(count_of(r.yaml, "host: cpu1\n"), 4u);
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("no NUMA Affinity column (an older driver); GPUs placed by their CPU "
                                                   "Affinity")));
  const Node n = parse_node(test::fill_todos(r.yaml), "dgx1.yaml");
  const Routes routes(n);
  EXPECT_EQ(pair_class(n, route(n, routes, "gpu0", "gpu5")), "SYS");
  EXPECT_EQ(pair_class(n, route(n, routes, "gpu0", "gpu3")), "NV2");
}

TEST(ImportField, TopoMCellsWrittenTogetherAreReadApartNotShifted) {
  // A `topo -m` pasted into an issue thread (sglang#14092, 8 x H20 with 36 NICs) lost the blanks
  // between some cells: "PIXNODE", "NODENODE". Read as one cell each, the CPU and NUMA Affinity
  // columns after them shifted, every GPU landed on cpu0 and the note said NUMA Affinity was N/A,
  // though the file puts GPU1 on NUMA node 1. The cells are taken apart, said in a note, and GPU1
  // is on cpu1; a token that is not made of topo -m values is refused, naming line and column.
  const std::string glued = test::write_temp(
      "glued.txt",
      "        GPU0    GPU1    NIC0    NIC1    NIC2    NIC3    CPU Affinity    NUMA Affinity   GPU NUMA ID\n"
      "GPU0     X      SYS     PIXNODE NODENODE    0-7     0               N/A\n"
      "GPU1    SYS      X      SYSSYS  SYSPIX      8-15    1               N/A\n");
  const ImportResult r = import_node({"", glued, "x"});
  EXPECT_THAT(r.yaml, HasSubstr("  - id: gpu1\n    kind: gpu\n"));
  EXPECT_EQ(count_of(r.yaml, "host: cpu0\n"), 1u);
  EXPECT_EQ(count_of(r.yaml, "host: cpu1\n"), 1u);
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("4 tokens on 2 lines hold cells or column names written together "
                                                   "without blanks (line 2: 'PIXNODE')")));
  EXPECT_THAT(r.notes, testing::Not(testing::Contains(HasSubstr("NUMA Affinity is N/A"))));
  const std::string bad = test::write_temp(
      "bad.txt", "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\nGPU0\t X \tPIXEL\t0-7\t0\nGPU1\tPIX\t X \t0-7\t0\n");
  EXPECT_THAT([&] { (void)import_skeleton({"", bad, "x"}); },
              ThrowsMessage<InputError>(HasSubstr(bad + ":2: row GPU0, column GPU1: 'PIXEL' is not a `nvidia-smi "
                                                        "topo -m` value")));
}

TEST(ImportField, TopoMColumnNamesWrittenTogetherAreReadApart) {
  // The header of a `topo -m` pasted into an issue thread (vllm#31594, 8 x B200 with 13 NICs) lost
  // the blank between two column names: "NIC11NIC12". Read as one name, the header named 20
  // devices against the rows' 21 cells, and the cell after the matrix was taken for the NUMA
  // Affinity: "GPU0 NUMA Affinity 'NODE' is not a NUMA node number", blaming line 2 for line 1.
  // Names made wholly of GPU<N> and NIC<N> are taken apart and said in the note; GPU0 and GPU1
  // are then on NUMA node 1 as written.
  const std::string glued = test::write_temp(
      "glued_header.txt",
      "        GPU0    GPU1    NIC0    NIC1NIC2    CPU Affinity    NUMA Affinity   GPU NUMA ID\n"
      "GPU0     X      NV18    SYS     PIX  NODE     8-15    1               N/A\n"
      "GPU1    NV18     X      SYS     NODE PIX      8-15    1               N/A\n");
  const ImportResult r = import_node({"", glued, "x"});
  EXPECT_EQ(count_of(r.yaml, "host: cpu1\n"), 2u);
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("1 token on 1 line holds cells or column names written together "
                                                   "without blanks (line 1: 'NIC1NIC2')")));
  // The same with the first two names written together.
  const std::string first = test::write_temp(
      "glued_first.txt",
      "        GPU0GPU1    NIC0    NIC1    CPU Affinity    NUMA Affinity\n"
      "GPU0     X      NV18    PIX     NODE     8-15    1\n"
      "GPU1    NV18     X      NODE    PIX      8-15    1\n");
  EXPECT_EQ(count_of(import_node({"", first, "x"}).yaml, "host: cpu1\n"), 2u);
  // A DGX-1 header pasted into a web page, every name glued to the next and the first NIC's own
  // name at the end (`GPU0GPU1mlx5_0`): refused as "rows without their header line" before.
  const std::string dgx1 = test::write_temp(
      "glued_dgx1.txt",
      "\t    GPU0GPU1mlx5_0\tmlx5_2\tCPU Affinity\n"
      "GPU0\t X \tNV1\tPIX\tSOC\t0-19\n"
      "GPU1\tNV1\t X \tPIX\tSOC\t0-19\n");
  const ImportResult d = import_node({"", dgx1, "x"});
  EXPECT_THAT(d.yaml, HasSubstr("  - between: [gpu0, gpu1]\n    type: nvlink\n"));
  EXPECT_THAT(d.notes, testing::Contains(HasSubstr("(line 1: 'GPU0GPU1mlx5_0'), read apart")));
  // A name that is not wholly device names stays one column: here the row then has a cell more
  // than the header names, refused naming the row.
  const std::string odd = test::write_temp(
      "odd_header.txt", "\tGPU0\tGPU1\tNIC0mlx\tCPU Affinity\tNUMA Affinity\nGPU0\t X \tNV4\tPIX\tPIX\t0-7\t0\n"
                        "GPU1\tNV4\t X \tPIX\tPIX\t0-7\t0\n");
  EXPECT_THAT([&] { (void)import_skeleton({"", odd, "x"}); }, ThrowsMessage<InputError>(HasSubstr(odd + ":2: GPU0")));
  // Rows without their header line are refused as such, not as a header without rows.
  const std::string headless = test::write_temp(
      "headless.txt", "GPU0     X      NV18    0-15    0\nGPU1    NV18     X      0-15    0\n");
  EXPECT_THAT([&] { (void)import_skeleton({"", headless, "x"}); },
              ThrowsMessage<InputError>(HasSubstr(headless + ":1: GPU0's row comes without the header line")));
}

TEST(ImportField, AGraceDumpKeepsItsNvlinkC2cLinkBesideItsPcieLink) {
  // A DGX Spark's (GB10) NCCL dump, quoted in NVIDIA/nccl PR #2202: its GPU lists <c2c bw="43125"
  // count="8"/>, the NVLink-C2C to its Grace CPU, which NCCL reads as 43125 x 8 / 1000 = 345 GB/s
  // each way (ncclTopoAddC2c). The importer had no <c2c> case: the GPU's only link to its CPU
  // was the PCIe Gen1 x16 its PCI device reports, 4 GB/s, and nothing said a link was left out.
  // Expected: an nvlink_c2c link of 345 GB/s, which the CPU-GPU route takes; the CPU's model is
  // what the dump gives (its arch alone), not "arm64  family  model ".
  const ImportInputs in{wild("nccl_topo/issue_nccl2202_gb10_spark_c2c.xml"), "", "gb10"};
  const std::string yaml = import_skeleton(in);
  EXPECT_THAT(yaml, HasSubstr("  - between: [gpu0, cpu0]\n    type: nvlink_c2c\n    bandwidth_gbps: 345  # NCCL: "
                              "<c2c bw=\"43125\" count=\"8\">, bw x count / 1000 GB/s each way\n"));
  EXPECT_THAT(yaml, HasSubstr("    model: \"arm64\"\n"));
  const Node n = load_filled(in);
  const Routes r(n);
  EXPECT_DOUBLE_EQ(route(n, r, "cpu0", "gpu0").bottleneck_gbps, 345.0);
}

TEST(ImportField, TwoGa102GpusOnAnNvlinkBridgeRunItsNarrowLinks) {
  // Two RTX A6000s (sm 86) on an NVLink bridge, as a public NCCL dump lists them: 4 NVLinks each
  // way. The importer took sm 80-89 for an A100's NVLink 3, 25 GB/s a link: 100 GB/s each way
  // where GA102's four x4 links carry 14.0625 GB/s each, 56.25 GB/s (GA102 whitepaper). Expected:
  // the rate written with its source, and the route's bottleneck at 4 x 14.06.
  const std::string xml = test::write_temp("ga102.xml", R"(<system version="1">
  <cpu numaid="0" arch="x86_64" vendor="AuthenticAMD" familyid="143" modelid="49">
    <pci busid="0000:07:00.0" class="0x030000" vendor="0x10de" device="0x2230" link_speed="16.0 GT/s PCIe" link_width="16">
      <gpu dev="0" sm="86" rank="0" gdr="1"><nvlink target="0000:08:00.0" count="4" tclass="0x030000"/></gpu>
    </pci>
    <pci busid="0000:08:00.0" class="0x030000" vendor="0x10de" device="0x2230" link_speed="16.0 GT/s PCIe" link_width="16">
      <gpu dev="1" sm="86" rank="1" gdr="1"><nvlink target="0000:07:00.0" count="4" tclass="0x030000"/></gpu>
    </pci>
  </cpu>
</system>
)");
  const ImportInputs in{xml, "", "ga102"};
  EXPECT_THAT(import_skeleton(in), HasSubstr("    count: 4\n    per_link_gbps: 14.06  # NVIDIA Ampere GA102 GPU "
                                             "architecture whitepaper"));
  const Node n = load_filled(in);
  const Routes r(n);
  EXPECT_NEAR(route(n, r, "gpu0", "gpu1").bottleneck_gbps, 4 * 14.06, 1e-9);
}

TEST(ImportField, TopoMGpusPxbToEachOtherShareASwitchAboveTheirOwn) {
  // An 8 x P40 `topo -m` (a public design document): GPU0-3 PIX to each other, GPU4-7 too, and the
  // two groups PXB (several PCIe switches, no host bridge). Each group's switch hung from the CPU,
  // so GPU0 -> GPU4 crossed the host bridge, as PHB would. Expected: a switch above both groups'
  // switches, under the CPU; the same with GPUs that have no PIX partner.
  const std::string grouped = test::write_temp(
      "pxb.txt",
      "\tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\n"
      "GPU0\t X \tPIX\tPXB\tPXB\t0-13\n"
      "GPU1\tPIX\t X \tPXB\tPXB\t0-13\n"
      "GPU2\tPXB\tPXB\t X \tPIX\t0-13\n"
      "GPU3\tPXB\tPXB\tPIX\t X \t0-13\n");
  const std::string yaml = import_node({"", grouped, "x"}).yaml;
  EXPECT_THAT(yaml, HasSubstr("  - id: pcisw2\n    kind: pcie_switch\n    model: \"PCIe switch above GPU0, GPU1, GPU2, "
                              "GPU3 (inferred from PXB)\""));
  EXPECT_THAT(yaml, HasSubstr("  - between: [pcisw2, pcisw0]\n"));
  EXPECT_THAT(yaml, HasSubstr("  - between: [pcisw2, pcisw1]\n"));
  EXPECT_THAT(yaml, HasSubstr("  - between: [cpu0, pcisw2]\n"));
  EXPECT_EQ(count_of(yaml, "  - between: [cpu0, "), 1u);
  const std::string single = test::write_temp("pxb_single.txt",
                                              "\tGPU0\tGPU1\tCPU Affinity\n"
                                              "GPU0\t X \tPXB\t0-13\n"
                                              "GPU1\tPXB\t X \t0-13\n");
  // Without PIX partners each GPU gets a switch of its own below the one above both: PXB crosses
  // two bridges at least (one switch between them would be PIX).
  const std::string two = import_node({"", single, "x"}).yaml;
  EXPECT_THAT(two, HasSubstr("  - between: [pcisw0, gpu0]\n"));
  EXPECT_THAT(two, HasSubstr("  - between: [pcisw1, gpu1]\n"));
  EXPECT_THAT(two, HasSubstr("  - between: [pcisw2, pcisw0]\n"));
  EXPECT_THAT(two, HasSubstr("  - between: [cpu0, pcisw2]\n"));
  const Node n = load_filled({"", single, "x"});
  EXPECT_EQ(pair_class(n, route(n, Routes(n), "gpu0", "gpu1")), "PXB");
}

TEST(ImportField, TopoMNicsPxbToGpusAndPixToEachOtherKeepTheirClasses) {
  // An 8 x H100 host with 12 NICs (a public sglang write-up) pairs each GPU with a NIC behind one
  // switch (PIX) and two such switches under another (GPU0-NIC1 PXB); two NICs are PIX to each
  // other only (one dual-port adapter). The PXB NICs were routed through the CPU (PHB) and the
  // dual-port NICs put on the CPU apart: 28 cells differed, without a note. Expected: every class
  // as the matrix gives it.
  const std::string smi = test::write_temp(
      "nics_pxb.txt",
      "\tGPU0\tGPU1\tNIC0\tNIC1\tNIC2\tNIC3\tCPU Affinity\tNUMA Affinity\n"
      "GPU0\t X \tNV18\tPIX\tPXB\tNODE\tNODE\t0-7\t0\n"
      "GPU1\tNV18\t X \tPXB\tPIX\tNODE\tNODE\t0-7\t0\n"
      "NIC0\tPIX\tPXB\t X \tPXB\tNODE\tNODE\n"
      "NIC1\tPXB\tPIX\tPXB\t X \tNODE\tNODE\n"
      "NIC2\tNODE\tNODE\tNODE\tNODE\t X \tPIX\n"
      "NIC3\tNODE\tNODE\tNODE\tNODE\tPIX\t X \n");
  const Node n = load_filled({"", smi, "x"});
  const Routes routes(n);
  EXPECT_EQ(pair_class(n, route(n, routes, "gpu0", "nic0")), "PIX");
  EXPECT_EQ(pair_class(n, route(n, routes, "gpu0", "nic1")), "PXB");
  EXPECT_EQ(pair_class(n, route(n, routes, "gpu1", "nic0")), "PXB");
  EXPECT_EQ(pair_class(n, route(n, routes, "nic0", "nic1")), "PXB");
  EXPECT_EQ(pair_class(n, route(n, routes, "nic2", "nic3")), "PIX");
  EXPECT_EQ(pair_class(n, route(n, routes, "gpu0", "nic2")), "PHB");  // NODE: the CPU's one host bridge here
}

TEST(ImportField, ATopoMHeaderWrappedOverTwoLinesIsReadAsOne) {
  // A header wrapped after GPU0 (a narrow terminal, or a paste; an NVIDIA test input of `topo -m`
  // parsing) was read as naming GPU0 alone: one GPU of the matrix's three, the NIC and the NUMA
  // Affinity column dropped, and exit 0.
  const std::string smi = test::write_temp("wrapped.txt",
                                           "\tGPU0\n"
                                           "GPU1\tGPU2\tNIC0\tCPU Affinity\tNUMA Affinity\n"
                                           "GPU0\t X \tNV18\tNV18\tPIX\t0-7\t0\n"
                                           "GPU1\tNV18\t X \tNV18\tNODE\t0-7\t0\n"
                                           "GPU2\tNV18\tNV18\t X \tSYS\t8-15\t1\n");
  const ImportResult r = import_node({"", smi, "x"});
  EXPECT_EQ(count_of(r.yaml, "    kind: gpu\n"), 3u);
  EXPECT_EQ(count_of(r.yaml, "    kind: nic\n"), 1u);
  EXPECT_EQ(count_of(r.yaml, "    kind: cpu\n"), 2u);
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("the header line is wrapped over lines 1-2, read as one (4 devices)")));
}

TEST(ImportField, TextBeforeATopoMThatNamesGpu0IsNotItsHeader) {
  // "Note: GPU0 detected at startup" above the matrix was taken for the header, and the error
  // blamed the real header on line 2 as a row.
  const std::string smi = test::write_temp("preamble.txt",
                                           "Note: GPU0 detected at startup\n"
                                           "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n"
                                           "GPU0\t X \tNV18\t0-7\t0\n"
                                           "GPU1\tNV18\t X \t0-7\t0\n");
  EXPECT_EQ(count_of(import_node({"", smi, "x"}).yaml, "    kind: gpu\n"), 2u);
}

TEST(ImportField, ANicJoinedWithinASocketToGpusOnTwoNumaNodesIsNoted) {
  // Princeton's della 8 x H100 `topo -m` gives NICs NODE (same NUMA node) to GPUs whose NUMA
  // Affinity says 0 and to GPUs whose says 1: a NIC sits on one of them, so 66 cells came out SYS
  // without a word (the opposite contradiction, SYS within one node, had its note).
  const std::string smi = test::write_temp("della.txt",
                                           "\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\n"
                                           "GPU0\t X \tNV18\tPIX\t\t0\n"
                                           "GPU1\tNV18\t X \tNODE\t8-15\t1\n");
  const ImportResult r = import_node({"", smi, "x"});
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("the matrix joins NIC0 (cpu0, cpu1) within a socket to GPUs on "
                                                   "different NUMA nodes")));
}

TEST(ImportField, TwoNicsNumberedAlikeByTheirPluginsAreBothKept) {
  // An RCCL dump of 8 x gfx906 on AMD Rome (ROCm/rccl topo_8p_rome_n2_1.xml) lists a 1 Gb/s
  // Ethernet port (enp98s0f0) and a 200 Gb/s InfiniBand HCA (mlx5_0) on different PCI devices,
  // both with dev 0: each network plugin numbers its own devices. The importer named NICs by dev
  // and dropped the second as a repeat, so the node had no InfiniBand at all. Expected: both,
  // the second renumbered, with a note; the same interface listed twice is still one NIC
  // (WildCorpus: eth0 under both CPUs).
  const ImportResult r = import_node({wild("nccl_topo/rccl_gfx906_rome_nps4_eth_and_ib_dev0.xml"), "", "rome"});
  EXPECT_THAT(r.yaml, HasSubstr("  - id: nic0\n    kind: nic\n    model: \"enp98s0f0 1 Gb/s\"\n"));
  EXPECT_THAT(r.yaml, HasSubstr("  - id: nic1\n    kind: nic\n    model: \"mlx5_0 200 Gb/s\"\n    bandwidth_gbps: 25"));
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("NICs 'enp98s0f0' and 'mlx5_0' both have dev 0 (each network "
                                                   "plugin numbers its own devices); 'mlx5_0' read as nic1")));
}

TEST(ImportField, AGraceTopoMNumaAffinityListPlacesEachGpuOnItsFirstNode) {
  // On GB200 `nvidia-smi topo -m` gives NUMA Affinity as a list, the Grace CPU's node and then
  // the nodes of the GPUs' memory ("0,3-9,11-17", as in sglang#11208); it was refused as "not a
  // NUMA node number", so a GB200 could not be imported from its own output. The text below is
  // written for this test in that layout. Expected: each GPU on its list's first node, a note.
  const std::string smi = test::write_temp(
      "gb200_numa_lists.txt",
      "      GPU0  GPU1  GPU2  GPU3   CPU Affinity  NUMA Affinity    GPU NUMA ID\n"
      "GPU0   X    NV18  NV18  NV18   0-71          0,3-9,11-17      2\n"
      "GPU1  NV18   X    NV18  NV18   0-71          0,3-9,11-17      10\n"
      "GPU2  NV18  NV18   X    NV18   72-143        1,19-25,27-33    18\n"
      "GPU3  NV18  NV18  NV18   X     72-143        1,19-25,27-33    26\n");
  const ImportResult r = import_node({"", smi, "gb200"});
  EXPECT_EQ(count_of(r.yaml, "host: cpu0\n"), 2u);
  EXPECT_EQ(count_of(r.yaml, "host: cpu1\n"), 2u);
  // A robustness hunt (round 31): each GPU reaches its Grace over NVLink-C2C, which topo -m does
  // not show; the import wrote PCIe (gen and lanes TODO: filled in, a 64 GB/s host link where
  // GB200's C2C carries 225 GB/s each way) and UPI, Intel's socket link, between the two Graces.
  EXPECT_EQ(count_of(r.yaml, "type: nvlink_c2c"), 4u);
  EXPECT_EQ(count_of(r.yaml, "type: pcie"), 0u);
  EXPECT_EQ(count_of(r.yaml, "type: upi"), 0u);
  EXPECT_EQ(count_of(r.yaml, "type: generic"), 1u);
  // Lists with the GPUs' NUMA IDs N/A (an x86 host whose GPUs sit near several nodes, not Grace):
  // PCIe and UPI, as the output says nothing more (a review's point).
  const std::string x86 = test::write_temp(
      "x86_numa_lists.txt",
      "      GPU0  GPU1  GPU2  GPU3   CPU Affinity  NUMA Affinity    GPU NUMA ID\n"
      "GPU0   X    NV18  NV18  NV18   0-71          0,3-9,11-17      N/A\n"
      "GPU1  NV18   X    NV18  NV18   0-71          0,3-9,11-17      N/A\n"
      "GPU2  NV18  NV18   X    NV18   72-143        1,19-25,27-33    N/A\n"
      "GPU3  NV18  NV18  NV18   X     72-143        1,19-25,27-33    N/A\n");
  const ImportResult lists = import_node({"", x86, "x86"});
  EXPECT_EQ(count_of(lists.yaml, "type: nvlink_c2c"), 0u);
  EXPECT_EQ(count_of(lists.yaml, "type: upi"), 1u);
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("NUMA Affinity lists several nodes on 4 rows (line 2: "
                                                   "'0,3-9,11-17'): a Grace system's CPU node")));
  // Not a list of numbers: still refused naming the cell.
  const std::string odd = test::write_temp(
      "numa_odd.txt", "      GPU0  GPU1   CPU Affinity  NUMA Affinity\nGPU0   X    NV18   0-71   0,x\n"
                      "GPU1  NV18   X     0-71   0\n");
  EXPECT_THAT([&] { (void)import_skeleton({"", odd, "x"}); },
              ThrowsMessage<InputError>(HasSubstr(odd + ":2: GPU0 NUMA Affinity '0,x' is not a NUMA node number")));
}

TEST(ImportField, ATopoMGpuWithNoNvlinkWhereTheOthersReachTheFabricIsSaid) {
  // A robustness hunt (round 31): an 8 x B200 whose GPU2 shows NODE/SYS to every other GPU (its
  // NVLinks down, vllm-project/vllm#16336) was imported right, over PCIe, but silently, where an
  // NCCL dump's such GPU gets a note. The rows below are written for this test in that layout.
  const std::string smi = test::write_temp(
      "nvlink_down.txt",
      "        GPU0    GPU1    GPU2    GPU3    CPU Affinity    NUMA Affinity   GPU NUMA ID\n"
      "GPU0     X      NV18    NODE    NV18    0-55            0               N/A\n"
      "GPU1    NV18     X      NODE    NV18    0-55            0               N/A\n"
      "GPU2    NODE    NODE     X      NODE    0-55            0               N/A\n"
      "GPU3    NV18    NV18    NODE     X      0-55            0               N/A\n");
  const ImportResult r = import_node({"", smi, "b200"});
  EXPECT_EQ(count_of(r.yaml, "nvswitch0]\n    type: nvlink"), 3u);
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("gpu2 shows no NVLink where gpu0, gpu1, gpu3 reach the NVSwitch "
                                                   "fabric: its links are down")));
}

TEST(ImportField, ATopoMRowWithAnEmptyCpuAffinityCellKeepsItsNumaNode) {
  // In a GB200 container `topo -m` leaves GPU2's and GPU3's CPU Affinity empty
  // ("...NODE\t\t1\t\tN/A"). Split on blanks the empty cell vanished: the NUMA node 1 was read
  // as a CPU set and "N/A" (the GPU NUMA ID) as the NUMA Affinity, and the note said "NUMA
  // Affinity is N/A". The rows below are written for this test in that layout. Expected: a row
  // with fewer cells than the columns after the matrix has its cells in the last columns, so
  // every GPU is placed by its NUMA Affinity (0, 0, 1, 1), without that note.
  const std::string smi = test::write_temp(
      "tabs_empty_cpu.txt",
      "\tGPU0\tGPU1\tGPU2\tGPU3\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"
      "GPU0\t X \tNV18\tNV18\tNV18\tNODE\t0-35\t0\t\tN/A\n"
      "GPU1\tNV18\t X \tNV18\tNV18\tNODE\t0-35\t0\t\tN/A\n"
      "GPU2\tNV18\tNV18\t X \tNV18\tSYS\t\t1\t\tN/A\n"
      "GPU3\tNV18\tNV18\tNV18\t X \tSYS\t\t1\t\tN/A\n"
      "NIC0\tNODE\tNODE\tSYS\tSYS\t X \t\t\t\t\n");
  const ImportResult r = import_node({"", smi, "gb200"});
  EXPECT_EQ(count_of(r.yaml, "host: cpu0\n"), 2u);
  EXPECT_EQ(count_of(r.yaml, "host: cpu1\n"), 2u);
  EXPECT_THAT(r.notes, testing::Not(testing::Contains(HasSubstr("NUMA Affinity is N/A"))));
}

TEST(ImportField, RocmSmiOutputIsNamedAsSuch) {
  // `rocm-smi --showtopo` (ROCm/rocm_smi_lib#108) given as `topo -m`: refused as "'0' is not a
  // nvidia-smi topo -m value ...; is the matrix cut, or edited?". Expected: the file named as
  // rocm-smi's output, and what to give for AMD GPUs.
  const std::string smi = test::write_temp(
      "rocm_smi.txt",
      "======================= ROCm System Management Interface =======================\n"
      "=========================== Weight between two GPUs ============================\n"
      "       GPU0         GPU1\nGPU0   0            40\nGPU1   40           0\n");
  EXPECT_THAT([&] { (void)import_skeleton({"", smi, "x"}); },
              ThrowsMessage<InputError>(HasSubstr(smi + ": the output of `rocm-smi` (--showtopo), not of `nvidia-smi "
                                                        "topo -m`; for AMD GPUs give RCCL's topology dump instead")));
}

TEST(ImportField, TopoMpOutputIsRefusedAsPcieOnly) {
  // `nvidia-smi topo -mp` prints the matrix with the NVLinks left out: DeepEP's issue template asks
  // for it, and its threads (#55, #60, #202) paste it for 8 x H20 boards whose GPUs show NODE and
  // SYS. Read as `topo -m` it was a machine without NVLink, exit 0, no word (robustness hunt 38).
  // Refused with its line where the paste shows its command or a legend without NV#; a matrix
  // that merely shows no NV# is imported with a note.
  const std::string matrix =
      "        GPU0    GPU1    CPU Affinity    NUMA Affinity   GPU NUMA ID\n"
      "GPU0     X      NODE    0-47,96-143     0               N/A\n"
      "GPU1    NODE     X      0-47,96-143     0               N/A\n";
  const std::string with_prompt = test::write_temp("topo_mp_prompt.txt", "root@host:~# nvidia-smi topo -mp\n" + matrix);
  EXPECT_THAT([&] { (void)import_skeleton({"", with_prompt, "x"}); },
              ThrowsMessage<InputError>(HasSubstr(with_prompt + ":1: the output of `nvidia-smi topo -mp`, the PCIe "
                                                                "paths only (it hides the NVLinks between GPUs); give "
                                                                "the output of `nvidia-smi topo -m`")));
  const std::string legend = "\nLegend:\n\n  X    = Self\n  SYS  = Connection traversing PCIe as well as the SMP "
                             "interconnect\n  NODE = Connection traversing PCIe\n  PHB  = Connection traversing PCIe "
                             "as well as a PCIe Host Bridge\n  PXB  = Connection traversing multiple PCIe bridges\n"
                             "  PIX  = Connection traversing at most a single PCIe bridge\n";
  const std::string with_legend = test::write_temp("topo_mp_legend.txt", matrix + legend);
  EXPECT_THAT([&] { (void)import_skeleton({"", with_legend, "x"}); },
              ThrowsMessage<InputError>(HasSubstr(with_legend + ":5: a legend without NV#: the output of `nvidia-smi "
                                                                "topo -mp`")));
  const std::string bare = test::write_temp("topo_m_pcie.txt", matrix);
  EXPECT_THAT(import_node({"", bare, "x"}).notes,
              testing::Contains(HasSubstr("the matrix shows no NVLink (NV#) between the GPUs: they talk over PCIe")));
  const std::string with_nv = test::write_temp(
      "topo_m_nv.txt", matrix + legend + "  NV#  = Connection traversing a bonded set of # NVLinks\n");
  EXPECT_NO_THROW((void)import_skeleton({"", with_nv, "x"}));
  // Drivers from before NVLink printed SOC and no NODE, and no NV#: their `topo -m` is read.
  const std::string old_driver = test::write_temp(
      "topo_m_soc.txt", "        GPU0    GPU1    CPU Affinity\nGPU0     X      SOC     0-7\nGPU1    SOC      X      8-15\n"
                        "\nLegend:\n\n  X   = Self\n  SOC  = Connection traversing PCIe as well as the SMP link between "
                        "CPU sockets(e.g. QPI)\n  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge\n"
                        "  PXB  = Connection traversing multiple PCIe switches\n  PIX  = Connection traversing a single "
                        "PCIe switch\n");
  EXPECT_NO_THROW((void)import_skeleton({"", old_driver, "x"}));
}

TEST(ImportField, TopoMNicsAreEndpointsPlacedByTheirCells) {
  // sglang#30401's 8 x H100 `topo -m` has 8 NICs, each PIX to one GPU, listed in its NIC Legend;
  // they were dropped without a word. Each column after the GPUs is now a NIC: under the PCIe
  // switch of the GPUs it is PIX to (NIC0 here is PXB to GPU0 but PIX to GPU1 and GPU2, so it
  // sits with GPU1 and GPU2, not GPU0), NODE on the GPU's CPU, SYS to every GPU on the first CPU
  // with a note. An older driver's column named by the device ("mlx5_2") is a NIC too.
  const std::string smi = test::write_temp(
      "nics.txt",
      "\tGPU0\tGPU1\tGPU2\tNIC0\tNIC1\tmlx5_2\tCPU Affinity\tNUMA Affinity\n"
      "GPU0\t X \tNV18\tNV18\tPXB\tNODE\tSYS\t0-7\t0\n"
      "GPU1\tNV18\t X \tNV18\tPIX\tNODE\tSYS\t0-7\t0\n"
      "GPU2\tNV18\tNV18\t X \tPIX\tNODE\tSYS\t0-7\t0\n"
      "NIC0\tPXB\tPIX\tPIX\t X \tNODE\tSYS\n"
      "NIC1\tNODE\tNODE\tNODE\tNODE\t X \tSYS\n"
      "mlx5_2\tSYS\tSYS\tSYS\tSYS\tSYS\t X \n\n"
      "Legend:\n\n  X    = Self\n\nNIC Legend:\n\n  NIC0: mlx5_0\n  NIC1: mlx5_1\n");
  const ImportResult r = import_node({"", smi, "x"});
  EXPECT_THAT(r.yaml, HasSubstr("  - id: nic0\n    kind: nic\n    model: \"mlx5_0 (NIC0 of `topo -m`)\"\n"));
  EXPECT_THAT(r.yaml, HasSubstr("  - id: nic2\n    kind: nic\n    model: \"mlx5_2 of `topo -m`\"\n"));
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("NICs that are SYS to every GPU, on a CPU the matrix does not name, "
                                                   "put on cpu0: move each under its CPU: nic2 (mlx5_2)")));
  const Node n = load_filled({"", smi, "x"});
  const Routes routes(n);
  EXPECT_EQ(pair_class(n, route(n, routes, "gpu1", "nic0")), "PIX");
  EXPECT_EQ(pair_class(n, route(n, routes, "gpu2", "nic0")), "PIX");
  EXPECT_EQ(pair_class(n, route(n, routes, "gpu0", "nic0")), "PXB");  // a switch above GPU0's and NIC0's
  EXPECT_EQ(pair_class(n, route(n, routes, "gpu0", "nic1")), "PHB");
}

TEST(ImportHostile, TopoMRowsShorterThanTheirHeaderAreRefusedAsSuch) {
  // A header naming one NIC column too many (NVIDIA's test input of a glued "NIC28NIC29") left
  // each row's CPU Affinity under the last NIC: the error blamed '0-7' as a bad cell, not the count.
  const std::string smi = test::write_temp("short_rows.txt", "\tGPU0\tGPU1\tNIC0\tNIC1\tCPU Affinity\n"
                                                             "GPU0\t X \tNV18\tPIX\t0-7\n"
                                                             "GPU1\tNV18\t X \tSYS\t0-7\n");
  EXPECT_THAT([&] { (void)import_skeleton({"", smi, "x"}); },
              ThrowsMessage<InputError>(HasSubstr(smi + ":2: row GPU0 has 3 cells, but the header names 4 devices "
                                                        "(GPU0 GPU1 NIC0 NIC1); '0-7' under NIC1 is a CPU or NUMA "
                                                        "affinity")));
}

TEST(ImportHostile, TopoMWithAGpuLeftOutAndNcclDumpsJoinedAreRefused) {
  // A robustness hunt (round 25): a topo -m with GPU1's row and column cut out (GPU0 GPU2 GPU3,
  // all NV18) imported one GPU and two "NICs" with a note that they were SYS to every GPU; two
  // NCCL dumps joined by `cat` imported the first node and dropped the second unsaid.
  const std::string gap = test::write_temp("gap.txt", "\tGPU0\tGPU2\tGPU3\tCPU Affinity\n"
                                                      "GPU0\t X \tNV18\tNV18\t0-7\n"
                                                      "GPU2\tNV18\t X \tNV18\t0-7\n"
                                                      "GPU3\tNV18\tNV18\t X \t0-7\n");
  EXPECT_THAT([&] { (void)import_skeleton({"", gap, "x"}); },
              ThrowsMessage<InputError>(HasSubstr(gap + ":1: the header names GPU2 where GPU1 comes next; nvidia-smi "
                                                        "numbers its GPUs 0, 1, 2, ... without a gap")));
  const std::string dump = test::read_file(wild("nccl_topo/issue_nccl2397_2x_a100pcie_dualport_cx6dx.xml"));
  const std::size_t lines = static_cast<std::size_t>(std::count(dump.begin(), dump.end(), '\n'));
  const std::string joined = test::write_temp("joined.xml", dump + dump);
  ASSERT_TRUE(dump.starts_with("<system"));  // its root on line 1, the copy's after its `lines` lines
  EXPECT_THAT([&] { (void)import_skeleton({joined, "", "x"}); },
              ThrowsMessage<InputError>(HasSubstr(fmt::format("{}:{}: a second <system> after the <system> of line 1: "
                                                              "two files joined?",
                                                              joined, lines + 1))));
  EXPECT_NO_THROW((void)import_skeleton({test::write_temp("once.xml", dump), "", "x"}));
}

TEST(ImportField, ANicWithoutASpeedIsSaidNotCalledZeroGbps) {
  // A public hand-written NCCL_TOPO_FILE (alibaba/rtp-llm's 8 x H20, bond NICs without a speed)
  // gave NIC models "mlx5_bond_0 0 Gb/s". Here the real dual-port dump with its speeds taken out.
  std::string dump = test::read_file(wild("nccl_topo/issue_nccl2397_2x_a100pcie_dualport_cx6dx.xml"));
  EXPECT_THAT(import_skeleton({test::write_temp("speeds.xml", dump), "", "x"}),
              HasSubstr("mlx5_0 + mlx5_1: 2 ports of one adapter at 0000:16:00.0, 200 Gb/s in all"));
  for (std::size_t at = dump.find(" speed=\""); at != std::string::npos; at = dump.find(" speed=\""))
    dump.erase(at, dump.find('"', at + 8) + 1 - at);
  const std::string skeleton = import_skeleton({test::write_temp("no_speed.xml", dump), "", "x"});
  EXPECT_THAT(skeleton, HasSubstr("mlx5_0 + mlx5_1: 2 ports of one adapter at 0000:16:00.0, the dump gives no speed"));
  EXPECT_THAT(skeleton, Not(HasSubstr(" 0 Gb/s")));
}

TEST(ImportHostile, TopoMWhoseGpuMatrixIsNotSymmetricIsRefused) {
  // "NV181": NV18 written together with a NUMA node 1 (its CPU Affinity empty) read as 181
  // NVLinks and an inferred NVSwitch, silently. topo -m gives GPUi/GPUj and GPUj/GPUi the same;
  // where they differ the file is refused naming both cells.
  const std::string smi = test::write_temp("asym.txt", "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n"
                                                       "GPU0\t X \tNV18\t0-7\t0\nGPU1\tNV181\t X \t0-7\t1\n");
  EXPECT_THAT([&] { (void)import_skeleton({"", smi, "x"}); },
              ThrowsMessage<InputError>(HasSubstr(smi + ":2: cell GPU0/GPU1 is 'NV18' but GPU1/GPU0 (line 3) is "
                                                        "'NV181'")));
}

TEST(ImportField, EveryTwoNumaNodesAreJoinedAndRcclsAmdVendorIsInfinityFabric) {
  // NCCL joins every two CPUs (ncclTopoConnectCpus); the skeleton chained them in the dump's
  // order, so a 4-NUMA Perlmutter-like node put its first NUMA node three hops from its last.
  // RCCL writes vendor="AMD" where NCCL writes the CPUID string: both are Infinity Fabric.
  std::string xml = "<system version=\"2\">\n";
  for (int numa : {3, 0, 1, 2}) {
    xml += fmt::format("  <cpu numaid=\"{0}\" affinity=\"ff\" arch=\"x86_64\" vendor=\"AMD\" familyid=\"25\" "
                       "modelid=\"1\">\n    <pci busid=\"0000:{0}1:00.0\" class=\"0x030200\" vendor=\"0x10de\" "
                       "device=\"0x20b0\" subsystem_vendor=\"0x10de\" subsystem_device=\"0x134f\" link_speed=\"16.0 "
                       "GT/s PCIe\" link_width=\"16\">\n      <gpu dev=\"{0}\" sm=\"80\" rank=\"{0}\" gdr=\"1\"/>\n"
                       "    </pci>\n  </cpu>\n",
                       numa);
  }
  xml += "</system>\n";
  const std::string path = test::write_temp("four_numa.xml", xml);
  const std::string yaml = import_skeleton({path, "", "x"});
  EXPECT_EQ(count_of(yaml, "type: infinity_fabric"), 6u);  // 4 x 3 / 2 pairs
  EXPECT_EQ(count_of(yaml, "type: upi"), 0u);
  const Node n = load_filled({path, "", "x"});
  const Routes routes(n);
  EXPECT_EQ(route(n, routes, "cpu3", "cpu2").hops, 1);
}

TEST(ImportField, PortsOfOneNicAdapterShareItsPcieLink) {
  // nccl#2397: one dual-port ConnectX-6 Dx (one <pci> function at Gen4 x8, a <net> per port) was
  // imported as two NICs, each with its own copy of the x8 link: 31.5 GB/s to the host where the
  // adapter has 15.75, and port-to-port traffic through the CPU. It is one NIC over its one link,
  // its ports' rates summed; a GPU beside it stays as near as topo -m says (no switch between).
  const std::string xml = test::write_temp("dual_port.xml", R"xml(<system version="1">
  <cpu numaid="0" affinity="ff" arch="x86_64" vendor="GenuineIntel" familyid="6" modelid="106">
    <pci busid="0000:16:00.0" class="0x020000" vendor="0x15b3" device="0x101d" subsystem_vendor="0x15b3" subsystem_device="0x0016" link_speed="16.0 GT/s PCIe" link_width="8">
      <nic>
        <net name="mlx5_0" dev="0" speed="100000" port="1" latency="0.000000" guid="0x1" maxconn="131072" gdr="1"/>
        <net name="mlx5_1" dev="1" speed="100000" port="2" latency="0.000000" guid="0x1" maxconn="131072" gdr="1"/>
      </nic>
    </pci>
    <pci busid="0000:17:00.0" class="0x030200" vendor="0x10de" device="0x20b5" subsystem_vendor="0x10de" subsystem_device="0x1533" link_speed="16.0 GT/s PCIe" link_width="16">
      <gpu dev="0" sm="80" rank="0" gdr="1"/>
    </pci>
  </cpu>
</system>
)xml");
  const std::string yaml = import_skeleton({xml, "", "x"});
  EXPECT_THAT(yaml, HasSubstr("  - id: nic0\n    kind: nic\n    model: \"mlx5_0 + mlx5_1: 2 ports of one adapter at "
                              "0000:16:00.0, 200 Gb/s in all\"\n    bandwidth_gbps: 25"));
  EXPECT_THAT(yaml, Not(HasSubstr("id: nic1")));
  EXPECT_EQ(count_of(yaml, "between: [cpu0, nic0]"), 1u);
  const Node n = load_filled({xml, "", "x"});
  const Routes routes(n);
  EXPECT_EQ(route(n, routes, "gpu0", "nic0").hops, 2);  // gpu0 - cpu0 - nic0, as before
}

TEST(ImportField, FunctionsOfOnePciDeviceShareItsPcieLink) {
  // A dual-port ConnectX-6 dumped as two <pci> functions (0c:00.0 and 0c:00.1, each Gen4 x16, a
  // port each), as zy-uestc/yccl's dump has a Broadcom card: imported as two NICs with a Gen4 x16
  // link each, 63 GB/s to the host where the card has one 31.5 GB/s slot (robustness hunt 38).
  // NCCL merges the functions of one device (busId & ~0xf): one NIC, its ports' rates added, on
  // one link, with a note.
  const std::string xml = test::write_temp("dual_function.xml", R"xml(<system version="1">
  <cpu numaid="0" affinity="ffffffff" arch="x86_64" vendor="GenuineIntel" familyid="6" modelid="106">
    <pci busid="0000:0b:00.0" class="0x030200" vendor="0x10de" device="0x20b0" subsystem_vendor="0x10de" subsystem_device="0x134f" link_speed="16.0 GT/s PCIe" link_width="16">
      <gpu dev="0" sm="80" rank="0" gdr="1"/>
    </pci>
    <pci busid="0000:0c:00.0" class="0x020700" vendor="0x15b3" device="0x101b" subsystem_vendor="0x15b3" subsystem_device="0x0007" link_speed="16.0 GT/s PCIe" link_width="16">
      <nic><net name="mlx5_0" dev="0" speed="200000" port="1" latency="0.000000" guid="0x1" maxconn="262144" gdr="1"/></nic>
    </pci>
    <pci busid="0000:0c:00.1" class="0x020700" vendor="0x15b3" device="0x101b" subsystem_vendor="0x15b3" subsystem_device="0x0007" link_speed="16.0 GT/s PCIe" link_width="16">
      <nic><net name="mlx5_1" dev="1" speed="200000" port="1" latency="0.000000" guid="0x2" maxconn="262144" gdr="1"/></nic>
    </pci>
  </cpu>
</system>
)xml");
  const ImportResult r = import_node({xml, "", "x"});
  EXPECT_THAT(r.yaml, HasSubstr("  - id: nic0\n    kind: nic\n    model: \"mlx5_0 200 Gb/s + mlx5_1 (function "
                                "0000:0c:00.1 of the same PCI device)\"\n    bandwidth_gbps: 50"));
  EXPECT_THAT(r.yaml, Not(HasSubstr("id: nic1")));
  EXPECT_EQ(count_of(r.yaml, "between: [cpu0, nic0]"), 1u);
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr(":9: mlx5_1 at 0000:0c:00.1 is another function of the PCI device "
                                                   "of nic0: read as ports of that NIC, on its one PCIe link")));
  // A first function that gives no speed leaves the second's rate, not none.
  std::string text = test::read_file(xml);
  const std::string speed = "speed=\"200000\"";
  text.replace(text.find(speed), speed.size(), "speed=\"0\"");
  const std::string unspeeded = test::write_temp("dual_function_no_speed.xml", text);
  EXPECT_THAT(import_node({unspeeded, "", "x"}).yaml,
              HasSubstr("bandwidth_gbps: 25  # NCCL + 200 Gb/s of function 0000:0c:00.1"));
}

// --- from skeleton to a loadable file ------------------------------------------------------------

TEST(ImportField, LoadingASkeletonListsEveryTodoAtOnce) {
  // The loader (topology/loader) refuses a skeleton with one message listing every TODO with its
  // line and what fills it, so one pass fills them all (it took 23 load-and-fix runs for 4 GPUs).
  const std::string yaml = import_skeleton({"", real("h200-4gpu/machine/topo-m.txt"), "h200x4"});
  const std::vector<Todo> todos = find_todos(yaml, "s.yaml");
  ASSERT_GT(todos.size(), 10u);
  try {
    (void)parse_node(yaml, "s.yaml");
    FAIL() << "a skeleton with TODOs must not load";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_THAT(m, HasSubstr(fmt::format("s.yaml: {} values are still TODO; fill in every one", todos.size())));
    for (const Todo& t : todos) EXPECT_THAT(m, HasSubstr(fmt::format("s.yaml:{}:{}: {}", t.line, t.column, t.what)));
    EXPECT_THAT(m, HasSubstr("endpoints[0] (cpu0) memory.capacity_gib: GiB of host memory on this socket"));
    EXPECT_THAT(m, HasSubstr("(gpu0-nvswitch0, nvlink) version: NVLink generation"));
  }
  // The CLI prints the same list on standard error when it writes the skeleton.
  const test::CommandResult cli = test::run_linkcast("topo import --smi " + real("h200-4gpu/machine/topo-m.txt"));
  EXPECT_EQ(cli.exit_code, 0) << cli.err;
  EXPECT_THAT(cli.err, HasSubstr(fmt::format("linkcast: {} values to fill in before the skeleton loads:", todos.size())));
}

TEST(ImportField, GpusCsvFillsNamesMemoryAndPcieLinks) {
  // `--gpus-csv` (nvidia-smi --query-gpu ... --format=csv, as tests/data/real keeps) fills each
  // GPU's name, memory (143771 MiB = 140.4 GiB) and PCIe generation and width, matched by bus id
  // to the dump (whose VM reports link_width 0), and the NVLink version from the name for `topo -m`.
  const std::string csv = real("h200-4gpu/machine/gpus.csv");
  const std::string yaml = import_skeleton({real("h200-4gpu/nccl_topo.xml.gz"), "", "h200x4", csv});
  EXPECT_THAT(yaml, HasSubstr("    model: \"NVIDIA H200 (sm_90 GPU at 0000:00:06.0)\"\n"));
  EXPECT_THAT(yaml, HasSubstr("      capacity_gib: 140.4  # nvidia-smi memory.total 143771 MiB [" + csv + ":2]\n"));
  EXPECT_THAT(yaml, HasSubstr("  - between: [cpu0, gpu0]\n    type: pcie\n    gen: 5\n    lanes: 16  # nvidia-smi "
                              "pcie.link.width.max [" + csv + ":2]\n"));
  const std::string smi_only = import_skeleton({"", real("h200-4gpu/machine/topo-m.txt"), "h200x4", csv});
  EXPECT_THAT(smi_only, HasSubstr("    type: nvlink\n    version: 4  # NVIDIA H200 is NVLink 4\n    count: 18\n"));
  // A CSV of another machine is refused.
  const std::string other = test::write_temp("other.csv", "index, name, pci.bus_id, memory.total [MiB]\n"
                                                          "0, NVIDIA H200, 00000000:9A:00.0, 143771 MiB\n");
  EXPECT_THAT([&] { (void)import_skeleton({real("h200-4gpu/nccl_topo.xml.gz"), "", "x", other}); },
              ThrowsMessage<InputError>(HasSubstr(other + ":2: GPU 0 at bus 0000:9a:00.0 is not in the NCCL dump")));
}

TEST(ImportField, ValuesAreCheckedAgainstTheSchemasRanges) {
  // A CSV claiming 5,000,000 MiB (4.8 TiB) for a GPU: outside the schema's plausible range for GPU
  // memory (topology/schema.cpp, up to 1 TiB), so it stays TODO and a note says why, in the
  // loader's words.
  const std::string csv = test::write_temp("big.csv", "index, name, memory.total [MiB]\n0, NVIDIA H200, 5000000 MiB\n");
  const std::string smi = test::write_temp("one.txt", "\tGPU0\tCPU Affinity\tNUMA Affinity\nGPU0\t X \t0-7\t0\n");
  const ImportResult r = import_node({"", smi, "x", csv});
  EXPECT_THAT(r.yaml, HasSubstr("      capacity_gib: TODO"));
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("gpu0.memory.capacity_gib left TODO: gpu0.memory.capacity_gib must "
                                                   "be between 0.001 and 1024 GiB, got 4883: no GPU has more than 1 TiB "
                                                   "of memory; check the value and its unit")));
}

// --- hostile input (issue 16) --------------------------------------------------------------------

TEST(ImportHostile, DeeplyNestedPciTreesAreRefusedWithoutRecursion) {
  // 50,000 nested <pci> elements overflowed the stack of the recursive walk. The reader walks
  // iteratively and refuses nesting past kMaxPciDepth with the line where it happens.
  std::string xml = "<system version=\"1\"><cpu numaid=\"0\">\n";
  for (int i = 0; i < 50000; ++i) xml += "<pci class=\"0x060400\" link_speed=\"16 GT/s\" link_width=\"16\">";
  for (int i = 0; i < 50000; ++i) xml += "</pci>";
  xml += "\n</cpu></system>\n";
  const std::string path = test::write_temp("deep.xml", xml);
  EXPECT_THAT([&] { (void)import_skeleton({path, "", "x"}); },
              ThrowsMessage<InputError>(HasSubstr(fmt::format("{}:2: <pci> elements nested {} deep; no machine has "
                                                              "PCIe trees deeper than a few switch levels",
                                                              path, kMaxPciDepth + 1))));
}

TEST(ImportHostile, NvCountsNearIntMaxAreRefused) {
  // "NV2147483647" and "NV99999999999" overflowed int in the sum of a GPU's NVLinks. Counts are
  // checked as the schema's NVLink count (1 to 1024) and refused with the cell named.
  for (const char* cell : {"NV2147483647", "NV99999999999999999999"}) {
    const std::string smi = test::write_temp("nv.txt", fmt::format("\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n"
                                                                   "GPU0\t X \t{0}\t0-7\t0\nGPU1\t{0}\t X \t0-7\t0\n",
                                                                   cell));
    EXPECT_THAT([&] { (void)import_skeleton({"", smi, "x"}); },
                ThrowsMessage<InputError>(AllOf(HasSubstr(fmt::format("{}:2: cell GPU0/GPU1 '{}': the NVLink count must", smi, cell)))))
        << cell;
  }
}

TEST(ImportHostile, FilesThatAreNotTopologiesAreRefusedNamingThem) {
  // An NCCL graph file, a dump of bare bus ids (AWS g5: nothing to import) and a GPU dev of 1e9.
  const std::string graph = wild("nccl_topo/azure_ncv4_graph_not_a_topology.xml");
  EXPECT_THAT([&] { (void)import_skeleton({graph, "", "x"}); },
              ThrowsMessage<InputError>(HasSubstr(graph + ": an NCCL graph file (<graphs>")));
  const std::string g5 = wild("nccl_topo/aws_g5_busids_only.xml");
  EXPECT_THAT([&] { (void)import_skeleton({g5, "", "x"}); },
              ThrowsMessage<InputError>(HasSubstr(g5 + ": no GPU in the dump")));
  const std::string dev = test::write_temp("dev.xml", "<system><cpu numaid=\"0\">\n<pci busid=\"0000:01:00.0\" "
                                                      "class=\"0x030200\"><gpu dev=\"1000000000\"/></pci></cpu></system>");
  EXPECT_THAT([&] { (void)import_skeleton({dev, "", "x"}); },
              ThrowsMessage<InputError>(HasSubstr(dev + ":2: <gpu dev=\"1000000000\">: a GPU's dev must be a whole number "
                                                        "from 0 to 4095")));
}

}  // namespace
}  // namespace linkcast::topology

namespace linkcast::topology {
namespace {

TEST(ImportField, NamesFromADumpCannotWriteYamlOfTheirOwn) {
  // Robustness hunt 37: a <net name> holding `"` and newlines (XML &quot; and &#10;) was pasted
  // into the skeleton's double-quoted model, which then held a second NIC of the dump's making;
  // a quote and backslash in a CPU vendor, invalid UTF-8 and control characters gave skeletons
  // that no longer loaded. Names are now written as escaped YAML strings of valid UTF-8.
  std::string xml = test::read_file(wild("nccl_topo/simai_hgx_a100_2gpu_subset.xml"));
  const std::string name = "name=\"mlx5_bond_0\"";
  ASSERT_NE(xml.find(name), std::string::npos);
  xml.replace(xml.find(name), name.size(),
              "name=\"x&quot;&#10;  - id: nic9&#10;    kind: nic&#10;    model: &quot;injected\\ \xff&#9;\"");
  ImportInputs inputs;
  inputs.nccl_xml_path = test::write_temp("net_name_injection.xml", xml);
  inputs.name = "injection";
  const std::string yaml = import_skeleton(inputs);
  EXPECT_THAT(yaml, HasSubstr("model: \"x\\\"\\x0a  - id: nic9\\x0a    kind: nic\\x0a    model: \\\"injected\\\\ \xef\xbf\xbd\\x09"));
  const Node n = load_filled(inputs);
  EXPECT_LT(n.find("nic9"), 0);
  const auto nic0 = n.find("nic0");
  ASSERT_GE(nic0, 0);
  EXPECT_THAT(n.endpoints[static_cast<std::size_t>(nic0)].model, HasSubstr("x\"\n  - id: nic9"));
}

TEST(ImportSmi, ANulOrBytesThatAreNotTextAreNamedByTheirLine) {
  // Robustness hunt 37: a NUL inside a NUMA Affinity cell cut the message that quoted the cell
  // (and its fix) short; a 0xFF byte after GPU0 in its row was reported as a missing row.
  const std::string head = "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n";
  for (const auto& [name, row, what] :
       {std::tuple{"smi_nul.txt", std::string("GPU0\t X \tNV4\t0-7\t0") + '\0' + "x\n", "a NUL byte"},
        std::tuple{"smi_ff.txt", std::string("GPU0\xff\t X \tNV4\t0-7\t0\n"), "bytes that are not UTF-8"}}) {
    ImportInputs inputs;
    inputs.smi_path = test::write_temp(name, head + row + "GPU1\tNV4\t X \t0-7\t0\n");
    EXPECT_EQ(test::error_of([&] { (void)import_skeleton(inputs); }),
              inputs.smi_path + ":2: " + what + " in the line; `nvidia-smi topo -m` prints text: give its output as "
                                                "printed");
  }
}

TEST(LoadNode, AFolderIsSaidToBeOneByEveryReaderOfNodeFiles) {
  // Robustness hunt 37: a study's node axis naming a folder said "the file is empty"; the rule
  // `linkcast topo` applies now lives in the loader every reader of node files calls.
  EXPECT_EQ(test::error_of([&] { (void)load_node(test::source_dir() + "/configs"); }),
            test::source_dir() + "/configs: is a directory, not a node file; give one of its .yaml files (e.g. "
                                 "configs/summit.yaml)");
}

TEST(ImportField, SpeedsThatAreNoRateAreNotedNotTakenForMissing) {
  // Robustness hunt 37: link_speed="-16 GT/s" and a NIC's speed="-5" were written as if the dump
  // gave none, with no note. They stay TODO, and a note names each with its line. Empty speeds (as
  // real dumps have where sysfs knew none) are no note.
  std::string xml = test::read_file(wild("nccl_topo/simai_hgx_a100_2gpu_subset.xml"));
  const std::string speed = "speed=\"200000\"";
  ASSERT_NE(xml.find(speed), std::string::npos);
  xml.replace(xml.find(speed), speed.size(), "speed=\"-5\"");
  const std::size_t link = xml.find("link_speed=\"");
  ASSERT_NE(link, std::string::npos);
  xml.replace(link, xml.find('"', link + 12) + 1 - link, "link_speed=\"nan GT/s\"");
  ImportInputs inputs;
  inputs.nccl_xml_path = test::write_temp("odd_speeds.xml", xml);
  inputs.name = "odd_speeds";
  const std::string yaml = import_skeleton(inputs);
  EXPECT_THAT(yaml, HasSubstr("# note: the dump gives a link_speed that is no PCIe rate (up to 64 GT/s) at 'nan GT/s' "
                              "(line "));
  EXPECT_THAT(yaml, HasSubstr("# note: the dump gives a NIC speed that is no rate (Mb/s above 0) at '-5' (line 5)"));
}

}  // namespace
}  // namespace linkcast::topology
