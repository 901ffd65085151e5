#include <catch2/catch.hpp>

#include "sim/config/faults.hpp"
#include "sim/core/link_failures.hpp"
#include "sim/core/training_traffic.hpp"
#include "tests/unit/core/core_fakes.hpp"

using namespace acme;
using test::FakeControl;
using test::FakeFabric;
using test::FakeIo;
using test::FakeTimer;

namespace {

constexpr double WORK_S = 10000.0;

config::Config fluid_config(std::uint32_t nodes) {
  return config::load_config_text("seed: 1\n"
                                  "clusters: [{name: test, nodes: " +
                                      std::to_string(nodes) +
                                      ", gpus_per_node: 8, network: {nodes_per_leaf: 2}}]\n"
                                      "network: {model: fluid}\n"
                                      "workload: {kind: synthetic}\n",
                                  "fluid.yaml", "");
}

/// No checkpoints: one segment for the whole work.
class Never final : public policies::CheckpointPolicy {
public:
  double interval_s(const policies::CheckpointSituation&) const override { return 1e18; }
};

/// A 4-node job (7B parameters: t=4, d=8, one stage) computing under the traffic model over a fake fabric.
struct Bench {
  Bench() {
    checkpoint.attach(&traffic);
    checkpoint.admit(job(), spec);
    traffic.admit(job(), spec);
  }
  core::JobRuntime& job() { return table.jobs.at(id); }

  model::JobId id{1};
  config::Config config = fluid_config(4);
  Never policy;
  FakeTimer timer;
  FakeIo io;
  FakeFabric fabric;
  core::JobTable table = test::one_cluster(5, 2); // the 4-node job on nodes 0-3, node 4 free
  FakeControl control{table, timer};
  model::ClusterRngs rng{1, "test", {"c"}};
  model::JobSpec spec = test::pretrain_job(1, 4, WORK_S, 7e9);
  core::JobRuntime& running = test::run_job(table, spec);
  core::CheckpointModel checkpoint{*config.faults, policy, {12.5e9, 10e9, 0.0}, timer, io, table, control, rng};
  core::TrainingTraffic traffic{config, table, checkpoint, &fabric};
};

} // namespace

TEST_CASE("core::training_traffic: a multi-node job holds one flow per node on its data-parallel ring",
          "[core][network]") {
  Bench b;
  const model::ParallelLayout& l = b.job().traffic.layout;
  REQUIRE(l.tp == 4);
  REQUIRE(l.dp == 8);
  REQUIRE(l.pp == 1);
  b.checkpoint.resume(b.id, b.job());
  REQUIRE(b.fabric.open_flows.size() == 4);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ring;
  for (const auto& [flow, r] : b.fabric.open_flows) {
    CHECK(r.kind == core::FlowKind::DATA_PARALLEL);
    CHECK(r.demand_Bps == Approx(25e9)); // the ring runs at the node's NIC bandwidth
    CHECK(l.dp_cap_Bps == Approx(25e9));
    ring.emplace_back(model::to_index(r.from), model::to_index(r.to));
  }
  CHECK(ring == std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 1}, {1, 2}, {2, 3}, {3, 0}});
  CHECK(b.traffic.open_flows() == 4);

  SECTION("flows at their demand: the job runs at full pace") {
    b.fabric.grant_demands();
    b.traffic.on_rates_changed();
    CHECK(b.job().checkpoint.rate == 1.0);
    CHECK(b.timer.last<core::SegmentEnded>().first == Approx(WORK_S));
  }
  SECTION("the slowest flow of the ring sets the pace; the segment end moves") {
    b.fabric.grant_demands();
    b.traffic.on_rates_changed();
    b.timer.set_now(1000.0);
    core::FlowId slow = b.fabric.open_flows.begin()->first + 2;
    b.fabric.set_rate(slow, l.dp_cap_Bps / 4);
    b.traffic.on_rates_changed();
    double rate = l.progress_rate(0.25, 1.0);
    REQUIRE(rate < 1.0);
    CHECK(b.job().checkpoint.rate == Approx(rate));
    CHECK(b.timer.last<core::SegmentEnded>().first == Approx(1000.0 + (WORK_S - 1000.0) / rate));
    SECTION("the job ends: its flows leave the fabric and its slowdown is counted") {
      auto [t, e] = b.timer.last<core::SegmentEnded>();
      b.timer.set_now(t);
      core::JobRuntime& job = b.job();
      b.checkpoint.on_segment_end(b.id, job);
      CHECK(b.fabric.open_flows.empty());
      CHECK(b.fabric.closed.size() == 4);
      CHECK(b.control.calls == std::vector<std::string>{"finish 1 COMPLETED"});
    }
    SECTION("a failure stops progress and closes the flows") {
      b.timer.set_now(2000.0);
      b.checkpoint.stop_progress(b.job());
      CHECK(b.fabric.open_flows.empty());
      CHECK(b.job().checkpoint.progress_s == Approx(1000.0 + 1000.0 * rate));
      CHECK(b.job().accounting.comm_lost_s == Approx(1000.0 * (1.0 - rate)));
    }
  }
}

