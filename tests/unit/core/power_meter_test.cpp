#include <catch2/catch.hpp>

#include <string>

#include "sim/config/power_config.hpp"
#include "sim/core/power_meter.hpp"
#include "tests/unit/core/core_fakes.hpp"

using namespace acme;

namespace {

// Round numbers so that every figure below can be worked out by hand: GPUs idle at 60 W and compute
// at 300 W, a checkpoint stall draws 100 W, a node's base is 400 W, the supplies lose nothing, no
// CPU servers, switches or storage (unless a section changes them).
constexpr const char* HAND_CONFIG = R"(
seed: 1
clusters:
  - {name: test, nodes: 2, gpus_per_node: 8, gpu: {idle_power: 60W, max_power: 360W}}
power:
  gpu: {idle_spread: 0W, checkpoint: 100W, restore: 100W, busy: {Pretrain: 300W}}
  node: {cpu_idle: 100W, cpu_busy: 100W, other_idle: 300W, other_busy: 300W, psu_efficiency: 1, off: 20W}
  switch: 0W
  storage: 0W
)";

config::Config hand_config(const std::string& extra_power = "") {
  return config::load_config_text(std::string(HAND_CONFIG) + extra_power, "hand.yaml", "");
}

/// A job through the meter as the lifecycle drives it: admitted, started in the view at `at_s`.
core::JobRuntime& start(core::JobTable& table, core::PowerMeter& meter, const model::JobSpec& spec, double at_s,
                        std::uint32_t first_node = 0) {
  table.clusters[0].view.set_now(at_s);
  core::JobRuntime& job = test::run_job(table, spec, first_node);
  meter.admit(spec.id, job, spec);
  meter.allocated(job);
  job.enter(core::JobStage::STARTING, at_s);
  return job;
}

void enter(core::JobTable& table, core::JobRuntime& job, core::JobStage stage, double at_s) {
  table.clusters[0].view.set_now(at_s);
  job.enter(stage, at_s);
}

void release(core::JobTable& table, core::PowerMeter& meter, core::JobRuntime& job, model::JobId id, double at_s) {
  table.clusters[0].view.set_now(at_s);
  meter.releasing(job);
  table.clusters[0].view.stop_job(id);
  job.enter(core::JobStage::WAITING, at_s);
}

} // namespace

TEST_CASE("core::power_meter: energy is the integral of power over a hand-computed schedule", "[core][power]") {
  config::Config cfg = hand_config();
  core::JobTable table = test::one_cluster(2);
  core::PowerMeter meter(cfg, table);
  model::ClusterId cluster{0};
  // Idle: each node 8 x 60 W + 400 W = 880 W.
  CHECK(meter.power_W(cluster) == 1760.0);
  model::JobSpec spec = test::pretrain_job(1, 1, 1000.0);
  core::JobRuntime& job = start(table, meter, spec, 100.0); // held idle while starting
  enter(table, job, core::JobStage::COMPUTING, 110.0);      // node 0: 8 x 300 + 400 = 2800 W
  CHECK(meter.power_W(cluster) == 2800.0 + 880.0);
  enter(table, job, core::JobStage::CHECKPOINTING, 210.0); // node 0: 8 x 100 + 400 = 1200 W
  enter(table, job, core::JobStage::COMPUTING, 230.0);
  release(table, meter, job, spec.id, 330.0);
  auto reports = meter.finish(400.0);
  const metrics::ClusterPowerReport& r = reports.at(0);

  // 1760 W x 110 s + 3680 W x 100 s + 2080 W x 20 s + 3680 W x 100 s + 1760 W x 70 s
  CHECK(r.total_J() == 1760.0 * 110 + 3680.0 * 100 + 2080.0 * 20 + 3680.0 * 100 + 1760.0 * 70);
  CHECK(r.total_J() == 1094400.0);
  // GPUs: 16 x 60 W throughout, plus 8 x 240 W computing for 200 s and 8 x 40 W stalled for 20 s.
  CHECK(r.gpu_J == 16 * 60.0 * 400 + 8 * 240.0 * 200 + 8 * 40.0 * 20);
  CHECK(r.node_base_J == 800.0 * 400);
  CHECK(r.peak_W == 3680.0);
  CHECK(r.span_s == 400.0);
  // The job: its 8 GPUs and its node's whole base from 100 s to 330 s.
  CHECK(job.power.energy_J == 880.0 * 10 + 2800.0 * 100 + 1200.0 * 20 + 2800.0 * 100);
  CHECK(job.power.stall_J == 1200.0 * 20);
  // Per GPU, time-weighted: 1600 GPU-s at 300 W, 160 at 100 W, the rest (4640) at 60 W.
  CHECK(r.gpu_W.total_weight() == 16 * 400.0);
  CHECK(r.gpu_W.mean_W() == Approx(r.gpu_J / (16 * 400.0)).epsilon(1e-12));
  CHECK(r.gpu_W.cdf(61.0) == Approx(4640.0 / 6400.0));
  CHECK(r.gpu_W.cdf(101.0) == Approx(4800.0 / 6400.0));
  CHECK(r.gpu_server_W.total_weight() == 2 * 400.0);
  CHECK(r.gpu_server_W.mean_W() == Approx(r.total_J() / 800.0));
}

