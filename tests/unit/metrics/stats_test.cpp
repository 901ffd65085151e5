#include "acme/metrics/stats.hpp"

#include <catch2/catch.hpp>

using namespace acme::metrics;

TEST_CASE("metrics::stats: percentiles interpolate like numpy", "[metrics][stats]") {
  std::vector<double> v{4, 1, 3, 2, 5};
  Distribution d = summarise(v);
  REQUIRE(d.count == 5);
  REQUIRE(d.mean == Approx(3.0));
  REQUIRE(d.p50 == Approx(3.0));
  REQUIRE(d.p90 == Approx(4.6)); // numpy.percentile([1..5], 90)
  REQUIRE(d.p99 == Approx(4.96));
  REQUIRE(d.max == 5.0);
  REQUIRE(cdf_sorted(v, 2.5) == Approx(0.4));
  std::vector<double> empty;
  REQUIRE(summarise(empty).count == 0);
}
