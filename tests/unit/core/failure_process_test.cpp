#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

#include "sim/core/failure_process.hpp"
#include "tests/unit/core/failure_bench.hpp"

using namespace acme;
using test::Bench;
using test::FakeIo;
using test::FakeTimer;
using test::four_nodes;
using test::LEAF_REPAIR_S;
using test::REPAIR_S;
using test::two_categories;

TEST_CASE("core::failure_process: a node failure takes the node down until its repair, then it fails again",
          "[core][failures]") {
  Bench b(two_categories(true));
  b.failures.start({});
  REQUIRE(b.timer.count<core::NodeFailed>() == 4); // one draw per node, no leaf failures (rate 0)
  REQUIRE(b.timer.count<core::LeafFailed>() == 0);
  auto first = b.timer.pop();
  auto failed = std::get<core::NodeFailed>(first.event);
  CHECK(first.time_s > 0.0);
  b.failures.on(failed);
  std::uint32_t n = failed.node;
  REQUIRE(b.hooks.calls.size() == 1); // its jobs fail first, then it goes down
  CHECK(b.hooks.calls[0].rfind("node " + std::to_string(n) + " cat ", 0) == 0);
  CHECK_FALSE(b.view().is_up(model::NodeId{n}));
  CHECK(b.io.power == std::vector<std::pair<std::uint32_t, bool>>{{n, false}});
  REQUIRE(b.table.clusters[0].pending.size() == 1);
  CHECK(b.table.clusters[0].pending[0] == model::Event{model::NodeDown{model::NodeId{n}}});
  auto [repaired_at, repaired] = b.timer.last<core::NodeRepaired>();
  CHECK(repaired_at == Approx(first.time_s + REPAIR_S));

  b.failures.on(failed); // the same draw again: stale since the failure
  CHECK(b.hooks.calls.size() == 1);

  b.timer.set_now(repaired_at);
  std::size_t draws = b.timer.count<core::NodeFailed>();
  b.failures.on(repaired);
  CHECK(b.view().is_up(model::NodeId{n}));
  CHECK(b.hooks.calls.back() == "repaired " + std::to_string(n));
  REQUIRE(b.timer.count<core::NodeFailed>() == draws + 1); // its failure process restarts
  auto [next_at, next] = b.timer.last<core::NodeFailed>();
  CHECK(next.node == n);
  CHECK(next_at > repaired_at);
  CHECK(next.generation == failed.generation + 2);
}

TEST_CASE("core::failure_process: categories in proportion to their rates", "[core][failures]") {
  Bench b(two_categories(true));
  b.failures.start({});
  constexpr int DRAWS = 4000;
  core::NodeFailed next{model::ClusterId{0}, 0, 1}; // node 0's first draw
  for (int i = 0; i < DRAWS; ++i) {
    b.failures.on(next);                                       // fails node 0 with a drawn category
    b.failures.on(core::NodeRepaired{model::ClusterId{0}, 0}); // back, and its next draw
    next = b.timer.last<core::NodeFailed>().second;
  }
  int nvlink = 0;
  for (const auto& call : b.hooks.calls) {
    nvlink += call == "node 0 cat 1" ? 1 : 0;
  }
  REQUIRE(b.hooks.calls.size() == 2 * DRAWS);          // each failure, each repair
  CHECK(nvlink == Approx(0.75 * DRAWS).epsilon(0.05)); // 30 of 40 failures per node-day are nvlink
}

