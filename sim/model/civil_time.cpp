#include "sim/model/civil_time.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "sim/model/limits.hpp"

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

namespace {

constexpr int MAX_MONTH = 12;
constexpr int MAX_HOUR = 23;
constexpr int MAX_MINUTE = 59;
constexpr int MAX_SECOND = 60; // a leap second
constexpr int FEBRUARY = 2;

int days_in_month(int year, int month) {
  constexpr int DAYS[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == FEBRUARY && leap ? DAYS[1] + 1 : DAYS[month - 1];
}

/// The date and time fields of "YYYY-MM-DD[ T]HH:MM:SS"; false (and `why`) when malformed or not a real date.
bool read_fields(std::string_view text, int (&f)[6], std::string& why) {
  constexpr std::size_t MIN_LEN = 19;
  constexpr std::size_t POS[6] = {0, 5, 8, 11, 14, 17};
  constexpr std::size_t LEN[6] = {4, 2, 2, 2, 2, 2};
  if (text.size() < MIN_LEN || text[4] != '-' || text[7] != '-' || (text[10] != ' ' && text[10] != 'T') ||
      text[13] != ':' || text[16] != ':') {
    why = "not a date-time";
    return false;
  }
  for (std::size_t i = 0; i < 6; ++i) {
    if (!read_int(text, POS[i], LEN[i], f[i]) || f[i] < 0) {
      why = "not a date-time";
      return false;
    }
  }
  auto [year, month, day, hour, minute, second] = f;
  if (month < 1 || month > MAX_MONTH || day < 1 || day > days_in_month(year, month)) {
    why = "no such date";
    return false;
  }
  if (hour > MAX_HOUR || minute > MAX_MINUTE || second > MAX_SECOND) {
    why = "no such time of day";
    return false;
  }
  if (year < limits::MIN_YEAR || year > limits::MAX_YEAR) {
    why = "a year outside " + std::to_string(limits::MIN_YEAR) + ".." + std::to_string(limits::MAX_YEAR);
    return false;
  }
  return true;
}

/// The UTC offset after the seconds ("", "Z", "+HH:MM"); false (and `why`) when malformed or beyond 14:00.
bool read_offset(std::string_view rest, double& offset, std::string& why) {
  if (rest.empty()) {
    return true;
  }
  if (rest == "Z") {
    offset = 0.0;
    return true;
  }
  int oh = 0;
  int om = 0;
  constexpr std::size_t OFFSET_LEN = 6;
  if (rest.size() != OFFSET_LEN || (rest[0] != '+' && rest[0] != '-') || rest[3] != ':' || !read_int(rest, 1, 2, oh) ||
      !read_int(rest, 4, 2, om) || oh < 0 || om < 0 || om > MAX_MINUTE) {
    why = "not a date-time";
    return false;
  }
  offset = (rest[0] == '-' ? -1.0 : 1.0) * (oh * SECONDS_PER_HOUR_I + om * SECONDS_PER_MINUTE_I);
  if (std::fabs(offset) > limits::MAX_UTC_OFFSET_S) {
    why = "a UTC offset beyond +-14:00";
    return false;
  }
  return true;
}

} // namespace

std::optional<double> parse_datetime(std::string_view text, double default_offset_s, std::string* why) {
  // YYYY-MM-DD[ T]HH:MM:SS[.fff][(+|-)HH:MM|Z]
  std::string reason;
  int f[6] = {};
  if (!read_fields(text, f, reason)) {
    if (why != nullptr) {
      *why = reason;
    }
    return std::nullopt;
  }
  constexpr std::size_t FRACTION_AT = 19;
  std::size_t pos = FRACTION_AT;
  double fraction = 0.0;
  if (pos < text.size() && text[pos] == '.') {
    std::size_t start = pos++;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      ++pos;
    }
    std::from_chars(text.data() + start, text.data() + pos, fraction);
  }
  double offset = default_offset_s;
  if (!read_offset(text.substr(pos), offset, reason)) {
    if (why != nullptr) {
      *why = reason;
    }
    return std::nullopt;
  }
  auto [year, month, day, hour, minute, second] = f;
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
