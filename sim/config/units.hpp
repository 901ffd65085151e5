#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace acme::config {

/// Result of parsing a quantity with a unit; `error` explains a bad value (wrong unit, not a number).
struct ParsedQuantity {
  double value = 0.0;
  std::string error;
};

// Unit tables in the style of SimGrid's xbt_parse_units: a number followed by an optional unit.
ParsedQuantity parse_bytes(std::string_view text);         // B, kB, MB, GB, TB, KiB, MiB, GiB, TiB
ParsedQuantity parse_bandwidth_Bps(std::string_view text); // bps, kbps, Mbps, Gbps, Tbps, Bps, kBps, MBps, GBps, TBps
ParsedQuantity parse_duration_s(std::string_view text);    // us, ms, s, min, h, d, w
ParsedQuantity parse_power_W(std::string_view text);       // mW, W, kW, MW
ParsedQuantity parse_utc_offset_s(std::string_view text);  // "UTC", "+08:00", "-0530", "+8"

// The inverses, for documentation (`acme-sim list`): text the parsers above read back.
/// "1.5", "100", "0.25"
std::string format_number(double value);
/// "30s", "5min", "2h", "7d", "0.25s": in the largest unit that divides it.
std::string format_duration(double seconds);

} // namespace acme::config