TEST_CASE("core::failure_process: a leaf switch outage takes its nodes down; their own failures wait",
          "[core][failures]") {
  config::FailureConfig c = two_categories(true);
  c.leaf_rate_per_switch_day = 1.0;
  Bench b(std::move(c));
  b.failures.start({});
  REQUIRE(b.timer.count<core::LeafFailed>() == 2);
  b.failures.on(core::LeafFailed{model::ClusterId{0}, 1});
  CHECK(b.hooks.calls == std::vector<std::string>{"switch 2 cat 2", "switch 3 cat 2"}); // category: after the nodes'
  CHECK_FALSE(b.view().is_up(model::NodeId{2}));
  CHECK_FALSE(b.view().is_up(model::NodeId{3}));
  CHECK(b.view().is_up(model::NodeId{1}));
  auto [repair_at, repair] = b.timer.last<core::LeafRepaired>();
  CHECK(repair_at == LEAF_REPAIR_S);

  // Node 2's own failure fires while its switch is down: no failure, the process draws again.
  core::NodeFailed node2{};
  for (const auto& s : b.timer.scheduled) {
    if (const auto* f = std::get_if<core::NodeFailed>(&s.event); f != nullptr && f->node == 2) {
      node2 = *f;
    }
  }
  std::size_t draws = b.timer.count<core::NodeFailed>();
  b.failures.on(node2);
  CHECK(b.hooks.calls.size() == 2);
  CHECK(b.timer.count<core::NodeFailed>() == draws + 1);

  b.timer.set_now(repair_at);
  b.failures.on(repair);
  CHECK(b.view().is_up(model::NodeId{2}));
  CHECK(b.view().is_up(model::NodeId{3}));
  CHECK(b.timer.count<core::LeafFailed>() == 3); // the switch's next failure
}

TEST_CASE("core::failure_process: a traced failure of a node already down is ignored", "[core][failures]") {
  Bench b(two_categories(false));
  b.failures.start({core::FailureTraceRow{50.0, model::ClusterId{0}, 1, 1}, {60.0, model::ClusterId{0}, 1, 0}});
  REQUIRE(b.timer.count<core::NodeFailed>() == 0); // random failures disabled: the trace only
  REQUIRE(b.timer.count<core::TracedFailure>() == 2);
  auto first = b.timer.pop();
  b.failures.on(std::get<core::TracedFailure>(first.event));
  auto second = b.timer.pop();
  b.failures.on(std::get<core::TracedFailure>(second.event));
  CHECK(b.hooks.calls == std::vector<std::string>{"node 1 cat 1"});
  CHECK(b.timer.last<core::NodeRepaired>().first == 50.0 + REPAIR_S);
}

TEST_CASE("core::node_availability: a node is back only when every reason to be down is gone", "[core][failures]") {
  FakeIo io;
  core::JobTable table = test::one_cluster(2);
  core::NodeAvailability nodes(table, io);
  model::ClusterId c{0};
  nodes.down(c, 1, model::OutOfService::SWITCH, "switch"); // its switch
  nodes.down(c, 1, model::OutOfService::REPAIR, "gpu");    // and its own failure
  CHECK(nodes.reasons(c, 1) == 2);
  const model::ClusterView& view = table.clusters[0].view;
  CHECK(view.out_of_service(model::NodeId{1}) == (model::OutOfService::SWITCH | model::OutOfService::REPAIR));
  nodes.up(c, 1, model::OutOfService::SWITCH, "test");
  CHECK(nodes.is_down(c, 1));
  CHECK(view.out_of_service(model::NodeId{1}) == model::OutOfService::REPAIR); // the reason still holding it
  nodes.relabel(c, 1, model::OutOfService::FAILED, model::OutOfService::QUARANTINE);
  CHECK(view.out_of_service(model::NodeId{1}) == model::OutOfService::QUARANTINE);
  CHECK(view.out_of_service(model::NodeId{0}) == 0);
  CHECK_FALSE(table.clusters[0].view.is_up(model::NodeId{1}));
  nodes.up(c, 1, model::OutOfService::FAILED, "test");
  CHECK_FALSE(nodes.is_down(c, 1));
  CHECK(view.out_of_service(model::NodeId{1}) == 0);
  CHECK(table.clusters[0].view.is_up(model::NodeId{1}));
  CHECK(table.clusters[0].pending ==
        std::vector<model::Event>{model::NodeDown{model::NodeId{1}}, model::NodeUp{model::NodeId{1}}});
  CHECK(io.power == std::vector<std::pair<std::uint32_t, bool>>{{1, false}, {1, true}});
}

