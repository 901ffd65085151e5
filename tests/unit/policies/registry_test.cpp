// Every registered scheduling and placement policy: built from the registry with its defaults and with
// parameters; unknown names and keys fail with located, helpful messages.
#include <catch2/catch.hpp>

#include <algorithm>

#include "policies/builtin.hpp"
#include "sim/model/error.hpp"
#include "tests/unit/error_of.hpp"
#include "tests/unit/policies/policy_driver.hpp"

using acme::ConfigError;
using acme::test::error_of;
using acme::test::make_placement;
using acme::test::make_scheduler;
using Catch::Matchers::Contains;

TEST_CASE("policies::registry: every scheduler and placement is registered and constructible", "[policies][registry]") {
  auto registries = acme::policies::make_builtin_registries();
  // The built-in names stay registered; a new policy adds to them without editing this list.
  auto has = [](const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  for (const auto* name :
       {"conservative_backfill", "easy_backfill", "fifo", "kube_quota", "las", "priority", "quota", "sjf"}) {
    INFO(name);
    CHECK(has(registries.schedulers.names(), name));
  }
  for (const auto* name : {"first_fit", "pack", "random", "topology"}) {
    INFO(name);
    CHECK(has(registries.placements.names(), name));
  }
  for (const auto& name : registries.schedulers.names()) {
    INFO(name);
    REQUIRE(make_scheduler(name) != nullptr);
    REQUIRE(make_scheduler("{name: " + name + "}") != nullptr);
    const auto& entry = registries.schedulers.entries().at(name);
    REQUIRE_FALSE(entry.summary.empty());
    for (const auto& doc : entry.params) {
      REQUIRE_FALSE(doc.description.empty());
      REQUIRE_FALSE(doc.default_value.empty());
    }
  }
  for (const auto& name : registries.placements.names()) {
    INFO(name);
    REQUIRE(make_placement(name) != nullptr);
  }
}

TEST_CASE("policies::registry: parameters are accepted with their documented names", "[policies][registry]") {
  REQUIRE(make_scheduler("{name: easy_backfill, queue_depth: 50, estimator: oracle}") != nullptr);
  REQUIRE(make_scheduler("{name: conservative_backfill, estimator: type_user, estimate_default: 30min}") != nullptr);
  REQUIRE(make_scheduler("{name: sjf, estimator: requested}") != nullptr);
  REQUIRE(make_scheduler("{name: priority, type_weight: 10, age_weight: 1, fairshare_weight: 2, "
                         "type_factor: {eval: 0.1}, max_age: 3d, fairshare_half_life: 1d, recalc_interval: 1min, "
                         "backfill: none}") != nullptr);
  REQUIRE(make_scheduler("{name: quota, quotas: {pretrain: 1800}, borrowing: false, reclaim: false, order: fifo, "
                         "backfill: easy}") != nullptr);
  REQUIRE(make_scheduler("{name: quota, group_by: user, user_quota: 64}") != nullptr);
  REQUIRE(make_scheduler("{name: las, queue_thresholds: [3250, 36000], starvation_knob: 0, preemption: false}") !=
          nullptr);
  REQUIRE(make_scheduler("{name: kube_quota, quotas: {pretrain: 16, eval: 8}, queueing: strict_fifo}") != nullptr);
}

TEST_CASE("policies::registry: an unknown name lists the names and suggests the closest", "[policies][registry]") {
  REQUIRE(error_of([] { make_scheduler("fifoo"); }) ==
          "t.yaml:1:12: scheduler: unknown scheduler \"fifoo\"; expected one of: conservative_backfill, "
          "easy_backfill, fifo, kube_quota, las, priority, quota, sjf (did you mean \"fifo\"?)");
  REQUIRE_THAT(error_of([] { make_scheduler("{name: easy_backfil}"); }),
               Contains("scheduler.name: unknown scheduler \"easy_backfil\"") &&
                   Contains("(did you mean \"easy_backfill\"?)"));
  REQUIRE_THAT(error_of([] { make_placement("topolgy"); }),
               Contains("unknown placement \"topolgy\"; expected one of: first_fit, pack, random, topology") &&
                   Contains("(did you mean \"topology\"?)"));
}

TEST_CASE("policies::registry: unknown or bad parameters fail with their location", "[policies][registry]") {
  REQUIRE(error_of([] { make_scheduler("{name: easy_backfill, queue_dept: 5}"); }) ==
          "t.yaml:1:34: scheduler.queue_dept: unknown key \"queue_dept\"; expected one of: name, queue_depth, "
          "estimator, estimate_default (did you mean \"queue_depth\"?)");
  REQUIRE_THAT(error_of([] { make_scheduler("{name: sjf, estimator: orcale}"); }),
               Contains("t.yaml:1:35: scheduler.estimator: unknown estimator \"orcale\"; expected one of: oracle, "
                        "requested, type_user"));
  REQUIRE_THAT(error_of([] { make_scheduler("{name: priority, backfill: eazy}"); }),
               Contains("scheduler.backfill: unknown backfill \"eazy\"; expected one of: easy, conservative, none"));
  REQUIRE_THAT(error_of([] { make_scheduler("{name: quota, order: fifo, age_weight: 3}"); }),
               Contains("scheduler.age_weight: priority parameters need order: priority"));
  REQUIRE_THAT(error_of([] { make_scheduler("{name: quota, quotas: {pretrian: 8}}"); }),
               Contains("scheduler.quotas.pretrian: unknown key \"pretrian\"") &&
                   Contains("(did you mean \"pretrain\"?)"));
  REQUIRE_THAT(error_of([] { make_scheduler("{name: kube_quota, group_by: user, quotas: {eval: 8}}"); }),
               Contains("per-user quotas by name are not supported"));
  REQUIRE_THAT(error_of([] { make_scheduler("{name: las, queue_thresholds: [100, 50]}"); }),
               Contains("scheduler.queue_thresholds[1]: expected positive thresholds in increasing order"));
  REQUIRE_THAT(error_of([] { make_scheduler("{name: easy_backfill, queue_depth: 0}"); }),
               Contains("scheduler.queue_depth: expected a positive integer"));
  REQUIRE_THAT(error_of([] { make_placement("{name: random, seed: 3}"); }),
               Contains("placement.seed: unknown key \"seed\"; expected one of: name"));
}
