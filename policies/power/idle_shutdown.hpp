#pragma once

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "policies/param_table.hpp"
#include "policies/power/power_policy.hpp"

namespace acme::policies {

/// `idle_shutdown`'s parameters.
struct IdleShutdownParams {
  double idle_after_s = 1800.0; ///< assumption: 30 minutes idle before a node is switched off
  std::uint32_t reserve = 2;    ///< assumption: idle nodes kept on to absorb arrivals without a boot
  double boot_time_s = 300.0;   ///< assumption: POST, OS boot and health checks of a GPU server

  static const ParamTable<IdleShutdownParams>& table();
};

/// `idle_shutdown`: a node idle for `idle_after` is switched off unless that would leave fewer than
/// `reserve` idle nodes on (the longest idle go first); OFF nodes boot (lowest index first) when the
/// queued GPU demand exceeds the free GPUs of up and booting nodes, or to refill the reserve. A job
/// waiting for a booting node waits `boot_time` more (Helios' CES; Batsim's energy-aware EASY).
class IdleShutdown final : public PowerPolicy {
public:
  explicit IdleShutdown(const IdleShutdownParams& params) : params_(params) {}
  double boot_time_s() const override { return params_.boot_time_s; }
  PowerDecision on_instant(std::span<const model::NodeId> became_idle, const model::ClusterView& view) override;

private:
  void switch_off_idle(const model::ClusterView& view, PowerDecision& out);
  void boot_for_demand(const model::ClusterView& view, PowerDecision& out) const;

  IdleShutdownParams params_;
  std::deque<std::pair<double, model::NodeId>> idle_; ///< (idle since, node), oldest first; stale entries skipped
  std::vector<double> idle_since_s_;                  ///< per node: when its current idle period began
};

} // namespace acme::policies