namespace {

/// The first failure time drawn for each node of a started process.
std::vector<double> first_draws(const FakeTimer& timer) {
  std::vector<double> at(4, 0.0);
  for (const auto& s : timer.scheduled) {
    if (const auto* e = std::get_if<core::NodeFailed>(&s.event)) {
      at[e->node] = s.time_s;
    }
  }
  return at;
}

} // namespace

TEST_CASE("core::failure_process: a lemon node fails at its factor times the base rate", "[core][failures]") {
  Bench plain(two_categories(true));
  plain.failures.start({});
  Bench lemon(two_categories(true));
  constexpr double FACTOR = 8.0;
  lemon.failures.set_node_factors({{1.0, FACTOR, 1.0, 1.0}});
  lemon.failures.start({});
  CHECK(lemon.failures.node_factor(model::ClusterId{0}, 1) == FACTOR);
  std::vector<double> a = first_draws(plain.timer);
  std::vector<double> b = first_draws(lemon.timer);
  // The same uniform draws: an exponential at k times the rate comes k times sooner, the others alike.
  CHECK(b[0] == a[0]);
  CHECK(b[1] == Approx(a[1] / FACTOR).epsilon(1e-12));
  CHECK(b[2] == a[2]);
  CHECK(b[3] == a[3]);
}

TEST_CASE("core::node_factors: round(share x nodes) distinct lemons, drawn from the seed alone", "[core][failures]") {
  config::NodeFactorConfig c{0.25, 10.0};
  model::Rng rng1(5, "engine/node_factor");
  model::Rng rng2(5, "engine/node_factor");
  core::NodeFactors f = core::draw_node_factors(c, {10, 4}, rng1);
  REQUIRE(f.size() == 2);
  CHECK(std::count(f[0].begin(), f[0].end(), 10.0) == 3); // round(2.5) = 3 (half away from zero)
  CHECK(std::count(f[0].begin(), f[0].end(), 1.0) == 7);
  CHECK(std::count(f[1].begin(), f[1].end(), 10.0) == 1);
  CHECK(core::draw_node_factors(c, {10, 4}, rng2) == f);
  CHECK(c.mean_factor() == Approx(0.75 + 0.25 * 10.0));
  model::Rng rng3(5);
  CHECK(core::draw_node_factors(config::NodeFactorConfig{}, {10}, rng3).empty()); // no mixture: no draws
}

TEST_CASE("core::failure_process: with during_restart off, a restarting job's node does not fail", "[core][failures]") {
  config::FailureConfig c = two_categories(true);
  c.during_restart = false;
  Bench b(c);
  b.failures.start({});
  b.hooks.restarting = 2;
  core::NodeFailed first{model::ClusterId{0}, 2, 1}; // node 2's first draw
  b.timer.set_now(50.0);
  std::size_t draws = b.timer.count<core::NodeFailed>();
  b.failures.on(first);
  CHECK(b.hooks.calls.empty()); // its job is restarting: the draw is dropped ...
  CHECK(b.view().is_up(model::NodeId{2}));
  REQUIRE(b.timer.count<core::NodeFailed>() == draws + 1); // ... and redrawn from now (memoryless)
  auto [next_at, next] = b.timer.last<core::NodeFailed>();
  CHECK(next.node == 2);
  CHECK(next_at > 50.0);
  b.hooks.restarting = std::numeric_limits<std::uint32_t>::max(); // computing again: the next draw strikes
  b.timer.set_now(next_at);
  b.failures.on(next);
  CHECK(b.hooks.calls.size() == 1);
}

