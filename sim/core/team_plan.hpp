#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/config/config.hpp"
#include "sim/model/ids.hpp"
#include "sim/model/job.hpp"

namespace acme::core {

/// A cluster's team (its pretraining team, say) plans its jobs against a GPU budget
/// (config::TeamPlanConfig): it submits a job of its types only when the GPUs of its jobs already
/// submitted and not ended, plus the new job's, fit the budget (or when none is under way). A job that
/// does not fit is held back; held jobs go in in the order they came (a job that does not fit holds the
/// ones behind it), each with its submission time set to its release, as soon as ended jobs make room.
/// Of a run (`JobSpec::run`) only the first attempt is planned: the team restarts its runs, so later
/// attempts go in as they come (the attempt chain orders them), or follow the first when it is held.
/// Independently drawn runs would otherwise overlap where a team planning against a reservation would
/// not start them.
class TeamPlan {
public:
  /// One plan per cluster (index = ClusterId); a disabled one plans nothing.
  explicit TeamPlan(std::vector<config::TeamPlanConfig> plans = {});

  /// A job the workload submits now. True when the plan keeps it: it comes back from take_due().
  bool hold(model::JobSpec& spec);
  /// A job entered its cluster's queue: a job of the team starts counting against the budget.
  void on_submitted(const model::JobSpec& spec);
  /// A job ended at `now_s`: its GPUs leave the budget, and held runs that now fit become due.
  void on_ended(model::JobId id, double now_s);
  /// When released runs are due (they are due when released); infinity when none is.
  double next_time_s() const { return due_.empty() ? std::numeric_limits<double>::infinity() : due_s_; }
  /// The runs released, in release order: each first attempt (its submission time set to its release)
  /// followed by its later attempts that the workload submitted while it was held (for the attempt chain).
  std::vector<model::JobSpec> take_due();
  /// No run is held or due.
  bool empty() const;
  /// GPUs of the team's jobs of `cluster` submitted and not ended.
  std::uint64_t under_way_gpus(model::ClusterId cluster) const;
  /// How long each job the plan of `cluster` held back waited before it went in, in the order they went
  /// in (jobs that fit at once are not in it); nullopt when the cluster has no plan. Not queueing delay:
  /// the scheduler never saw the job while it was held.
  std::optional<std::vector<double>> hold_times_s(std::size_t cluster) const;

private:
  struct ClusterPlan {
    config::TeamPlanConfig config;
    std::uint64_t under_way_gpus = 0;
    std::deque<model::JobSpec> held; ///< in the order they came
    std::vector<double> hold_s;      ///< of each job released so far
  };
  bool planned(const model::JobSpec& spec) const;
  /// Whether `gpus` more fit the plan's budget now (a job wider than the budget fits when none is under way).
  static bool fits(const ClusterPlan& plan, std::uint32_t gpus);
  void release(ClusterPlan& plan, double now_s);

  std::vector<ClusterPlan> clusters_;
  bool any_ = false;                                                                ///< some cluster has a plan
  std::unordered_map<model::JobId, std::pair<std::size_t, std::uint32_t>> counted_; ///< -> (cluster, GPUs)
  std::unordered_map<std::uint64_t, std::vector<model::JobSpec>>
      followers_;                   ///< held run (run_key) -> its later attempts
  std::vector<model::JobSpec> due_; ///< released, not yet taken
  double due_s_ = 0.0;              ///< when due_ was released
};

} // namespace acme::core
