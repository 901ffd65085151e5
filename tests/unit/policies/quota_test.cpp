#include <catch2/catch.hpp>

#include "policies/scheduling/ordered_scheduler.hpp"
#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;
using model::JobType;
using test::Driver;
using test::make_job;

namespace {
const policies::QuotaBook& book(Driver& d) {
  return *dynamic_cast<policies::OrderedScheduler&>(d.scheduler()).quota();
}
} // namespace

TEST_CASE("policies::quota: without borrowing, non-owners never use the reserved GPUs", "[policies][quota]") {
  Driver d(test::make_shape(2, 8),
           test::make_scheduler("{name: quota, quotas: {pretrain: 8}, borrowing: false, order: fifo}"));
  d.add(make_job(1, 8, 0, 100, JobType::EVAL));
  d.add(make_job(2, 8, 0, 100, JobType::EVAL));
  d.add(make_job(3, 4, 0, 100, JobType::EVAL));
  d.add(make_job(4, 8, 1, 50, JobType::PRETRAIN));
  d.after_round = [](const Driver& drv) {
    auto& b = book(const_cast<Driver&>(drv));
    REQUIRE(b.borrowed_milli() <= b.unreserved_milli());
  };
  d.run_until(60);
  REQUIRE(d.record(1).starts == std::vector<double>{0});
  REQUIRE(d.record(2).starts.empty()); // node 1 is idle, but it is pretraining's
  REQUIRE(d.record(4).starts == std::vector<double>{1});
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(2).starts == std::vector<double>{100});
  REQUIRE(d.record(3).starts == std::vector<double>{200});
}

TEST_CASE("policies::quota: borrowers are preempted back when an owner cannot fit", "[policies][quota]") {
  double delay = GENERATE(0.0, 5.0);
  INFO("preemption takes " << delay << " s");
  Driver d(test::make_shape(2, 8), test::make_scheduler("{name: quota, quotas: {pretrain: 8}, order: fifo}"));
  d.preempt_delay_s = delay;
  d.add(make_job(1, 8, 0, 1000, JobType::EVAL));
  d.add(make_job(2, 8, 0, 1000, JobType::EVAL)); // borrows pretraining's idle quota
  d.add(make_job(3, 8, 10, 100, JobType::PRETRAIN));
  d.add(make_job(4, 1, 11, 10, JobType::EVAL)); // would like the GPUs being freed: must not get them
  d.run_until(0);
  REQUIRE(book(d).borrowed_milli() == 16000);
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(2).preemptions == 1); // the most recently started borrower (job 1 is within the shared 8)
  REQUIRE(d.record(1).preemptions == 0);
  REQUIRE(d.record(3).starts == std::vector<double>{10 + delay});
  REQUIRE(d.record(2).starts.size() == 2);
  REQUIRE(d.record(2).starts[1] == 110 + delay);
}

TEST_CASE("policies::quota: a job no quota and no borrowing can ever hold is rejected", "[policies][quota]") {
  Driver d(test::make_shape(2, 8),
           test::make_scheduler("{name: quota, group_by: user, user_quota: 4, borrowing: false}"));
  d.add(make_job(1, 8, 0, 10));
  d.add(make_job(2, 4, 0, 10));
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(1).rejected);
  REQUIRE(d.record(2).starts == std::vector<double>{0});
}

TEST_CASE("policies::quota: jobs held back by quota do not block others; owners use EASY", "[policies][quota]") {
  Driver d(test::make_shape(2, 8),
           test::make_scheduler("{name: quota, quotas: {pretrain: 8}, borrowing: false, estimator: oracle}"));
  d.add(make_job(1, 8, 0, 100, JobType::EVAL));    // all of the shared 8
  d.add(make_job(2, 4, 1, 10, JobType::EVAL));     // held back by the quota
  d.add(make_job(3, 4, 2, 10, JobType::PRETRAIN)); // an owner, starts although job 2 waits ahead of it
  d.run_until(2);
  REQUIRE(d.record(3).starts == std::vector<double>{2});
  REQUIRE(d.record(2).starts.empty());
}

