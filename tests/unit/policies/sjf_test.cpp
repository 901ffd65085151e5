#include <catch2/catch.hpp>

#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;
using test::Driver;
using test::make_job;

TEST_CASE("policies::sjf: the shortest estimated job starts first", "[policies][sjf]") {
  Driver d(test::make_shape(1, 8), test::make_scheduler("{name: sjf, estimator: oracle}"));
  d.add(make_job(1, 8, 0, 100));
  d.add(make_job(2, 8, 1, 300));
  d.add(make_job(3, 8, 2, 100));
  d.add(make_job(4, 8, 3, 200));
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(3).starts == std::vector<double>{100});
  REQUIRE(d.record(4).starts == std::vector<double>{200});
  REQUIRE(d.record(2).starts == std::vector<double>{400});
}

TEST_CASE("policies::sjf: a short job that does not fit blocks no longer job that does", "[policies][sjf]") {
  Driver d(test::make_shape(2, 8), test::make_scheduler("{name: sjf, estimator: oracle}"));
  d.add(make_job(1, 8, 0, 100));
  d.add(make_job(2, 16, 1, 5));  // shortest, needs both nodes
  d.add(make_job(3, 4, 1, 500)); // longer but fits node 1 now
  d.run_until(1);
  REQUIRE(d.started_at(1) == std::vector<std::uint64_t>{3});
}

TEST_CASE("policies::sjf: orders by the requested time when the trace has one", "[policies][sjf]") {
  Driver d(test::make_shape(1, 8), test::make_scheduler("{name: sjf, estimator: requested}"));
  d.add(make_job(1, 8, 0, 10));
  auto a = make_job(2, 8, 1, 10);
  a.requested_time_s = 600; // asks for long
  auto b = make_job(3, 8, 1, 500);
  b.requested_time_s = 60; // asks for short (and overruns)
  d.add(a);
  d.add(b);
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(3).starts == std::vector<double>{10});
  REQUIRE(d.record(2).starts == std::vector<double>{510});
}
