#include <catch2/catch.hpp>

#include "policies/scheduling/las.hpp"
#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;
using test::Driver;
using test::make_job;

namespace {
policies::LasScheduler& las(Driver& d) {
  return dynamic_cast<policies::LasScheduler&>(d.scheduler());
}
/// A CPU job: makes the driver call the scheduler at `t_s` without touching GPUs.
model::JobSpec probe(std::uint64_t id, double t_s) {
  return make_job(id, 0, t_s, 1);
}
} // namespace

TEST_CASE("policies::las: queues by attained GPU-service", "[policies][las]") {
  policies::LasParams p;
  p.thresholds_gpu_s = {100, 1000};
  policies::LasScheduler s(p);
  REQUIRE(s.level_of(0) == 0);
  REQUIRE(s.level_of(99.9) == 0);
  REQUIRE(s.level_of(100) == 1);
  REQUIRE(s.level_of(999) == 1);
  REQUIRE(s.level_of(5000) == 2);
}

TEST_CASE("policies::las: a running job is demoted by its GPU-service and then preempted by a new job",
          "[policies][las]") {
  double delay = GENERATE(0.0, 3.0);
  INFO("preemption takes " << delay << " s");
  Driver d(test::make_shape(1, 8),
           test::make_scheduler("{name: las, queue_thresholds: [3250], starvation_knob: 0, min_run: 0s}"));
  d.preempt_delay_s = delay;
  d.add(make_job(1, 8, 0, 10000)); // 8 GPUs: crosses 3,250 GPU-s at 406.25 s
  d.add(make_job(2, 8, 100, 50));  // same queue as job 1 at 100: waits
  d.add(probe(3, 300));
  d.add(probe(4, 500));
  d.run_until(300);
  REQUIRE(d.record(2).starts.empty());
  REQUIRE(las(d).running_level(model::JobId{1}) == 0);
  d.run_until(500 + delay);
  REQUIRE(d.record(1).preemptions == 1);
  REQUIRE(d.record(2).starts == std::vector<double>{500 + delay});
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(1).starts == std::vector<double>{0, 550 + delay});
  REQUIRE(d.record(1).end_s == Approx(10050.0)); // 10,000 s of service plus the 50 s it waited
}

TEST_CASE("policies::las: never preempts a job of the same queue", "[policies][las]") {
  Driver d(test::make_shape(1, 8), test::make_scheduler("{name: las, queue_thresholds: [100000]}"));
  d.add(make_job(1, 8, 0, 1000));
  d.add(make_job(2, 8, 10, 10));
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(1).preemptions == 0);
  REQUIRE(d.record(2).starts == std::vector<double>{1000});
}

TEST_CASE("policies::las: a starving job returns to the top queue", "[policies][las]") {
  Driver d(test::make_shape(1, 8),
           test::make_scheduler("{name: las, queue_thresholds: [3250], starvation_knob: 1, min_run: 0s}"));
  d.add(make_job(1, 8, 0, 10000));
  d.add(make_job(2, 8, 500, 10000)); // job 1 is in queue 1 by then: preempted, counted 4,000 GPU-s (500 s)
  d.add(probe(3, 950));              // job 2 crossed the threshold at 906.25: both in queue 1, no preemption
  d.add(probe(4, 1000));             // job 1 waited 500 s = 1 x its counted run time: back to queue 0
  d.run_until(950);
  REQUIRE(d.record(2).preemptions == 0);
  REQUIRE(las(d).running_level(model::JobId{2}) == 1);
  REQUIRE(las(d).queue().key_of(model::JobId{1}).primary == 1.0);
  d.run_until(1000);
  REQUIRE(d.record(2).preemptions == 1);
  REQUIRE(d.record(1).starts == std::vector<double>{0, 1000});
  REQUIRE(las(d).running_level(model::JobId{1}) == 0); // its count was reset by the promotion
}

TEST_CASE("policies::las: a job runs min_run before it can be preempted", "[policies][las]") {
  // Job 1 crosses the threshold at 406.25 s; job 2 arrives at 500, before job 1 ran its 10 min.
  Driver d(test::make_shape(1, 8), test::make_scheduler("{name: las, queue_thresholds: [3250], starvation_knob: 0}"));
  d.add(make_job(1, 8, 0, 10000));
  d.add(make_job(2, 8, 500, 50));
  d.add(probe(3, 599));
  d.add(probe(4, 600));
  d.run_until(599);
  REQUIRE(d.record(1).preemptions == 0);
  d.run_until(600);
  REQUIRE(d.record(1).preemptions == 1);
  REQUIRE(d.record(2).starts == std::vector<double>{600});
}

TEST_CASE("policies::las: thresholds below a restart's service still let every job finish", "[policies][las]") {
  // Tiny thresholds demote every job within a second; promoted jobs kept preempting jobs that were still
  // restoring, and 262 short jobs ran for months. With min_run each start computes for a while.
  Driver d(test::make_shape(2, 8), test::make_scheduler("{name: las, queue_thresholds: [10]}"));
  d.preempt_delay_s = 120.0; // a checkpoint and a restore
  for (std::uint64_t i = 1; i <= 60; ++i) {
    d.add(make_job(i, i % 3 == 0 ? 16 : 8, static_cast<double>(i * 7), static_cast<double>(1 + i % 97)));
  }
  REQUIRE(d.run_to_end());
  for (std::uint64_t i = 1; i <= 60; ++i) {
    REQUIRE(d.record(i).end_s < 60 * 400.0); // each job at most its own run plus a preemption per job
  }
}
