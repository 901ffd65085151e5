// Passes decide for most queued jobs of a long backlog from a brief (size, user, type) without reading
// the job's entry (QueueScheduler::decide_brief). The brief must change nothing: on random overloaded
// workloads every scheduler built on the pass skeleton emits the same decisions, round by round, with
// briefs on and off.
#include <catch2/catch.hpp>

#include <sstream>

#include "policies/scheduling/queue_scheduler.hpp"
#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;
using test::Driver;

namespace {

const std::vector<std::string> SCHEDULERS = {
    "{name: quota, quotas: {pretrain: 16}, quota_of: {debug: pretrain}, order: priority, backfill: easy, "
    "sched_interval: 60s, bf_interval: 30s, bf_max_job_test: 20}",
    "{name: quota, quotas: {pretrain: 16, sft: 8}, borrowing_limit: {eval: 4}}",
    "{name: quota, quotas: {pretrain: 16}, borrowing: false, order: fifo, backfill: none}",
    "{name: quota, quotas: {pretrain: 16}, reclaim: false, backfill: none, sched_interval: 60s, bf_interval: 30s}",
    "{name: quota, quotas: {pretrain: 16}, max_gpus_per_user: {eval: 4}}",
    "{name: priority, qos_of: {eval: sft}, max_jobs_per_user: {sft: 2}, user_max_gpus: 12, sched_interval: 60s, "
    "bf_interval: 30s}",
    "{name: quota, quotas: {pretrain: 16}, backfill: conservative, estimator: oracle}",
    "{name: priority, backfill: none, sched_interval: 60s, bf_interval: 30s, bf_max_job_user: 3}",
    "easy_backfill",
    "fifo",
    "{name: kube_quota, quotas: {pretrain: 16, eval: 8}}",
};

std::string show(const model::Decision& decision) {
  std::ostringstream out;
  std::visit(
      [&](const auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, model::StartJob>) {
          out << "start " << model::to_index(d.job);
          for (const auto& share : d.placement) {
            out << " " << model::to_index(share.node) << ":" << share.gpus;
          }
        } else if constexpr (std::is_same_v<D, model::PreemptJob>) {
          out << "preempt " << model::to_index(d.job);
        } else if constexpr (std::is_same_v<D, model::RejectJob>) {
          out << "reject " << model::to_index(d.job);
        } else if constexpr (std::is_same_v<D, model::NoteWait>) {
          out << "wait " << model::to_index(d.job) << " " << model::to_string(d.reason);
        } else {
          out << "wake " << d.time_s;
        }
      },
      decision);
  return out.str();
}

/// Every decision of a run, with the instant it was made at.
std::vector<std::string> decisions_of(const std::string& scheduler, std::uint64_t seed, bool briefs) {
  auto policy = test::make_scheduler(scheduler);
  auto* skeleton = dynamic_cast<policies::QueueScheduler*>(policy.get());
  REQUIRE(skeleton != nullptr);
  skeleton->use_briefs(briefs);
  Driver d(test::make_shape(4, 8, 2), std::move(policy), test::make_placement("pack"));
  d.preempt_delay_s = 5.0;
  std::vector<std::string> log;
  d.after_round = [&log](const Driver& driver) {
    for (const auto& decision : driver.last_decisions()) {
      log.push_back(std::to_string(driver.view().now_s()) + " " + show(decision));
    }
  };
  for (const auto& job : test::random_workload(seed, 300, 4, 8)) {
    d.add(job);
  }
  REQUIRE(d.run_to_end());
  return log;
}

} // namespace

TEST_CASE("policies::scheduling: deciding from briefs changes no decision", "[policies][property]") {
  for (const auto& scheduler : SCHEDULERS) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      INFO(scheduler << ", seed " << seed);
      auto with = decisions_of(scheduler, seed, true);
      auto without = decisions_of(scheduler, seed, false);
      REQUIRE(with.size() > 300); // the backlog is long: passes see the same jobs many times
      REQUIRE(with == without);
    }
  }
}

TEST_CASE("policies::scheduling: a job brief keeps size, user and type in eight bytes", "[policies]") {
  static_assert(sizeof(policies::JobBrief) == 8);
  REQUIRE_FALSE(policies::JobBrief{}.known());
  for (model::JobType type : model::ALL_JOB_TYPES) {
    for (std::uint32_t gpus : {1U, 8U, 1024U, (1U << 28) - 1}) {
      auto brief = policies::JobBrief::of(test::make_job(7, gpus, 0.0, 10.0, type, 4'000'000'000U));
      REQUIRE(brief);
      REQUIRE(brief->known());
      REQUIRE(brief->gpus() == gpus);
      REQUIRE(brief->type() == type);
      REQUIRE(model::to_index(brief->user()) == 4'000'000'000U);
    }
  }
  REQUIRE_FALSE(policies::JobBrief::of(test::make_job(7, 1U << 28, 0.0, 10.0)));
  REQUIRE_FALSE(policies::JobBrief::of(test::make_job(7, 0, 0.0, 10.0))); // CPU jobs are not in the GPU queue
  auto shared = test::make_job(7, 1, 0.0, 10.0);
  shared.gpu_milli = 500;
  REQUIRE_FALSE(policies::JobBrief::of(shared)); // a fractional job may fit a shared GPU: decided from its entry
}
