// Slurm's backfill as it plans (backfill: conservative) in the single-queue schedulers: every tested job
// that cannot start is planned its earliest start within bf_window, at bf_resolution.
#include <catch2/catch.hpp>

#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;
using test::Driver;
using test::make_job;

namespace {

std::string priority(const std::string& extra) {
  return "{name: priority, estimator: oracle, " + extra + "}";
}

} // namespace

TEST_CASE("policies::planned_backfill: every blocked job is planned, not only the first",
          "[policies][planned_backfill]") {
  Driver d(test::make_shape(2, 8), test::make_scheduler(priority("backfill: conservative, bf_resolution: 0s")));
  test::add_two_node_backfill_scenario(d);
  REQUIRE(d.run_to_end());
  CHECK(d.record(6).starts == std::vector<double>{1});   // ends at 40, before job 4's plan at 50
  CHECK(d.record(4).starts == std::vector<double>{50});  // job 5 did not take its node
  CHECK(d.record(3).starts == std::vector<double>{100}); // the first blocked job keeps its plan
  CHECK(d.record(5).starts == std::vector<double>{110}); // after every plan ahead of it

  SECTION("EASY protects only the first blocked job: job 5 takes node 1 and job 4 waits") {
    Driver easy(test::make_shape(2, 8), test::make_scheduler(priority("backfill: easy")));
    test::add_two_node_backfill_scenario(easy);
    REQUIRE(easy.run_to_end());
    CHECK(easy.record(5).starts == std::vector<double>{1});
    CHECK(easy.record(4).starts.front() > 50.0);
  }
}

TEST_CASE("policies::planned_backfill: jobs that cannot start within bf_window get no plan",
          "[policies][planned_backfill]") {
  // Job 3's start at 100 and job 4's at 50 both lie beyond a 30 s window: nothing protects node 1.
  Driver d(test::make_shape(2, 8),
           test::make_scheduler(priority("backfill: conservative, bf_resolution: 0s, bf_window: 30s")));
  test::add_two_node_backfill_scenario(d);
  d.run_until(1);
  CHECK(d.started_at(1) == std::vector<std::uint64_t>{5});
  Driver wide(test::make_shape(2, 8),
              test::make_scheduler(priority("backfill: conservative, bf_resolution: 0s, bf_window: 60s")));
  test::add_two_node_backfill_scenario(wide);
  wide.run_until(1);
  CHECK(wide.started_at(1) == std::vector<std::uint64_t>{6}); // job 4's start at 50 is within 60 s
}

TEST_CASE("policies::planned_backfill: planned times count estimates rounded up to bf_resolution",
          "[policies][planned_backfill]") {
  // One node: job 1 holds half of it until 50, job 2 needs all of it from then on. Job 3 (4 GPUs, 45 s)
  // ends at 46; at a 60 s resolution the plan counts it to 61, past job 2's start.
  auto scenario = [](Driver& d) {
    d.add(make_job(1, 4, 0, 50));
    d.add(make_job(2, 8, 1, 100));
    d.add(make_job(3, 4, 1, 45));
  };
  Driver d(test::make_shape(1, 8), test::make_scheduler(priority("backfill: conservative")));
  scenario(d);
  REQUIRE(d.run_to_end());
  CHECK(d.record(3).starts == std::vector<double>{150});
  Driver fine(test::make_shape(1, 8), test::make_scheduler(priority("backfill: conservative, bf_resolution: 5s")));
  scenario(fine);
  REQUIRE(fine.run_to_end());
  CHECK(fine.record(3).starts == std::vector<double>{1});
  CHECK(fine.record(2).starts == std::vector<double>{50});
}

TEST_CASE("policies::planned_backfill: under Slurm's cadence only the backfill pass plans",
          "[policies][planned_backfill]") {
  auto slurm = [](const std::string& backfill) {
    return priority("backfill: " + backfill + ", bf_resolution: 0s, sched_interval: 60s, bf_interval: 30s");
  };
  // Submitted at 1, the jobs behind job 3 wait for the backfill pass at 30 (event passes keep strict
  // order and stop at job 3). There job 5 and job 6 would hold node 1 past job 4's planned start at 50:
  // planning keeps them waiting, and job 4 starts at the first backfill pass after 50. EASY starts job 5
  // on node 1 at 30 instead, and job 4 waits for job 3.
  Driver d(test::make_shape(2, 8), test::make_scheduler(slurm("conservative")));
  test::add_two_node_backfill_scenario(d);
  REQUIRE(d.run_to_end());
  CHECK(d.record(4).starts == std::vector<double>{60});
  CHECK(d.record(5).starts.front() > 60.0);
  CHECK(d.record(6).starts.front() > 60.0);
  Driver easy(test::make_shape(2, 8), test::make_scheduler(slurm("easy")));
  test::add_two_node_backfill_scenario(easy);
  REQUIRE(easy.run_to_end());
  CHECK(easy.record(5).starts == std::vector<double>{30});
  CHECK(easy.record(4).starts.front() > 50.0);
}

TEST_CASE("policies::planned_backfill: a quota owner still reclaims borrowed GPUs", "[policies][planned_backfill]") {
  // One node: a borrower holds all 8 GPUs; the owner of a 8-GPU quota arrives and preempts it.
  Driver d(test::make_shape(1, 8),
           test::make_scheduler("{name: quota, quotas: {pretrain: 8}, backfill: conservative, estimator: oracle}"));
  d.add(make_job(1, 8, 0, 1000, model::JobType::EVAL));
  d.add(make_job(2, 8, 5, 100, model::JobType::PRETRAIN));
  REQUIRE(d.run_to_end());
  CHECK(d.record(1).preemptions == 1);
  CHECK(d.record(2).starts.front() < 1000.0); // not behind the borrower's end
  CHECK(d.record(1).starts.size() == 2);
}
