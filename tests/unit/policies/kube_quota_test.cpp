#include <catch2/catch.hpp>

#include "policies/scheduling/kube_quota.hpp"
#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;
using model::JobType;
using test::Driver;
using test::make_job;

TEST_CASE("policies::kube_quota: admits whole jobs within each queue's quota", "[policies][kube_quota]") {
  Driver d(test::make_shape(3, 8),
           test::make_scheduler("{name: kube_quota, quotas: {pretrain: 16, eval: 8}, borrowing: false}"));
  for (std::uint64_t id = 1; id <= 4; ++id) {
    d.add(make_job(id, 4, 0, 100, JobType::EVAL));
  }
  d.add(make_job(5, 16, 0, 100, JobType::PRETRAIN));
  d.add(make_job(6, 24, 0, 100, JobType::PRETRAIN)); // more than any quota, no borrowing: never admitted
  d.add(make_job(7, 4, 0, 100, JobType::SFT));       // no quota, nothing unreserved
  d.run_until(0);
  REQUIRE(d.started_at(0) == std::vector<std::uint64_t>{1, 2, 5});
  REQUIRE(d.record(5).placements.front() ==
          model::Placement{model::NodeShare{model::NodeId{1}, 8}, model::NodeShare{model::NodeId{2}, 8}});
  REQUIRE(d.record(6).rejected);
  REQUIRE(d.record(7).rejected);
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(3).starts == std::vector<double>{100});
}

TEST_CASE("policies::kube_quota: borrowing and reclaim", "[policies][kube_quota]") {
  Driver d(test::make_shape(3, 8), test::make_scheduler("{name: kube_quota, quotas: {pretrain: 16, eval: 8}}"));
  for (std::uint64_t id = 1; id <= 4; ++id) {
    d.add(make_job(id, 4, 0, 1000, JobType::EVAL)); // jobs 3 and 4 borrow pretraining's idle quota
  }
  d.add(make_job(5, 16, 10, 100, JobType::PRETRAIN));
  d.run_until(0);
  REQUIRE(d.started_at(0) == std::vector<std::uint64_t>{1, 2, 3, 4});
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(5).starts == std::vector<double>{10});
  REQUIRE(d.record(3).preemptions == 1);
  REQUIRE(d.record(4).preemptions == 1);
  REQUIRE(d.record(1).preemptions == 0);
  REQUIRE(d.record(2).preemptions == 0);
}

TEST_CASE("policies::kube_quota: strict FIFO blocks a queue behind its head, best effort does not",
          "[policies][kube_quota]") {
  bool strict = GENERATE(true, false);
  Driver d(test::make_shape(1, 8), test::make_scheduler(std::string("{name: kube_quota, queueing: ") +
                                                        (strict ? "strict_fifo" : "best_effort_fifo") + "}"));
  d.add(make_job(1, 4, 0, 100, JobType::EVAL));
  d.add(make_job(2, 8, 1, 10, JobType::EVAL));
  d.add(make_job(3, 2, 2, 10, JobType::EVAL));
  d.run_until(2);
  REQUIRE(d.record(3).starts.empty() == strict);
}

TEST_CASE("policies::kube_quota: the oldest queue head goes first", "[policies][kube_quota]") {
  Driver d(test::make_shape(1, 8), test::make_scheduler("kube_quota"));
  d.add(make_job(1, 8, 0, 100, JobType::SFT));
  d.add(make_job(2, 8, 1, 10, JobType::EVAL));
  d.add(make_job(3, 8, 2, 10, JobType::PRETRAIN));
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(2).starts == std::vector<double>{100});
  REQUIRE(d.record(3).starts == std::vector<double>{110});
}
