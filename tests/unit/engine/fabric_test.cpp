#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "sim/config/config.hpp"
#include "sim/engine/platform.hpp"
#include "sim/engine/simgrid_fabric.hpp"
#include "sim/engine/simgrid_io.hpp"
#include "sim/engine/timed_steps.hpp"
#include "sim/topology/cluster_graph.hpp"

using namespace acme;

// One engine per process: each TEST_CASE builds exactly one platform (no SECTIONs).

namespace {

constexpr double NIC_Bps = 25e9; // 200 Gb/s

config::Config fabric_config(std::uint32_t nodes, std::uint32_t nodes_per_leaf, const std::string& oversubscription) {
  return config::load_config_text(
      "clusters: [{name: c, nodes: " + std::to_string(nodes) +
          ", gpus_per_node: 8, network: {nic_bandwidth: 200Gbps, nodes_per_leaf: " + std::to_string(nodes_per_leaf) +
          ", oversubscription: \"" + oversubscription + "\"}}]\nnetwork: {model: fluid}\nworkload: {kind: synthetic}\n",
      "fabric.yaml", "");
}

core::FlowRequest flow(std::uint32_t from, std::uint32_t to, double demand_Bps, bool pipeline = false) {
  return core::FlowRequest{model::ClusterId{0}, model::NodeId{from}, model::NodeId{to},
                           pipeline ? core::FlowKind::PIPELINE : core::FlowKind::DATA_PARALLEL, demand_Bps};
}

/// Runs `at` callbacks at their times (in SimGrid's maestro), then closes `flows` at `end_s`.
struct Script {
  engine::TimedSteps steps;
  void run(engine::Platform& platform) const { engine::run_timed_steps(platform, steps); }
};

/// Three flows opened at 0 s and read and closed at 1 s, on two leaves of two nodes: A (0 -> 2, 20 GB/s)
/// and B (1 -> 3, 10 GB/s) cross from leaf 0 to leaf 1; C (0 -> 1, 20 GB/s, pipeline) shares node 0's
/// NIC with A.
struct ThreeFlows {
  core::FlowId a = 0;
  core::FlowId b = 0;
  core::FlowId c = 0;
  std::map<core::FlowId, double> rates;
  std::vector<core::FlowId> changed; ///< take_changed() at 1 s
  core::FabricUsage usage;

  void run(engine::Platform& platform, engine::SimgridFabric& fabric) {
    Script script;
    script.steps.emplace_back(0.0, [&] {
      a = fabric.open(flow(0, 2, 20e9));
      b = fabric.open(flow(1, 3, 10e9));
      c = fabric.open(flow(0, 1, 20e9, true));
    });
    script.steps.emplace_back(1.0, [&] {
      changed = fabric.take_changed();
      for (core::FlowId f : {a, b, c}) {
        rates[f] = fabric.achieved_Bps(f);
      }
      usage = fabric.usage(model::ClusterId{0});
      for (core::FlowId f : {a, b, c}) {
        fabric.close(f);
      }
    });
    script.run(platform);
  }
  /// Max-min: B is capped at 10; A and C split node 0's NIC, 12.5 each. NICs: node 0 sends 25 (full),
  /// node 1 sends 10 and receives 12.5, nodes 2 and 3 receive 12.5 and 10; leaf 0's uplink carries A
  /// and B up, leaf 1's down.
  void check_shares() {
    CHECK(rates[a] == Approx(12.5e9));
    CHECK(rates[b] == Approx(10e9));
    CHECK(rates[c] == Approx(12.5e9));
    CHECK(usage.nic_up_Bps == std::vector<double>{25e9, 10e9, 0.0, 0.0});
    CHECK(usage.nic_down_Bps == std::vector<double>{0.0, 12.5e9, 12.5e9, 10e9});
    CHECK(usage.uplink_up_Bps == std::vector<double>{22.5e9, 0.0});
    CHECK(usage.uplink_down_Bps == std::vector<double>{0.0, 22.5e9});
  }
};

} // namespace

TEST_CASE("engine::fabric: flows through shared bottlenecks get their max-min fair shares", "[engine][network]") {
  // ThreeFlows on two leaves at 2:1: each leaf's one uplink carries 25 GB/s, which A and B cross.
  config::Config cfg = fabric_config(4, 2, "2:1");
  REQUIRE(cfg.clusters[0].network.leaf_uplink_bw_Bps == NIC_Bps);
  topology::ClusterGraph graph(cfg);
  engine::Platform platform(graph, cfg);
  CHECK_FALSE(platform.flows_bypass_uplinks(model::ClusterId{0})); // 2:1: the uplinks may bind
  int posted = 0;
  engine::SimgridFabric fabric(platform, cfg, [&](const core::EngineEvent& e) {
    posted += std::holds_alternative<core::FlowRatesChanged>(e) ? 1 : 0;
  });
  ThreeFlows t;
  t.run(platform, fabric);
  // The three opens at one instant: the barrier started by the first covers the others, then re-reads
  // once more because they came after it started; at most two reports, none at the closes.
  CHECK(posted >= 1);
  CHECK(posted <= 2);
  CHECK(t.changed == std::vector<core::FlowId>{t.a, t.b, t.c});
  CHECK(t.usage.nic_Bps == NIC_Bps);
  t.check_shares(); // the uplink has room for 15 of A and B's 30 GB/s
}

