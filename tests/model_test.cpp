// model: link rates, packet overheads and the named transfer-time models. Each test states the
// arithmetic it expects.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "model/models.hpp"

namespace linkcast::model {
namespace {

using ::testing::StrEq;
using ::testing::ThrowsMessage;

LinkSpec pcie(int gen, int lanes, int mps = 256, int mrrs = 512, int rcb = 64, int addressing = 64) {
  LinkSpec l;
  l.type = LinkType::pcie;
  l.pcie = {gen, lanes, mps, mrrs, rcb, addressing};
  return l;
}

LinkSpec nvlink(int version, int count) {
  LinkSpec l;
  l.type = LinkType::nvlink;
  l.nvlink = {version, count, 0};
  return l;
}

TEST(Pcie, LinkRatesFollowSignallingAndLineCode) {
  // Gen2 x16: 16 lanes x 5 GT/s x 8/10 / 8 bits = 8.0 GB/s per direction (Titan's host link).
  EXPECT_NEAR(pcie_link_gbps({2, 16, 256, 512, 64, 64}), 8.0, 1e-12);
  // Gen3 x16: 16 x 8 GT/s x 128/130 / 8 = 15.7538 GB/s.
  EXPECT_NEAR(pcie_link_gbps({3, 16, 256, 512, 64, 64}), 15.753846, 1e-5);
  // Gen5 x16: 16 x 32 x 128/130 / 8 = 63.0154 GB/s.
  EXPECT_NEAR(pcie_link_gbps({5, 16, 256, 512, 64, 64}), 63.015385, 1e-5);
  // Gen6 x16: 16 x 64 / 8 = 128 GB/s of flits (flit overhead is per byte, below).
  EXPECT_NEAR(pcie_link_gbps({6, 16, 256, 512, 64, 64}), 128.0, 1e-12);
}

TEST(Pcie, Gen3x16WriteEfficiencyAtMps256) {
  // linkcast: each 256-byte write TLP carries a 4DW (16 B) header plus 8 B of framing, sequence
  // number and LCRC: 256 / (256 + 24) = 0.914286 -> 15.7538 x 0.914286 = 14.4035 GB/s.
  const LinkSpec l = pcie(3, 16);
  const double n = 64.0 * 1024 * 1024;  // a multiple of 256: no partial TLP
  EXPECT_NEAR(effective_gbps(l, n, Access::write), 15.753846 * 256.0 / 280.0, 1e-6);
  // AHEAD eq. 5 with its 12-byte (64-bit) header: 256 / 268 -> 15.0482 GB/s.
  EXPECT_NEAR(ahead_effective_gbps(l, n, Access::write), 15.753846 * 256.0 / 268.0, 1e-6);
}

TEST(Pcie, ReadsReturnRcbSizedCompletions) {
  // Titan: Gen2 x16, RCB 64. Each completion: 64 B + 12 B header + 8 B framing/LCRC = 84 B:
  // 8.0 x 64/84 = 6.0952 GB/s; the Titan bandwidthTest trace plateaus at 6.00 GB/s (1.6% lower,
  // the remainder being DLLP traffic and flow-control stalls we do not model).
  const LinkSpec l = pcie(2, 16);
  EXPECT_NEAR(effective_gbps(l, 256.0 * 1024 * 1024, Access::read), 8.0 * 64.0 / 84.0, 1e-6);
  // AHEAD eq. 4: n_hat = 12 + MRRS + ceil(n/64) x 12 + n. For n = 4096:
  // 12 + 512 + 64 x 12 + 4096 = 5388 -> 8.0 x 4096/5388 = 6.0817 GB/s.
  EXPECT_NEAR(ahead_wire_bytes(l, 4096, Access::read), 5388.0, 1e-9);
  EXPECT_NEAR(ahead_effective_gbps(l, 4096, Access::read), 8.0 * 4096.0 / 5388.0, 1e-9);
}

TEST(Pcie, Gen6FlitModeReplacesPerTlpFraming) {
  // Gen6: TLP bytes ride in 256-byte flits carrying 236 TLP bytes. A 256-byte write TLP is 272
  // TLP bytes (16 B header), 272 x 256/236 = 295.05 wire bytes: efficiency 0.867635.
  const LinkSpec l = pcie(6, 16);
  EXPECT_NEAR(wire_bytes(l, 256, Access::write), 272.0 * 256.0 / 236.0, 1e-9);
  EXPECT_NEAR(effective_gbps(l, 1 << 20, Access::write), 128.0 * 256.0 / (272.0 * 256.0 / 236.0), 1e-6);
}

TEST(Nvlink, EfficiencyFor256BytePayloads) {
  // NVLink write: one 16-byte header flit per 256-byte packet: 256/272 = 0.941176.
  // Two NVLink2 bricks (50 GB/s) -> 47.0588 GB/s.
  const LinkSpec l = nvlink(2, 2);
  EXPECT_NEAR(l.gbps(), 50.0, 1e-12);
  EXPECT_NEAR(effective_gbps(l, 256 * 1024, Access::write), 50.0 * 256.0 / 272.0, 1e-9);
  // Reads add one request flit per transfer (AHEAD eq. 6): n = 256 -> 16 + 16 + 256 = 288.
  EXPECT_NEAR(wire_bytes(l, 256, Access::read), 288.0, 1e-12);
  // Warp-sized device-initiated requests (128 B) pay a header flit per 128 B: 128/144.
  EXPECT_NEAR(effective_gbps(l, 1 << 20, Access::write, 128), 50.0 * 128.0 / 144.0, 1e-9);
}

TEST(Nvlink, PerLinkRatesByVersion) {
  // Per link per direction: P100 20, V100 25, A100 25, H100 25, B200 50 GB/s.
  EXPECT_EQ(nvlink_per_link_gbps(1), 20.0);
  EXPECT_EQ(nvlink_per_link_gbps(2), 25.0);
  EXPECT_EQ(nvlink_per_link_gbps(3), 25.0);
  EXPECT_EQ(nvlink_per_link_gbps(4), 25.0);
  EXPECT_EQ(nvlink_per_link_gbps(5), 50.0);
  EXPECT_NEAR(nvlink(4, 18).gbps(), 450.0, 1e-12);  // H100/H200 NV18: 450 GB/s per direction
}

PathSpec summit_h2d() {
  PathSpec p;
  p.cls = PathClass::h2d;
  p.hops = {nvlink(2, 2)};
  p.host_memory_gbps = 170.7;
  p.host.copy_gbps = 13.62;
  p.dst_memory_gbps = 900;
  return p;
}

TEST(Models, SummitPinnedH2DLargeTransferMatchesTheTrace) {
  // Summit CPU->GPU: 2 NVLink2 bricks, DMA reads. For 256 MiB the request flit is negligible:
  // 50 x 256/272 = 47.06 GB/s. The Summit bandwidthTest trace (htod-pinned) shows 46.99 GB/s
  // at 256 MiB (268435456 B in a median 5712054 ns): within 0.2%.
  Transfer t;
  t.bytes = 268435456;
  t.access = Access::read;
  t.fixed_ns = 0;
  const double gbps = t.bytes / default_time_ns(summit_h2d(), t);
  EXPECT_NEAR(gbps, 46.99, 46.99 * 0.005);
  EXPECT_NEAR(t.bytes / ahead_time_ns(summit_h2d(), t), 46.99, 46.99 * 0.005);
}

TEST(Models, LogGPChargesTheFixedCostOnce) {
  // T = L + O + n G: with L + O = 1792 ns and 50 GB/s peak, 1 MB takes 1792 + 1e6/50 = 21792 ns
  // under `peak`, and 20000 ns under `envelope`, which ignores L + O.
  Transfer t;
  t.bytes = 1e6;
  t.fixed_ns = 1792;
  EXPECT_NEAR(peak_time_ns(summit_h2d(), t), 21792.0, 1e-9);
  EXPECT_NEAR(envelope_time_ns(summit_h2d(), t), 20000.0, 1e-9);
}

TEST(Models, PageableStagingOverlapsTheCpuCopy) {
  // default: the CPU copy (13.62 GB/s) is slower than the link (47 GB/s), so 64 MiB takes
  // 67108864 / 13.62 = 4927229 ns plus L + O.
  Transfer t;
  t.bytes = 67108864;
  t.access = Access::read;
  t.pageable = true;
  t.fixed_ns = 1000;
  EXPECT_NEAR(default_time_ns(summit_h2d(), t), 1000.0 + 67108864.0 / 13.62, 1e-3);
  // AHEAD eq. 9 serialises two host-memory passes and the link:
  // 1000 + 2n/170.7 + n/BW_eff(read) where n_hat = 16 + 262144 x 16 + n.
  const double n = 67108864.0;
  const double bw_eff = n * 50.0 / (16.0 + 262144.0 * 16.0 + n);
  EXPECT_NEAR(ahead_time_ns(summit_h2d(), t), 1000.0 + 2.0 * n / 170.7 + n / bw_eff, 1e-3);
}

TEST(Models, PageableWithoutACopyRateFallsBackToAheadStaging) {
  PathSpec p = summit_h2d();
  p.host.copy_gbps = 0;  // unknown for this host
  Transfer t;
  t.bytes = 1 << 20;
  t.access = Access::read;
  t.pageable = true;
  EXPECT_NEAR(default_time_ns(p, t), t.bytes / path_effective_gbps(p, t) + 2.0 * t.bytes / 170.7, 1e-6);
}

TEST(Models, DeviceToDeviceCopiesReadAndWriteMemory) {
  // V100, 900 GB/s HBM2: a 256 MiB D2D copy moves 2 x 256 MiB through memory: `default`
  // 2 x 268435456 / 900 = 596523 ns; AHEAD (n / BW) half that; a memset only writes. With the
  // memory's measured streaming rate, BabelStream's triad of 833.4 GB/s read + write
  // (configs/summit.yaml), `default` prices both at that rate (644194 ns for the copy); AHEAD
  // keeps the datasheet peak, as its paper does.
  for (const double streaming_gbps : {0.0, 833.4}) {
    SCOPED_TRACE(streaming_gbps);
    const double rate = streaming_gbps > 0 ? streaming_gbps : 900.0;
    PathSpec p;
    p.cls = PathClass::d2d;
    p.src_memory_gbps = p.dst_memory_gbps = 900;
    p.src_memory_stream_gbps = streaming_gbps;
    Transfer t;
    t.bytes = 268435456;
    EXPECT_NEAR(default_time_ns(p, t), 2.0 * 268435456.0 / rate, 1e-6);
    EXPECT_NEAR(ahead_time_ns(p, t), 268435456.0 / 900.0, 1e-6);
    t.write_only = true;
    EXPECT_NEAR(default_time_ns(p, t), 268435456.0 / rate, 1e-6);
  }
}

TEST(Models, MultiHopPathsRunAtTheSlowestHop) {
  // GPU -> PCIe Gen3 x16 switch -> CPU -> X-Bus 64 GB/s: the PCIe hop (write, 14.40 GB/s) binds.
  PathSpec p;
  p.cls = PathClass::d2h;
  LinkSpec xbus;
  xbus.type = LinkType::xbus;
  xbus.generic_gbps = 64;
  p.hops = {pcie(3, 16), pcie(3, 16), xbus};
  Transfer t;
  t.bytes = 1 << 26;
  t.access = Access::write;
  EXPECT_NEAR(path_effective_gbps(p, t), 15.753846 * 256.0 / 280.0, 1e-5);
  EXPECT_NEAR(p.peak_gbps(), 15.753846, 1e-5);
}

TEST(Models, RegistryListsModelsAndRejectsUnknownNames) {
  EXPECT_EQ(find_model("default").name, "default");
  EXPECT_EQ(all_models().size(), 4u);
  EXPECT_THAT([] { (void)find_model("ahaed"); },
              ThrowsMessage<InputError>(
                  StrEq("unknown model 'ahaed' (did you mean 'ahead'?); valid models: default, ahead, peak, envelope")));
}

TEST(Models, EachModelSaysHowItChargesAHop) {
  // What the simulator shares links by comes from the registry, not from model names. A 64 MiB
  // write over PCIe Gen3 x16 (15.7538 GB/s after line coding): `default` counts a 4DW header plus
  // 8 B of framing per 256 B TLP (256 / 280); `ahead` AHEAD's 12-byte write header (256 / 268);
  // `peak` and `envelope` count no packets (the link's peak).
  const LinkSpec hop = pcie(3, 16);
  Transfer t;
  t.bytes = 64.0 * 1024 * 1024;
  t.access = Access::write;
  EXPECT_NEAR(find_model("default").hop_effective_gbps(hop, t), 15.753846 * 256.0 / 280.0, 1e-5);
  EXPECT_NEAR(find_model("ahead").hop_effective_gbps(hop, t), 15.753846 * 256.0 / 268.0, 1e-5);
  EXPECT_DOUBLE_EQ(find_model("peak").hop_effective_gbps(hop, t), hop.gbps());
  EXPECT_DOUBLE_EQ(find_model("envelope").hop_effective_gbps(hop, t), hop.gbps());
  // No model credits a hop with more than its peak.
  for (const Model& m : all_models()) EXPECT_LE(m.hop_effective_gbps(hop, t), hop.gbps()) << m.name;
}

TEST(Models, ThePathRateIsTheSlowestHopsUnderTheSameAccounting) {
  // A Gen3 x16 hop (15.75 GB/s) then an NVLink2 x1 hop (25 GB/s): the PCIe hop is the slower
  // one, and the path's rate is its rate under the same accounting.
  PathSpec p;
  p.cls = PathClass::p2p;
  p.hops = {pcie(3, 16), nvlink(2, 1)};
  Transfer t;
  t.bytes = 1 << 20;
  t.access = Access::write;
  EXPECT_DOUBLE_EQ(path_effective_gbps(p, t), std::min(hop_effective_gbps(p.hops[0], t), hop_effective_gbps(p.hops[1], t)));
  EXPECT_DOUBLE_EQ(path_effective_gbps(p, t), hop_effective_gbps(p.hops[0], t));
  EXPECT_DOUBLE_EQ(path_ahead_effective_gbps(p, t),
                   std::min(hop_ahead_effective_gbps(p.hops[0], t), hop_ahead_effective_gbps(p.hops[1], t)));
}

TEST(Models, ChargesFixedCostMatchesWhatTheModelAdds) {
  // L + O = 1000 ns is added in full by default, ahead and peak (T = L + O + n / BW) and not at
  // all by envelope (T = n / peak): the simulator charges it only where the flag says so.
  const PathSpec p{.cls = PathClass::h2d,
                   .hops = {pcie(3, 16)},
                   .host_memory_gbps = 100,
                   .host = {},
                   .src_memory_gbps = 100,
                   .dst_memory_gbps = 900};
  const Transfer t{.bytes = 1 << 20, .access = Access::read};
  for (const Model& m : all_models()) {
    Transfer with = t;
    with.fixed_ns = 1000;
    EXPECT_NEAR(m.time_ns(p, with) - m.time_ns(p, t), m.charges_fixed_cost ? 1000.0 : 0.0, 1e-6) << m.name;
  }
  EXPECT_TRUE(find_model("default").charges_fixed_cost);
  EXPECT_TRUE(find_model("ahead").charges_fixed_cost);
  EXPECT_TRUE(find_model("peak").charges_fixed_cost);
  EXPECT_FALSE(find_model("envelope").charges_fixed_cost);
}

TEST(Models, UnknownNamesListTheValidOnes) {
  EXPECT_THAT([] { (void)find_model("defualt"); },
              ::testing::ThrowsMessage<InputError>(::testing::HasSubstr(
                  "unknown model 'defualt' (did you mean 'default'?); valid models: default, ahead, peak, envelope")));
}


// --- prepared paths ----------------------------------------------------------------------------

/// Sizes that cross every packet boundary the accountings use, and sizes no boundary divides.
std::vector<double> sizes_to_price() {
  std::vector<double> sizes = {1, 2, 7, 8, 12, 16, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513, 4095, 4096};
  for (double n = 4097; n < 1e11; n = n * 1.37 + 3) sizes.push_back(std::floor(n));
  for (int k = 10; k <= 40; ++k) sizes.push_back(std::ldexp(1.0, k) + 1);
  return sizes;
}

TEST(WireAccounting, GivesThePublishedEquationsToTheBit) {
  // The equations of packet.hpp, written out: each accounting's one form must give exactly these.
  const auto ceil_div = [](double n, double size) { return std::ceil(n / size); };
  for (const double n : sizes_to_price()) {
    const LinkSpec g3 = pcie(3, 16), g6 = pcie(6, 16), g3_32 = pcie(3, 8, 128, 256, 128, 32), nv = nvlink(4, 18);
    // linkcast's: PCIe Gen1-5 TLPs with header + 8 B of framing, Gen6 flits, NVLink packets.
    EXPECT_EQ(wire_bytes(g3, n, Access::write), ceil_div(n, 256) * (16.0 + 8.0) + n) << n;
    EXPECT_EQ(wire_bytes(g3, n, Access::read), ceil_div(n, 64) * (12.0 + 8.0) + n) << n;
    EXPECT_EQ(wire_bytes(g3_32, n, Access::write), ceil_div(n, 128) * (12.0 + 8.0) + n) << n;
    EXPECT_EQ(wire_bytes(g3, n, Access::read, 32), ceil_div(n, 32) * (12.0 + 8.0) + n) << n;
    EXPECT_EQ(wire_bytes(g6, n, Access::write), (ceil_div(n, 256) * 16.0 + n) * (256.0 / 236.0)) << n;
    EXPECT_EQ(wire_bytes(nv, n, Access::read), 16.0 + ceil_div(n, 256) * 16.0 + n) << n;
    EXPECT_EQ(wire_bytes(nv, n, Access::write, 128), ceil_div(n, 128) * 16.0 + n) << n;
    // AHEAD's eqs. 4-7.
    EXPECT_EQ(ahead_wire_bytes(g3, n, Access::read), 12.0 + 512 + ceil_div(n, 64) * 12.0 + n) << n;
    EXPECT_EQ(ahead_wire_bytes(g3_32, n, Access::write), ceil_div(n, 128) * 8.0 + n) << n;
    EXPECT_EQ(ahead_wire_bytes(nv, n, Access::read), 16.0 + ceil_div(n, 256) * 16.0 + n) << n;
    EXPECT_EQ(ahead_wire_bytes(nv, n, Access::write), ceil_div(n, 256) * 16.0 + n) << n;
    EXPECT_EQ(effective_gbps(g3, n, Access::write), n * g3.gbps() / wire_bytes(g3, n, Access::write)) << n;
  }
  // Links without packets carry the data alone.
  LinkSpec upi;
  upi.type = LinkType::upi;
  upi.generic_gbps = 62.4;
  EXPECT_EQ(wire_bytes(upi, 12345.0, Access::write), 12345.0);
}

TEST(WireAccounting, CountsPacketsAsCeilDoes) {
  // The packet count's fast path (truncation plus one for a fraction) against std::ceil, at the
  // edges of its range and outside it.
  std::vector<double> xs = {0.0, -0.0, 1e-310, 0.5, 1.0, 1.5, 2.0, 4503599627370495.5, 4503599627370496.0,
                            9007199254740993.0, 1e300, -1.5, -3.0, std::numeric_limits<double>::infinity()};
  for (double x = 0.001; x < 1e17; x = x * 1.7 + 0.3) xs.push_back(x);
  for (const double x : xs) {
    const double expected = std::ceil(x);
    const double got = WireAccounting::ceil_packets(x);
    EXPECT_EQ(std::signbit(got), std::signbit(expected)) << x;
    EXPECT_EQ(got, expected) << x;
  }
  EXPECT_TRUE(std::isnan(WireAccounting::ceil_packets(std::numeric_limits<double>::quiet_NaN())));
}

/// Paths of every class and kind of hop: switched PCIe (two hops alike), a socket link, NVLink,
/// Gen6 flits, within one GPU, host to host, with and without host copy rates.
std::vector<PathSpec> paths_to_price() {
  LinkSpec upi;
  upi.type = LinkType::upi;
  upi.generic_gbps = 62.4;
  HostRates rates;
  rates.copy_gbps = 11.86;
  rates.warm_copy_gbps = 21.5;
  rates.first_touch_gbps = 4.1;
  rates.pageable_h2d_gbps = 9.7;
  std::vector<PathSpec> paths;
  for (const PathClass cls : {PathClass::h2d, PathClass::d2h}) {
    paths.push_back({cls, {pcie(5, 16), pcie(5, 16)}, 300, 281.6, rates, 281.6, 3350});
    paths.push_back({cls, {upi, pcie(4, 16), pcie(4, 16)}, 420, 204.8, {}, 204.8, 2039});
    paths.push_back({cls, {pcie(6, 16)}, 150, 460, rates, 460, 8000});
    paths.push_back({cls, {pcie(3, 8, 128, 256, 128, 32)}, 150, 60, {.copy_gbps = 8}, 60, 900});
  }
  paths.push_back({PathClass::p2p, {nvlink(4, 18), nvlink(4, 18)}, 200, 0, {}, 3350, 3350});
  paths.push_back({PathClass::p2p, {pcie(3, 16), nvlink(2, 1)}, 250, 0, {}, 900, 732});
  paths.push_back({PathClass::d2d, {}, 0, 0, {}, 3350, 3350});
  paths.push_back({PathClass::h2h, {}, 0, 281.6, rates, 281.6, 281.6});
  paths.push_back({PathClass::h2h, {}, 0, 281.6, {}, 281.6, 281.6});
  return paths;
}

TEST(PreparedPath, PricesEveryTransferAsTheModelsDoToTheBit) {
  // A projection prices operations over prepared paths; the figures must be those of the models'
  // own functions over the PathSpec, to the bit, so that no output changes with the size mix.
  const std::vector<double> sizes = sizes_to_price();
  for (const PathSpec& spec : paths_to_price()) {
    const PreparedPath prepared(spec, copy_access(spec.cls));
    EXPECT_LE(prepared.hops.size(), spec.hops.size());
    for (const double n : sizes) {
      Transfer t;
      t.bytes = n;
      t.access = copy_access(spec.cls);
      t.fixed_ns = 2100;
      for (const bool pageable : {false, true})
        for (const bool write_only : {false, true})
          for (std::size_t r = 0; r < kHostRegimeCount; ++r) {
            t.pageable = pageable;
            t.write_only = write_only;
            t.regime = static_cast<HostRegime>(r);
            for (const Model& m : all_models()) {
              ASSERT_NE(m.prepared_time_ns, nullptr) << m.name;
              EXPECT_EQ(m.time_ns_over(prepared, t), m.time_ns(spec, t)) << m.name << " " << n << " " << r;
            }
          }
      // Transfers the accountings were not read for (device-initiated requests, the other access)
      // are priced over the PathSpec.
      for (const double request : {32.0, 128.0}) {
        Transfer access = t;
        access.request_bytes = std::min(n, request);
        access.fixed_ns = 0;
        for (const Model& m : all_models()) EXPECT_EQ(m.time_ns_over(prepared, access), m.time_ns(spec, access)) << m.name;
      }
      Transfer other = t;
      other.access = t.access == Access::read ? Access::write : Access::read;
      for (const Model& m : all_models()) EXPECT_EQ(m.time_ns_over(prepared, other), m.time_ns(spec, other)) << m.name;
    }
  }
}

TEST(PreparedPath, PricesThreeRegimesAtOnceAsOneAtATime) {
  const std::array<HostRegime, 3> regimes = {HostRegime::cold, HostRegime::warm, HostRegime::direct};
  for (const PathSpec& spec : paths_to_price()) {
    const PreparedPath prepared(spec, copy_access(spec.cls));
    for (const double n : sizes_to_price()) {
      Transfer t;
      t.bytes = n;
      t.access = copy_access(spec.cls);
      t.pageable = true;
      t.fixed_ns = 4500;
      std::array<double, 3> at_once{};
      default_prepared_regimes_ns(prepared, t, regimes, at_once);
      for (std::size_t k = 0; k < regimes.size(); ++k) {
        t.regime = regimes[k];
        EXPECT_EQ(at_once[k], default_time_ns(spec, t)) << n << " " << k;
      }
    }
  }
}

}  // namespace
}  // namespace linkcast::model
