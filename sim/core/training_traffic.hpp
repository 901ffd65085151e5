#pragma once

#include <map>
#include <vector>

#include "sim/config/config.hpp"
#include "sim/config/faults.hpp"
#include "sim/core/checkpoint_model.hpp"
#include "sim/core/cluster_runtime.hpp"
#include "sim/core/fabric_service.hpp"

namespace acme::core {

/// A training job's own communication (`network.model`). Every GPU job gets a parallelism layout
/// (sim/model/parallel_layout.hpp). Under the fluid model, a multi-node training job that computes
/// holds a bounded set of long-lived flows on the fabric, each capped at the rate its transfers run at
/// uncontended (its part of the node's IB bandwidth): one per node to the next node of its stage's
/// data-parallel ring (in placement order, the ranks' order) and, with pipeline stages, one per node
/// to its peer in the next stage. The fabric shares its links among them and every storage transfer;
/// when a flow's rate changes, the job's progress rate becomes its uncontended iteration time over its
/// iteration time at the achieved share of its cap (the slowest DP and slowest PP flow set the pace).
/// Rates change only when flows, transfers or link capacities change, never per iteration. A flow
/// holds its rate continuously, while the job only communicates part of each iteration: samples of
/// NIC and spine use count a flow's bytes per iteration over the iteration (what NIC counters show).
class TrainingTraffic final : public ComputeHooks {
public:
  /// `fabric` may be null when the model is `none` (layouts only).
  TrainingTraffic(const config::Config& config, JobTable& table, CheckpointModel& checkpoint, FabricService* fabric);

  bool fluid() const { return fluid_; }
  /// A job enters the system: its layout (GPU jobs; CPU jobs keep none).
  void admit(JobRuntime& job, const model::JobSpec& spec) const;
  /// The job computes: a multi-node training job puts its flows on the fabric (fluid model).
  void on_compute_begin(model::JobId id, JobRuntime& job) override;
  /// The job stops computing (a checkpoint stall, its end, a failure): its flows leave the fabric.
  void on_compute_end(JobRuntime& job) override;
  /// FlowRatesChanged: jobs whose flows run at new rates change pace.
  void on_rates_changed();
  /// Flows on the fabric now.
  std::size_t open_flows() const { return flows_.size(); }
  /// NIC and spine use of a cluster now, training flows counted at their average over an iteration.
  FabricSample sample(model::ClusterId cluster) const;

private:
  struct FlowInfo {
    model::JobId job{};
    FlowRequest request;
  };
  void open(model::JobId id, JobRuntime& job, const model::Placement& placement);
  FlowId open_flow(model::JobId id, const FlowRequest& request);
  /// The smallest share of its cap a flow of one kind achieves (1 without flows).
  double share(const std::vector<FlowId>& flows, double cap_Bps) const;
  void update_rate(model::JobId id, JobRuntime& job);
  /// Every flow of the job has a known rate (none waits for the fabric's next sharing).
  bool rates_known(const TrafficState& t) const;
  /// Takes from `usage` what the cluster's flows hold beyond their average over an iteration.
  void average_flows(model::ClusterId cluster, FabricUsage& usage) const;

  const config::Config& config_;
  JobTable& table_;
  CheckpointModel& checkpoint_;
  FabricService* fabric_;
  bool fluid_;
  std::vector<model::LayoutInputs> clusters_; ///< per cluster: what a layout on it starts from
  std::map<FlowId, FlowInfo> flows_;          ///< ordered: samples sum the same way on every run
};

} // namespace acme::core
