#pragma once

// Engine-internal state shared by the event loop's translation units. Not included outside sim/engine.

#include "acme/config/config.hpp"
#include "acme/engine/platform.hpp"
#include "acme/engine/simulation.hpp"
#include "acme/metrics/recorder.hpp"
#include "acme/model/cluster_view.hpp"
#include "acme/model/event.hpp"
#include "acme/policies/scheduling/scheduler.hpp"
#include "acme/topology/cluster_graph.hpp"

#include <cstdint>
#include <exception>
#include <optional>
#include <queue>
#include <unordered_map>
#include <vector>

namespace acme::engine {

enum class EventKind : std::uint8_t {
  JOB_END, ///< a running job's service is done
};

/// An entry of the engine's own event heap. `generation` invalidates events of an earlier attempt.
struct QueuedEvent {
  double time_s = 0.0;
  std::uint64_t sequence = 0;
  EventKind kind = EventKind::JOB_END;
  std::uint32_t generation = 0;
  std::uint64_t subject = 0;
};

struct LaterFirst {
  bool operator()(const QueuedEvent& a, const QueuedEvent& b) const {
    return a.time_s > b.time_s || (a.time_s == b.time_s && a.sequence > b.sequence);
  }
};

/// Engine-private run-time state of an active job (the public part is the ClusterView's JobEntry).
struct JobRuntime {
  model::ClusterId cluster{};
  std::uint32_t generation = 0;
  std::uint32_t attempts = 0;
  double first_start_s = model::UNKNOWN_TIME_S;
  double remaining_work_s = 0.0; ///< service time still to run
  double gpu_seconds = 0.0;      ///< GPU time allocated in finished attempts
  std::uint32_t leaves = 0;
  std::uint32_t nodes = 0;
};

struct ClusterRuntime {
  model::ClusterView view;
  std::unique_ptr<policies::Scheduler> scheduler;
  std::vector<model::Event> pending;
  double busy_at_last_sample = 0.0;
};

struct Simulation::Impl {
  Impl(const config::Config& config, const policies::PolicyRegistries& registries,
       std::unique_ptr<workloads::WorkloadSource> workload, metrics::Recorder& recorder, SimulationOptions options);

  // event_loop.cpp
  RunResult run();
  void on_timer(double date);
  void process_instant(double now_s);
  void arm_timer();
  double next_time() const;
  void schedule(double time_s, EventKind kind, std::uint64_t subject, std::uint32_t generation);
  void handle(const QueuedEvent& event);
  void take_submissions(double now_s);
  void run_schedulers();
  void sample_until(double time_s, bool inclusive);
  void check_invariants() const;

  // job_lifecycle.cpp
  void submit(model::JobSpec spec);
  void apply(ClusterRuntime& cluster, const model::Decision& decision);
  void start_job(ClusterRuntime& cluster, const model::StartJob& start);
  void end_job(model::JobId id, model::JobState state, model::EndCause cause);
  void reject_job(ClusterRuntime& cluster, model::JobId id, model::RejectReason reason);
  void record(const model::JobEntry& entry, const JobRuntime& runtime, double end_s, model::JobState state,
              model::RejectReason reason);

  const config::Config& config;
  topology::ClusterGraph graph;
  Platform platform;
  std::unique_ptr<workloads::WorkloadSource> workload;
  metrics::Recorder& recorder;
  SimulationOptions options;

  std::vector<ClusterRuntime> clusters;
  std::unordered_map<model::JobId, JobRuntime> jobs;
  std::priority_queue<QueuedEvent, std::vector<QueuedEvent>, LaterFirst> heap;
  std::uint64_t sequence = 0;
  std::optional<model::JobSpec> next_job;
  double now_s = 0.0;
  double armed_at_s = -1.0;
  double next_sample_s = 0.0;
  double last_sample_s = 0.0;
  std::exception_ptr error;
  RunResult result;
};

} // namespace acme::engine
