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

TEST_CASE("policies::cadence: a CPU job waits for the backfill pass while a GPU job waits at the head",
          "[policies][cadence]") {
  // CPU jobs use the GPU nodes' cores, so they share their partition, behind the GPU jobs: the main and
  // event passes stop at the blocked head before they reach them.
  Driver d(test::make_shape(1, 8), test::make_scheduler(slurm_like()));
  d.add(make_job(4, 0, 3, 10)); // no GPU job waits yet: at once
  block_node(d);
  d.add(make_job(3, 0, 7, 10));    // behind job 2 at the head: the backfill pass at 30
  d.add(make_job(5, 0, 1500, 10)); // the head started at 1000: at once again
  REQUIRE(d.run_to_end());
  CHECK(d.record(4).starts == std::vector<double>{3});
  CHECK(d.record(3).starts == std::vector<double>{30});
  CHECK(d.record(5).starts == std::vector<double>{1500});
  Driver event_driven(test::make_shape(1, 8), test::make_scheduler("{name: priority, estimator: oracle}"));
  block_node(event_driven);
  event_driven.add(make_job(3, 0, 7, 10));
  REQUIRE(event_driven.run_to_end());
  CHECK(event_driven.record(3).starts == std::vector<double>{7}); // without a cadence: at once, as before
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

TEST_CASE("policies::cadence: with batch_sched_delay a submission waits for slurmctld's background pass",
          "[policies][cadence]") {
  // As sbatch in slurmctld: a submission starts nothing; the background loop (every second) runs a pass at
  // its first round after it, at least batch_sched_delay after its previous pass; a job's end runs one at
  // once. Two nodes of 8 GPUs.
  Driver d(test::make_shape(2, 8), test::make_scheduler(slurm_like(", batch_sched_delay: 3s")));
  d.add(make_job(1, 8, 10, 100));  // background pass at 11 (none before)
  d.add(make_job(2, 8, 12, 1000)); // the loop's next round is 13, but its last pass was at 11: 14
  d.add(make_job(3, 8, 20, 10));   // pass at 21 finds no room; job 1's end at 111 starts it at once
  d.add(make_job(4, 0, 32, 10));   // a CPU job waits for a pass too: 33
  REQUIRE(d.run_to_end());
  CHECK(d.record(1).starts == std::vector<double>{11});
  CHECK(d.record(2).starts == std::vector<double>{14});
  CHECK(d.record(3).starts == std::vector<double>{111});
  CHECK(d.record(4).starts == std::vector<double>{33});
}

TEST_CASE("policies::cadence: the background pass's times", "[policies][cadence]") {
  policies::CadenceParams p;
  p.main_interval_s = 60;
  p.bf_interval_s = 30;
  p.batch_sched_delay_s = 3;
  policies::PassCadence cadence(p);
  REQUIRE_FALSE(cadence.plan(10, true, true, true).main); // a submission alone: no pass at once
  REQUIRE(cadence.wake_up(10, true, false) == std::optional<double>(11));
  policies::RoundPlan at11 = cadence.plan(11, false, false);
  REQUIRE(at11.main);
  REQUIRE(at11.background);
  REQUIRE(at11.main_depth == p.event_depth);
  REQUIRE_FALSE(cadence.plan(12.5, true, true, true).main);
  REQUIRE(cadence.wake_up(12.5, true, false) == std::optional<double>(14)); // 3 s after the pass at 11
  REQUIRE(cadence.plan(13, true, true, false).main); // a job ended: a pass at once, the request stays
  REQUIRE(cadence.plan(14, false, false).background);
  // The periodic main pass is the background loop's: it serves the requests and restarts the delay.
  REQUIRE_FALSE(cadence.plan(59.5, true, true, true).main);
  policies::RoundPlan at60 = cadence.plan(60, false, false);
  REQUIRE(at60.main);
  REQUIRE(at60.background);
  REQUIRE(at60.main_depth == policies::CadenceParams::NO_LIMIT);
  REQUIRE_FALSE(cadence.plan(61, true, true, true).main);
  REQUIRE(cadence.wake_up(61, true, false) == std::optional<double>(63));
}

TEST_CASE("policies::cadence: periodic passes due while nothing waited count as run", "[policies][cadence]") {
  // slurmctld's timers fire with an empty queue too: a submission after an idle main pass waits
  // batch_sched_delay after it, not for an overdue pass at its own instant.
  Driver d(test::make_shape(8, 8), test::make_scheduler(slurm_like(", batch_sched_delay: 3s")));
  d.add(make_job(1, 8, 10, 1000));
  d.add(make_job(2, 8, 61, 1000));  // the idle main pass at 60 was the background loop's last: 63
  d.add(make_job(3, 8, 100, 1000)); // its previous pass at 63: the next round of the loop, 101
  REQUIRE(d.run_to_end());
  CHECK(d.record(1).starts == std::vector<double>{11});
  CHECK(d.record(2).starts == std::vector<double>{63});
  CHECK(d.record(3).starts == std::vector<double>{101});
}