TEST_CASE("core::power_meter: the base rises with load and the supplies lose their share", "[core][power]") {
  // CPUs 100 -> 340 W over the GPUs' range (8 x 300 W): 0.1 W of base per GPU watt above idle; 80% supplies.
  config::Config cfg = hand_config();
  config::PowerConfig power = *cfg.power;
  power.node.cpu_busy_W = 340.0;
  power.node.psu_efficiency = 0.8;
  cfg.power = std::make_shared<config::PowerConfig>(power);
  core::JobTable table = test::one_cluster(2);
  core::PowerMeter meter(cfg, table);
  model::ClusterId cluster{0};
  CHECK(meter.power_W(cluster) == Approx(2 * 880.0 / 0.8));
  model::JobSpec spec = test::pretrain_job(1, 1, 1000.0);
  core::JobRuntime& job = start(table, meter, spec, 0.0);
  enter(table, job, core::JobStage::COMPUTING, 0.0);
  // Node 0: (8 x 60 + 8 x 240 x 1.1 + 400) / 0.8 = 3740 W.
  double busy_node_W = (480.0 + 1920.0 * 1.1 + 400.0) / 0.8;
  CHECK(meter.power_W(cluster) == Approx(busy_node_W + 880.0 / 0.8));
  CHECK(job.power.compute_W() == Approx(busy_node_W));
  release(table, meter, job, spec.id, 50.0);
  auto r = meter.finish(100.0).at(0);
  CHECK(r.total_J() == Approx((busy_node_W + 1100.0) * 50 + 2200.0 * 50));
  CHECK(r.gpu_J == Approx(960.0 * 100 + 1920.0 * 50));
  CHECK(job.power.energy_J == Approx(busy_node_W * 50));
}

TEST_CASE("core::power_meter: an idle cluster draws exactly nodes x (base + GPUs x idle power)", "[core][power]") {
  // 7 nodes (odd), idle draws spread over 8 W around 60 W: the spread averages out over the cluster.
  config::Config cfg = config::load_config_text(R"(
seed: 1
clusters: [{name: test, nodes: 7, gpus_per_node: 8, gpu: {idle_power: 60W, max_power: 400W}}]
power: {gpu: {idle_spread: 8W}, switch: 0W, storage: 0W}
)",
                                                "idle.yaml", "");
  core::JobTable table = test::one_cluster(7);
  core::PowerMeter meter(cfg, table);
  const config::NodeBasePower& base = cfg.power->node;
  double node_W = (base.cpu_idle_W + base.other_idle_W + 8 * 60.0) / base.psu_efficiency;
  CHECK(meter.power_W(model::ClusterId{0}) == Approx(7 * node_W).epsilon(1e-12));
  double low = 1e9;
  double high = 0.0;
  for (std::uint32_t n = 0; n < 7; ++n) {
    low = std::min(low, meter.node_idle_W(model::ClusterId{0}, n));
    high = std::max(high, meter.node_idle_W(model::ClusterId{0}, n));
  }
  CHECK(low >= 56.0);
  CHECK(high <= 64.0);
  CHECK(high - low == Approx(8.0 * 6 / 7));
  auto r = meter.finish(3600.0).at(0);
  CHECK(r.total_J() == Approx(7 * node_W * 3600.0).epsilon(1e-12));
}

TEST_CASE("core::power_meter: a switched-off node draws standby power, a booting one idle power", "[core][power]") {
  config::Config cfg = hand_config();
  core::JobTable table = test::one_cluster(2);
  core::PowerMeter meter(cfg, table);
  model::ClusterId cluster{0};
  meter.set_node_power(cluster, 1, model::NodePower::OFF, 100.0);
  CHECK(meter.power_W(cluster) == 880.0 + 20.0);
  meter.set_node_power(cluster, 1, model::NodePower::BOOTING, 300.0);
  CHECK(meter.power_W(cluster) == 1760.0);
  meter.set_node_power(cluster, 1, model::NodePower::ON, 360.0);
  auto r = meter.finish(400.0).at(0);
  CHECK(r.total_J() == 1760.0 * 100 + 900.0 * 200 + 1760.0 * 100);
  CHECK(r.node_off_s == 200.0);
  CHECK(r.boots == 1);
  // The switched-off node's GPUs count at 0 W: 8 x 200 GPU-s of 16 x 400.
  CHECK(r.gpu_W.cdf(1.0) == Approx(1600.0 / 6400.0));
}

TEST_CASE("core::power_meter: energy up to any time between changes (the time series' reading)", "[core][power]") {
  config::Config cfg = hand_config();
  core::JobTable table = test::one_cluster(2);
  core::PowerMeter meter(cfg, table);
  model::JobSpec spec = test::pretrain_job(1, 2, 1000.0);
  core::JobRuntime& job = start(table, meter, spec, 20.0);
  enter(table, job, core::JobStage::COMPUTING, 20.0);
  CHECK(job.power.compute_W() == 2 * 2800.0); // what a rolled-back second of its work cost
  CHECK(meter.energy_J(model::ClusterId{0}, 30.0) == 1760.0 * 20 + 5600.0 * 10);
}

