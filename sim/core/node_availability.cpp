#include "sim/core/node_availability.hpp"

#include <spdlog/logger.h>

#include "sim/log/log.hpp"
#include "sim/model/assert.hpp"

namespace acme::core {

NodeAvailability::NodeAvailability(JobTable& table, IoService& io, metrics::EventTrace* trace)
    : table_(table)
    , io_(io)
    , trace_(trace) {
  for (const auto& cluster : table_.clusters) {
    down_reasons_.emplace_back(cluster.view.shape().nodes, 0);
  }
}

void NodeAvailability::down(model::ClusterId cluster, std::uint32_t node, std::uint8_t why, std::string_view reason) {
  ClusterRuntime& c = table_.cluster(cluster);
  c.view.set_out_of_service(model::NodeId{node}, c.view.out_of_service(model::NodeId{node}) | why);
  if (down_reasons_[model::to_index(cluster)][node]++ > 0) {
    return;
  }
  c.view.set_node_up(model::NodeId{node}, false);
  c.pending.emplace_back(model::NodeDown{model::NodeId{node}});
  io_.set_node_power(cluster, model::NodeId{node}, false);
  log::get(log::Category::ENGINE).debug("{} node {} down: {}", c.view.shape().name, node, reason);
  if (trace_ != nullptr) {
    trace_->node_down(c.view.now_s(), cluster, model::NodeId{node}, reason);
  }
}

void NodeAvailability::up(model::ClusterId cluster, std::uint32_t node, std::uint8_t why, std::string_view reason) {
  std::uint16_t& reasons = down_reasons_[model::to_index(cluster)][node];
  ACME_ASSERT(reasons > 0, "a node comes back only when down");
  ClusterRuntime& c = table_.cluster(cluster);
  c.view.set_out_of_service(model::NodeId{node}, c.view.out_of_service(model::NodeId{node}) & ~why);
  if (--reasons > 0) {
    return;
  }
  c.view.set_node_up(model::NodeId{node}, true);
  c.pending.emplace_back(model::NodeUp{model::NodeId{node}});
  io_.set_node_power(cluster, model::NodeId{node}, true);
  log::get(log::Category::ENGINE).debug("{} node {} up: {}", c.view.shape().name, node, reason);
  if (trace_ != nullptr) {
    trace_->node_up(c.view.now_s(), cluster, model::NodeId{node}, reason);
  }
}

void NodeAvailability::relabel(model::ClusterId cluster, std::uint32_t node, std::uint8_t from, std::uint8_t to) {
  model::ClusterView& view = table_.cluster(cluster).view;
  view.set_out_of_service(model::NodeId{node}, (view.out_of_service(model::NodeId{node}) & ~from) | to);
}

} // namespace acme::core
