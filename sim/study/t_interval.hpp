#pragma once

#include <cstddef>
#include <vector>

namespace acme::study {

/// Two-sided Student t critical value: P(|T| <= t) = `confidence` for T with `dof` degrees of freedom
/// (dof >= 1), e.g. 12.706 for dof 1 and 0.95, tending to 1.960.
double student_t_critical(std::size_t dof, double confidence);

/// Mean and confidence interval of replicas (seeds) of one setting.
struct Interval {
  std::size_t n = 0;
  double mean = 0.0;
  double half_width = 0.0;   ///< t(n-1) * s / sqrt(n); only meaningful when has_interval
  bool has_interval = false; ///< false for fewer than two samples
};

/// Mean and Student t interval (sample standard deviation with n-1) at `confidence` (e.g. 0.95).
Interval t_interval(const std::vector<double>& samples, double confidence);

} // namespace acme::study
