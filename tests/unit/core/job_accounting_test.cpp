#include <catch2/catch.hpp>

#include "sim/core/job_runtime.hpp"

using namespace acme;

TEST_CASE("core::job_accounting: failures by category, switch failures last", "[core][accounting]") {
  core::JobAccounting a;
  REQUIRE(a.failures.empty()); // no column until the first failure
  a.count_failure(1, 3);
  a.count_failure(3, 3); // a switch failure: after the 3 node categories
  a.count_failure(1, 3);
  REQUIRE(a.failures == std::vector<std::uint16_t>{0, 2, 0, 1});
}

TEST_CASE("core::job_accounting: the job record carries the job's placement, work and costs", "[core][accounting]") {
  model::JobEntry entry;
  entry.spec.id = model::JobId{7};
  core::JobRuntime job;
  job.nodes = 4;
  job.leaves = 2;
  job.checkpoint.progress_s = 3600.0;
  job.checkpoint.work_s = 7200.0;
  job.accounting.attempts = 2;
  job.accounting.first_start_s = 10.0;
  job.accounting.gpu_seconds = 32.0 * 5000.0;
  job.accounting.stall_s = 12.0;
  job.accounting.restore_s = 30.0;
  job.accounting.lost_work_s = 400.0;
  job.accounting.lost_gpu_s = 12800.0;
  job.accounting.checkpoints = 5;
  job.accounting.preemptions = 1;
  job.accounting.count_failure(0, 1);
  metrics::JobRecord r =
      core::make_job_record(entry, job, 6000.0, model::JobState::NODE_FAIL, model::RejectReason::NONE);
  CHECK(r.spec == &entry.spec);
  CHECK(r.end_s == 6000.0);
  CHECK(r.state == model::JobState::NODE_FAIL);
  CHECK(r.work_s == 3600.0); // the progress made, not the work asked for
  CHECK(r.nodes == 4);
  CHECK(r.leaves == 2);
  CHECK(r.attempts == 2);
  CHECK(r.first_start_s == 10.0);
  CHECK(r.gpu_seconds == 160000.0);
  CHECK(r.stall_s == 12.0);
  CHECK(r.restore_s == 30.0);
  CHECK(r.lost_work_s == 400.0);
  CHECK(r.lost_gpu_s == 12800.0);
  CHECK(r.checkpoints == 5);
  CHECK(r.preemptions == 1);
  CHECK(r.failures == std::vector<std::uint16_t>{1, 0});
}
