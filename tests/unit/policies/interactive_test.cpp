#include <catch2/catch.hpp>

#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;
using model::JobType;
using test::Driver;
using test::make_job;

// Interactive allocations (srun, salloc) under batch_sched_delay: slurmctld allocates such a job as it is
// submitted when it is the top-priority pending job of its partition and fits; batch jobs (sbatch) wait for
// the background loop's pass.

namespace {

std::string slurm_like(const std::string& interactive) {
  return "{name: priority, estimator: oracle, sched_interval: 60s, bf_interval: 30s, batch_sched_delay: 3s, "
         "interactive: " +
         interactive + "}";
}

} // namespace

TEST_CASE("policies::interactive: an interactive job first in the queue starts as it is submitted",
          "[policies][cadence]") {
  Driver d(test::make_shape(2, 8), test::make_scheduler(slurm_like("{debug: 1}")));
  d.add(make_job(1, 8, 10, 100, JobType::SFT));    // a batch job: the background pass at 11
  d.add(make_job(2, 8, 12, 1000, JobType::DEBUG)); // interactive: at once, not at 14
  d.add(make_job(3, 8, 13, 10, JobType::DEBUG));   // interactive, but no room: job 1's end at 111 starts it
  REQUIRE(d.run_to_end());
  CHECK(d.record(1).starts == std::vector<double>{11});
  CHECK(d.record(2).starts == std::vector<double>{12});
  CHECK(d.record(3).starts == std::vector<double>{111});
  CHECK(d.record(1).reason == model::WaitReason::NONE); // deferred, never examined before its start
  CHECK(d.record(3).reason == model::WaitReason::RESOURCES);
}

TEST_CASE("policies::interactive: an interactive job behind a pending job of higher priority waits for a pass",
          "[policies][cadence]") {
  auto run = [](bool with_head) {
    Driver d(test::make_shape(1, 8), test::make_scheduler(slurm_like("{debug: 1}")));
    d.add(make_job(1, 4, 0, 1000, JobType::SFT)); // runs from the background pass at 1
    if (with_head) {
      d.add(make_job(2, 8, 5, 100, JobType::PRETRAIN)); // waits for job 1: the queue's first
    }
    d.add(make_job(3, 4, 7, 10, JobType::DEBUG)); // fits beside job 1
    d.add(make_job(4, 0, 8, 10));                 // a CPU job: a batch job in the GPU nodes' partition
    REQUIRE(d.run_to_end());
    return std::make_tuple(d.record(3).starts, d.record(3).reason, d.record(4).reason);
  };
  auto [alone, debug_alone, cpu_alone] = run(false);
  CHECK(alone == std::vector<double>{7}); // first in the queue: at its submission
  CHECK(cpu_alone == model::WaitReason::NONE);
  auto [behind, debug_behind, cpu_behind] = run(true);
  CHECK(behind == std::vector<double>{30}); // not the top priority: the backfill pass starts it
  // The background pass ran, but stopped at job 2: both wait behind it from then on.
  CHECK(debug_behind == model::WaitReason::PRIORITY);
  CHECK(cpu_behind == model::WaitReason::PRIORITY);
}

TEST_CASE("policies::interactive: a share makes every 1/share-th submission of the type interactive",
          "[policies][cadence]") {
  Driver d(test::make_shape(8, 8), test::make_scheduler(slurm_like("{debug: 0.5}")));
  for (std::uint64_t i = 0; i < 4; ++i) {
    d.add(make_job(i + 1, 8, 10.0 + 20.0 * static_cast<double>(i), 1000, JobType::DEBUG));
  }
  d.add(make_job(5, 8, 100, 1000, JobType::SFT)); // other types stay batch jobs
  REQUIRE(d.run_to_end());
  CHECK(d.record(1).starts == std::vector<double>{11}); // batch
  CHECK(d.record(2).starts == std::vector<double>{30}); // interactive
  CHECK(d.record(3).starts == std::vector<double>{51}); // batch
  CHECK(d.record(4).starts == std::vector<double>{70}); // interactive
  CHECK(d.record(5).starts == std::vector<double>{101});
}

TEST_CASE("policies::interactive: without batch_sched_delay every submission runs an event pass at once",
          "[policies][cadence]") {
  Driver d(test::make_shape(1, 8),
           test::make_scheduler("{name: priority, estimator: oracle, sched_interval: 60s, bf_interval: 30s, "
                                "interactive: {debug: 1}}"));
  d.add(make_job(1, 4, 10, 100, JobType::SFT));
  d.add(make_job(2, 4, 12, 100, JobType::DEBUG));
  REQUIRE(d.run_to_end());
  CHECK(d.record(1).starts == std::vector<double>{10});
  CHECK(d.record(2).starts == std::vector<double>{12});
}
