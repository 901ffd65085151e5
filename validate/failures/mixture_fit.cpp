#include "validate/failures/mixture_fit.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

namespace acme::validate {
namespace {

constexpr int EM_ROUNDS = 500;
constexpr double START_SHARE = 0.1;
constexpr double START_LOW = 0.5; ///< of the mean rate
constexpr double START_HIGH = 5.0;
constexpr double WORST_SHARE = 0.1;

double log_poisson(double count, double mean) {
  return count * std::log(mean) - mean - std::lgamma(count + 1.0);
}

} // namespace

LemonMixture fit_lemon_mixture(const std::vector<std::uint32_t>& counts, double days) {
  double n = static_cast<double>(counts.size());
  double mean = std::accumulate(counts.begin(), counts.end(), 0.0) / n / days;
  double share = START_SHARE;
  double low = mean * START_LOW;
  double high = mean * START_HIGH;
  std::vector<double> lemon(counts.size());
  for (int round = 0; round < EM_ROUNDS; ++round) {
    for (std::size_t i = 0; i < counts.size(); ++i) {
      double a = std::log(share) + log_poisson(counts[i], high * days);
      double b = std::log1p(-share) + log_poisson(counts[i], low * days);
      lemon[i] = 1.0 / (1.0 + std::exp(b - a));
    }
    double weight = std::accumulate(lemon.begin(), lemon.end(), 0.0);
    double lemon_failures = 0.0;
    double other_failures = 0.0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
      lemon_failures += lemon[i] * counts[i];
      other_failures += (1.0 - lemon[i]) * counts[i];
    }
    share = weight / n;
    high = lemon_failures / (weight * days);
    low = other_failures / ((n - weight) * days);
  }
  return LemonMixture{low, share, high / low};
}

double chi_square(const std::vector<double>& observed, const std::vector<double>& expected) {
  double sum = 0.0;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    sum += (observed[i] - expected[i]) * (observed[i] - expected[i]) / expected[i];
  }
  return sum;
}

double chi_square_4_survival(double x) {
  return std::exp(-x / 2.0) * (1.0 + x / 2.0);
}

std::vector<double> count_histogram(const std::vector<std::uint32_t>& counts, std::uint32_t last) {
  std::vector<double> bins(last + 1, 0.0);
  for (std::uint32_t c : counts) {
    bins[std::min(c, last)] += 1.0;
  }
  return bins;
}

double worst_tenth_share(std::vector<std::uint32_t> counts) {
  std::sort(counts.begin(), counts.end(), std::greater<>());
  auto top = static_cast<std::size_t>(std::lround(WORST_SHARE * counts.size()));
  double all = std::accumulate(counts.begin(), counts.end(), 0.0);
  return all > 0.0 ? std::accumulate(counts.begin(), counts.begin() + static_cast<long>(top), 0.0) / all : 0.0;
}

} // namespace acme::validate
