// Every scheduler x placement combination on random small workloads: no over-allocation, every job
// starts (once per attempt) no earlier than its submission and after its preemptions, and all finish.
#include <catch2/catch.hpp>

#include <algorithm>

#include "policies/builtin.hpp"
#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;
using test::Driver;

namespace {
const std::vector<std::string> SCHEDULERS = {
    "fifo",
    "{name: easy_backfill, estimator: oracle}",
    "easy_backfill",
    "{name: conservative_backfill, estimator: oracle}",
    "{name: conservative_backfill, estimator: type_user, queue_depth: 5}",
    "sjf",
    "priority",
    "{name: priority, backfill: none, recalc_interval: 10s}",
    "{name: quota, quotas: {pretrain: 16, sft: 8}}",
    "{name: quota, quotas: {pretrain: 16}, borrowing: false, order: fifo, backfill: none}",
    "{name: quota, quotas: {pretrain: 16}, backfill: conservative, estimator: oracle}",
    "{name: priority, backfill: conservative, sched_interval: 60s, bf_interval: 30s, bf_window: 10min}",
    "{name: las, queue_thresholds: [500, 3000], starvation_knob: 2}",
    "{name: kube_quota, quotas: {pretrain: 16, eval: 8}}",
    "{name: kube_quota, group_by: user, user_quota: 8, queueing: strict_fifo}",
};
const std::vector<std::string> PLACEMENTS = {"first_fit", "pack", "topology", "random"};

/// The registered name a spec above names: the bare name, or the `name:` of its mapping form.
std::string spec_name(const std::string& spec) {
  if (spec.front() != '{') {
    return spec;
  }
  auto from = spec.find("name: ") + 6;
  return spec.substr(from, spec.find_first_of(",}", from) - from);
}

bool covers(const std::vector<std::string>& specs, const std::string& name) {
  return std::any_of(specs.begin(), specs.end(), [&](const std::string& s) { return spec_name(s) == name; });
}

void check_round(const Driver& d) {
  const auto& view = d.view();
  std::uint64_t held = 0;
  for (const auto& [id, e] : view.jobs()) {
    for (const auto& share : e.placement) {
      held += share.gpus;
    }
  }
  REQUIRE(held == view.busy_gpus());
  REQUIRE(view.busy_gpus() <= view.total_gpus());
  for (std::uint32_t n = 0; n < view.shape().nodes; ++n) {
    REQUIRE(view.free_gpus(model::NodeId{n}) <= view.gpus_of(model::NodeId{n}));
  }
}
} // namespace

TEST_CASE("policies::scheduling: the property test below covers every registered scheduler and placement",
          "[policies][property]") {
  auto registries = policies::make_builtin_registries();
  for (const auto& name : registries.schedulers.names()) {
    INFO("scheduler " << name << " is registered but missing from SCHEDULERS");
    CHECK(covers(SCHEDULERS, name));
  }
  for (const auto& name : registries.placements.names()) {
    INFO("placement " << name << " is registered but missing from PLACEMENTS");
    CHECK(covers(PLACEMENTS, name));
  }
}

TEST_CASE("policies::scheduling: invariants hold for every scheduler and placement on random workloads",
          "[policies][property]") {
  for (const auto& scheduler : SCHEDULERS) {
    for (const auto& placement : PLACEMENTS) {
      for (double delay : {0.0, 7.0}) {
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
          INFO(scheduler << " + " << placement << ", preemption takes " << delay << " s, seed " << seed);
          Driver d(test::make_shape(4, 8, 2), test::make_scheduler(scheduler), test::make_placement(placement));
          d.preempt_delay_s = delay;
          d.after_round = check_round;
          auto jobs = test::random_workload(seed, 50, 4, 8);
          for (const auto& job : jobs) {
            d.add(job);
          }
          bool done = d.run_to_end();
          if (!done) {
            for (const auto& [id, e] : d.view().jobs()) {
              UNSCOPED_INFO("left: job " << model::to_index(id) << " " << e.spec.gpus << " GPUs, type "
                                         << static_cast<int>(e.spec.type) << ", phase " << static_cast<int>(e.phase)
                                         << ", now " << d.view().now_s());
            }
          }
          REQUIRE(done);
          for (const auto& job : jobs) {
            const auto& r = d.records().at(job.id);
            if (r.rejected) {
              REQUIRE(r.starts.empty());
              continue;
            }
            REQUIRE(r.starts.size() == r.preemptions + 1);
            REQUIRE(r.starts.front() >= job.submit_time_s);
            REQUIRE(r.end_s >= r.starts.back());
            REQUIRE(std::is_sorted(r.starts.begin(), r.starts.end()));
          }
        }
      }
    }
  }
}
