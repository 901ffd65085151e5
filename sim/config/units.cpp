#include "sim/config/units.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

#include "sim/model/limits.hpp"
#include "sim/model/units.hpp"

namespace acme::config {
namespace {

struct Unit {
  std::string_view suffix;
  double factor;
};

// Byte and bit multiples: decimal (k, M, G, T) and binary (Ki, Mi, Gi, Ti), as SimGrid's unit tables.
constexpr double KILO = 1e3;
constexpr double MEGA = 1e6;
constexpr double TERA = 1e12;
constexpr double KIBI = 1024.0;
constexpr double MEBI = KIBI * KIBI;
constexpr double TEBI = model::GIB_BYTES * KIBI;
constexpr double BIT = 1.0 / model::BITS_PER_BYTE;

constexpr std::array BYTE_UNITS = {Unit{"B", 1.0},    Unit{"kB", KILO},        Unit{"KB", KILO},
                                   Unit{"MB", MEGA},  Unit{"GB", model::GIGA}, Unit{"TB", TERA},
                                   Unit{"KiB", KIBI}, Unit{"MiB", MEBI},       Unit{"GiB", model::GIB_BYTES},
                                   Unit{"TiB", TEBI}};
constexpr std::array BANDWIDTH_UNITS = {Unit{"bps", BIT},        Unit{"kbps", KILO* BIT},
                                        Unit{"Mbps", MEGA* BIT}, Unit{"Gbps", model::GIGA* BIT},
                                        Unit{"Tbps", TERA* BIT}, Unit{"Bps", 1.0},
                                        Unit{"kBps", KILO},      Unit{"KBps", KILO},
                                        Unit{"MBps", MEGA},      Unit{"GBps", model::GIGA},
                                        Unit{"TBps", TERA},      Unit{"KiBps", KIBI},
                                        Unit{"MiBps", MEBI},     Unit{"GiBps", model::GIB_BYTES}};
constexpr std::array DURATION_UNITS = {Unit{"us", 1e-6},
                                       Unit{"ms", 1e-3},
                                       Unit{"s", 1.0},
                                       Unit{"min", model::SECONDS_PER_MINUTE},
                                       Unit{"h", model::SECONDS_PER_HOUR},
                                       Unit{"d", model::SECONDS_PER_DAY},
                                       Unit{"w", model::SECONDS_PER_WEEK}};
constexpr std::array POWER_UNITS = {Unit{"mW", 1e-3}, Unit{"W", 1.0}, Unit{"kW", KILO}, Unit{"MW", MEGA}};

std::string trim(std::string_view text) {
  auto begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) {
    return {};
  }
  auto end = text.find_last_not_of(" \t");
  return std::string(text.substr(begin, end - begin + 1));
}

/// What a kind of quantity is called and where it is bounded (after conversion, in base units).
struct QuantityKind {
  std::string_view name;         ///< "a size"
  std::string_view example;      ///< "\"80GiB\" or \"1.5TB\""
  std::string_view default_unit; ///< the unit of a plain number
  double max;                    ///< largest magnitude accepted
  std::string_view max_text;     ///< the bound as people write it ("1EB")
};

constexpr QuantityKind BYTES{"a size", "\"80GiB\" or \"1.5TB\"", "B", model::limits::MAX_BYTES, "1EB"};
constexpr QuantityKind BANDWIDTH{"a bandwidth", "\"200Gbps\" or \"25GBps\"", "Bps", model::limits::MAX_BANDWIDTH_BPS,
                                 "1PBps"};
constexpr QuantityKind DURATION{"a duration", "\"30min\", \"2h\" or \"90s\"", "s", model::limits::MAX_DURATION_S,
                                "3650d"};
constexpr QuantityKind POWER{"a power", "\"400W\" or \"1.2kW\"", "W", model::limits::MAX_POWER_W, "1GW"};

/// The bound check after conversion: a finite value of at most the kind's maximum magnitude.
ParsedQuantity bounded(double value, const std::string& text, const QuantityKind& kind) {
  if (!std::isfinite(value) || std::fabs(value) > kind.max) {
    return {0.0, "expected " + std::string(kind.name) + " of at most " + std::string(kind.max_text) + ", got \"" +
                     text + "\""};
  }
  return {value, {}};
}

template <std::size_t N>
ParsedQuantity parse_with(std::string_view raw, const std::array<Unit, N>& units, const QuantityKind& kind) {
  const std::string_view kind_name = kind.name;
  const std::string_view example = kind.example;
  const std::string_view default_unit = kind.default_unit;
  std::string text = trim(raw);
  double number = 0.0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc() || !std::isfinite(number)) {
    return {0.0, "expected " + std::string(kind_name) + " such as " + std::string(example) + ", got \"" + text + "\""};
  }
  std::string suffix = trim(std::string_view(end, static_cast<std::size_t>(text.data() + text.size() - end)));
  if (suffix.empty()) {
    for (const auto& unit : units) {
      if (unit.suffix == default_unit) {
        return bounded(number * unit.factor, text, kind);
      }
    }
  }
  for (const auto& unit : units) {
    if (unit.suffix == suffix) {
      return bounded(number * unit.factor, text, kind);
    }
  }
  std::string accepted;
  for (const auto& unit : units) {
    accepted += (accepted.empty() ? "" : ", ") + std::string(unit.suffix);
  }
  return {0.0, "unknown unit \"" + suffix + "\"; expected " + std::string(kind_name) + " such as " +
                   std::string(example) + " (units: " + accepted + ")"};
}

} // namespace

