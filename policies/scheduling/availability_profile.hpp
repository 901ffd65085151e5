#pragma once

#include "acme/model/decision.hpp"
#include "acme/model/job.hpp"
#include "acme/policies/placement/placement_policy.hpp"
#include "acme/policies/scheduling/running_jobs.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace acme::policies {

/// Future free GPUs per node for conservative backfilling: what the round has free now, the running
/// jobs' GPUs coming back at their estimated ends, and the reservations made so far. GPUs in use that
/// no known running job explains (held for a claimant, say) never come back. Queries read the round's
/// free resources and running jobs live, so jobs started during the pass are accounted for at once.
class AvailabilityProfile {
public:
  /// A start time and the GPUs to take there.
  struct Slot {
    double start_s = 0.0;
    model::Placement placement;
  };

  /// Starts a pass over `free` and `running` at `now_s` with no reservations.
  void begin(const FreeResources& free, const RunningJobs& running, double now_s);
  /// Moves the profile to a later instant of the same plan (an arrival-only round).
  void advance(const FreeResources& free, double now_s);
  /// The earliest slot at which `job` fits for `duration_s` on every node it takes; nullopt when it never
  /// does with the nodes that are up. Single-node jobs go on the lowest node with the earliest start;
  /// larger jobs on idle nodes, largest first.
  std::optional<Slot> earliest(const model::JobSpec& job, double duration_s) const;
  /// Whether starting on `placement` now for `duration_s` leaves every reservation intact.
  bool fits_now(const model::Placement& placement, double duration_s) const;
  void reserve(const Slot& slot, double duration_s);
  std::size_t reservations() const { return reservation_count_; }

private:
  struct Reservation {
    double start_s = 0.0;
    double end_s = 0.0;
    std::uint32_t gpus = 0;
  };
  std::uint32_t capacity(std::uint32_t n) const;
  std::uint32_t running_use(std::uint32_t n, double t_s) const;
  std::uint32_t reserved_use(std::uint32_t n, double t_s) const;
  bool fits_window(std::uint32_t n, double start_s, double duration_s, std::uint32_t gpus) const;
  std::optional<Slot> earliest_on_one_node(std::uint32_t gpus, double duration_s) const;
  std::optional<Slot> earliest_on_idle_nodes(std::uint32_t gpus, double duration_s) const;
  /// Earliest instant at which the nodes whose windows contain it hold `gpus` (a sweep over the windows).
  double earliest_cover(const std::vector<std::vector<std::pair<double, double>>>& windows, std::uint32_t gpus) const;
  /// Feasible start intervals [from, to] of a whole idle node for `duration_s`.
  std::vector<std::pair<double, double>> idle_windows(std::uint32_t n, double duration_s) const;

  const FreeResources* free_ = nullptr;
  const RunningJobs* running_ = nullptr;
  double now_s_ = 0.0;
  std::vector<std::vector<Reservation>> reserved_;
  std::vector<std::uint32_t> touched_;
  std::size_t reservation_count_ = 0;
};

} // namespace acme::policies
