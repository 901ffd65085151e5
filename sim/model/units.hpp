#pragma once

namespace acme::model {

// Unit constants. Times are seconds, sizes bytes, bandwidths bytes per second, power watts.
inline constexpr double SECONDS_PER_MINUTE = 60.0;
inline constexpr double SECONDS_PER_HOUR = 3600.0;
inline constexpr double SECONDS_PER_DAY = 86400.0;
inline constexpr double SECONDS_PER_WEEK = 7.0 * SECONDS_PER_DAY;
inline constexpr double BITS_PER_BYTE = 8.0;
inline constexpr double GIGA = 1e9;
inline constexpr double GIB_BYTES = 1024.0 * 1024.0 * 1024.0;
inline constexpr double JOULES_PER_KWH = 3.6e6;

/// Marks a time that a trace does not record (start time, requested time).
inline constexpr double UNKNOWN_TIME_S = -1.0;

constexpr double gbps_to_Bps(double gbit_per_s) {
  return gbit_per_s * GIGA / BITS_PER_BYTE;
}
constexpr double seconds_to_hours(double s) {
  return s / SECONDS_PER_HOUR;
}

} // namespace acme::model
