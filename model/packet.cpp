#include "model/packet.hpp"

#include <algorithm>
#include <cmath>

namespace linkcast::model {

namespace {

double ceil_div(double n, double size) { return std::ceil(n / size); }

double pcie_request_header_bytes(const PcieParams& p) {
  return p.addressing_bits == 32 ? 12.0 : 16.0;
}

}  // namespace

double ahead_wire_bytes(const LinkSpec& link, double n, Access access) {
  switch (link.type) {
    case LinkType::pcie: {
      const PcieParams& p = link.pcie;
      const double header = p.addressing_bits == 32 ? 8.0 : 12.0;  // AHEAD's MRd_O/MWr_O/CplD_O
      if (access == Access::read)
        return header + p.mrrs_bytes + ceil_div(n, p.rcb_bytes) * header + n;
      return ceil_div(n, p.mps_bytes) * header + n;
    }
    case LinkType::nvlink: {
      const double packets = ceil_div(n, kNvlinkMaxPayloadBytes) * kNvlinkFlitBytes;
      return access == Access::read ? kNvlinkFlitBytes + packets + n : packets + n;
    }
    default: return n;
  }
}

double wire_bytes(const LinkSpec& link, double n, Access access, double max_request_bytes) {
  switch (link.type) {
    case LinkType::pcie: {
      const PcieParams& p = link.pcie;
      double per_tlp_payload = access == Access::read ? p.rcb_bytes : p.mps_bytes;
      if (max_request_bytes > 0) per_tlp_payload = std::min(per_tlp_payload, max_request_bytes);
      const double header =
          access == Access::read ? kPcieCompletionHeaderBytes : pcie_request_header_bytes(p);
      const double tlps = ceil_div(n, per_tlp_payload);
      if (p.gen >= 6) return (tlps * header + n) * (kPcieFlitBytes / kPcieFlitTlpBytes);
      return tlps * (header + kPcieTlpFramingBytes) + n;
    }
    case LinkType::nvlink: {
      double payload = kNvlinkMaxPayloadBytes;
      if (max_request_bytes > 0) payload = std::min(payload, max_request_bytes);
      const double packets = ceil_div(n, payload) * kNvlinkFlitBytes;
      return access == Access::read ? kNvlinkFlitBytes + packets + n : packets + n;
    }
    default: return n;
  }
}

double effective_gbps(const LinkSpec& link, double n, Access access, double max_request_bytes) {
  if (n <= 0) return link.gbps();
  return n * link.gbps() / wire_bytes(link, n, access, max_request_bytes);
}

double ahead_effective_gbps(const LinkSpec& link, double n, Access access) {
  if (n <= 0) return link.gbps();
  return n * link.gbps() / ahead_wire_bytes(link, n, access);
}

}  // namespace linkcast::model
