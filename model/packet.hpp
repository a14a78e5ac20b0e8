// Packet-overhead accounting: how many bytes cross a link's wire to move n bytes of data.
// Effective bandwidth is then BW_eff = n * Link_BW / n_hat (AHEAD, eq. 2).
#pragma once

#include <cmath>
#include <cstdint>

#include "model/link.hpp"

namespace linkcast::model {

/// Who initiates the transfer across the link. A DMA engine that pulls data (a GPU copy engine
/// reading host memory for a host-to-device copy, an SM load) issues reads: requests go one way
/// and completions carrying the data come back. Pushing data (device-to-host, peer writes,
/// SM stores) uses posted writes.
enum class Access : unsigned char { read, write };

/// AHEAD's equations exactly as published (Abdelhafez et al., "AHEAD: A Tool for Projecting
/// Next-Generation Hardware Enhancements on GPU-Accelerated Systems", IPDPSW 2019):
///   PCIe read  (eq. 4): n_hat = MRd_O + MRRS + ceil(n / RCB) * CplD_O + n
///   PCIe write (eq. 5): n_hat = ceil(n / MPS) * MWr_O + n
///   NVLink read  (eq. 6): n_hat = Flit + ceil(n / 256) * Flit + n
///   NVLink write (eq. 7): n_hat = ceil(n / 256) * Flit + n
/// with header overheads of 8 bytes (32-bit addressing) or 12 bytes (64-bit), 16-byte flits and a
/// 256-byte NVLink max payload. Generic links carry no packet overhead.
double ahead_wire_bytes(const LinkSpec& link, double n, Access access);

/// linkcast's accounting of the same, closer to the wire:
///   PCIe Gen1-5: every TLP carries its header (3DW = 12 B for completions and 32-bit requests,
///     4DW = 16 B for 64-bit requests; PCIe Base Spec 3.0 sec. 2.2) plus 8 B of framing,
///     sequence number and LCRC added by the data link and physical layers (Gen1-2: STP 1 B +
///     sequence 2 B + LCRC 4 B + END 1 B; Gen3-5: 4 B STP token carrying the sequence number +
///     4 B LCRC; Neugebauer et al., SIGCOMM 2018, sec. 3). Reads return ceil(n / RCB)
///     completions; writes use ceil(n / MPS) TLPs.
///   PCIe Gen6 (flit mode, PCIe Base Spec 6.0): no per-TLP framing or LCRC; TLP bytes travel in
///     256-byte flits carrying 236 B of TLP bytes (6 B DLP, 8 B CRC, 6 B FEC), so wire bytes are
///     TLP bytes * 256 / 236.
///   NVLink: as AHEAD (16-byte flits, one header flit per <= 256-byte packet).
/// `max_request_bytes` > 0 caps the payload per packet, for device-initiated accesses that move
/// data in warp-sized requests (e.g. 32, 64 or 128 bytes).
double wire_bytes(const LinkSpec& link, double n, Access access, double max_request_bytes = 0);

/// Convenience: n * link.gbps() / wire_bytes(...), GB/s.
double effective_gbps(const LinkSpec& link, double n, Access access, double max_request_bytes = 0);
double ahead_effective_gbps(const LinkSpec& link, double n, Access access);

/// Both accountings above on one link, for one access and request size, in the one form they
/// share: wire bytes = (extra + ceil(n / payload) x per_packet + n) x flit_factor (a link without
/// packets: n). wire_bytes and ahead_wire_bytes are this form's values; a caller that prices many
/// sizes over one link (model::PreparedPath) reads the link once instead of on every transfer.
struct WireAccounting {
  double gbps = 0;           // the link's per-direction rate, LinkSpec::gbps()
  bool packets = false;      // false: the wire carries the data alone
  double payload = 1;        // data bytes per packet (TLP, NVLink packet)
  double per_packet = 0;     // overhead bytes per packet
  double extra = 0;          // overhead bytes once per transfer (a read request, an NVLink read's flit)
  double flit_factor = 1.0;  // PCIe Gen6 flit mode: wire bytes per TLP byte; 1 elsewhere
  /// 1 / payload where that is exact (a power of two: every packet size of PCIe and NVLink), else
  /// 0: n x 2^-k is n / 2^k to the bit, without a division.
  double payload_inverse = 0;

  double wire_bytes(double n) const {
    if (!packets) return n;
    const double per_payload = payload_inverse > 0 ? n * payload_inverse : n / payload;
    return (extra + ceil_packets(per_payload) * per_packet + n) * flit_factor;
  }
  /// n x gbps / wire_bytes(n), GB/s (the link's rate for n <= 0).
  double effective_gbps(double n) const { return n <= 0 ? gbps : n * gbps / wire_bytes(n); }

  /// std::ceil(x), exactly, without the library's general rounding where x is a positive count
  /// below 2^52 (every packet count of a real transfer): truncation, plus one for a fraction.
  static double ceil_packets(double x);
  bool operator==(const WireAccounting&) const = default;
};
/// linkcast's accounting (wire_bytes) of `link` for transfers of `access` with requests of at most
/// `max_request_bytes` (0: no cap).
WireAccounting wire_accounting(const LinkSpec& link, Access access, double max_request_bytes = 0);
/// AHEAD's accounting (ahead_wire_bytes) of `link` for transfers of `access`.
WireAccounting ahead_wire_accounting(const LinkSpec& link, Access access);

// Constants shared by both accountings (documented above).
inline constexpr double kNvlinkFlitBytes = 16.0;
inline constexpr double kNvlinkMaxPayloadBytes = 256.0;
inline constexpr double kPcieTlpFramingBytes = 8.0;
inline constexpr double kPcieCompletionHeaderBytes = 12.0;
inline constexpr double kPcieFlitBytes = 256.0;
inline constexpr double kPcieFlitTlpBytes = 236.0;

inline double WireAccounting::ceil_packets(double x) {
  if (x > 0 && x < 0x1p52) {
    // Below 2^52 the truncated value and the next integer are exact doubles.
    const double whole = static_cast<double>(static_cast<std::int64_t>(x));
    return whole < x ? whole + 1.0 : whole;
  }
  return std::ceil(x);
}

}  // namespace linkcast::model
