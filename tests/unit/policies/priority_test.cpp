#include <catch2/catch.hpp>

#include "policies/scheduling/multifactor_queue.hpp"
#include "policies/scheduling/priority_order.hpp"
#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;
using model::JobType;
using test::Driver;
using test::make_job;

TEST_CASE("policies::priority: the job class comes first", "[policies][priority]") {
  Driver d(test::make_shape(1, 8), test::make_scheduler("priority"));
  d.add(make_job(1, 8, 0, 100));
  d.add(make_job(2, 8, 1, 10, JobType::EVAL));
  d.add(make_job(3, 8, 2, 10, JobType::PRETRAIN)); // later, but a higher class
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(3).starts == std::vector<double>{100});
  REQUIRE(d.record(2).starts == std::vector<double>{110});
}

TEST_CASE("policies::priority: age can outweigh the class when weighted so", "[policies][priority]") {
  Driver d(test::make_shape(1, 8),
           test::make_scheduler("{name: priority, type_weight: 1, age_weight: 1000, fairshare_weight: 0, "
                                "max_age: 100s, recalc_interval: 1s}"));
  d.add(make_job(1, 8, 0, 200));
  d.add(make_job(2, 8, 0, 10, JobType::EVAL));       // waits 200 s: age factor 1 -> 1000.2
  d.add(make_job(3, 8, 190, 10, JobType::PRETRAIN)); // waits 10 s: 100 + 1
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(2).starts == std::vector<double>{200});
  REQUIRE(d.record(3).starts == std::vector<double>{210});
}

TEST_CASE("policies::priority: fair share favours the user who used less", "[policies][priority]") {
  Driver d(test::make_shape(1, 8), test::make_scheduler("priority"));
  d.add(make_job(1, 8, 0, 1000, JobType::EVAL, 0));
  d.add(make_job(2, 8, 500, 10, JobType::EVAL, 0)); // lower id, same submit time, heavy user
  d.add(make_job(3, 8, 500, 10, JobType::EVAL, 1)); // a user without usage
  REQUIRE(d.run_to_end());
  REQUIRE(d.record(3).starts == std::vector<double>{1000});
  REQUIRE(d.record(2).starts == std::vector<double>{1010});
}

TEST_CASE("policies::priority: the multifactor formula", "[policies][priority]") {
  policies::PriorityParams p;
  p.fairshare_half_life_s = 100.0;
  policies::PriorityOrder order(p);
  model::JobSpec eval = make_job(1, 4, 0, 10, JobType::EVAL, 0);
  // No usage yet: fair-share factor 1; age 0.
  REQUIRE(order.priority(eval, 0.0) == Approx(p.type_weight * 0.2 + p.fairshare_weight));
  // Half the max age waited.
  REQUIRE(order.priority(eval, p.max_age_s / 2) ==
          Approx(p.type_weight * 0.2 + p.age_weight * 0.5 + p.fairshare_weight));
  policies::RunningJob a;
  a.id = model::JobId{1};
  a.user = model::UserId{0};
  a.gpus = 4;
  a.milli = 4000;
  policies::RunningJob b = a;
  b.id = model::JobId{2};
  b.user = model::UserId{1};
  order.on_start(a, 0.0);
  order.on_start(b, 0.0);
  order.on_stop(b, 100.0); // user 1 used 4 GPUs for 100 s; user 0 keeps running
  // Two users, equal shares 1/2. Usage accrues with a 100 s half-life, so user 1's decays while user 0's grows.
  double u0 = order.fairshare_factor(model::UserId{0}, 300.0);
  double u1 = order.fairshare_factor(model::UserId{1}, 300.0);
  REQUIRE(u0 < u1);
  REQUIRE(u0 > 0.0);
  REQUIRE(u1 < 1.0);
  // Equal use gives both 2^-1.
  policies::PriorityOrder even(p);
  even.on_start(a, 0.0);
  even.on_start(b, 0.0);
  REQUIRE(even.fairshare_factor(model::UserId{0}, 50.0) == Approx(0.5));
  REQUIRE(even.fairshare_factor(model::UserId{1}, 50.0) == Approx(0.5));
}

TEST_CASE("policies::priority: the queue ranks by the integer sum of the factors at the last recalculation",
          "[policies][priority]") {
  policies::PriorityParams p; // type 100000, fair share 5000, age 5000 over 7 days: one age unit = 120.96 s
  policies::PriorityOrder order(p);
  policies::MultifactorQueue queue(order);
  model::JobSpec eval = make_job(1, 4, 0, 10, JobType::EVAL, 0);
  model::JobSpec sft = make_job(2, 4, 100, 10, JobType::SFT, 1);
  queue.add({}, eval);
  queue.add({}, sft);
  // At the priority time 0: class + full fair share (no usage yet), no age.
  REQUIRE(queue.priority_of(eval.id) == 20000 + 5000);
  REQUIRE(queue.priority_of(sft.id) == 60000 + 5000);
  // User 0 takes 8 GPUs from 0 s; after a recalculation at 1,000 s its fair-share term falls.
  policies::RunningJob running;
  running.id = model::JobId{9};
  running.user = model::UserId{0};
  running.gpus = 8;
  running.milli = 8000;
  order.on_start(running, 0.0);
  queue.recalc(1000.0);
  std::int64_t fs0 = order.fairshare_term(model::UserId{0}, 1000.0);
  REQUIRE(fs0 == std::llround(5000.0 * order.fairshare_factor(model::UserId{0}, 1000.0)));
  REQUIRE(fs0 < 5000);
  // Ages count unit boundaries: floor(1000 / 120.96) - floor(0) = 8, and floor(1000 / 120.96) - floor(100 /
  // 120.96) = 8.
  REQUIRE(queue.priority_of(eval.id) == 20000 + fs0 + 8);
  REQUIRE(queue.priority_of(sft.id) == 60000 + 5000 + 8);
  REQUIRE(queue.first_in_pass()->job == sft.id);
  // A job queued between recalculations is ranked at the priority time: submitted after it, age 0.
  model::JobSpec late = make_job(3, 4, 1500, 10, JobType::PRETRAIN, 2);
  queue.add({}, late);
  REQUIRE(queue.priority_of(late.id) == 100000 + 5000);
  REQUIRE(queue.first_in_pass()->job == late.id);
}