TEST_CASE("engine::fabric: a lost spine link re-shares the flows through its leaf", "[engine][network]") {
  // Leaves of four nodes at 2:1: two uplinks (50 GB/s) per leaf. Two 20 GB/s flows cross it; with one
  // uplink down (25 GB/s) each gets 12.5 GB/s, and 20 again once it is repaired.
  config::Config cfg = fabric_config(8, 4, "2:1");
  REQUIRE(cfg.clusters[0].network.uplinks_per_leaf == 2);
  topology::ClusterGraph graph(cfg);
  engine::Platform platform(graph, cfg);
  engine::SimgridFabric fabric(platform, cfg, [](const core::EngineEvent&) {});
  std::vector<core::FlowId> flows;
  std::vector<double> before;
  std::vector<double> during;
  std::vector<double> after;
  auto read = [&](std::vector<double>& out) {
    for (core::FlowId f : flows) {
      out.push_back(fabric.achieved_Bps(f));
    }
  };
  Script script;
  script.steps.emplace_back(0.0, [&] {
    flows.push_back(fabric.open(flow(0, 4, 20e9)));
    flows.push_back(fabric.open(flow(1, 5, 20e9)));
  });
  script.steps.emplace_back(1.0, [&] {
    read(before);
    fabric.set_uplinks_down(model::ClusterId{0}, 0, 1);
  });
  script.steps.emplace_back(2.0, [&] {
    read(during);
    fabric.set_uplinks_down(model::ClusterId{0}, 0, 0);
  });
  script.steps.emplace_back(3.0, [&] {
    read(after);
    for (core::FlowId f : flows) {
      fabric.close(f);
    }
  });
  script.run(platform);
  CHECK(before == std::vector<double>{20e9, 20e9});
  REQUIRE(during.size() == 2);
  CHECK(during[0] == Approx(12.5e9));
  CHECK(during[1] == Approx(12.5e9));
  CHECK(after == std::vector<double>{20e9, 20e9});
}

TEST_CASE("engine::fabric: on a non-blocking fabric flows leave the uplinks out and get the same shares",
          "[engine][network]") {
  // ThreeFlows on a 1:1 fabric (each leaf's uplinks carry 50 GB/s, its two NICs 50 GB/s): the uplinks
  // can never bind, so the flows' routes leave them out. The shares are still the max-min ones, and the
  // uplinks' use counts the flows crossing leaves.
  config::Config cfg = fabric_config(4, 2, "1:1");
  REQUIRE(cfg.clusters[0].network.leaf_uplink_bw_Bps == 2 * NIC_Bps);
  topology::ClusterGraph graph(cfg);
  engine::Platform platform(graph, cfg);
  model::ClusterId c{0};
  REQUIRE(platform.flows_bypass_uplinks(c));
  std::vector<std::string> route = engine::Platform::route_names(platform.port_host(c, model::NodeId{0}, false),
                                                                 platform.port_host(c, model::NodeId{2}, false));
  CHECK(route.size() == 4); // port, NIC up; NIC down, port: no uplink
  // Storage traffic still crosses its leaf's uplink.
  std::vector<std::string> storage =
      engine::Platform::route_names(platform.storage_endpoint(c, model::NodeId{0}), platform.storage_host(c));
  auto is_uplink = [](const std::string& name) {
    return name.find("leaf") != std::string::npos && name.find("-up_") != std::string::npos;
  };
  CHECK(std::none_of(route.begin(), route.end(), is_uplink));
  CHECK(std::any_of(storage.begin(), storage.end(), is_uplink));
  engine::SimgridFabric fabric(platform, cfg, [](const core::EngineEvent&) {});
  ThreeFlows t;
  t.run(platform, fabric);
  t.check_shares();
}

