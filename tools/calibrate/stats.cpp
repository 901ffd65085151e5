#include "tools/calibrate/stats.hpp"

#include <algorithm>
#include <stdexcept>

namespace acme::tools::calibrate {
namespace {

constexpr double FIRST_QUARTILE = 0.25;
constexpr double MEDIAN = 0.5;
constexpr double THIRD_QUARTILE = 0.75;

double quantile(const std::vector<double>& sorted, double q) {
  double position = q * static_cast<double>(sorted.size() - 1);
  auto below = static_cast<std::size_t>(position);
  std::size_t above = std::min(below + 1, sorted.size() - 1);
  double fraction = position - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

} // namespace

Summary summarise(std::vector<double> samples) {
  if (samples.empty()) {
    throw std::logic_error("summarise: no samples");
  }
  std::sort(samples.begin(), samples.end());
  return Summary{quantile(samples, MEDIAN),         samples.front(), samples.back(), quantile(samples, FIRST_QUARTILE),
                 quantile(samples, THIRD_QUARTILE), samples.size()};
}

} // namespace acme::tools::calibrate

namespace acme::tools::calibrate {

void QuantityLog::add(const std::string& key, double value) {
  for (auto& q : quantities_) {
    if (q.key == key) {
      q.samples.push_back(value);
      return;
    }
  }
  quantities_.push_back(Quantity{key, {value}});
}

std::vector<double> QuantityLog::samples(const std::string& key) const {
  for (const auto& q : quantities_) {
    if (q.key == key) {
      return q.samples;
    }
  }
  return {};
}

} // namespace acme::tools::calibrate
