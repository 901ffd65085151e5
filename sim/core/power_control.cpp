#include "sim/core/power_control.hpp"

#include <bit>
#include <cmath>
#include <limits>

#include "sim/model/assert.hpp"

namespace acme::core {
namespace {
constexpr double NEVER = std::numeric_limits<double>::infinity();
constexpr std::size_t WORD_BITS = 64;
} // namespace

PowerControl::PowerControl(std::vector<std::unique_ptr<policies::PowerPolicy>> policies, TimerService& timer,
                           JobTable& table, NodeAvailability& nodes, PowerMeter& meter)
    : policies_(std::move(policies))
    , timer_(timer)
    , table_(table)
    , nodes_(nodes)
    , meter_(meter)
    , next_check_s_(policies_.size(), NEVER) {
  ACME_ASSERT(policies_.size() == table_.clusters.size(), "one power policy per cluster");
  for (std::size_t c = 0; c < policies_.size(); ++c) {
    managed_.push_back(policies_[c]->manages_nodes());
    idle_before_.emplace_back(table_.clusters[c].view.shape().nodes); // every idle node is new at the first call
  }
  due_ = managed_; // the first instant tells the policies which nodes are idle
}

void PowerControl::decide() {
  for (std::size_t c = 0; c < due_.size(); ++c) {
    if (due_[c]) {
      due_[c] = false;
      decide(model::ClusterId{static_cast<std::uint16_t>(c)});
    }
  }
}

void PowerControl::decide(model::ClusterId cluster) {
  std::size_t c = model::to_index(cluster);
  const double now_s = timer_.now_s();
  std::vector<model::NodeId> idle = newly_idle(c);
  policies::PowerDecision d = policies_[c]->on_instant(idle, table_.clusters[c].view);
  for (model::NodeId node : d.power_off) {
    switch_off(cluster, node);
  }
  for (model::NodeId node : d.boot) {
    boot(cluster, node);
  }
  if (std::isfinite(d.call_back_at_s) && d.call_back_at_s > now_s && d.call_back_at_s < next_check_s_[c]) {
    next_check_s_[c] = d.call_back_at_s;
    timer_.schedule(d.call_back_at_s, PowerCheck{cluster});
  }
}

std::vector<model::NodeId> PowerControl::newly_idle(std::size_t c) {
  const model::NodeBitset& now = table_.clusters[c].view.idle_node_set();
  const std::vector<std::uint64_t>& after = now.words();
  const std::vector<std::uint64_t>& before = idle_before_[c].words();
  std::vector<model::NodeId> out;
  for (std::size_t w = 0; w < after.size(); ++w) {
    for (std::uint64_t fresh = after[w] & ~before[w]; fresh != 0; fresh &= fresh - 1) {
      out.push_back(model::NodeId{static_cast<std::uint32_t>(w * WORD_BITS + std::countr_zero(fresh))});
    }
  }
  idle_before_[c] = now;
  return out;
}

void PowerControl::switch_off(model::ClusterId cluster, model::NodeId node) {
  ClusterRuntime& rt = table_.cluster(cluster);
  std::uint32_t n = model::to_index(node);
  ACME_ASSERT(rt.view.idle_node_set().test(n), "power policies switch off idle nodes only");
  nodes_.down(cluster, n, model::OutOfService::POWER, "power off");
  rt.view.set_node_power(node, model::NodePower::OFF);
  meter_.set_node_power(cluster, n, model::NodePower::OFF, timer_.now_s());
  idle_before_[model::to_index(cluster)].reset(n); // idle again once booted: reported then
}

void PowerControl::boot(model::ClusterId cluster, model::NodeId node) {
  ClusterRuntime& rt = table_.cluster(cluster);
  std::uint32_t n = model::to_index(node);
  ACME_ASSERT(rt.view.power_of(node) == model::NodePower::OFF, "power policies boot switched-off nodes only");
  rt.view.set_node_power(node, model::NodePower::BOOTING);
  meter_.set_node_power(cluster, n, model::NodePower::BOOTING, timer_.now_s());
  timer_.schedule(timer_.now_s() + policies_[model::to_index(cluster)]->boot_time_s(), NodeBooted{cluster, n});
}

void PowerControl::on(const NodeBooted& e) {
  table_.cluster(e.cluster).view.set_node_power(model::NodeId{e.node}, model::NodePower::ON);
  meter_.set_node_power(e.cluster, e.node, model::NodePower::ON, timer_.now_s());
  nodes_.up(e.cluster, e.node, model::OutOfService::POWER,
            "booted"); // its scheduler sees NodeUp unless it is also down for another reason
  due_[model::to_index(e.cluster)] = true;
}

void PowerControl::on(const PowerCheck& e) {
  std::size_t c = model::to_index(e.cluster);
  if (timer_.now_s() >= next_check_s_[c]) {
    next_check_s_[c] = NEVER;
    due_[c] = true;
  }
}

} // namespace acme::core
