#include "sim/config/param_table.hpp"

#include <cmath>

namespace acme::config {

std::string describe_bounds(const Bounds& bounds, bool duration) {
  auto show = [duration](double v) { return duration ? format_duration(v) : format_number(v); };
  std::string what = duration ? "a duration" : "a number";
  if (bounds.high >= std::numeric_limits<double>::max()) {
    return what + (bounds.low_open ? " > " : " >= ") + show(bounds.low);
  }
  return what + " in " + (bounds.low_open ? "(" : "[") + show(bounds.low) + ", " + show(bounds.high) + "]";
}

std::string describe_count_bounds(std::uint32_t low, std::uint32_t high) {
  if (high == std::numeric_limits<std::uint32_t>::max()) {
    return low == 1 ? "a positive integer" : "an integer >= " + std::to_string(low);
  }
  return low == 1 ? "a positive integer of at most " + std::to_string(high)
                  : "an integer in [" + std::to_string(low) + ", " + std::to_string(high) + "]";
}

void expect_within(const Node& value, double v, const Bounds& bounds, bool duration) {
  if (!std::isfinite(v) || !bounds.contains(v)) {
    value.fail("expected " + describe_bounds(bounds, duration) + ", got \"" + value.as_string() + "\"");
  }
}

void read_distribution(const Node& value, model::Distribution& to) {
  to = parse_duration_distribution(value);
}

} // namespace acme::config
