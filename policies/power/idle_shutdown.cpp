#include "policies/power/idle_shutdown.hpp"

namespace acme::policies {

const ParamTable<IdleShutdownParams>& IdleShutdownParams::table() {
  static const ParamTable<IdleShutdownParams> t{
      duration_param("idle_after", &IdleShutdownParams::idle_after_s, "idle time after which a node is switched off"),
      count_param("reserve", &IdleShutdownParams::reserve,
                  "idle nodes kept on (never switched off; booted to refill it)", 0),
      duration_param("boot_time", &IdleShutdownParams::boot_time_s,
                     "from a boot decision until the node is in service")};
  return t;
}

PowerDecision IdleShutdown::on_instant(std::span<const model::NodeId> became_idle, const model::ClusterView& view) {
  if (idle_since_s_.size() != view.shape().nodes) {
    idle_since_s_.assign(view.shape().nodes, -1.0);
  }
  for (model::NodeId node : became_idle) {
    if (view.idle_node_set().test(model::to_index(node))) {
      idle_since_s_[model::to_index(node)] = view.now_s();
      idle_.emplace_back(view.now_s(), node);
    }
  }
  PowerDecision out;
  boot_for_demand(view, out);
  if (out.boot.empty()) {
    switch_off_idle(view, out);
  }
  return out;
}

void IdleShutdown::switch_off_idle(const model::ClusterView& view, PowerDecision& out) {
  const model::NodeBitset& idle = view.idle_node_set();
  std::size_t idle_on = idle.count();
  // Free GPUs of up and booting nodes left once the chosen nodes are off: never below the queued demand.
  std::uint64_t capacity = view.free_gpus_total() + std::uint64_t{view.booting_nodes()} * view.shape().gpus_per_node;
  while (!idle_.empty()) {
    auto [since_s, node] = idle_.front();
    std::uint32_t n = model::to_index(node);
    if (!idle.test(n) || idle_since_s_[n] != since_s) {
      idle_.pop_front(); // taken since, or idle again with a newer entry
      continue;
    }
    if (since_s + params_.idle_after_s > view.now_s()) {
      out.call_back_at_s = since_s + params_.idle_after_s;
      return;
    }
    std::uint32_t gpus = view.gpus_of(node);
    if (idle_on <= params_.reserve || capacity < view.queued_gpus() + gpus) {
      return; // reconsidered when the cluster changes
    }
    out.power_off.push_back(node);
    --idle_on;
    capacity -= gpus;
    idle_since_s_[n] = -1.0;
    idle_.pop_front();
  }
}

void IdleShutdown::boot_for_demand(const model::ClusterView& view, PowerDecision& out) const {
  const model::NodeBitset& off = view.powered_off_node_set();
  if (off.empty()) {
    return;
  }
  std::uint64_t capacity = view.free_gpus_total() + std::uint64_t{view.booting_nodes()} * view.shape().gpus_per_node;
  std::uint64_t missing = view.queued_gpus() > capacity ? view.queued_gpus() - capacity : 0;
  std::size_t ready = view.idle_node_set().count() + view.booting_nodes();
  std::size_t reserve_gap = params_.reserve > ready ? params_.reserve - ready : 0;
  for (std::size_t n = off.find_first(); n != model::NodeBitset::NPOS; n = off.find_next(n + 1)) {
    if (missing == 0 && reserve_gap == 0) {
      return;
    }
    model::NodeId node{static_cast<std::uint32_t>(n)};
    out.boot.push_back(node);
    std::uint64_t gpus = view.gpus_of(node);
    missing = missing > gpus ? missing - gpus : 0;
    reserve_gap = reserve_gap > 0 ? reserve_gap - 1 : 0;
  }
}

} // namespace acme::policies
