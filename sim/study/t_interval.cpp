#include "sim/study/t_interval.hpp"

#include <cmath>
#include <numbers>

#include "sim/model/assert.hpp"

namespace acme::study {
namespace {

/// P(|T| <= t) for integer degrees of freedom in closed form: Abramowitz & Stegun, Handbook of
/// Mathematical Functions, 26.7.3 (odd dof) and 26.7.4 (even dof), with theta = atan(t / sqrt(dof)).
double two_sided_probability(double t, std::size_t dof) {
  double theta = std::atan(t / std::sqrt(static_cast<double>(dof)));
  double c2 = std::cos(theta) * std::cos(theta);
  double sum = 1.0;
  double term = 1.0;
  if (dof % 2 == 0) {
    for (std::size_t k = 2; k + 2 <= dof; k += 2) {
      term *= c2 * static_cast<double>(k - 1) / static_cast<double>(k);
      sum += term;
    }
    return std::sin(theta) * sum;
  }
  if (dof == 1) {
    return 2.0 * theta / std::numbers::pi;
  }
  for (std::size_t k = 3; k + 2 <= dof; k += 2) {
    term *= c2 * static_cast<double>(k - 1) / static_cast<double>(k);
    sum += term;
  }
  return 2.0 / std::numbers::pi * (theta + std::sin(theta) * std::cos(theta) * sum);
}

} // namespace

double student_t_critical(std::size_t dof, double confidence) {
  ACME_ASSERT(dof >= 1 && confidence > 0.0 && confidence < 1.0, "student_t_critical: dof >= 1, 0 < confidence < 1");
  // Bisection on the monotone CDF; the 1e6 upper bound covers dof 1 up to confidence 1 - 1e-6.
  constexpr double UPPER_BOUND = 1e6;
  constexpr int ITERATIONS = 200;
  double lo = 0.0;
  double hi = UPPER_BOUND;
  for (int i = 0; i < ITERATIONS && hi - lo > 1e-12 * hi; ++i) {
    double mid = 0.5 * (lo + hi);
    if (two_sided_probability(mid, dof) < confidence) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return 0.5 * (lo + hi);
}

Interval t_interval(const std::vector<double>& samples, double confidence) {
  Interval out;
  out.n = samples.size();
  if (samples.empty()) {
    return out;
  }
  double sum = 0.0;
  for (double x : samples) {
    sum += x;
  }
  out.mean = sum / static_cast<double>(out.n);
  if (out.n < 2) {
    return out;
  }
  double squares = 0.0;
  for (double x : samples) {
    squares += (x - out.mean) * (x - out.mean);
  }
  double sd = std::sqrt(squares / static_cast<double>(out.n - 1));
  out.half_width = student_t_critical(out.n - 1, confidence) * sd / std::sqrt(static_cast<double>(out.n));
  out.has_interval = true;
  return out;
}

} // namespace acme::study