ParsedQuantity parse_bytes(std::string_view text) {
  return parse_with(text, BYTE_UNITS, BYTES);
}

ParsedQuantity parse_bandwidth_Bps(std::string_view text) {
  return parse_with(text, BANDWIDTH_UNITS, BANDWIDTH);
}

ParsedQuantity parse_duration_s(std::string_view text) {
  return parse_with(text, DURATION_UNITS, DURATION);
}

ParsedQuantity parse_power_W(std::string_view text) {
  return parse_with(text, POWER_UNITS, POWER);
}

ParsedQuantity parse_utc_offset_s(std::string_view raw) {
  std::string text = trim(raw);
  const std::string expected = "expected a UTC offset such as \"+08:00\" or \"UTC\", got \"" + text + "\"";
  if (text == "UTC" || text == "Z") {
    return {0.0, {}};
  }
  if (text.empty() || (text[0] != '+' && text[0] != '-')) {
    return {0.0, expected};
  }
  double sign = text[0] == '-' ? -1.0 : 1.0;
  std::string digits;
  for (char c : text.substr(1)) {
    if (c != ':') {
      digits += c;
    }
  }
  int hours = 0;
  int minutes = 0;
  auto parse_int = [](std::string_view s, int& out) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
  };
  constexpr std::size_t HHMM = 4;
  constexpr int MINUTES_PER_HOUR = 60;
  bool ok = digits.size() <= 2 ? parse_int(digits, hours)
                               : digits.size() == HHMM && parse_int(std::string_view(digits).substr(0, 2), hours) &&
                                     parse_int(std::string_view(digits).substr(2), minutes);
  double offset_s = hours * model::SECONDS_PER_HOUR + minutes * model::SECONDS_PER_MINUTE;
  if (!ok || hours < 0 || minutes < 0 || minutes >= MINUTES_PER_HOUR || offset_s > model::limits::MAX_UTC_OFFSET_S) {
    return {0.0, expected + " (offsets reach at most 14:00)"};
  }
  return {sign * offset_s, {}};
}

std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

std::string format_duration(double seconds) {
  // Largest first: a duration is shown in the largest unit that divides it.
  constexpr std::pair<const char*, double> UNITS[] = {
      {"d", model::SECONDS_PER_DAY}, {"h", model::SECONDS_PER_HOUR}, {"min", model::SECONDS_PER_MINUTE}};
  if (seconds > 0.0 && std::isfinite(seconds)) {
    for (const auto& [name, unit_s] : UNITS) {
      double count = seconds / unit_s;
      if (count >= 1.0 && count == std::floor(count)) {
        return format_number(count) + name;
      }
    }
  }
  return format_number(seconds) + "s";
}

} // namespace acme::config
