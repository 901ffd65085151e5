#include <catch2/catch.hpp>

#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;
using test::Driver;
using test::make_job;

TEST_CASE("policies::fifo: starts jobs in submit order and the oldest blocks the queue", "[policies][fifo]") {
  Driver d(test::make_shape(2, 8), test::make_scheduler("fifo"));
  d.add(make_job(1, 8, 0, 100));
  d.add(make_job(2, 16, 1, 10)); // needs both nodes: waits for job 1
  d.add(make_job(3, 1, 2, 10));  // fits now, but FIFO never passes the blocked head
  d.add(make_job(4, 8, 3, 10));
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(1).starts == std::vector<double>{0});
  REQUIRE(d.record(2).starts == std::vector<double>{100});
  REQUIRE(d.record(3).starts == std::vector<double>{110});
  REQUIRE(d.record(4).starts == std::vector<double>{110});
}
