#include "model/packet.hpp"

#include <algorithm>
#include <cmath>

namespace linkcast::model {

namespace {

double pcie_request_header_bytes(const PcieParams& p) {
  return p.addressing_bits == 32 ? 12.0 : 16.0;
}

/// w with its payload's exact inverse where there is one (WireAccounting::payload_inverse).
WireAccounting with_payload_inverse(WireAccounting w) {
  int exponent = 0;
  if (w.packets && w.payload > 0 && std::isfinite(w.payload) && std::frexp(w.payload, &exponent) == 0.5)
    w.payload_inverse = std::ldexp(1.0, 1 - exponent);  // payload = 2^(exponent - 1)
  return w;
}

}  // namespace

WireAccounting ahead_wire_accounting(const LinkSpec& link, Access access) {
  WireAccounting w;
  w.gbps = link.gbps();
  switch (link.type) {
    case LinkType::pcie: {
      const PcieParams& p = link.pcie;
      const double header = p.addressing_bits == 32 ? 8.0 : 12.0;  // AHEAD's MRd_O/MWr_O/CplD_O
      w.packets = true;
      w.per_packet = header;
      if (access == Access::read) {
        // n_hat = MRd_O + MRRS + ceil(n / RCB) * CplD_O + n
        w.extra = header + p.mrrs_bytes;
        w.payload = p.rcb_bytes;
      } else {
        // n_hat = ceil(n / MPS) * MWr_O + n
        w.payload = p.mps_bytes;
      }
      break;
    }
    case LinkType::nvlink:
      // n_hat = [Flit +] ceil(n / 256) * Flit + n: AHEAD's NVLink equation is ours, uncapped.
      return wire_accounting(link, access, 0);
    default: break;
  }
  return with_payload_inverse(w);
}

WireAccounting wire_accounting(const LinkSpec& link, Access access, double max_request_bytes) {
  WireAccounting w;
  w.gbps = link.gbps();
  switch (link.type) {
    case LinkType::pcie: {
      const PcieParams& p = link.pcie;
      double per_tlp_payload = access == Access::read ? p.rcb_bytes : p.mps_bytes;
      if (max_request_bytes > 0) per_tlp_payload = std::min(per_tlp_payload, max_request_bytes);
      const double header =
          access == Access::read ? kPcieCompletionHeaderBytes : pcie_request_header_bytes(p);
      w.packets = true;
      w.payload = per_tlp_payload;
      if (p.gen >= 6) {
        // Flit mode: no per-TLP framing; TLP bytes travel in 256-byte flits of 236 TLP bytes.
        w.per_packet = header;
        w.flit_factor = kPcieFlitBytes / kPcieFlitTlpBytes;
      } else {
        w.per_packet = header + kPcieTlpFramingBytes;
      }
      break;
    }
    case LinkType::nvlink: {
      double payload = kNvlinkMaxPayloadBytes;
      if (max_request_bytes > 0) payload = std::min(payload, max_request_bytes);
      w.packets = true;
      w.payload = payload;
      w.per_packet = kNvlinkFlitBytes;
      w.extra = access == Access::read ? kNvlinkFlitBytes : 0.0;
      break;
    }
    default: break;
  }
  return with_payload_inverse(w);
}

double ahead_wire_bytes(const LinkSpec& link, double n, Access access) {
  return ahead_wire_accounting(link, access).wire_bytes(n);
}

double wire_bytes(const LinkSpec& link, double n, Access access, double max_request_bytes) {
  return wire_accounting(link, access, max_request_bytes).wire_bytes(n);
}

double effective_gbps(const LinkSpec& link, double n, Access access, double max_request_bytes) {
  if (n <= 0) return link.gbps();
  return wire_accounting(link, access, max_request_bytes).effective_gbps(n);
}

double ahead_effective_gbps(const LinkSpec& link, double n, Access access) {
  if (n <= 0) return link.gbps();
  return ahead_wire_accounting(link, access).effective_gbps(n);
}

}  // namespace linkcast::model
