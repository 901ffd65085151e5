#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/core/cluster_runtime.hpp"
#include "sim/core/io_service.hpp"
#include "sim/metrics/event_trace.hpp"

namespace acme::core {

/// Which nodes are in service. A node is out of service while anything holds it down (its own
/// failure, its leaf switch's outage, the spare pool); its scheduler is told when it goes out of
/// service and when it comes back, and its hosts are powered off and on (failing their transfers).
/// Going out of service and coming back are traced (events.csv) with the reason given.
class NodeAvailability {
public:
  /// `trace` (optional) receives node_down and node_up rows.
  NodeAvailability(JobTable& table, IoService& io, metrics::EventTrace* trace = nullptr);

  bool is_down(model::ClusterId cluster, std::uint32_t node) const { return reasons(cluster, node) > 0; }
  /// How many reasons hold the node down (0: in service).
  std::uint16_t reasons(model::ClusterId cluster, std::uint32_t node) const {
    return down_reasons_[model::to_index(cluster)][node];
  }
  /// One more reason holds the node down; the first takes it out of service. `why` is its OutOfService
  /// bit in the cluster view; `reason` is what the trace says (a failure category, "switch", "spare").
  void down(model::ClusterId cluster, std::uint32_t node, std::uint8_t why, std::string_view reason);
  /// One reason fewer (its OutOfService bits `why` clear); the last brings the node back into service
  /// (`reason`: "repaired", ...).
  void up(model::ClusterId cluster, std::uint32_t node, std::uint8_t why, std::string_view reason);
  /// The reason holding the node down changes from `from` to `to` (a repair escalated, a quarantine).
  void relabel(model::ClusterId cluster, std::uint32_t node, std::uint8_t from, std::uint8_t to);

private:
  JobTable& table_;
  IoService& io_;
  metrics::EventTrace* trace_;
  std::vector<std::vector<std::uint16_t>> down_reasons_; ///< per cluster, per node
};

} // namespace acme::core
