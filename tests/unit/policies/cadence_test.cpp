#include <catch2/catch.hpp>

#include "policies/scheduling/pass_cadence.hpp"
#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;
using model::JobType;
using test::Driver;
using test::make_job;

namespace {

// Slurm's cadence on a priority queue: main pass every 60 s, backfill every 30 s.
std::string slurm_like(const std::string& extra = "") {
  return "{name: priority, estimator: oracle, sched_interval: 60s, bf_interval: 30s" + extra + "}";
}

// A 4-GPU job holds half the node until 1000 s; an 8-GPU pretraining job (highest class) waits for it.
void block_node(Driver& d) {
  d.add(make_job(1, 4, 0, 1000, JobType::SFT));
  d.add(make_job(2, 8, 5, 100, JobType::PRETRAIN));
}

} // namespace

TEST_CASE("policies::cadence: a job behind a blocked head starts at the next backfill pass", "[policies][cadence]") {
  Driver d(test::make_shape(1, 8), test::make_scheduler(slurm_like()));
  block_node(d);
  d.add(make_job(3, 4, 7, 10, JobType::EVAL)); // fits beside job 1 and ends long before the reservation
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(1).starts == std::vector<double>{0});    // event pass at its submission
  REQUIRE(d.record(3).starts == std::vector<double>{30});   // not at 7 (strict order), at the backfill pass
  REQUIRE(d.record(2).starts == std::vector<double>{1000}); // at job 1's completion (event pass)
}

TEST_CASE("policies::cadence: without intervals every event backfills at once (today's behaviour)",
          "[policies][cadence]") {
  Driver d(test::make_shape(1, 8), test::make_scheduler("{name: priority, estimator: oracle}"));
  block_node(d);
  d.add(make_job(3, 4, 7, 10, JobType::EVAL));
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(3).starts == std::vector<double>{7});
}

TEST_CASE("policies::cadence: the backfill pass tests at most bf_max_job_test jobs", "[policies][cadence]") {
  Driver d(test::make_shape(1, 8), test::make_scheduler(slurm_like(", bf_max_job_test: 2")));
  block_node(d);
  d.add(make_job(3, 2, 7, 10, JobType::EVAL));
  d.add(make_job(4, 2, 8, 10, JobType::EVAL));
  REQUIRE(d.run_to_end());
  // The first pass tests the head (job 2) and job 3; job 4 is tested by the next one.
  REQUIRE(d.record(3).starts == std::vector<double>{30});
  REQUIRE(d.record(4).starts == std::vector<double>{60});
}

TEST_CASE("policies::cadence: bf_max_job_user limits the tests per user", "[policies][cadence]") {
  Driver d(test::make_shape(1, 8), test::make_scheduler(slurm_like(", bf_max_job_user: 1")));
  block_node(d);
  d.add(make_job(3, 2, 7, 10, JobType::EVAL, 5));
  d.add(make_job(4, 2, 8, 10, JobType::EVAL, 5)); // same user: waits for the next pass
  d.add(make_job(5, 2, 9, 10, JobType::EVAL, 6)); // another user: tested in the first
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(3).starts == std::vector<double>{30});
  REQUIRE(d.record(5).starts == std::vector<double>{30});
  REQUIRE(d.record(4).starts == std::vector<double>{60});
}

TEST_CASE("policies::cadence: sched_min_interval defers event passes", "[policies][cadence]") {
  Driver d(test::make_shape(2, 8), test::make_scheduler(slurm_like(", sched_min_interval: 10s")));
  d.add(make_job(1, 8, 0, 100));
  d.add(make_job(2, 8, 4, 100)); // fits at once, but the last event pass was at 0
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(1).starts == std::vector<double>{0});
  REQUIRE(d.record(2).starts == std::vector<double>{10});
}

TEST_CASE("policies::cadence: a waiting job is noted behind the job of higher priority", "[policies][cadence]") {
  Driver d(test::make_shape(1, 8), test::make_scheduler(slurm_like()));
  block_node(d);
  d.add(make_job(3, 8, 7, 10, JobType::EVAL)); // cannot backfill: as wide as the node
  d.run_until(20);
  REQUIRE(d.record(2).reason == model::WaitReason::RESOURCES);
  REQUIRE(d.record(3).reason == model::WaitReason::PRIORITY);
}

TEST_CASE("policies::cadence: an idle backlog asks for no wake-ups", "[policies][cadence]") {
  policies::CadenceParams p;
  p.main_interval_s = 60;
  p.bf_interval_s = 30;
  policies::PassCadence cadence(p);
  policies::RoundPlan first = cadence.plan(5, true, true);
  REQUIRE(first.main);
  REQUIRE_FALSE(first.backfill);
  REQUIRE(cadence.wake_up(5, true, false) == std::optional<double>(30));
  policies::RoundPlan at30 = cadence.plan(30, false, false);
  REQUIRE_FALSE(at30.main);
  REQUIRE(at30.backfill);
  // Nothing changed since: no pass is due to tell anything new.
  REQUIRE_FALSE(cadence.wake_up(30, true, false).has_value());
  // A main pass cut short by its depth leaves work for the next periodic pass.
  REQUIRE(cadence.plan(31, true, true).main);
  REQUIRE(cadence.wake_up(31, true, true) == std::optional<double>(60));
}

TEST_CASE("policies::cadence: a deferred event pass runs at the instant it asked to be woken, whatever the rounding",
          "[policies][cadence]") {
  policies::CadenceParams p;
  p.main_interval_s = 60;
  p.bf_interval_s = 30;
  p.min_interval_s = 2e-6; // Slurm's sched_min_interval
  // Days into a run, (t + 2us) - t rounds below 2us for about half of the instants: find one.
  double last_s = 198720.0;
  while ((last_s + p.min_interval_s) - last_s >= p.min_interval_s) {
    last_s += 0.001;
  }
  policies::PassCadence cadence(p);
  REQUIRE(cadence.plan(last_s, true, true).main);
  REQUIRE_FALSE(cadence.plan(last_s + 1e-6, true, true).main); // within sched_min_interval: deferred
  auto at = cadence.wake_up(last_s + 1e-6, true, false);
  REQUIRE(at == std::optional<double>(last_s + p.min_interval_s));
  policies::RoundPlan deferred = cadence.plan(*at, false, false);
  REQUIRE(deferred.main); // before: deferred again to the same instant, a wake-up loop without end
}
