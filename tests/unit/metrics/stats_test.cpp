#include <catch2/catch.hpp>

#include <algorithm>

#include "sim/metrics/stats.hpp"

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

TEST_CASE("metrics::stats: queueing-delay CDF on the 2^k grid and started-within shares", "[metrics][stats]") {
  SECTION("known delays") {
    // Ten delays; the grid counts <= 2^k s, so 1, 2, 60 and 3600 fall inside their own thresholds.
    std::vector<double> delays{0, 0, 1, 1.5, 2, 60.000000001, 61, 3600, 40000, 1e6};
    std::sort(delays.begin(), delays.end());
    QueueShares q = queue_shares(delays);
    REQUIRE(q.cdf[0] == Approx(0.3));  // <= 1 s: 0, 0, 1
    REQUIRE(q.cdf[1] == Approx(0.5));  // <= 2 s: + 1.5, 2
    REQUIRE(q.cdf[5] == Approx(0.5));  // <= 32 s
    REQUIRE(q.cdf[6] == Approx(0.7));  // <= 64 s: + 60, 61
    REQUIRE(q.cdf[11] == Approx(0.7)); // <= 2048 s
    REQUIRE(q.cdf[12] == Approx(0.8)); // <= 4096 s: + 3600
    REQUIRE(q.cdf[15] == Approx(0.8)); // <= 32768 s: 40000 and 1e6 stay outside
    REQUIRE(q.within_1s == Approx(0.3));
    REQUIRE(q.within_60s == Approx(0.6)); // 60.000000001 counts (rounding tolerance), 61 does not
    REQUIRE(q.within_1h == Approx(0.8));
  }
  SECTION("the CDF never decreases") {
    std::vector<double> delays{5, 500, 5000, 50000};
    QueueShares q = queue_shares(delays);
    REQUIRE(std::is_sorted(q.cdf.begin(), q.cdf.end()));
  }
  SECTION("no jobs: all zero") {
    std::vector<double> none;
    QueueShares q = queue_shares(none);
    REQUIRE(q.cdf[QueueShares::GRID_POINTS - 1] == 0.0);
    REQUIRE(q.within_1h == 0.0);
  }
}