TEST_CASE("core::failure_process: a node failing twice within the window is quarantined, then released",
          "[core][failures]") {
  config::FailureConfig c = two_categories(false); // traced failures only: the times are the test's
  Bench b(c);
  b.failures.set_quarantine(config::QuarantineConfig{2, 1000.0, 5000.0});
  b.failures.start({});
  model::ClusterId cl{0};
  b.timer.set_now(100.0);
  b.failures.on(core::TracedFailure{cl, 1, 0, 50.0}); // down 100-150
  b.timer.set_now(150.0);
  b.failures.on(core::NodeRepaired{cl, 1});
  CHECK(b.view().is_up(model::NodeId{1})); // one failure: back in service
  b.timer.set_now(900.0);
  b.failures.on(core::TracedFailure{cl, 1, 1, 50.0}); // the second within 1,000 s
  b.timer.set_now(950.0);
  b.failures.on(core::NodeRepaired{cl, 1});
  CHECK_FALSE(b.view().is_up(model::NodeId{1})); // quarantined instead of returned
  auto [release_at, release] = b.timer.last<core::NodeRepaired>();
  CHECK(release_at == 950.0 + 5000.0);
  CHECK(release.quarantine_ends);
  b.timer.set_now(2000.0);
  b.failures.on(core::TracedFailure{cl, 1, 0, 50.0}); // strikes the quarantined node: avoided
  b.timer.set_now(release_at);
  b.failures.on(release);
  CHECK(b.view().is_up(model::NodeId{1}));
  auto records = b.failures.node_records(6000.0);
  const metrics::NodeRecord& r = records.at(1);
  CHECK(r.failures == std::vector<std::uint32_t>{1, 1, 0}); // gpu, nvlink, switch
  CHECK(r.repairs == 2);
  CHECK(r.down_s == 100.0);
  CHECK(r.quarantines == 1);
  CHECK(r.quarantine_s == 5000.0);
  CHECK(r.failures_avoided == 1);
  CHECK(records.at(0).failures == std::vector<std::uint32_t>{0, 0, 0});
}

TEST_CASE("core::failure_process: failures outside the window do not quarantine", "[core][failures]") {
  Bench b(two_categories(false));
  b.failures.set_quarantine(config::QuarantineConfig{2, 1000.0, 5000.0});
  b.failures.start({});
  model::ClusterId cl{0};
  for (double at : {100.0, 1300.0}) { // 1,200 s apart: never two within 1,000 s
    b.timer.set_now(at);
    b.failures.on(core::TracedFailure{cl, 2, 0, 10.0});
    b.timer.set_now(at + 10.0);
    b.failures.on(core::NodeRepaired{cl, 2});
    CHECK(b.view().is_up(model::NodeId{2}));
  }
  CHECK(b.failures.node_records(2000.0).at(2).quarantines == 0);
}

TEST_CASE("core::failure_process: a fault on an idle node stays latent until a job lands there", "[core][failures]") {
  config::FailureConfig config = two_categories(true);
  config.latent_when_idle = true;
  Bench b(config);
  b.hooks.idle = 2;
  b.failures.start({});
  b.timer.set_now(100.0);
  b.failures.on(core::NodeFailed{model::ClusterId{0}, 2, 1}); // idle: latent, the node stays up
  CHECK(b.hooks.calls.empty());
  CHECK(b.view().is_up(model::NodeId{2}));
  CHECK(b.failures.fault_counts(model::ClusterId{0}).struck == 1);
  b.timer.set_now(250.0);
  b.failures.job_lands(model::ClusterId{0}, 1); // no fault there
  CHECK(b.timer.count<core::TracedFailure>() == 0);
  b.failures.job_lands(model::ClusterId{0}, 2); // found: a failure due now, of the latent fault's category
  auto [at, found] = b.timer.last<core::TracedFailure>();
  CHECK(at == 250.0);
  CHECK(found.node == 2);
  b.failures.on(found);
  REQUIRE(b.hooks.calls.size() == 1);
  CHECK(b.hooks.calls[0].rfind("node 2 cat ", 0) == 0); // the job that landed fails at start
  CHECK_FALSE(b.view().is_up(model::NodeId{2}));
  CHECK(b.timer.last<core::NodeRepaired>().first == Approx(250.0 + REPAIR_S));
  b.failures.job_lands(model::ClusterId{0}, 2); // found once
  CHECK(b.timer.count<core::TracedFailure>() == 1);
  CHECK(b.failures.fault_counts(model::ClusterId{0}).found_at_start == 1);
  auto by = b.failures.fault_counts(model::ClusterId{0}).detected_by.at(found.category);
  CHECK(by[static_cast<std::size_t>(metrics::Detection::JOB_START)] == 1); // not a crash under a running job
  CHECK(std::accumulate(by.begin(), by.end(), std::uint64_t{0}) == 1);
}

