// failures.repair: escalation to a manual repair, and repairs that return a node with its fault.
#include <catch2/catch.hpp>

#include "tests/unit/core/failure_bench.hpp"

using namespace acme;
using test::Bench;
using test::REPAIR_S;
using test::two_categories;

namespace {
constexpr double MANUAL_S = 7200.0;
const model::ClusterId C0{0};

config::FailureConfig with_repair(double escalate_share, double fix_share) {
  config::FailureConfig config = two_categories(true);
  config.repair.escalate_share = escalate_share;
  config.repair.manual = model::Distribution::fixed(MANUAL_S);
  config.repair.fix_share = fix_share;
  return config;
}
} // namespace

TEST_CASE("core::repair: an escalated repair adds the manual time to the automatic one", "[core][failures]") {
  Bench b(with_repair(1.0, 1.0));
  b.failures.start({});
  b.timer.set_now(100.0);
  b.failures.on(core::TracedFailure{C0, 1, 0, -1.0}); // repair drawn: automatic 1 h, then manual 2 h
  CHECK(b.timer.last<core::NodeRepaired>().first == Approx(100.0 + REPAIR_S + MANUAL_S));
  CHECK(b.view().out_of_service(model::NodeId{1}) == model::OutOfService::MANUAL_REPAIR); // policies see why
  b.failures.on(core::TracedFailure{C0, 2, 0, 50.0}); // a trace's own repair time is kept as it is
  CHECK(b.timer.last<core::NodeRepaired>().first == Approx(150.0));
  CHECK(b.view().out_of_service(model::NodeId{2}) == model::OutOfService::REPAIR);
  CHECK(b.failures.node_records(200.0).at(1).manual_repairs == 1);
  CHECK(b.failures.node_records(200.0).at(2).manual_repairs == 0);

  Bench automatic(with_repair(0.0, 1.0));
  automatic.failures.start({});
  automatic.timer.set_now(100.0);
  automatic.failures.on(core::TracedFailure{C0, 1, 0, -1.0});
  CHECK(automatic.timer.last<core::NodeRepaired>().first == Approx(100.0 + REPAIR_S));
}

TEST_CASE("core::repair: an unfixed node comes back with its fault, found by the next job to land there",
          "[core][failures]") {
  Bench b(with_repair(0.0, 0.0)); // no repair fixes
  b.failures.start({});
  std::size_t draws = b.timer.count<core::NodeFailed>();
  b.timer.set_now(100.0);
  b.failures.on(core::TracedFailure{C0, 2, 1, -1.0}); // nvlink
  auto [repaired_at, repaired] = b.timer.last<core::NodeRepaired>();
  b.timer.set_now(repaired_at);
  b.failures.on(repaired);
  CHECK(b.view().is_up(model::NodeId{2})); // in service again, as far as anyone can tell
  CHECK(b.hooks.calls.back() == "repaired 2");
  CHECK(b.timer.count<core::NodeFailed>() == draws); // no fresh failure process: it still has its fault
  core::FaultCounts counts = b.failures.fault_counts(C0);
  CHECK(counts.repairs == 1);
  CHECK(counts.unfixed == 1);
  CHECK(counts.struck == 1);
  CHECK(b.failures.has_latent_faults());

  b.timer.set_now(repaired_at + 500.0);
  b.failures.job_lands(C0, 2);
  auto [found_at, found] = b.timer.last<core::TracedFailure>();
  CHECK(found_at == repaired_at + 500.0);
  CHECK(found.category == 1); // the same fault
  b.failures.on(found);
  CHECK(b.hooks.calls.back() == "node 2 cat 1"); // the job that landed fails at start
  CHECK_FALSE(b.view().is_up(model::NodeId{2}));
  CHECK(b.failures.node_records(found_at).at(2).unfixed == 1);
}

TEST_CASE("core::repair: health checks run for unfixed repairs even without latent idle faults", "[core][failures]") {
  config::FailureConfig config = with_repair(0.0, 0.5);
  config.health_check = {3600.0, 60.0, 1.0};
  Bench b(config);
  b.failures.start({});
  CHECK(b.timer.count<core::HealthCheck>() == 1);

  config.repair.fix_share = 1.0; // nothing can be latent: no checks, nothing found at start
  Bench always_fixed(config);
  always_fixed.failures.start({});
  CHECK(always_fixed.timer.count<core::HealthCheck>() == 0);
  CHECK_FALSE(always_fixed.failures.has_latent_faults());
}
