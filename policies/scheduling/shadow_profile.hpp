#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "policies/scheduling/node_tally.hpp"
#include "policies/scheduling/running_jobs.hpp"
#include "sim/model/job.hpp"

namespace acme::policies {

/// The EASY reservation of the queue's head job: the shadow time (the earliest estimated instant at
/// which enough resources are free for it, in the placement's terms: one node with enough free GPUs,
/// or enough whole idle nodes) and the free GPUs per node at that instant. A backfill candidate that
/// runs past the shadow time may start only where taking its GPUs at the shadow time still leaves the
/// head a place; one that ends by then never delays it.
class ShadowProfile {
public:
  static constexpr double NEVER = std::numeric_limits<double>::infinity();

  /// Plans the reservation of a head job of `head_gpus` that does not fit now, from the round's free
  /// resources and the running jobs' estimated ends. Jobs ending at the shadow time all count as ended.
  void compute(std::uint32_t head_gpus, const FreeResources& free, const RunningJobs& running, double now_s);
  /// The shadow time (NEVER when the head cannot fit even once every running job ended: no reservation).
  double shadow_s() const { return shadow_s_; }
  bool has_reservation() const { return shadow_s_ != NEVER; }
  /// Whether a candidate placed on `placement` and running until `end_s` keeps the head's reservation;
  /// when it does, its GPUs are taken from the shadow-time tally.
  bool admit(const model::Placement& placement, double end_s);

private:
  std::uint32_t head_gpus_ = 0;
  double shadow_s_ = NEVER;
  NodeTally at_shadow_;
  std::vector<std::uint32_t> taken_;
};

} // namespace acme::policies