TEST_CASE("core::failure_process: each fault is counted by how it showed, per category", "[core][failures]") {
  config::FailureConfig config = two_categories(true);
  config.categories[1].hang = true; // nvlink faults hang their jobs
  Bench b(config);
  b.hooks.idle = 2;
  b.failures.start({});
  const model::ClusterId cl{0};
  b.failures.on(core::TracedFailure{cl, 0, 0, 10.0}); // gpu, under a job: it crashes
  b.failures.on(core::TracedFailure{cl, 1, 1, 10.0}); // nvlink, under a job: it hangs
  b.failures.on(core::TracedFailure{cl, 2, 0, 10.0}); // gpu, on the idle node
  b.failures.on(core::TracedFailure{cl, 2, 1, 10.0}); // already down: not counted again
  auto detected = b.failures.fault_counts(cl).detected_by;
  auto at = [&](std::size_t category, metrics::Detection d) {
    return detected.at(category)[static_cast<std::size_t>(d)];
  };
  CHECK(at(0, metrics::Detection::JOB_CRASH) == 1);
  CHECK(at(0, metrics::Detection::IDLE_NODE) == 1);
  CHECK(at(1, metrics::Detection::JOB_HANG) == 1);
  CHECK(at(1, metrics::Detection::JOB_CRASH) == 0);
  CHECK(at(1, metrics::Detection::IDLE_NODE) == 0);
}

TEST_CASE("core::failure_process: a health check finds latent faults, each with its coverage", "[core][failures]") {
  config::FailureConfig config = two_categories(true);
  config.latent_when_idle = true;
  config.health_check = {6 * 3600.0, 600.0, 1.0}; // every 6 h, 10 min each, finds every fault
  Bench b(config);
  b.hooks.idle = 3;
  b.failures.start({});
  REQUIRE(b.timer.count<core::HealthCheck>() == 1);
  auto [check_at, check] = b.timer.last<core::HealthCheck>();
  CHECK(check_at == 6 * 3600.0);
  b.timer.set_now(1000.0);
  b.failures.on(core::NodeFailed{model::ClusterId{0}, 3, 1});
  b.timer.set_now(check_at);
  b.failures.on(check);
  auto [found_at, found] = b.timer.last<core::TracedFailure>();
  CHECK(found.node == 3);
  CHECK(found_at == 6 * 3600.0 + 600.0); // out when the check ends
  CHECK(b.timer.last<core::HealthCheck>().first == 12 * 3600.0);
  CHECK(b.failures.fault_counts(model::ClusterId{0}).found_by_check == 1);
  b.timer.set_now(found_at);
  b.failures.on(found);
  CHECK(b.failures.fault_counts(model::ClusterId{0})
            .detected_by.at(found.category)[static_cast<std::size_t>(metrics::Detection::HEALTH_CHECK)] == 1);

  config.health_check.coverage = 0.0; // a check that finds nothing leaves the fault latent
  Bench blind(config);
  blind.hooks.idle = 3;
  blind.failures.start({});
  blind.failures.on(core::NodeFailed{model::ClusterId{0}, 3, 1});
  blind.timer.set_now(6 * 3600.0);
  blind.failures.on(core::HealthCheck{model::ClusterId{0}});
  CHECK(blind.timer.count<core::TracedFailure>() == 0);
  blind.failures.job_lands(model::ClusterId{0}, 3);
  CHECK(blind.timer.count<core::TracedFailure>() == 1);
}

