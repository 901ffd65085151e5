#include <catch2/catch.hpp>

#include "policies/estimators/runtime_estimator.hpp"
#include "policies/scheduling/running_jobs.hpp"
#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;
using model::JobType;
using model::UserId;
using policies::EstimatorKind;
using policies::EstimatorParams;
using policies::RuntimeEstimator;
using test::Driver;
using test::make_job;

TEST_CASE("policies::estimator: oracle, requested and type_user", "[policies][estimator]") {
  auto job = make_job(1, 4, 0, 777, JobType::EVAL, 1);
  SECTION("oracle is the real duration and learns nothing") {
    RuntimeEstimator e(EstimatorParams{EstimatorKind::ORACLE, 60});
    e.observe(JobType::EVAL, UserId{1}, 5);
    REQUIRE(e.estimate_s(job) == 777);
  }
  SECTION("requested is the trace's request, else the type and user estimate") {
    RuntimeEstimator e(EstimatorParams{EstimatorKind::REQUESTED, 60});
    REQUIRE(e.estimate_s(job) == 60);
    job.requested_time_s = 3600;
    REQUIRE(e.estimate_s(job) == 3600);
  }
  SECTION("type_user: the user's mean, then the type's, then the default") {
    RuntimeEstimator e(EstimatorParams{EstimatorKind::TYPE_USER, 60});
    job.requested_time_s = 3600; // ignored
    REQUIRE(e.estimate_s(job) == 60);
    e.observe(JobType::EVAL, UserId{2}, 100);
    REQUIRE(e.estimate_s(job) == 100); // user 1 unknown: the type's mean
    e.observe(JobType::EVAL, UserId{1}, 10);
    e.observe(JobType::EVAL, UserId{1}, 30);
    REQUIRE(e.estimate_s(job) == 20);
    job.type = JobType::SFT;
    REQUIRE(e.estimate_s(job) == 60);
  }
  SECTION("the default is Seren's mean GPU-job run time") {
    REQUIRE(EstimatorParams{}.kind == EstimatorKind::REQUESTED);
    REQUIRE(EstimatorParams{}.default_s == Approx(1414.0));
  }
}

TEST_CASE("policies::estimator: a scheduler learns from jobs that end as their workload says",
          "[policies][estimator]") {
  auto order = [](const std::string& estimator) {
    Driver d(test::make_shape(1, 8), test::make_scheduler("{name: sjf, estimator: " + estimator + "}"));
    d.add(make_job(1, 8, 0, 10, JobType::EVAL, 0));  // teaches (Evaluation, user 0) = 10 s
    d.add(make_job(2, 8, 0, 5000, JobType::SFT, 1)); // teaches SFT = 5,000 s when it ends
    d.add(make_job(3, 8, 20, 50, JobType::SFT, 1));
    d.add(make_job(4, 8, 21, 50, JobType::EVAL, 0));
    REQUIRE(d.run_to_end());
    return d.record(4).starts.front() < d.record(3).starts.front();
  };
  REQUIRE(order("type_user"));    // job 4 looks short, job 3 long
  REQUIRE_FALSE(order("oracle")); // equal: submission order
}

TEST_CASE("policies::estimator: a job running past its estimate is expected to run as long again",
          "[policies][estimator]") {
  policies::RunningJobs running;
  policies::RunningJob job;
  job.id = model::JobId{1};
  job.start_s = 0;
  job.est_end_s = 10;
  running.add(job);
  REQUIRE_FALSE(running.extend_overruns(9));
  REQUIRE(running.extend_overruns(50));
  REQUIRE(running.find(model::JobId{1})->est_end_s == 100);
  REQUIRE(running.earliest_end_s() == 100);
  REQUIRE_FALSE(running.extend_overruns(50));
}
