#pragma once

#include <cstdint>
#include <vector>

namespace acme::validate {

/// A two-class Poisson mixture of per-node failure counts: a share of "lemon" nodes at factor x base rate.
struct LemonMixture {
  double base_per_day = 0.0;
  double lemon_share = 0.0;
  double lemon_factor = 1.0;
};

/// Fits the mixture to per-node counts over `days` by expectation-maximisation (a fixed number of rounds
/// from a fixed start, so the fit is the same on every machine).
LemonMixture fit_lemon_mixture(const std::vector<std::uint32_t>& counts, double days);

/// Pearson's chi-square of `observed` against `expected` (same bins).
double chi_square(const std::vector<double>& observed, const std::vector<double>& expected);

/// P(X >= x) for X chi-square with 4 degrees of freedom: e^(-x/2) (1 + x/2).
double chi_square_4_survival(double x);

/// Counts in bins 0, 1, ..., last-1 and "last or more".
std::vector<double> count_histogram(const std::vector<std::uint32_t>& counts, std::uint32_t last);

/// The share of all failures on the 10% of nodes that failed most.
double worst_tenth_share(std::vector<std::uint32_t> counts);

} // namespace acme::validate