TEST_CASE("core::power_meter: a job carrying 16 whole nodes books the same figures as node-by-node keeping",
          "[core][power]") {
  // The hand schedule of the first case on a 16-node job (it carries its nodes) beside one idle node.
  std::string text = HAND_CONFIG;
  text.replace(text.find("nodes: 2"), 8, "nodes: 17");
  config::Config cfg = config::load_config_text(text, "hand.yaml", "");
  core::JobTable table = test::one_cluster(17);
  core::PowerMeter meter(cfg, table);
  model::ClusterId cluster{0};
  model::JobSpec spec = test::pretrain_job(1, 16, 1000.0);
  core::JobRuntime& job = start(table, meter, spec, 100.0);
  REQUIRE(job.power.carried_nodes.size() == 16);
  enter(table, job, core::JobStage::COMPUTING, 110.0);
  CHECK(meter.power_W(cluster) == 16 * 2800.0 + 880.0);
  enter(table, job, core::JobStage::CHECKPOINTING, 210.0);
  CHECK(meter.power_W(cluster) == 16 * 1200.0 + 880.0);
  enter(table, job, core::JobStage::COMPUTING, 230.0);
  release(table, meter, job, spec.id, 330.0);
  CHECK(job.power.carried_nodes.empty());
  auto reports = meter.finish(400.0);
  const metrics::ClusterPowerReport& r = reports.at(0);
  CHECK(r.total_J() == 17 * 880.0 * 400 + 16 * (1920.0 * 200 + 320.0 * 20));
  CHECK(r.gpu_J == 17 * 8 * 60.0 * 400 + 16 * (8 * 240.0 * 200 + 8 * 40.0 * 20));
  CHECK(r.peak_W == 16 * 2800.0 + 880.0);
  CHECK(job.power.energy_J == 16 * (880.0 * 10 + 2800.0 * 100 + 1200.0 * 20 + 2800.0 * 100));
  // Per GPU: 16 x 1600 GPU-s at 300 W, 16 x 160 at 100 W, the rest at 60 W; per node the same shares.
  CHECK(r.gpu_W.total_weight() == 17 * 8 * 400.0);
  CHECK(r.gpu_W.cdf(61.0) == Approx((17 * 3200.0 - 16 * 1760.0) / (17 * 3200.0)));
  CHECK(r.gpu_W.cdf(101.0) == Approx((17 * 3200.0 - 16 * 1600.0) / (17 * 3200.0)));
  CHECK(r.gpu_server_W.total_weight() == 17 * 400.0);
  CHECK(r.gpu_server_W.mean_W() == Approx(r.total_J() / (17 * 400.0)));
}

TEST_CASE("core::power_meter: a carried job that replaces one node books that node alone, exactly", "[core][power]") {
  // 16 nodes compute 110-210 s; the job recovers (idle) and at 220 s node 3 is replaced by node 16; it
  // computes 230-330 s. Node 3 and node 16 each computed 100 s; the figures equal node-by-node keeping's.
  std::string text = HAND_CONFIG;
  text.replace(text.find("nodes: 2"), 8, "nodes: 17");
  config::Config cfg = config::load_config_text(text, "hand.yaml", "");
  core::JobTable table = test::one_cluster(17);
  core::PowerMeter meter(cfg, table);
  model::JobSpec spec = test::pretrain_job(1, 16, 1000.0);
  core::JobRuntime& job = start(table, meter, spec, 100.0);
  enter(table, job, core::JobStage::COMPUTING, 110.0);
  enter(table, job, core::JobStage::RECOVERING, 210.0);
  table.clusters[0].view.set_now(220.0);
  table.clusters[0].view.move_share(spec.id, model::NodeId{3}, model::NodeId{16});
  meter.placement_changed(job, {{model::NodeId{3}, model::NodeId{16}}});
  CHECK(job.power.carried_nodes.size() == 16);
  CHECK(job.power.carried_nodes.at(3) == 16); // in node 3's place: placement order kept
  enter(table, job, core::JobStage::COMPUTING, 230.0);
  CHECK(meter.power_W(model::ClusterId{0}) == 16 * 2800.0 + 880.0);
  release(table, meter, job, spec.id, 330.0);
  const metrics::ClusterPowerReport r = meter.finish(400.0).at(0);
  CHECK(r.total_J() == 17 * 880.0 * 400 + 1920.0 * 3200);
  CHECK(r.gpu_J == 17 * 8 * 60.0 * 400 + 240.0 * 25600);
  CHECK(r.gpu_W.total_weight() == 17 * 8 * 400.0);
  CHECK(r.gpu_W.cdf(61.0) == Approx((54400.0 - 25600.0) / 54400.0));
  CHECK(r.gpu_server_W.total_weight() == 17 * 400.0);
  CHECK(r.gpu_server_W.cdf(2000.0) == Approx((6800.0 - 3200.0) / 6800.0));
  CHECK(job.power.energy_J == 16 * (880.0 * 10 + 2800.0 * 100 + 880.0 * 20 + 2800.0 * 100));
}
