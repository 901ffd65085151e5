#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "policies/placement/placement_policy.hpp"
#include "policies/scheduling/running_jobs.hpp"
#include "sim/model/decision.hpp"
#include "sim/model/job.hpp"

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
  /// Total use of one node (running plus reserved GPUs) from now on: `use` holds on [at_s, next at_s).
  struct Step {
    double at_s = 0.0;
    std::uint32_t use = 0;
    bool candidate = false; ///< now, or where a running job or a reservation ends (a start worth trying)
  };
  /// What the queries need of one node, derived from the round's free GPUs, the running jobs and the
  /// reservations; rebuilt when any of them changes on the node.
  struct NodePlan {
    bool valid = false;
    std::uint32_t free_key = 0; ///< free GPUs when built (a start during the pass changes it)
    std::size_t shares_key = 0; ///< running shares when built (a start during the pass adds one)
    std::uint32_t stuck = 0;    ///< GPUs in use that never come back (running_use at +inf)
    /// first_fit[g]: index of the first step with room for g more GPUs (steps.size() when none has)
    std::vector<std::uint32_t> first_fit;
    double idle_from_s = 0.0; ///< when every known running job on the node has ended
    std::vector<Step> steps;
    std::vector<Reservation> by_start; ///< the reservations sorted by start
  };
  /// A feasible start interval [from_s, to_s] of a whole idle node.
  struct Window {
    double from_s = 0.0;
    double to_s = 0.0;
    std::uint32_t node = 0;
  };
  std::uint32_t capacity(std::uint32_t n) const;
  const NodePlan& plan(std::uint32_t n) const;
  /// Drops the plans of nodes whose free GPUs or running jobs changed since they were built (jobs
  /// started during the pass); checks every node only when the running jobs or free GPUs changed at all.
  void sync() const;
  void build_plan(std::uint32_t n, NodePlan& p) const;
  void build_steps(std::uint32_t n, NodePlan& p) const;
  /// Adds reservation `r` to the valid plan `p` as build_plan would have it, without rebuilding.
  void add_to_plan(std::uint32_t n, NodePlan& p, const Reservation& r) const;
  /// Fills p.first_fit from p.steps.
  void index_fits(std::uint32_t n, NodePlan& p) const;
  /// Index of the step at `at_s` (>= now), inserted with the use in force there when missing; a
  /// candidate step stays one.
  std::size_t step_at(NodePlan& p, double at_s, bool candidate) const;
  /// The first step in the window of `duration_s` from the step at index `first` where `gpus` more
  /// exceed node `n`'s capacity; NO_CONFLICT (the largest size_t) when they fit throughout.
  std::size_t first_conflict(std::uint32_t n, const NodePlan& p, std::size_t first, double duration_s,
                             std::uint32_t gpus) const;
  /// Whether `gpus` fit on node `n` for `duration_s` from the step at index `first` on.
  bool fits_from(std::uint32_t n, const NodePlan& p, std::size_t first, double duration_s, std::uint32_t gpus) const;
  std::optional<Slot> earliest_on_one_node(std::uint32_t gpus, double duration_s) const;
  std::optional<Slot> earliest_on_idle_nodes(std::uint32_t gpus, double duration_s) const;
  /// An instant at which the nodes whose last windows (never closing) have opened hold `gpus`: an upper
  /// bound of earliest_cover; NEVER when they never do.
  double cover_bound(const std::vector<Window>& windows, std::uint32_t gpus) const;
  /// Earliest instant at which the nodes whose windows contain it hold `gpus` (a sweep over the windows).
  double earliest_cover(const std::vector<Window>& windows, std::uint32_t gpus) const;
  /// Appends the feasible start intervals of whole idle node `n` for `duration_s` to `out`.
  void idle_windows(std::uint32_t n, double duration_s, std::vector<Window>& out) const;
  void invalidate_all();

  const FreeResources* free_ = nullptr;
  const RunningJobs* running_ = nullptr;
  double now_s_ = 0.0;
  std::vector<std::vector<Reservation>> reserved_;
  std::vector<std::uint32_t> touched_;
  std::size_t reservation_count_ = 0;
  mutable std::vector<NodePlan> plans_;
  mutable std::vector<Window> windows_;                          ///< scratch of earliest_on_idle_nodes
  mutable std::vector<std::pair<double, std::uint64_t>> events_; ///< scratch of earliest_cover
  mutable std::vector<double> last_opens_;                       ///< scratch of cover_bound
  mutable std::size_t seen_running_ = 0;                         ///< running jobs when the plans were last checked
  mutable std::uint32_t seen_free_ = 0;                          ///< free GPUs when the plans were last checked
};

} // namespace acme::policies
