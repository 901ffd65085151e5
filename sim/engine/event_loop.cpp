// The event loop: SimGrid's clock drives it through one kernel timer armed at the next instant
// (DESIGN §4: no actor per job). Everything happens in timer callbacks inside SimGrid's maestro, so
// activities started by the engine complete back into the same loop at their own simulated time.
#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <limits>

#include "sim/engine/engine_state.hpp"
#include "sim/model/assert.hpp"

namespace acme::engine {
namespace {
constexpr double NEVER = std::numeric_limits<double>::infinity();
constexpr std::uint64_t PROGRESS_EVERY_INSTANTS = 1 << 16;
constexpr int MAX_ROUNDS_PER_INSTANT = 1 << 20;
} // namespace

RunResult Simulation::Impl::run() {
  arm_timer();
  platform.get_engine().run();
  if (error) {
    std::rethrow_exception(error);
  }
  sample_until(now_s, true);
  result.end_time_s = now_s;
  result.jobs_recorded = recorder.jobs_recorded();
  ACME_ASSERT(jobs.empty(), "every submitted job is accounted for");
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    model::ClusterId cid{static_cast<std::uint16_t>(c)};
    result.storage_bytes_written.push_back(io.bytes_moved(cid, core::IoDirection::WRITE));
    result.storage_bytes_read.push_back(io.bytes_moved(cid, core::IoDirection::READ));
  }
  return result;
}

double Simulation::Impl::next_time() const {
  if (jobs.empty() && !next_job) {
    return NEVER; // only failure and repair processes are left: the run is over
  }
  double t = queue.next_time_s();
  if (next_job && next_job->submit_time_s < t) {
    t = next_job->submit_time_s;
  }
  return t;
}

void Simulation::Impl::arm_timer() {
  double t = next_time();
  if (t == NEVER || error) {
    return;
  }
  if (armed_at_s >= 0.0 && armed_at_s <= t) {
    return;
  }
  armed_at_s = t;
  simgrid::kernel::timer::Timer::set(t, [this, t] { on_timer(t); });
}

void Simulation::Impl::on_timer(double date) {
  if (date == armed_at_s) {
    armed_at_s = -1.0;
  }
  if (error) {
    return;
  }
  try {
    double now = simgrid::s4u::Engine::get_clock();
    if (next_time() <= now) {
      process_instant(now);
    }
  } catch (...) {
    // Exceptions must not cross SimGrid's kernel: keep the first, stop arming, rethrow from run().
    error = std::current_exception();
    return;
  }
  arm_timer();
}

void Simulation::Impl::process_instant(double now) {
  queue.advance_to(now);
  now_s = now;
  io.collect_garbage();
  for (auto& c : clusters) {
    c.view.set_now(now);
  }
  sample_until(now, false);
  for (int round = 0; round < MAX_ROUNDS_PER_INSTANT; ++round) {
    while (queue.has_due()) {
      handle(queue.pop());
    }
    take_submissions(now);
    restart_awaiting_jobs();
    run_schedulers();
    if (!queue.has_due() && spawned.empty()) {
      break;
    }
  }
  ++result.instants;
  if (options.check_invariants) {
    check_invariants();
  }
  if (options.on_progress && result.instants % PROGRESS_EVERY_INSTANTS == 0) {
    options.on_progress(Progress{now, workload->epoch_unix_s(), result.jobs_submitted, recorder.jobs_recorded()});
  }
}

void Simulation::Impl::post_transfer_done(const core::TransferDone& done) {
  queue.schedule(simgrid::s4u::Engine::get_clock(), done);
  arm_timer();
}

namespace {
template <class... Handlers>
struct Overloaded : Handlers... {
  using Handlers::operator()...;
};
template <class... Handlers>
Overloaded(Handlers...) -> Overloaded<Handlers...>;
} // namespace

