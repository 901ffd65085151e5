#include <catch2/catch.hpp>

#include "sim/model/rng.hpp"

using acme::model::Rng;

TEST_CASE("model::rng: streams are reproducible and independent", "[model][rng]") {
  Rng a(42, "failures");
  Rng b(42, "failures");
  Rng c(42, "arrivals");
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    auto x = a.next_u64();
    REQUIRE(x == b.next_u64());
    differs = differs || x != c.next_u64();
  }
  REQUIRE(differs);
}

TEST_CASE("model::rng: distributions have their moments", "[model][rng]") {
  Rng rng(7);
  constexpr int N = 200000;
  double sum_u = 0;
  double sum_e = 0;
  double sum_n = 0;
  double sum_n2 = 0;
  for (int i = 0; i < N; ++i) {
    double u = rng.uniform();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    sum_u += u;
    sum_e += rng.exponential(3.0);
    double n = rng.normal(1.0, 2.0);
    sum_n += n;
    sum_n2 += n * n;
  }
  REQUIRE(sum_u / N == Approx(0.5).margin(0.005));
  REQUIRE(sum_e / N == Approx(3.0).margin(0.03));
  double mean = sum_n / N;
  REQUIRE(mean == Approx(1.0).margin(0.02));
  REQUIRE(sum_n2 / N - mean * mean == Approx(4.0).margin(0.05));
}
