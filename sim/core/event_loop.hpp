#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "policies/builtin.hpp"
#include "sim/config/config.hpp"
#include "sim/core/attempt_chain.hpp"
#include "sim/core/checkpoint_model.hpp"
#include "sim/core/cluster_runtime.hpp"
#include "sim/core/event_queue.hpp"
#include "sim/core/fabric_service.hpp"
#include "sim/core/failure_process.hpp"
#include "sim/core/io_service.hpp"
#include "sim/core/job_lifecycle.hpp"
#include "sim/core/link_failures.hpp"
#include "sim/core/node_availability.hpp"
#include "sim/core/power_control.hpp"
#include "sim/core/power_meter.hpp"
#include "sim/core/recovery.hpp"
#include "sim/core/sampler.hpp"
#include "sim/core/slow_nodes.hpp"
#include "sim/core/task_runner.hpp"
#include "sim/core/team_plan.hpp"
#include "sim/core/training_traffic.hpp"
#include "sim/metrics/recorder.hpp"
#include "sim/model/cluster_rngs.hpp"
#include "sim/model/rng.hpp"
#include "sim/topology/cluster_graph.hpp"
#include "workloads/workload_source.hpp"

namespace acme::core {

/// What the engine adaptor hands the event loop.
struct LoopSetup {
  const config::Config* config = nullptr;
  const policies::PolicyRegistries* registries = nullptr;
  const topology::ClusterGraph* graph = nullptr;
  std::unique_ptr<workloads::WorkloadSource> workload;
  metrics::Recorder* recorder = nullptr;
  IoService* io = nullptr;
  FabricService* fabric = nullptr;        ///< optional: training flows, uplink capacity, NIC samples
  std::vector<double> storage_nic_bw_Bps; ///< per cluster: one node's storage NIC
  bool check_invariants = false;          ///< re-verify the allocation after every instant (debug)
};

/// The engine without SimGrid: the event queue, the workload's submissions, the clusters'
/// schedulers and the parts that run jobs (lifecycle, checkpoint model, task runner, failure
/// process, recovery, sampling). An adaptor drives it: it calls process_instant() at each
/// next_time_s() on its clock, and queues the I/O service's completions through timer().
class EventLoop {
public:
  explicit EventLoop(LoopSetup setup);
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  /// The clock and queue the parts schedule on; the I/O service queues its completions here.
  TimerService& timer() { return queue_; }
  /// When there is something to do next; infinity when the run is over (only failure and repair
  /// processes would be left).
  double next_time_s() const;
  /// Processes the instant `now_s`: its events, submissions, restarts and scheduling rounds.
  void process_instant(double now_s);
  /// Closes the run at the last instant: the last samples.
  void finish();

  double now_s() const { return queue_.now_s(); }
  std::uint64_t instants() const { return instants_; }
  std::uint64_t jobs_submitted() const { return lifecycle_.jobs_submitted(); }
  std::uint64_t jobs_rejected() const { return lifecycle_.jobs_rejected(); }
  /// The team plans' holds (TeamPlan::hold_times_s) of cluster `c`.
  std::optional<std::vector<double>> plan_hold_times_s(std::size_t c) const { return plan_.hold_times_s(c); }
  /// Cluster `c`'s failure counts (latent faults, repairs, detection paths) and node time out of service.
  metrics::FaultCounts fault_counts(std::size_t c) const {
    metrics::FaultCounts counts = failures_.fault_counts(model::ClusterId{static_cast<std::uint16_t>(c)});
    const model::ClusterView& view = table_.clusters[c].view;
    model::OutOfServiceTime out = view.out_of_service_time();
    counts.out_of_service_node_s = out.by_reason_node_s;
    counts.any_out_of_service_node_s = out.any_node_s;
    counts.failed_node_s = out.failed_node_s;
    counts.node_s = view.shape().nodes * view.now_s();
    return counts;
  }
  std::uint64_t jobs_recorded() const { return recorder_.jobs_recorded(); }
  double epoch_unix_s() const { return workload_->epoch_unix_s(); }
  double workload_span_s() const { return workload_->span_s(); }

private:
  void dispatch(const EngineEvent& event);
  // One handler per EngineEvent alternative.
  void on(const JobLaunched& e);
  void on(const SegmentEnded& e);
  void on(const StallEnded& e);
  void on(const StepEnded& e);
  void on(const JobRecovered& e);
  void on(const HangNoticed& e);
  void on(const TransferDone& e);
  void on(const FlowRatesChanged& e);
  void on(const NodeFailed& e);
  void on(const NodeRepaired& e);
  void on(const LeafFailed& e);
  void on(const LeafRepaired& e);
  void on(const TracedFailure& e);
  void on(const HealthCheck& e);
  void on(const NodeSlowed& e) { slow_->on(e); }
  void on(const SlowNoticed& e) { slow_->on(e); }
  void on(const GroupFailed& e) { failures_.on(e); }
  void on(const NodeSpedUp& e) { slow_->on(e); }
  void on(const NodeBooted& e);
  void on(const PowerCheck& e);
  void on(const PolicyWakeup& e);
  void on(const SpineLinkFailed& e);
  void on(const SpineLinkRepaired& e);
  /// The sampler's probe of NIC and spine use (fluid model only).
  Sampler::Probe network_probe();
  void take_submissions(double now_s);
  /// Draws each node's failure-rate factor, then starts the failure process (its trace and first draws).
  void start_failures();
  /// Fail-slow nodes (failures.slow), when on: their process starts and the checkpoint model reads their pace.
  void start_slow_nodes();
  void run_schedulers();
  /// True while some cluster holds events its scheduler has not heard yet.
  bool events_undelivered() const;
  void check_invariants() const;

  const config::Config& config_;
  std::unique_ptr<workloads::WorkloadSource> workload_;
  metrics::Recorder& recorder_;
  bool check_invariants_;
  model::ClusterRngs failure_rng_;  ///< node and switch failures
  model::ClusterRngs recovery_rng_; ///< recovery delays
  model::ClusterRngs launch_rng_;   ///< launch latencies, fallback save and restore costs
  model::ClusterRngs link_rng_;     ///< spine link failures and repairs
  model::ClusterRngs slow_rng_;     ///< fail-slow periods
  std::unique_ptr<policies::CheckpointPolicy> checkpoint_policy_;
  std::unique_ptr<policies::RecoveryPolicy> recovery_policy_;
  EventQueue queue_;
  JobTable table_;
  PowerMeter power_;
  NodeAvailability nodes_;
  PowerControl power_control_;
  JobLifecycle lifecycle_;
  CheckpointModel checkpoint_;
  TrainingTraffic traffic_;
  TaskRunner plans_;
  Recovery recovery_;
  FailureProcess failures_;
  std::unique_ptr<LinkFailures> links_; ///< with a fabric
  std::unique_ptr<SlowNodes> slow_;     ///< with failures.slow
  Sampler sampler_;
  AttemptChain chain_;
  TeamPlan plan_;
  std::optional<model::JobSpec> next_job_;
  std::vector<model::Event> events_scratch_;
  std::uint64_t instants_ = 0;
};

} // namespace acme::core