void Simulation::Impl::handle(const core::EngineEvent& event) {
  // A job event of a stage the job has left (or of a job that ended) is dropped.
  auto live = [this](model::JobId id, std::uint32_t generation) -> JobRuntime* {
    auto it = jobs.find(id);
    return it == jobs.end() || it->second.generation != generation ? nullptr : &it->second;
  };
  std::visit(Overloaded{
                 [&](const core::JobLaunched& e) {
                   if (JobRuntime* job = live(e.job, e.generation)) {
                     on_launched(e.job, *job);
                   }
                 },
                 [&](const core::SegmentEnded& e) {
                   if (JobRuntime* job = live(e.job, e.generation)) {
                     on_segment_end(e.job, *job);
                   }
                 },
                 [&](const core::StallEnded& e) {
                   if (JobRuntime* job = live(e.job, e.generation)) {
                     on_stall_end(e.job, *job);
                   }
                 },
                 [&](const core::StepEnded& e) {
                   if (JobRuntime* job = live(e.job, e.generation)) {
                     on_step_end(e.job, *job, e.lane);
                   }
                 },
                 [&](const core::JobRecovered& e) {
                   if (JobRuntime* job = live(e.job, e.generation)) {
                     on_recovered(e.job, *job);
                   }
                 },
                 [&](const core::HangNoticed& e) {
                   if (JobRuntime* job = live(e.job, e.generation)) {
                     on_hang_noticed(e.job, *job, e.requeue_at_s);
                   }
                 },
                 [&](const core::TransferDone& e) { on_transfer_done(e); },
                 [&](const core::NodeFailed& e) {
                   const auto& cluster = clusters[model::to_index(e.cluster)];
                   if (cluster.failure_generation[e.node] == e.generation) {
                     on_node_failure(e);
                   }
                 },
                 [&](const core::NodeRepaired& e) { on_node_repaired(e); },
                 [&](const core::LeafFailed& e) { on_leaf_failure(e); },
                 [&](const core::LeafRepaired& e) { on_leaf_repaired(e); },
                 [&](const core::TracedFailure& e) { fail_node(e.cluster, e.node, e.category); },
             },
             event);
}

void Simulation::Impl::take_submissions(double now) {
  for (auto& spec : spawned) {
    submit(std::move(spec)); // follow-up jobs of task plans (e.g. metric jobs)
  }
  spawned.clear();
  while (next_job && next_job->submit_time_s <= now) {
    model::JobSpec spec = std::move(*next_job);
    next_job = workload->next();
    submit(std::move(spec));
  }
}

void Simulation::Impl::run_schedulers() {
  for (auto& cluster : clusters) {
    if (cluster.pending.empty()) {
      continue;
    }
    events_scratch.swap(cluster.pending); // reuse the vectors' storage from instant to instant
    cluster.pending.clear();
    std::vector<model::Decision> decisions = cluster.scheduler->on_events(events_scratch, cluster.view);
    for (const auto& decision : decisions) {
      apply(cluster, decision);
    }
  }
}

void Simulation::Impl::sample_until(double time_s, bool inclusive) {
  const double interval = config.output.timeseries_interval_s;
  auto emit = [&](double at) {
    for (std::size_t c = 0; c < clusters.size(); ++c) {
      const auto& view = clusters[c].view;
      // The view's integral is as of now_s; state is constant from now_s to `at`.
      double busy_integral = view.busy_gpu_seconds() + view.allocated_gpus() * (at - view.now_s());
      double span = at - last_sample_s;
      metrics::ClusterSample s;
      s.time_s = at;
      s.cluster = static_cast<std::uint16_t>(c);
      s.busy_gpus_avg = span > 0.0 ? (busy_integral - clusters[c].busy_at_last_sample) / span : view.allocated_gpus();
      s.queued_jobs = view.queued_jobs();
      s.queued_gpus = view.queued_gpus();
      s.running_jobs = view.running_jobs();
      s.up_nodes = view.up_nodes();
      recorder.on_sample(s);
      clusters[c].busy_at_last_sample = busy_integral;
    }
    last_sample_s = at;
  };
  while (next_sample_s < time_s || (inclusive && next_sample_s <= time_s)) {
    emit(next_sample_s);
    next_sample_s += interval;
  }
  if (inclusive && time_s > last_sample_s) {
    emit(time_s); // the last, partial interval
  }
}

double Simulation::Impl::cluster_launch_latency(ClusterRuntime& cluster) {
  return cluster.launch_latency.sample(launch_rng);
}

void Simulation::Impl::check_invariants() const {
  for (const auto& cluster : clusters) {
    std::uint64_t allocated_milli = 0; // fractional jobs hold shares of GPUs
    for (const auto& [id, entry] : cluster.view.jobs()) {
      for (const auto& share : entry.placement) {
        allocated_milli += model::share_milli(share);
      }
    }
    ACME_ASSERT(allocated_milli == cluster.view.allocated_gpu_milli(),
                "allocated GPUs match the running jobs' placements");
    ACME_ASSERT(cluster.view.busy_gpus() <= cluster.view.total_gpus(), "GPUs are never over-allocated");
  }
}

} // namespace acme::engine
