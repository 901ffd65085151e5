#include "sim/metrics/power_report.hpp"

#include <algorithm>
#include <cmath>

namespace acme::metrics {

void PowerHistogram::add(double W, double weight) {
  if (weight <= 0.0) {
    return;
  }
  auto bin = static_cast<std::size_t>(std::max(0.0, std::floor(W / bin_W_)));
  if (bin >= weight_.size()) {
    weight_.resize(bin + 1, 0.0);
  }
  weight_[bin] += weight;
  total_ += weight;
  weighted_W_ += W * weight;
}

double PowerHistogram::quantile_W(double q) const {
  if (total_ <= 0.0) {
    return 0.0;
  }
  double target = std::clamp(q, 0.0, 1.0) * total_;
  double below = 0.0;
  for (std::size_t k = 0; k < weight_.size(); ++k) {
    if (weight_[k] > 0.0 && below + weight_[k] >= target) {
      double f = (target - below) / weight_[k];
      return (static_cast<double>(k) + f) * bin_W_;
    }
    below += weight_[k];
  }
  return static_cast<double>(weight_.size()) * bin_W_;
}

double PowerHistogram::cdf(double W) const {
  if (total_ <= 0.0 || W < 0.0) {
    return 0.0;
  }
  double x = W / bin_W_;
  auto bin = static_cast<std::size_t>(std::floor(x));
  double below = 0.0;
  for (std::size_t k = 0; k < bin && k < weight_.size(); ++k) {
    below += weight_[k];
  }
  if (bin < weight_.size()) {
    below += weight_[bin] * (x - static_cast<double>(bin)); // spread evenly within the bin
  }
  return below / total_;
}

} // namespace acme::metrics