TEST_CASE("policies::quota: non-owners never exceed what borrowing allows on random workloads",
          "[policies][quota][property]") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    INFO("seed " << seed);
    Driver d(test::make_shape(4, 8, 2),
             test::make_scheduler("{name: quota, quotas: {pretrain: 16, sft: 8}, borrowing: false}"));
    for (const auto& job : test::random_workload(seed, 50, 4, 8)) {
      d.add(job);
    }
    d.after_round = [](const Driver& drv) {
      // Recomputed from the view alone: GPUs each type runs beyond its quota fit the unreserved 8.
      std::map<JobType, std::uint32_t> running;
      for (const auto& [id, e] : drv.view().jobs()) {
        if (e.phase == model::JobPhase::RUNNING) {
          running[e.spec.type] += e.spec.gpus;
        }
      }
      std::uint32_t beyond = 0;
      for (const auto& [type, gpus] : running) {
        std::uint32_t quota = type == JobType::PRETRAIN ? 16 : (type == JobType::SFT ? 8 : 0);
        beyond += gpus > quota ? gpus - quota : 0;
      }
      REQUIRE(beyond <= 8);
    };
    REQUIRE(d.run_to_end());
  }
}

TEST_CASE("policies::quota: in strict order a job the quotas hold blocks the borrowers behind it",
          "[policies][quota]") {
  // 24 GPUs, 8 of them pretraining's. Job 1 borrows 16; job 2 cannot borrow 16 more; job 3 could borrow 8.
  auto run = [](bool queued_owner) {
    auto d = std::make_unique<Driver>(test::make_shape(3, 8),
                                      test::make_scheduler("{name: quota, quotas: {pretrain: 8}, order: fifo, "
                                                           "backfill: none, reclaim: false}"));
    d->add(make_job(1, 16, 0, 100, JobType::EVAL));
    d->add(make_job(2, 16, 0, 10, JobType::EVAL));
    d->add(make_job(3, 8, 0, 10, JobType::EVAL));
    if (queued_owner) {
      d->add(make_job(4, 16, 0, 10, JobType::PRETRAIN)); // an owner, but wider than its quota: it borrows too
      d->add(make_job(5, 8, 0, 10, JobType::PRETRAIN));  // an owner with room
    }
    d->run_until(50);
    return d;
  };
  SECTION("no queued job may start inside a quota: the pass stops at the held job, as Slurm's main pass") {
    auto d = run(false);
    REQUIRE(d->record(2).starts.empty());
    REQUIRE(d->record(2).reason == model::WaitReason::QUOTA);
    REQUIRE(d->record(3).starts.empty());
    REQUIRE(d->record(3).reason == model::WaitReason::PRIORITY);
    REQUIRE(d->run_to_end());
    REQUIRE(d->record(2).starts == std::vector<double>{100});
    REQUIRE(d->record(3).starts == std::vector<double>{100});
  }
  SECTION("an owner with room behind it keeps the pass going") {
    auto d = run(true);
    REQUIRE(d->record(2).starts.empty());
    REQUIRE(d->record(3).starts == std::vector<double>{0});
  }
}