TEST_CASE("core::failure_process: a Weibull hazard keeps the node's mean and reshapes the same draws",
          "[core][failures]") {
  Bench plain(two_categories(true));
  plain.failures.start({});
  constexpr double SHAPE = 0.5;
  config::FailureConfig weibull = two_categories(true);
  weibull.hazard.shape = SHAPE;
  Bench shaped(weibull);
  shaped.failures.start({});
  // Exponential: t = -m ln U. Weibull of mean m: t = s (-ln U)^(1/k), s = m / Gamma(1 + 1/k) = m / 2 at k = 0.5.
  double mean_s = 1.0 / ((10.0 + 30.0) / 86400.0);
  std::vector<double> a = first_draws(plain.timer);
  std::vector<double> b = first_draws(shaped.timer);
  for (std::size_t n = 0; n < a.size(); ++n) {
    CHECK(b[n] == Approx(mean_s / 2.0 * std::pow(a[n] / mean_s, 1.0 / SHAPE)).epsilon(1e-12));
  }
}

TEST_CASE("core::failure_process: a group failure takes its nodes down together, each job once, one repair",
          "[core][failures]") {
  config::FailureConfig c = two_categories(true);
  c.group.size = 2;
  c.group.rate_per_1000_group_days = 1.0;
  c.group.category_index = 1; // nvlink
  c.group.repair = model::Distribution::fixed(7200.0);
  Bench b(c);
  b.failures.start({});
  REQUIRE(b.timer.count<core::GroupFailed>() == 2); // nodes 0-1 and 2-3
  b.timer.set_now(50.0);
  b.failures.on(core::GroupFailed{model::ClusterId{0}, 1});
  CHECK(b.hooks.calls == std::vector<std::string>{"switch 2 cat 1", "switch 3 cat 1"});
  CHECK(b.nodes.is_down(model::ClusterId{0}, 2));
  CHECK(b.nodes.is_down(model::ClusterId{0}, 3));
  CHECK_FALSE(b.nodes.is_down(model::ClusterId{0}, 1));
  std::vector<double> repairs;
  for (const auto& s : b.timer.scheduled) {
    if (std::holds_alternative<core::NodeRepaired>(s.event)) {
      repairs.push_back(s.time_s);
    }
  }
  CHECK(repairs == std::vector<double>{50.0 + 7200.0, 50.0 + 7200.0});
  auto records = b.failures.node_records(50.0);
  CHECK(records[2].failures[1] == 1);
  CHECK(records[3].failures[1] == 1);
  CHECK(records[1].failures[1] == 0);
  CHECK(b.timer.count<core::GroupFailed>() == 3); // the group's next failure
}

TEST_CASE("core::failure_process: with the clock off during restarts, a group failure spares a restarting node",
          "[core][failures]") {
  config::FailureConfig c = two_categories(true);
  c.during_restart = false;
  c.group.size = 2;
  c.group.rate_per_1000_group_days = 1.0;
  c.group.category_index = 1;
  c.group.repair = model::Distribution::fixed(7200.0);
  Bench b(c);
  b.hooks.restarting = 3; // node 3's job is restarting
  b.failures.start({});
  b.timer.set_now(50.0);
  b.failures.on(core::GroupFailed{model::ClusterId{0}, 1});
  CHECK(b.hooks.calls == std::vector<std::string>{"switch 2 cat 1"});
  CHECK(b.nodes.is_down(model::ClusterId{0}, 2));
  CHECK_FALSE(b.nodes.is_down(model::ClusterId{0}, 3));
}
