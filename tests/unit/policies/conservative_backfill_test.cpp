#include <catch2/catch.hpp>

#include "policies/scheduling/conservative_backfill.hpp"
#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;
using test::Driver;
using test::make_job;

TEST_CASE("policies::conservative_backfill: a job starts early only when it delays no earlier reservation",
          "[policies][conservative_backfill]") {
  Driver d(test::make_shape(2, 8), test::make_scheduler("{name: conservative_backfill, estimator: oracle}"));
  test::add_two_node_backfill_scenario(d);
  d.run_until(1);
  REQUIRE(d.started_at(1) == std::vector<std::uint64_t>{6});
  const auto& reserved = dynamic_cast<policies::ConservativeBackfillScheduler&>(d.scheduler()).reservations();
  REQUIRE(reserved.at(model::JobId{3}) == 100.0);
  REQUIRE(reserved.at(model::JobId{4}) == 50.0);
  REQUIRE(reserved.at(model::JobId{5}) == 110.0);
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(4).starts == std::vector<double>{50});
  REQUIRE(d.record(3).starts == std::vector<double>{100});
  REQUIRE(d.record(5).starts == std::vector<double>{110});

  SECTION("EASY protects only the head: job 5 takes node 1 and job 4 waits for job 3") {
    Driver easy(test::make_shape(2, 8), test::make_scheduler("{name: easy_backfill, estimator: oracle}"));
    test::add_two_node_backfill_scenario(easy);
    easy.run_until(1);
    REQUIRE(easy.started_at(1) == std::vector<std::uint64_t>{5});
    REQUIRE(easy.run_to_end());
    REQUIRE(easy.record(4).starts.front() > 50.0);
  }
}

TEST_CASE("policies::conservative_backfill: with exact estimates no job starts after its first reservation",
          "[policies][conservative_backfill][property]") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    INFO("seed " << seed);
    Driver d(test::make_shape(4, 8, 2), test::make_scheduler("{name: conservative_backfill, estimator: oracle}"),
             test::make_placement(seed % 2 == 0 ? "pack" : "first_fit"));
    for (const auto& job : test::random_workload(seed, 60, 4, 8)) {
      d.add(job);
    }
    std::map<model::JobId, double> first_reservation;
    d.after_round = [&](const Driver& drv) {
      auto& s = dynamic_cast<policies::ConservativeBackfillScheduler&>(const_cast<Driver&>(drv).scheduler());
      for (const auto& [id, at] : s.reservations()) {
        first_reservation.emplace(id, at);
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
