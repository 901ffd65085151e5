#include <catch2/catch.hpp>

#include "sim/core/attempt_chain.hpp"
#include "sim/core/team_plan.hpp"

using namespace acme;

namespace {

model::JobSpec job(std::uint64_t id, std::uint32_t gpus, model::JobType type = model::JobType::PRETRAIN,
                   std::uint64_t run = 0, std::uint16_t attempt = 1, std::uint16_t cluster = 0) {
  model::JobSpec s;
  s.id = model::JobId{id};
  s.cluster = model::ClusterId{cluster};
  s.gpus = gpus;
  s.type = type;
  s.run = model::RunId{run};
  s.attempt = attempt;
  s.submit_time_s = 10.0 * static_cast<double>(id);
  if (attempt > 1) {
    s.resubmit_delay_s = 600.0; // after the previous attempt ends (sim/core/attempt_chain.hpp)
  }
  return s;
}

/// A plan of 16 GPUs for Pretrain and Debug jobs on cluster 0; cluster 1 has none.
core::TeamPlan plan16() {
  config::TeamPlanConfig c;
  c.gpus = 16;
  c.types = {model::JobType::PRETRAIN, model::JobType::DEBUG};
  return core::TeamPlan({c, config::TeamPlanConfig{}});
}

/// Submits `spec` unless the plan holds it (as the event loop does).
bool offer(core::TeamPlan& plan, model::JobSpec spec) {
  if (plan.hold(spec)) {
    return false;
  }
  plan.on_submitted(spec);
  return true;
}

} // namespace

TEST_CASE("core::team_plan: a team's job waits until its budget has room", "[core][team_plan]") {
  core::TeamPlan plan = plan16();
  REQUIRE(offer(plan, job(1, 8)));
  REQUIRE(offer(plan, job(2, 8, model::JobType::DEBUG)));
  CHECK(plan.under_way_gpus(model::ClusterId{0}) == 16);
  SECTION("other types, other clusters and CPU jobs go in whatever the budget") {
    CHECK(offer(plan, job(3, 8, model::JobType::SFT)));
    CHECK(offer(plan, job(4, 8, model::JobType::PRETRAIN, 0, 1, 1)));
    CHECK(offer(plan, job(5, 0, model::JobType::DEBUG)));
    CHECK(plan.under_way_gpus(model::ClusterId{0}) == 16);
    CHECK(plan.empty());
    CHECK(plan.hold_times_s(0) == std::vector<double>{}); // nothing was held
    CHECK_FALSE(plan.hold_times_s(1).has_value());        // no plan on cluster 1
  }
  SECTION("held jobs go in in order, at the end that makes room, counted at once") {
    CHECK_FALSE(offer(plan, job(3, 16)));
    CHECK_FALSE(offer(plan, job(4, 4, model::JobType::DEBUG))); // fits beside job 1, but waits behind job 3
    CHECK(std::isinf(plan.next_time_s()));
    plan.on_ended(model::JobId{1}, 500.0);
    CHECK(plan.take_due().empty()); // job 2's 8 GPUs and job 3's 16 exceed 16
    plan.on_ended(model::JobId{2}, 700.0);
    CHECK(plan.next_time_s() == 700.0);
    auto due = plan.take_due();
    REQUIRE(due.size() == 1); // job 3 takes the whole budget: job 4 still waits
    CHECK(due[0].id == model::JobId{3});
    CHECK(due[0].submit_time_s == 700.0);
    plan.on_submitted(due[0]); // counted once
    CHECK(plan.under_way_gpus(model::ClusterId{0}) == 16);
    plan.on_ended(model::JobId{3}, 900.0);
    due = plan.take_due();
    REQUIRE(due.size() == 1);
    CHECK(due[0].id == model::JobId{4});
    CHECK(plan.empty());
    // Held from their submissions (30 s, 40 s) to the ends that made room (700 s, 900 s).
    CHECK(plan.hold_times_s(0) == std::vector<double>{670.0, 860.0});
  }
  SECTION("a job wider than the budget goes in alone") {
    CHECK_FALSE(offer(plan, job(3, 64)));
    plan.on_ended(model::JobId{1}, 100.0);
    plan.on_ended(model::JobId{2}, 200.0);
    auto due = plan.take_due();
    REQUIRE(due.size() == 1);
    CHECK(due[0].id == model::JobId{3});
  }
}

TEST_CASE("core::team_plan: a run's later attempts follow its first", "[core][team_plan]") {
  core::TeamPlan plan = plan16();
  core::AttemptChain chain;
  REQUIRE(offer(plan, job(1, 16)));
  SECTION("an attempt of a run under way is not planned: the chain orders it") {
    model::JobSpec first = job(2, 8, model::JobType::PRETRAIN, 7, 1);
    CHECK_FALSE(offer(plan, first)); // held: the budget is full
    model::JobSpec second = job(3, 8, model::JobType::PRETRAIN, 7, 2);
    CHECK(plan.hold(second)); // its run's first attempt is held: it waits with it
    plan.on_ended(model::JobId{1}, 300.0);
    auto due = plan.take_due();
    REQUIRE(due.size() == 2);
    CHECK(due[0].id == model::JobId{2});
    CHECK(due[1].id == model::JobId{3});
    chain.on_submitted(due[0]);
    CHECK(chain.hold(due[1])); // behind the first attempt, as the event loop hands it to the chain
    model::JobSpec third = job(4, 8, model::JobType::PRETRAIN, 7, 3);
    CHECK_FALSE(plan.hold(third)); // the run is under way now
  }
  SECTION("runs are told apart by cluster") {
    model::JobSpec held = job(2, 8, model::JobType::PRETRAIN, 7, 1);
    CHECK_FALSE(offer(plan, held));
    model::JobSpec other = job(3, 8, model::JobType::PRETRAIN, 7, 2, 1); // run 7 of cluster 1
    CHECK_FALSE(plan.hold(other));
  }
}