TEST_CASE("core::training_traffic: flows whose rates are known at once set the pace when they open",
          "[core][network]") {
  // The job computes at a quarter of its ring's demand, stops (its flows close), and computes again on
  // flows the fabric keeps at their demand (parked): no sharing will report them, so it resumes at full
  // pace at once instead of at the pace of its last flows.
  Bench b;
  b.checkpoint.resume(b.id, b.job());
  b.fabric.grant_demands();
  b.traffic.on_rates_changed();
  b.fabric.set_rate(b.fabric.open_flows.begin()->first, b.job().traffic.layout.dp_cap_Bps / 4);
  b.traffic.on_rates_changed();
  REQUIRE(b.job().checkpoint.rate < 1.0);
  b.timer.set_now(1000.0);
  b.checkpoint.stop_progress(b.job());
  REQUIRE(b.fabric.open_flows.empty());
  b.fabric.park = true;
  b.checkpoint.resume(b.id, b.job());
  CHECK(b.fabric.open_flows.size() == 4);
  CHECK(b.job().checkpoint.rate == 1.0);
}

TEST_CASE("core::training_traffic: single-node jobs and the none model put nothing on the fabric", "[core][network]") {
  SECTION("one node: NVLink only") {
    Bench b;
    model::JobSpec small = test::pretrain_job(2, 1, 100.0, 7e9);
    core::JobRuntime& job = test::run_job(b.table, small, 4);
    b.checkpoint.admit(job, small);
    b.traffic.admit(job, small);
    CHECK_FALSE(job.traffic.layout.uses_ib());
    b.checkpoint.resume(model::JobId{2}, job);
    CHECK(b.fabric.open_flows.empty());
    CHECK(job.traffic.modelled); // its slowdown (1) is reported under the fluid model
  }
  SECTION("network.model none: layouts only") {
    config::Config cfg = fluid_config(4);
    cfg.network.model = config::NetworkModelKind::NONE;
    core::JobTable table = test::one_cluster(4, 2);
    FakeTimer timer;
    FakeIo io;
    FakeControl control{table, timer};
    model::ClusterRngs rng{1, "test", {"c"}};
    Never policy;
    core::CheckpointModel checkpoint{*cfg.faults, policy, {12.5e9, 10e9, 0.0}, timer, io, table, control, rng};
    core::TrainingTraffic traffic{cfg, table, checkpoint, nullptr};
    model::JobSpec spec = test::pretrain_job(1, 4, 100.0, 7e9);
    core::JobRuntime& job = test::run_job(table, spec);
    traffic.admit(job, spec);
    CHECK_FALSE(traffic.fluid());
    CHECK_FALSE(job.traffic.modelled);
    CHECK(job.traffic.layout.tp == 4);
  }
}

TEST_CASE("core::link_failures: a failed spine link removes its capacity until repaired", "[core][network]") {
  config::FailureConfig failures;
  failures.enabled = true;
  failures.spine_link_rate_per_link_day = 1.0;
  failures.spine_link_repair = model::Distribution::fixed(3600.0);
  FakeTimer timer;
  FakeFabric fabric;
  model::ClusterRngs rng{7, "test", {"c"}};
  core::LinkFailures links(failures, {4}, {2}, timer, rng, fabric);
  links.start();
  REQUIRE(timer.count<core::SpineLinkFailed>() == 2); // one draw per leaf
  auto next = timer.pop();
  auto failed = std::get<core::SpineLinkFailed>(next.event);
  links.on(failed);
  CHECK(links.down(failed.cluster, failed.leaf) == 1);
  REQUIRE(fabric.uplinks_down.size() == 1);
  CHECK(std::get<1>(fabric.uplinks_down.back()) == 1);
  auto [repair_s, repaired] = timer.last<core::SpineLinkRepaired>();
  CHECK(repair_s == Approx(next.time_s + 3600.0));
  timer.set_now(repair_s);
  links.on(repaired);
  CHECK(links.down(failed.cluster, failed.leaf) == 0);
  CHECK(std::get<1>(fabric.uplinks_down.back()) == 0);
  SECTION("off without a rate") {
    config::FailureConfig off;
    off.enabled = true;
    FakeTimer t2;
    core::LinkFailures none(off, {4}, {2}, t2, rng, fabric);
    none.start();
    CHECK(t2.scheduled.empty());
  }
}
