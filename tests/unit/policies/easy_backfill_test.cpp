#include <catch2/catch.hpp>

#include "policies/scheduling/ordered_scheduler.hpp"
#include "policies/scheduling/shadow_profile.hpp"
#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;
using test::Driver;
using test::make_job;

namespace {
policies::OrderedScheduler& ordered(Driver& d) {
  return dynamic_cast<policies::OrderedScheduler&>(d.scheduler());
}
} // namespace

TEST_CASE("policies::easy_backfill: backfills a job that ends before the head's reservation, not one that "
          "would delay it",
          "[policies][easy_backfill]") {
  Driver d(test::make_shape(2, 8), test::make_scheduler("{name: easy_backfill, estimator: oracle}"));
  d.add(make_job(1, 4, 0, 100)); // node 0 until 100
  d.add(make_job(2, 8, 0, 50));  // node 1 until 50
  d.add(make_job(3, 16, 1, 10)); // the head: both nodes idle at 100
  d.add(make_job(4, 4, 1, 200)); // would hold node 0 past 100: must wait
  d.add(make_job(5, 4, 1, 79));  // ends at 80 <= 100: backfills now
  d.run_until(1);
  REQUIRE(d.started_at(1) == std::vector<std::uint64_t>{5});
  REQUIRE(ordered(d).head() == model::JobId{3});
  REQUIRE(ordered(d).head_reservation_s(d.view()) == 100.0);
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(3).starts == std::vector<double>{100}); // exactly its reservation
  REQUIRE(d.record(4).starts == std::vector<double>{110});

  SECTION("strict FIFO would have kept job 5 waiting") {
    Driver fifo(test::make_shape(2, 8), test::make_scheduler("fifo"));
    for (std::uint64_t id = 1; id <= 5; ++id) {
      fifo.add(make_job(id, id == 3 ? 16 : (id == 2 ? 8 : 4), id <= 2 ? 0 : 1,
                        std::vector<double>{100, 50, 10, 200, 79}[id - 1]));
    }
    REQUIRE(fifo.run_to_end());
    REQUIRE(fifo.record(5).starts == std::vector<double>{110});
  }
}

TEST_CASE("policies::easy_backfill: a long job may use GPUs the head does not need", "[policies][easy_backfill]") {
  Driver d(test::make_shape(2, 8), test::make_scheduler("{name: easy_backfill, estimator: oracle}"));
  d.add(make_job(1, 4, 0, 100));  // node 0
  d.add(make_job(2, 8, 0, 50));   // node 1 until 50
  d.add(make_job(3, 8, 1, 10));   // head: one idle node at 50 (node 1)
  d.add(make_job(4, 4, 1, 1000)); // node 0's extra GPUs: the head still gets node 1 at 50
  d.run_until(1);
  REQUIRE(d.started_at(1) == std::vector<std::uint64_t>{4});
  REQUIRE(ordered(d).head_reservation_s(d.view()) == 50.0);
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(3).starts == std::vector<double>{50});
}

TEST_CASE("policies::easy_backfill: a job running past its estimate pushes the reservation, not below now",
          "[policies][easy_backfill]") {
  Driver d(test::make_shape(3, 8), test::make_scheduler("{name: easy_backfill, estimator: requested}"));
  auto a = make_job(1, 8, 0, 100);
  a.requested_time_s = 10; // runs ten times longer than requested
  auto b = make_job(2, 8, 0, 1000);
  b.requested_time_s = 1000;
  auto head = make_job(3, 24, 50, 10);
  head.requested_time_s = 10;
  auto c = make_job(4, 8, 50, 500);
  c.requested_time_s = 500; // ends at 550, before the reservation at 1000
  for (const auto& j : {a, b, head, c}) {
    d.add(j);
  }
  d.run_until(50);
  REQUIRE(d.started_at(50) == std::vector<std::uint64_t>{4});
  REQUIRE(ordered(d).head_reservation_s(d.view()) == 1000.0);
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(3).starts == std::vector<double>{1000});
}

TEST_CASE("policies::easy_backfill: with exact estimates no head ever starts after its first reservation",
          "[policies][easy_backfill][property]") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    INFO("seed " << seed);
    Driver d(test::make_shape(4, 8, 2), test::make_scheduler("{name: easy_backfill, estimator: oracle}"),
             test::make_placement(seed % 2 == 0 ? "pack" : "topology"));
    for (const auto& job : test::random_workload(seed, 60, 4, 8)) {
      d.add(job);
    }
    std::map<model::JobId, double> first_reservation;
    d.after_round = [&](const Driver& drv) {
      auto& s = dynamic_cast<policies::OrderedScheduler&>(const_cast<Driver&>(drv).scheduler());
      if (auto head = s.head();
          head && first_reservation.count(*head) == 0 && !drv.is_running(model::to_index(*head))) {
        first_reservation[*head] = s.head_reservation_s(drv.view());
      }
    };
    REQUIRE(d.run_to_end());
    REQUIRE_FALSE(first_reservation.empty());
    for (const auto& [id, reserved_s] : first_reservation) {
      INFO("job " << model::to_index(id));
      REQUIRE(d.records().at(id).starts.front() <= reserved_s);
    }
  }
}
