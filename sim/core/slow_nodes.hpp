#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/config/faults.hpp"
#include "sim/core/cluster_runtime.hpp"
#include "sim/core/timer_service.hpp"
#include "sim/model/cluster_rngs.hpp"

namespace acme::core {

/// Fail-slow nodes (`failures.slow`): each node turns slow at its rate (a Poisson process from the run's
/// start and from each recovery, on its own random stream, so turning it on moves no failure), computes
/// at `speed` for a drawn duration, then recovers. A job's pace is its slowest node's speed: whenever a
/// node's speed changes, every job on it is told its new pace.
class SlowNodes {
public:
  /// Called with a job's new pace (the checkpoint model re-times its computing segment).
  using PaceSink = std::function<void(model::JobId id, JobRuntime& job, double pace)>;
  /// Evicts a slow node for `remaining_s`, the rest of its slow period (the failure process fails it).
  using EvictSink = std::function<void(model::ClusterId cluster, std::uint32_t node, double remaining_s)>;

  SlowNodes(const config::SlowConfig& config, JobTable& table, TimerService& timer, model::ClusterRngs& rng,
            PaceSink sink, EvictSink evict = {});

  /// Schedules every node's first slow period (when the rate is positive).
  void start();
  void on(const NodeSlowed& event);
  void on(const NodeSpedUp& event);
  /// SlowNoticed: a node still slow and running a job is evicted; an idle one is looked at again later.
  void on(const SlowNoticed& event);
  /// The share of its pace node `node` computes at now (1 when not slow).
  double speed(model::ClusterId cluster, std::uint32_t node) const { return speed_[model::to_index(cluster)][node]; }
  /// The pace of a job on `placement`: its slowest node's speed.
  double pace(model::ClusterId cluster, const model::Placement& placement) const;
  /// Slow periods that began on the node so far.
  std::uint32_t periods(model::ClusterId cluster, std::uint32_t node) const {
    return periods_[model::to_index(cluster)][node];
  }

private:
  void draw_next(model::ClusterId cluster, std::uint32_t node);
  void repace_jobs_on(model::ClusterId cluster, std::uint32_t node);

  const config::SlowConfig& config_;
  JobTable& table_;
  TimerService& timer_;
  model::ClusterRngs& rng_;
  PaceSink sink_;
  EvictSink evict_;
  std::vector<std::vector<double>> until_s_;           ///< per cluster, per node: end of its slow period
  std::vector<std::vector<double>> speed_;             ///< per cluster, per node
  std::vector<std::vector<std::uint32_t>> periods_;    ///< per cluster, per node
  std::vector<std::vector<std::uint32_t>> generation_; ///< per cluster, per node: invalidates older draws
};

} // namespace acme::core
