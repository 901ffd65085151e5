#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "sim/model/rng.hpp"
#include "validate/failures/mixture_fit.hpp"

using namespace acme;

namespace {

/// A Poisson draw by inversion (small means only).
std::uint32_t poisson(model::Rng& rng, double mean) {
  double u = rng.uniform();
  double p = std::exp(-mean);
  double cdf = p;
  std::uint32_t k = 0;
  while (u > cdf && k < 1000) {
    ++k;
    p *= mean / k;
    cdf += p;
  }
  return k;
}

} // namespace

TEST_CASE("validate::mixture_fit: EM recovers a lemon mixture from per-node counts", "[validate][mixture]") {
  model::Rng rng(11);
  constexpr double DAYS = 200.0;
  constexpr double BASE = 0.004; // per node-day
  std::vector<std::uint32_t> counts;
  for (int i = 0; i < 20000; ++i) {
    bool lemon = i % 10 == 0; // 10% lemons at 10x
    counts.push_back(poisson(rng, BASE * DAYS * (lemon ? 10.0 : 1.0)));
  }
  validate::LemonMixture m = validate::fit_lemon_mixture(counts, DAYS);
  CHECK(m.lemon_share == Approx(0.10).margin(0.01));
  CHECK(m.lemon_factor == Approx(10.0).epsilon(0.1));
  CHECK(m.base_per_day == Approx(BASE).epsilon(0.05));
}

TEST_CASE("validate::mixture_fit: chi-square, its 4-df tail, histograms and the worst tenth", "[validate][mixture]") {
  CHECK(validate::chi_square({10, 20}, {10, 20}) == 0.0);
  CHECK(validate::chi_square({12, 18}, {10, 20}) == Approx(0.4 + 0.2));
  CHECK(validate::chi_square_4_survival(0.0) == 1.0);
  CHECK(validate::chi_square_4_survival(13.277) == Approx(0.01).epsilon(0.001)); // the 1% critical value
  CHECK(validate::count_histogram({0, 0, 1, 5, 7, 2}, 4) == std::vector<double>{2, 1, 1, 0, 2});
  std::vector<std::uint32_t> counts(20, 1);
  counts[3] = 31;
  counts[7] = 11; // worst 2 of 20 nodes: 42 of 60 failures
  CHECK(validate::worst_tenth_share(counts) == Approx(42.0 / 60.0));
}
