#include <catch2/catch.hpp>

#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;
using model::JobType;
using model::WaitReason;
using test::Driver;
using test::make_job;

TEST_CASE("policies::limits: QOS MaxJobsPerUser holds a user's extra jobs, not other users'", "[policies][limits]") {
  Driver d(test::make_shape(4, 8), test::make_scheduler("{name: priority, max_jobs_per_user: {sft: 2}}"));
  d.add(make_job(1, 1, 0, 100, JobType::SFT, 1));
  d.add(make_job(2, 1, 0, 100, JobType::SFT, 1));
  d.add(make_job(3, 1, 0, 100, JobType::SFT, 1)); // user 1's third SFT job
  d.add(make_job(4, 1, 0, 100, JobType::SFT, 2));
  d.add(make_job(5, 1, 0, 100, JobType::EVAL, 1)); // another class: not limited
  d.run_until(0);
  CHECK(d.record(1).starts == std::vector<double>{0});
  CHECK(d.record(2).starts == std::vector<double>{0});
  CHECK(d.record(3).starts.empty());
  CHECK(d.record(3).reason == WaitReason::QOS_MAX_JOBS_PER_USER);
  CHECK(d.record(4).starts == std::vector<double>{0});
  CHECK(d.record(5).starts == std::vector<double>{0});
  REQUIRE(d.run_to_end());
  CHECK(d.record(3).starts == std::vector<double>{100}); // when one of its user's jobs ends
}

TEST_CASE("policies::limits: GPU limits per user, per class and per association", "[policies][limits]") {
  SECTION("QOS MaxTRESPerUser") {
    Driver d(test::make_shape(4, 8), test::make_scheduler("{name: priority, max_gpus_per_user: {sft: 8}}"));
    d.add(make_job(1, 8, 0, 100, JobType::SFT, 1));
    d.add(make_job(2, 1, 0, 50, JobType::SFT, 1));
    d.add(make_job(3, 8, 0, 100, JobType::SFT, 2));
    d.run_until(0);
    CHECK(d.record(2).starts.empty());
    CHECK(d.record(2).reason == WaitReason::QOS_MAX_GPUS_PER_USER);
    CHECK(d.record(3).starts == std::vector<double>{0}); // behind a held job, not blocked by it
    REQUIRE(d.run_to_end());
    CHECK(d.record(2).starts == std::vector<double>{100});
  }
  SECTION("QOS GrpTRES over all users of a class") {
    Driver d(test::make_shape(4, 8), test::make_scheduler("{name: priority, max_gpus: {eval: 4}}"));
    d.add(make_job(1, 2, 0, 100, JobType::EVAL, 1));
    d.add(make_job(2, 2, 0, 100, JobType::EVAL, 2));
    d.add(make_job(3, 1, 0, 100, JobType::EVAL, 3));
    d.run_until(0);
    CHECK(d.record(3).starts.empty());
    CHECK(d.record(3).reason == WaitReason::QOS_GRP_GPUS);
  }
  SECTION("association GrpTRES and MaxJobs over every class of a user") {
    Driver d(test::make_shape(4, 8), test::make_scheduler("{name: priority, user_max_gpus: 8, user_max_jobs: 3}"));
    d.add(make_job(1, 4, 0, 100, JobType::SFT, 1));
    d.add(make_job(2, 4, 0, 100, JobType::DEBUG, 1));
    d.add(make_job(3, 1, 0, 100, JobType::EVAL, 1)); // a ninth GPU (examined last: lowest class priority)
    d.add(make_job(4, 1, 0, 100, JobType::DEBUG, 2));
    d.add(make_job(5, 1, 0, 100, JobType::DEBUG, 2));
    d.add(make_job(6, 1, 0, 100, JobType::DEBUG, 2));
    d.add(make_job(7, 1, 0, 100, JobType::DEBUG, 2)); // user 2's fourth job
    d.run_until(0);
    CHECK(d.record(3).reason == WaitReason::ASSOC_GRP_GPUS);
    CHECK(d.record(7).reason == WaitReason::ASSOC_MAX_JOBS);
    CHECK(d.record(6).starts == std::vector<double>{0});
  }
  SECTION("a job larger than a limit can ever allow is rejected") {
    Driver d(test::make_shape(4, 8), test::make_scheduler("{name: quota, max_gpus_per_user: {debug: 8}}"));
    d.add(make_job(1, 16, 0, 100, JobType::DEBUG, 1));
    REQUIRE(d.run_to_end());
    CHECK(d.record(1).rejected);
  }
}

TEST_CASE("policies::limits: limits take whole numbers; 0 is no limit", "[policies][limits]") {
  CHECK_THROWS_WITH(test::make_scheduler("{name: priority, max_gpus: {eval: 1.5}}"),
                    Catch::Contains("max_gpus: expected whole numbers (0: no limit)"));
  CHECK_THROWS_WITH(test::make_scheduler("{name: priority, max_gpus: {evl: 1}}"), Catch::Contains("evl"));
  Driver d(test::make_shape(1, 8), test::make_scheduler("{name: priority, max_jobs_per_user: {sft: 0}}"));
  for (std::uint64_t id = 1; id <= 8; ++id) {
    d.add(make_job(id, 1, 0, 10, JobType::SFT, 1));
  }
  d.run_until(0);
  for (std::uint64_t id = 1; id <= 8; ++id) {
    CHECK(d.record(id).starts == std::vector<double>{0});
  }
}

TEST_CASE("policies::limits: classes that share a QoS share its limits (qos_of)", "[policies][limits]") {
  Driver d(
      test::make_shape(4, 8),
      test::make_scheduler("{name: priority, qos_of: {eval: sft}, max_jobs_per_user: {sft: 2}, max_gpus: {sft: 6}}"));
  d.add(make_job(1, 1, 0, 100, JobType::SFT, 1));
  d.add(make_job(2, 1, 0, 50, JobType::EVAL, 1));
  d.add(make_job(3, 1, 0, 100, JobType::EVAL, 1)); // user 1's third job under SFT's QoS
  d.add(make_job(4, 4, 0, 100, JobType::EVAL, 2));
  d.add(make_job(5, 1, 0, 100, JobType::EVAL, 3)); // the QoS's seventh GPU
  d.add(make_job(6, 1, 0, 100, JobType::MLLM, 1)); // its own QoS: not limited
  d.run_until(0);
  CHECK(d.record(1).starts == std::vector<double>{0});
  CHECK(d.record(2).starts == std::vector<double>{0});
  CHECK(d.record(3).reason == WaitReason::QOS_MAX_JOBS_PER_USER);
  CHECK(d.record(4).starts == std::vector<double>{0});
  CHECK(d.record(5).reason == WaitReason::QOS_GRP_GPUS);
  CHECK(d.record(6).starts == std::vector<double>{0});
  REQUIRE(d.run_to_end());
  CHECK(d.record(3).starts == std::vector<double>{50}); // when user 1's evaluation job ends
  CHECK_THROWS_WITH(test::make_scheduler("{name: priority, qos_of: {eval: sfx}}"),
                    Catch::Contains("unknown job type \"sfx\""));
}
