#pragma once

// Fakes of the engine's services for unit tests of the SimGrid-free parts (sim/core): a timer that
// keeps what is scheduled, an I/O service whose transfers end when the test says so, a job control
// that records what the parts ask for, and a one-cluster job table.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/core/cluster_runtime.hpp"
#include "sim/core/fabric_service.hpp"
#include "sim/core/io_service.hpp"
#include "sim/core/job_control.hpp"
#include "sim/core/timer_service.hpp"

namespace acme::test {

/// Keeps the scheduled events; the test moves the clock.
class FakeTimer final : public core::TimerService {
public:
  struct Scheduled {
    double time_s = 0.0;
    core::EngineEvent event;
  };
  double now_s() const override { return now_s_; }
  void schedule(double time_s, core::EngineEvent event) override;
  void set_now(double now_s) { now_s_ = now_s; }
  /// Removes and returns the earliest event (the first scheduled among equal times) and moves the
  /// clock to its time.
  Scheduled pop();
  /// The last scheduled event of type E and its time (fails the test when there is none).
  template <class E>
  std::pair<double, E> last() const {
    for (auto it = scheduled.rbegin(); it != scheduled.rend(); ++it) {
      if (const E* e = std::get_if<E>(&it->event)) {
        return {it->time_s, *e};
      }
    }
    fail_missing();
    return {};
  }
  template <class E>
  std::size_t count() const {
    std::size_t n = 0;
    for (const auto& s : scheduled) {
      n += std::holds_alternative<E>(s.event) ? 1 : 0;
    }
    return n;
  }

  std::vector<Scheduled> scheduled;

private:
  static void fail_missing();
  double now_s_ = 0.0;
};

/// Records starts and cancellations; transfers end only through done().
class FakeIo final : public core::IoService {
public:
  core::TransferId start(const core::TransferRequest& request) override;
  void cancel(core::TransferId id) override { cancelled.push_back(id); }
  bool stripes() const override { return striped; }
  void widen_nic(model::ClusterId cluster, model::NodeId node, std::uint32_t nodes) override;
  void set_node_power(model::ClusterId cluster, model::NodeId node, bool on) override;
  /// The event a transfer that ran `duration_s` comes back as.
  core::TransferDone done(core::TransferId id, double duration_s) const;
  core::TransferId last_started() const { return next_id_ - 1; }

  std::map<core::TransferId, core::TransferRequest> started;
  std::vector<core::TransferId> cancelled;
  bool striped = false;                                         ///< what stripes() answers
  std::vector<std::pair<std::uint32_t, std::uint32_t>> widened; ///< (node, nodes)
  std::vector<std::pair<std::uint32_t, bool>> power;            ///< (node, on)

private:
  core::TransferId next_id_ = 1;
};

/// Records the flows opened and closed; rates change when the test says so.
class FakeFabric final : public core::FabricService {
public:
  core::FlowId open(const core::FlowRequest& request) override;
  void close(core::FlowId flow) override;
  double achieved_Bps(core::FlowId flow) const override;
  bool rate_known(core::FlowId flow) const override;
  std::vector<core::FlowId> take_changed() override;
  void set_uplinks_down(model::ClusterId cluster, std::uint32_t leaf, std::uint32_t down) override;
  core::FabricUsage usage(model::ClusterId cluster) const override;
  /// Flows opened from now on run at their demand at once, their rate known (as a fabric that parks them).
  bool park = false;
  /// The fabric re-shared: `flow` now runs at `rate_Bps`.
  void set_rate(core::FlowId flow, double rate_Bps);
  /// Every open flow at its demand (as an uncontended fabric would share).
  void grant_demands();

  std::map<core::FlowId, core::FlowRequest> open_flows;
  std::vector<core::FlowId> closed;
  std::vector<std::tuple<std::uint32_t, std::uint32_t>> uplinks_down; ///< (leaf, down) as set

private:
  std::map<core::FlowId, double> rates_;
  std::set<core::FlowId> known_;
  std::vector<core::FlowId> changed_;
  core::FlowId next_id_ = 1;
};

/// Records what the parts ask of the lifecycle, and does its part of the bookkeeping: a finished
/// job leaves the table; an ended attempt releases the job in the view and enters WAITING.
class FakeControl final : public core::JobControl {
public:
  FakeControl(core::JobTable& table, const FakeTimer& timer) : table_(table), timer_(timer) {}
  void finish(model::JobId id, core::JobRuntime& job, model::JobState state, model::EndCause cause) override;
  void end_attempt(model::JobId id, core::JobRuntime& job, model::JobPhase next, model::JobState state,
                   model::EndCause cause) override;
  void requeue(model::JobId id) override;
  void relaunch(model::JobId id, core::JobRuntime& job, const std::vector<model::NodeSwap>& swaps) override;
  void preempt_for_restart(model::JobId id) override;

  std::vector<std::string> calls; ///< e.g. "finish 1 COMPLETED", "end 1 HELD FAILED", "requeue 1", "relaunch 1"

private:
  core::JobTable& table_;
  const FakeTimer& timer_;
};

/// One cluster "test" of `nodes` nodes of 8 GPUs under leaves of `nodes_per_leaf`, no jobs.
core::JobTable one_cluster(std::uint32_t nodes, std::uint32_t nodes_per_leaf = 0);
/// A pretraining job of `nodes` whole nodes (8 GPUs each), `duration_s` of work, `params` parameters.
model::JobSpec pretrain_job(std::uint64_t id, std::uint32_t nodes, double duration_s, double params = 1e9);
/// Adds `spec` to the table and starts it in the view on nodes first_node, first_node + 1, ...
/// (whole nodes), as the lifecycle would allocate it.
core::JobRuntime& run_job(core::JobTable& table, const model::JobSpec& spec, std::uint32_t first_node = 0);

} // namespace acme::test
