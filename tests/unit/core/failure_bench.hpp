#pragma once

// A failure process over one fake cluster of four nodes under two leaves, with hooks that record what
// failures do to jobs (tests of FailureProcess and its repairs).

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/failure_process.hpp"
#include "tests/unit/core/core_fakes.hpp"

namespace acme::test {

inline constexpr double REPAIR_S = 3600.0;
inline constexpr double LEAF_REPAIR_S = 600.0;

/// Records what failures do to jobs; a repaired node comes back up (no spare pool).
class RecordingHooks final : public core::FailureHooks {
public:
  explicit RecordingHooks(core::NodeAvailability& nodes) : nodes_(nodes) {}
  void fail_node_jobs(model::ClusterId, std::uint32_t node, std::uint32_t category) override {
    calls.push_back("node " + std::to_string(node) + " cat " + std::to_string(category));
  }
  void fail_switch_jobs(model::ClusterId, std::uint32_t node, std::uint32_t category) override {
    calls.push_back("switch " + std::to_string(node) + " cat " + std::to_string(category));
  }
  void node_repaired(model::ClusterId cluster, std::uint32_t node) override {
    calls.push_back("repaired " + std::to_string(node));
    nodes_.up(cluster, node, model::OutOfService::FAILED, "repaired");
  }
  bool node_restarting(model::ClusterId, std::uint32_t node) const override { return node == restarting; }
  bool node_busy(model::ClusterId, std::uint32_t node) const override { return node != idle; }
  std::vector<std::string> calls;
  std::uint32_t idle = std::numeric_limits<std::uint32_t>::max();       ///< the node no job holds
  std::uint32_t restarting = std::numeric_limits<std::uint32_t>::max(); ///< the node whose job restarts

private:
  core::NodeAvailability& nodes_;
};

inline config::FailureConfig two_categories(bool enabled) {
  config::FailureConfig c;
  c.enabled = enabled;
  c.categories.push_back({"gpu", 10.0, model::Distribution::fixed(REPAIR_S), false});
  c.categories.push_back({"nvlink", 30.0, model::Distribution::fixed(REPAIR_S), false});
  c.leaf_repair = model::Distribution::fixed(LEAF_REPAIR_S);
  return c;
}

/// Two leaves of two nodes each.
inline std::vector<core::FailureShape> four_nodes() {
  core::FailureShape shape;
  shape.nodes = 4;
  shape.nodes_of_leaf = {{model::NodeId{0}, model::NodeId{1}}, {model::NodeId{2}, model::NodeId{3}}};
  return {shape};
}

struct Bench {
  explicit Bench(config::FailureConfig c) : config(std::move(c)) {}
  config::FailureConfig config;
  FakeTimer timer;
  FakeIo io;
  core::JobTable table = test::one_cluster(4, 2);
  core::NodeAvailability nodes{table, io};
  RecordingHooks hooks{nodes};
  model::ClusterRngs rng{7, "test", {"c"}};
  core::FailureProcess failures{config, four_nodes(), timer, rng, nodes, hooks};
  const model::ClusterView& view() const { return table.clusters[0].view; }
};

} // namespace acme::test