TEST_CASE("policies::quota: in strict order a job its borrowing limit holds does not block the other types",
          "[policies][quota]") {
  // 24 GPUs, 8 of them pretraining's; evaluation may borrow 8. Job 1 takes them; job 2 is over the limit.
  // Job 3 (SFT, no limit) could borrow: the group limit holds evaluation alone, as Kueue's borrowingLimit
  // holds one ClusterQueue and Slurm's QOS GrpTRES the jobs of its QOS.
  auto run = [](const char* limit) {
    auto d = std::make_unique<Driver>(test::make_shape(3, 8),
                                      test::make_scheduler(std::string("{name: quota, quotas: {pretrain: 8}, order: "
                                                                       "fifo, backfill: none, reclaim: false, "
                                                                       "borrowing_limit: ") +
                                                           limit + "}"));
    d->add(make_job(1, 8, 0, 100, JobType::EVAL));
    d->add(make_job(2, 8, 0, 10, JobType::EVAL));
    d->add(make_job(3, 8, 0, 10, JobType::SFT));
    d->run_until(50);
    return d;
  };
  SECTION("the limit holds evaluation; SFT behind it starts") {
    auto d = run("{eval: 8}");
    CHECK(d->record(2).starts.empty());
    CHECK(d->record(2).reason == model::WaitReason::QUOTA);
    CHECK(d->record(3).starts == std::vector<double>{0});
    REQUIRE(d->run_to_end());
    CHECK(d->record(2).starts == std::vector<double>{100});
  }
  SECTION("a limit as wide as the cluster's room: the same jobs run together") {
    auto d = run("{eval: 24}");
    CHECK(d->record(2).starts == std::vector<double>{0});
    CHECK(d->record(3).starts == std::vector<double>{0});
  }
}

TEST_CASE("policies::quota: a borrowing limit caps what a type holds beyond its quota", "[policies][quota]") {
  for (const char* policy : {"quota", "kube_quota"}) {
    INFO(policy);
    Driver d(test::make_shape(4, 8), test::make_scheduler(std::string("{name: ") + policy +
                                                          ", quotas: {pretrain: 16}, borrowing_limit: {eval: 3}}"));
    for (std::uint64_t id = 1; id <= 5; ++id) {
      d.add(make_job(id, 1, 0, 100, JobType::EVAL));
    }
    d.add(make_job(6, 4, 0, 100, JobType::SFT)); // other types: no limit
    d.run_until(0);
    CHECK(d.record(3).starts == std::vector<double>{0});
    CHECK(d.record(4).starts.empty()); // a fourth borrowed GPU for evaluation
    CHECK(d.record(4).reason == model::WaitReason::QUOTA);
    CHECK(d.record(6).starts == std::vector<double>{0});
    REQUIRE(d.run_to_end());
    CHECK(d.record(4).starts == std::vector<double>{100});
    CHECK(d.record(5).starts == std::vector<double>{100});
  }
  Driver wide(test::make_shape(4, 8), test::make_scheduler("{name: quota, borrowing_limit: {eval: 2}}"));
  wide.add(make_job(1, 4, 0, 100, JobType::EVAL)); // can never fit under the limit
  REQUIRE(wide.run_to_end());
  CHECK(wide.record(1).rejected);
  CHECK_THROWS_WITH(test::make_scheduler("{name: quota, borrowing_limit: {eval: 2.5}}"),
                    Catch::Contains("borrowing_limit: expected whole numbers of GPUs"));
}

TEST_CASE("policies::quota: quota_of runs a type's jobs in another type's quota", "[policies][quota]") {
  Driver d(test::make_shape(4, 8), test::make_scheduler("{name: quota, quotas: {pretrain: 24}, borrowing: false, "
                                                        "quota_of: {debug: pretrain}, order: fifo}"));
  d.add(make_job(1, 8, 0, 100, JobType::PRETRAIN));
  d.add(make_job(2, 16, 0, 100, JobType::DEBUG)); // inside pretraining's 24 with job 1
  d.add(make_job(3, 16, 0, 100, JobType::DEBUG)); // beyond them and the 8 unreserved GPUs: waits
  d.add(make_job(4, 8, 0, 100, JobType::SFT));    // the 8 unreserved GPUs
  d.run_until(0);
  CHECK(d.record(2).starts == std::vector<double>{0});
  CHECK(d.record(3).starts.empty());
  CHECK(d.record(4).starts == std::vector<double>{0});
  REQUIRE(d.run_to_end());
  CHECK(d.record(3).starts == std::vector<double>{100});
  CHECK_THROWS_WITH(test::make_scheduler("{name: quota, quota_of: {debug: pretrian}}"),
                    Catch::Contains("unknown job type \"pretrian\""));
}
