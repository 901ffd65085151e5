#pragma once

// A tiny discrete-event driver for scheduler tests: it plays the engine's part over a hand-built
// ClusterView (submissions, job ends after their duration, preemptions) and checks the engine's
// invariants on every decision. No SimGrid.

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "policies/placement/placement_policy.hpp"
#include "policies/scheduling/scheduler.hpp"
#include "sim/model/cluster_view.hpp"
#include "sim/model/decision.hpp"
#include "sim/model/event.hpp"

namespace acme::test {

/// `nodes` nodes of `gpus_per_node` GPUs; `nodes_per_leaf` > 0 puts consecutive nodes under leaves.
model::ClusterShape make_shape(std::uint32_t nodes, std::uint32_t gpus_per_node, std::uint32_t nodes_per_leaf = 0);
model::JobSpec make_job(std::uint64_t id, std::uint32_t gpus, double submit_s, double duration_s,
                        model::JobType type = model::JobType::OTHER, std::uint32_t user = 0);
std::unique_ptr<policies::PlacementPolicy> first_fit();
/// A policy built through the builtin registries from YAML such as "easy_backfill" or
/// "{name: quota, quotas: {pretrain: 8}}" (seed 42, cluster "test").
std::unique_ptr<policies::Scheduler> make_scheduler(const std::string& yaml);
std::unique_ptr<policies::PlacementPolicy> make_placement(const std::string& yaml);
/// A random small workload for `nodes` nodes of `gpus_per_node` GPUs: mostly small jobs, some whole-node
/// and multi-node ones, integer submit times (so that events coincide) and durations >= 1 s.
std::vector<model::JobSpec> random_workload(std::uint64_t seed, std::size_t jobs, std::uint32_t nodes,
                                            std::uint32_t gpus_per_node);

class Driver;
/// The backfilling scenario of two nodes of 8 GPUs (oracle estimates tell it apart): job 1 holds node 0
/// until 100, job 2 half of node 1 until 50; submitted at 1, job 3 (16 GPUs) can start at 100, job 4
/// (8 GPUs, 10 s) at 50 on node 1, job 5 (4 GPUs, 60 s) fits node 1 now but holds it past 50, job 6
/// (4 GPUs, 39 s) ends before 50. All of one class and user.
void add_two_node_backfill_scenario(Driver& d);

class Driver {
public:
  struct Record {
    double submit_s = 0.0;
    std::vector<double> starts; ///< start of every attempt
    std::vector<model::Placement> placements;
    double end_s = -1.0;
    bool rejected = false;
    std::uint32_t preemptions = 0;
    model::WaitReason reason = model::WaitReason::NONE; ///< the last NoteWait
  };

  Driver(model::ClusterShape shape, std::unique_ptr<policies::Scheduler> scheduler,
         std::unique_ptr<policies::PlacementPolicy> placement = first_fit());

  /// A job submitted at its submit_time_s (must not be in the past).
  void add(model::JobSpec job);
  /// Plays every instant up to and including `until_s`.
  void run_until(double until_s);
  /// Plays until no job is left; false when it stalls (jobs that never start) or runs away.
  bool run_to_end(std::size_t max_instants = 1000000);

  const model::ClusterView& view() const { return view_; }
  policies::Scheduler& scheduler() { return *scheduler_; }
  const std::map<model::JobId, Record>& records() const { return records_; }
  const Record& record(std::uint64_t id) const { return records_.at(model::JobId{id}); }
  bool is_running(std::uint64_t id) const;
  /// Decisions of the last scheduler call.
  const std::vector<model::Decision>& last_decisions() const { return last_; }
  /// Jobs started at instant `t_s`, in decision order.
  std::vector<std::uint64_t> started_at(double t_s) const;

  /// Victims keep running this long after PreemptJob (the engine writes a checkpoint first).
  double preempt_delay_s = 0.0;
  /// Called after every scheduler call with the decisions applied (invariant checks).
  std::function<void(const Driver&)> after_round;

private:
  double next_instant() const;
  void play_instant(double t_s);
  void apply(const model::Decision& decision, std::vector<model::Event>& next);

  model::ClusterView view_;
  std::unique_ptr<policies::Scheduler> scheduler_;
  std::multimap<double, model::JobSpec> arrivals_;
  std::map<model::JobId, model::JobSpec> specs_;
  std::map<model::JobId, double> remaining_s_;
  std::map<model::JobId, double> end_at_;     ///< running jobs' end of service
  std::map<model::JobId, double> release_at_; ///< preempted jobs still saving
  std::map<model::JobId, Record> records_;
  std::set<double> wakeups_; ///< times asked for with CallMeLater
  std::vector<model::Decision> last_;
  std::size_t active_ = 0;
};

} // namespace acme::test
