#pragma once

#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace acme::model {

/// Unix seconds of a date-time with an explicit offset: "2023-03-01 00:18:22+08:00" (also with 'T',
/// fractional seconds, "Z", or no offset, which means `default_offset_s`). nullopt when malformed, when the
/// date does not exist (2023-02-29), its year is outside limits::MIN_YEAR..MAX_YEAR or its offset beyond
/// +-14:00; `why` (when given) then says which ("no such date").
std::optional<double> parse_datetime(std::string_view text, double default_offset_s = 0.0, std::string* why = nullptr);

/// "2023-03-01 00:18:22+08:00" for Unix seconds shown in the zone `offset_s` (whole seconds, floored).
/// Writes into `out` (at least 26 chars) and returns the length; no allocation.
std::size_t format_datetime(double unix_s, double offset_s, char* out);
std::string format_datetime(double unix_s, double offset_s);

/// format_datetime with the date part cached: consecutive rows of an output mostly share a day.
class DateTimeFormatter {
public:
  std::size_t format(double unix_s, double offset_s, char* out);

private:
  std::int64_t cached_day_ = INT64_MIN;
  char date_[10] = {};
};

/// Days since 1970-01-01 of a proleptic Gregorian date, and back (H. Hinnant's algorithms).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d);
void civil_from_days(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d);

} // namespace acme::model
