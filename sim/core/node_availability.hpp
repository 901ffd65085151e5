#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/cluster_runtime.hpp"
#include "sim/core/io_service.hpp"

namespace acme::core {

/// Which nodes are in service. A node is out of service while anything holds it down (its own
/// failure, its leaf switch's outage, the spare pool); its scheduler is told when it goes out of
/// service and when it comes back, and its hosts are powered off and on (failing their transfers).
class NodeAvailability {
public:
  NodeAvailability(JobTable& table, IoService& io);

  bool is_down(model::ClusterId cluster, std::uint32_t node) const { return reasons(cluster, node) > 0; }
  /// How many reasons hold the node down (0: in service).
  std::uint16_t reasons(model::ClusterId cluster, std::uint32_t node) const {
    return down_reasons_[model::to_index(cluster)][node];
  }
  /// One more reason holds the node down; the first takes it out of service.
  void down(model::ClusterId cluster, std::uint32_t node);
  /// One reason fewer; the last brings the node back into service.
  void up(model::ClusterId cluster, std::uint32_t node);

private:
  JobTable& table_;
  IoService& io_;
  std::vector<std::vector<std::uint16_t>> down_reasons_; ///< per cluster, per node
};

} // namespace acme::core