TEST_CASE("engine::fabric: a storage transfer through a node's NIC slows only the flows through that NIC",
          "[engine][network]") {
  // Non-blocking fabric, storage traffic on the compute NICs (as on Seren). Flows A (0 -> 1) and B
  // (2 -> 3) are capped at 20 GB/s. A 10 GB write from node 0 shares node 0's NIC with A: 12.5 GB/s
  // each, so it ends at 0.8 s; then A runs at 20 again. B, on other NICs, never moves. The fabric
  // re-reads only the flows a change can reach: this checks that what it skips is what did not move.
  config::Config cfg = fabric_config(4, 2, "1:1");
  topology::ClusterGraph graph(cfg);
  engine::Platform platform(graph, cfg);
  model::ClusterId c{0};
  REQUIRE(platform.flows_bypass_uplinks(c));
  std::vector<core::FlowId> changed_at_end;
  engine::SimgridFabric fabric(platform, cfg, [](const core::EngineEvent&) {});
  double done_s = -1.0;
  engine::SimgridIo io(
      platform, [&](const core::TransferDone& d) { done_s = d.duration_s; }, true,
      [&](model::ClusterId cluster, const std::vector<model::NodeId>& nodes, int delta) {
        fabric.transfer_changed(cluster, nodes, delta);
      });
  core::FlowId a = 0;
  core::FlowId b = 0;
  std::vector<double> during;
  std::vector<double> after;
  Script script;
  script.steps.emplace_back(0.0, [&] {
    a = fabric.open(flow(0, 1, 20e9));
    b = fabric.open(flow(2, 3, 20e9));
    core::TransferRequest write;
    write.cluster = c;
    write.node = model::NodeId{0};
    write.bytes = 10e9;
    io.start(write);
  });
  script.steps.emplace_back(0.5, [&] {
    fabric.take_changed();
    during = {fabric.achieved_Bps(a), fabric.achieved_Bps(b)};
  });
  script.steps.emplace_back(1.5, [&] {
    changed_at_end = fabric.take_changed();
    after = {fabric.achieved_Bps(a), fabric.achieved_Bps(b)};
    fabric.close(a);
    fabric.close(b);
  });
  script.run(platform);
  CHECK(done_s == Approx(0.8));
  REQUIRE(during.size() == 2);
  CHECK(during[0] == Approx(12.5e9));
  CHECK(during[1] == Approx(20e9));
  REQUIRE(after.size() == 2);
  CHECK(after[0] == Approx(20e9));
  CHECK(after[1] == Approx(20e9));
  CHECK(changed_at_end == std::vector<core::FlowId>{a}); // B's rate never moved
}

TEST_CASE("engine::fabric: flows no link can bind stay off SimGrid at their demand until one can",
          "[engine][network]") {
  // Non-blocking fabric. A (0 -> 2, 20 GB/s) and B (1 -> 3, 10 GB/s) fit their NICs: they are parked at
  // their demands at once, no sharing is solved (no report), and usage() still counts them. C (0 -> 1,
  // 20 GB/s) then asks node 0's NIC for 40 GB/s: A and C go on SimGrid and split it, 12.5 each, as
  // ThreeFlows' max-min shares say (B, through node 1, with them).
  config::Config cfg = fabric_config(4, 2, "1:1");
  topology::ClusterGraph graph(cfg);
  engine::Platform platform(graph, cfg);
  REQUIRE(platform.flows_bypass_uplinks(model::ClusterId{0}));
  int posted = 0;
  engine::SimgridFabric fabric(platform, cfg, [&](const core::EngineEvent& e) {
    posted += std::holds_alternative<core::FlowRatesChanged>(e) ? 1 : 0;
  });
  ThreeFlows t;
  std::vector<double> parked;
  int posted_parked = -1;
  core::FabricUsage parked_usage;
  Script script;
  script.steps.emplace_back(0.0, [&] {
    t.a = fabric.open(flow(0, 2, 20e9));
    t.b = fabric.open(flow(1, 3, 10e9));
    parked = {fabric.achieved_Bps(t.a), fabric.achieved_Bps(t.b)};
  });
  script.steps.emplace_back(1.0, [&] {
    posted_parked = posted;
    parked_usage = fabric.usage(model::ClusterId{0});
    t.c = fabric.open(flow(0, 1, 20e9, true));
  });
  script.steps.emplace_back(2.0, [&] {
    t.changed = fabric.take_changed();
    for (core::FlowId f : {t.a, t.b, t.c}) {
      t.rates[f] = fabric.achieved_Bps(f);
    }
    t.usage = fabric.usage(model::ClusterId{0});
    for (core::FlowId f : {t.a, t.b, t.c}) {
      fabric.close(f);
    }
  });
  script.run(platform);
  CHECK(parked == std::vector<double>{20e9, 10e9});
  CHECK(posted_parked == 0);
  CHECK(parked_usage.nic_up_Bps == std::vector<double>{20e9, 10e9, 0.0, 0.0});
  CHECK(parked_usage.nic_down_Bps == std::vector<double>{0.0, 0.0, 20e9, 10e9});
  CHECK(parked_usage.uplink_up_Bps == std::vector<double>{30e9, 0.0});
  CHECK(parked_usage.uplink_down_Bps == std::vector<double>{0.0, 30e9});
  CHECK(posted >= 1);
  CHECK(t.changed == std::vector<core::FlowId>{t.a, t.b, t.c});
  t.check_shares();
}
