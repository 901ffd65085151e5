#include "sim/model/civil_time.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace acme::model {
namespace {

constexpr std::int64_t SECONDS_PER_DAY_I = 86400;
constexpr int SECONDS_PER_HOUR_I = 3600;
constexpr int SECONDS_PER_MINUTE_I = 60;
constexpr std::int64_t DAYS_PER_ERA = 146097;
constexpr std::int64_t YEARS_PER_ERA = 400;

bool read_int(std::string_view text, std::size_t pos, std::size_t len, int& out) {
  if (pos + len > text.size()) {
    return false;
  }
  auto [end, ec] = std::from_chars(text.data() + pos, text.data() + pos + len, out);
  return ec == std::errc() && end == text.data() + pos + len;
}

void put2(char* out, unsigned v) {
  constexpr unsigned TEN = 10;
  out[0] = static_cast<char>('0' + v / TEN);
  out[1] = static_cast<char>('0' + v % TEN);
}

} // namespace

std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - (YEARS_PER_ERA - 1)) / YEARS_PER_ERA;
  const auto yoe = static_cast<unsigned>(y - era * YEARS_PER_ERA);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * DAYS_PER_ERA + static_cast<std::int64_t>(doe) - 719468;
}

void civil_from_days(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - (DAYS_PER_ERA - 1)) / DAYS_PER_ERA;
  const auto doe = static_cast<unsigned>(z - era * DAYS_PER_ERA);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = static_cast<std::int64_t>(yoe) + era * YEARS_PER_ERA + (m <= 2 ? 1 : 0);
}

std::optional<double> parse_datetime(std::string_view text, double default_offset_s) {
  // YYYY-MM-DD[ T]HH:MM:SS[.fff][(+|-)HH:MM|Z]
  int year = 0;
  int month = 0;
  int day = 0;
  int hour = 0;
  int minute = 0;
  int second = 0;
  constexpr std::size_t MIN_LEN = 19;
  if (text.size() < MIN_LEN || text[4] != '-' || text[7] != '-' || (text[10] != ' ' && text[10] != 'T') ||
      text[13] != ':' || text[16] != ':') {
    return std::nullopt;
  }
  if (!read_int(text, 0, 4, year) || !read_int(text, 5, 2, month) || !read_int(text, 8, 2, day) ||
      !read_int(text, 11, 2, hour) || !read_int(text, 14, 2, minute) || !read_int(text, 17, 2, second)) {
    return std::nullopt;
  }
  constexpr int MAX_MONTH = 12;
  constexpr int MAX_DAY = 31;
  constexpr int MAX_HOUR = 23;
  constexpr int MAX_MINUTE = 59;
  constexpr int MAX_SECOND = 60;
  if (month < 1 || month > MAX_MONTH || day < 1 || day > MAX_DAY || hour > MAX_HOUR || minute > MAX_MINUTE ||
      second > MAX_SECOND) {
    return std::nullopt;
  }
  std::size_t pos = MIN_LEN;
  double fraction = 0.0;
  if (pos < text.size() && text[pos] == '.') {
    std::size_t start = pos;
    ++pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      ++pos;
    }
    std::from_chars(text.data() + start, text.data() + pos, fraction);
  }
  double offset = default_offset_s;
  if (pos < text.size()) {
    if (text[pos] == 'Z' && pos + 1 == text.size()) {
      offset = 0.0;
    } else if ((text[pos] == '+' || text[pos] == '-') && text.size() - pos == 6 && text[pos + 3] == ':') {
      int oh = 0;
      int om = 0;
      if (!read_int(text, pos + 1, 2, oh) || !read_int(text, pos + 4, 2, om)) {
        return std::nullopt;
      }
      offset = (text[pos] == '-' ? -1.0 : 1.0) * (oh * SECONDS_PER_HOUR_I + om * SECONDS_PER_MINUTE_I);
    } else {
      return std::nullopt;
    }
  }
  std::int64_t days = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  double local = static_cast<double>(days * SECONDS_PER_DAY_I + hour * SECONDS_PER_HOUR_I +
                                     minute * SECONDS_PER_MINUTE_I + second) +
                 fraction;
  return local - offset;
}

namespace {

/// Local seconds split into a day number and a second of that day.
void split_local(double unix_s, double offset_s, std::int64_t& days, unsigned& second_of_day) {
  auto local = static_cast<std::int64_t>(std::floor(unix_s + offset_s));
  days = local >= 0 ? local / SECONDS_PER_DAY_I : (local - SECONDS_PER_DAY_I + 1) / SECONDS_PER_DAY_I;
  second_of_day = static_cast<unsigned>(local - days * SECONDS_PER_DAY_I);
}

/// "YYYY-MM-DD" (10 chars).
void put_date(std::int64_t days, char* out) {
  std::int64_t y = 0;
  unsigned m = 0;
  unsigned d = 0;
  civil_from_days(days, y, m, d);
  constexpr unsigned HUNDRED = 100;
  put2(out, static_cast<unsigned>(y / HUNDRED));
  put2(out + 2, static_cast<unsigned>(y % HUNDRED));
  out[4] = '-';
  put2(out + 5, m);
  out[7] = '-';
  put2(out + 8, d);
}

/// " HH:MM:SS+hh:mm" (15 chars) after the date.
void put_time(unsigned sod, double offset_s, char* out) {
  out[0] = ' ';
  put2(out + 1, sod / SECONDS_PER_HOUR_I);
  out[3] = ':';
  put2(out + 4, (sod / SECONDS_PER_MINUTE_I) % SECONDS_PER_MINUTE_I);
  out[6] = ':';
  put2(out + 7, sod % SECONDS_PER_MINUTE_I);
  auto off = static_cast<int>(std::lround(offset_s / SECONDS_PER_MINUTE_I));
  out[9] = off < 0 ? '-' : '+';
  off = off < 0 ? -off : off;
  put2(out + 10, static_cast<unsigned>(off / SECONDS_PER_MINUTE_I));
  out[12] = ':';
  put2(out + 13, static_cast<unsigned>(off % SECONDS_PER_MINUTE_I));
}

constexpr std::size_t DATE_CHARS = 10;
constexpr std::size_t DATETIME_CHARS = 25;

} // namespace

std::size_t format_datetime(double unix_s, double offset_s, char* out) {
  std::int64_t days = 0;
  unsigned sod = 0;
  split_local(unix_s, offset_s, days, sod);
  put_date(days, out);
  put_time(sod, offset_s, out + DATE_CHARS);
  return DATETIME_CHARS;
}

std::size_t DateTimeFormatter::format(double unix_s, double offset_s, char* out) {
  std::int64_t days = 0;
  unsigned sod = 0;
  split_local(unix_s, offset_s, days, sod);
  if (days != cached_day_) {
    put_date(days, date_);
    cached_day_ = days;
  }
  std::copy(date_, date_ + DATE_CHARS, out);
  put_time(sod, offset_s, out + DATE_CHARS);
  return DATETIME_CHARS;
}

std::string format_datetime(double unix_s, double offset_s) {
  constexpr std::size_t BUFFER = 32;
  char buffer[BUFFER];
  return std::string(buffer, format_datetime(unix_s, offset_s, buffer));
}

} // namespace acme::model
