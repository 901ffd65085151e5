// Jobs entering, starting, releasing their resources, ending and being rejected: the engine side of
// the scheduler's decisions.
#include "sim/core/job_lifecycle.hpp"

#include <spdlog/logger.h>

#include <algorithm>
#include <limits>
#include <type_traits>

#include "sim/log/log.hpp"
#include "sim/model/assert.hpp"

namespace acme::core {
namespace {
constexpr std::uint32_t UNKNOWN_GPUS = std::numeric_limits<std::uint32_t>::max();
} // namespace

JobLifecycle::JobLifecycle(const config::FaultConfig& faults, TimerService& timer, IoService& io, JobTable& table,
                           NodeAvailability& nodes, metrics::Recorder& recorder, model::ClusterRngs& launch_rng)
    : faults_(faults)
    , timer_(timer)
    , io_(io)
    , table_(table)
    , nodes_(nodes)
    , recorder_(recorder)
    , trace_(recorder.events())
    , log_(log::get(log::Category::ENGINE))
    , launch_rng_(launch_rng) {}

void JobLifecycle::submit(model::JobSpec spec) {
  ++jobs_submitted_;
  ClusterRuntime& cluster = table_.clusters.at(model::to_index(spec.cluster));
  if (spec.is_cpu_job() && spec.cpus == 0) {
    spec.cpus = 1; // a CPU job holds at least one core
  }
  JobRuntime job;
  job.cluster = spec.cluster;
  job.accounting.begin_wait(timer_.now_s());
  parts_.checkpoint->admit(job, spec);
  if (parts_.traffic != nullptr) {
    parts_.traffic->admit(job, spec);
  }
  parts_.power->admit(spec.id, job, spec);
  model::JobId id = spec.id;
  table_.jobs.emplace(id, std::move(job));
  cluster.view.add_job(std::move(spec));
  const model::JobSpec& added = cluster.view.job(id).spec;
  if (parts_.chain != nullptr) {
    parts_.chain->on_submitted(added);
  }
  if (parts_.plan != nullptr) {
    parts_.plan->on_submitted(added);
  }
  if (trace_ != nullptr) {
    trace_->submit(timer_.now_s(), added);
  }
  if (added.unfit != model::RejectReason::NONE) {
    reject(cluster, id, added.unfit);
    return;
  }
  if (added.gpus > usable_gpus(cluster)) {
    reject(cluster, id, model::RejectReason::TOO_MANY_GPUS);
    return;
  }
  if (added.is_cpu_job() && added.cpus > cluster.view.shape().cpu_pool_cores) {
    reject(cluster, id, model::RejectReason::TOO_MANY_CPUS);
    return;
  }
  cluster.pending.emplace_back(model::JobSubmitted{id});
}

std::uint32_t JobLifecycle::usable_gpus(const ClusterRuntime& cluster) {
  // Jobs start on every node but the spares recovery holds back for restarts (the cluster's last nodes):
  // a wider job could never start.
  const model::ClusterShape& shape = cluster.view.shape();
  std::size_t c = model::to_index(shape.id);
  if (usable_gpus_.size() <= c) {
    usable_gpus_.resize(table_.clusters.size(), UNKNOWN_GPUS);
  }
  if (usable_gpus_[c] == UNKNOWN_GPUS) {
    std::uint32_t gpus = cluster.view.total_gpus();
    for (std::uint32_t k = 0; k < faults_.recovery.spare_nodes && k < shape.nodes; ++k) {
      gpus -= shape.gpus_of(model::NodeId{shape.nodes - 1 - k});
    }
    usable_gpus_[c] = gpus;
  }
  return usable_gpus_[c];
}

void JobLifecycle::apply(ClusterRuntime& cluster, const model::Decision& decision) {
  std::visit(
      [&](const auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, model::StartJob>) {
          start_job(cluster, d);
        } else if constexpr (std::is_same_v<D, model::RejectJob>) {
          reject(cluster, d.job, d.reason);
        } else if constexpr (std::is_same_v<D, model::PreemptJob>) {
          preempt(d.job);
        } else if constexpr (std::is_same_v<D, model::NoteWait>) {
          note_wait(cluster, d);
        } else if constexpr (std::is_same_v<D, model::CallMeLater>) {
          call_later(cluster, d.time_s);
        }
      },
      decision);
}

void JobLifecycle::note_wait(ClusterRuntime& cluster, const model::NoteWait& note) {
  const model::JobEntry* entry = cluster.view.find_job(note.job);
  ACME_ASSERT(entry != nullptr && entry->phase == model::JobPhase::QUEUED, "schedulers note waits of queued jobs");
  table_.jobs.at(note.job).accounting.note_wait(timer_.now_s(), note.reason);
}

void JobLifecycle::call_later(ClusterRuntime& cluster, double time_s) {
  double at_s = std::max(time_s, timer_.now_s());
  if (at_s == cluster.woken_at_s) {
    return; // woken at this instant already: asking for it again would hold the clock here for ever
  }
  if (cluster.wakeups.insert(at_s).second) {
    timer_.schedule(at_s, PolicyWakeup{cluster.view.shape().id, at_s});
  }
}

void JobLifecycle::start_job(ClusterRuntime& cluster, const model::StartJob& start) {
  const model::JobEntry* entry = cluster.view.find_job(start.job);
  ACME_ASSERT(entry != nullptr && entry->phase == model::JobPhase::QUEUED, "schedulers start queued jobs only");
  ACME_ASSERT(cluster.view.fits(start.placement), "schedulers start jobs on free GPUs of up nodes only");
  cluster.view.start_job(start.job, start.placement);
  if (trace_ != nullptr) {
    trace_->start(timer_.now_s(), entry->spec, start.placement);
  }
  log_.trace("job {} starts on {} node(s)", entry->spec.name, start.placement.size());
  JobRuntime& job = table_.jobs.at(start.job);
  ++job.accounting.attempts;
  job.accounting.open_attempt(timer_.now_s());
  allocate(cluster, start.job, job);
  find_latent_faults(cluster, start.placement);
  job.enter(JobStage::STARTING, timer_.now_s());
  double now_s = timer_.now_s();
  PodTimes pods = cluster.pods ? cluster.pods->start(cluster.view.job(start.job).spec, start.placement, now_s)
                               : PodTimes{now_s, now_s};
  job.pods_bound_s = pods.bound_s;
  job.image_pulled_s = pods.pulled_s;
  double latency = cluster.launch_latency.sample(launch_rng_.of(cluster.view.shape().id));
  double launch_s = pods.pulled_s + latency;
  if (launch_s <= now_s) {
    on_launched(start.job, job);
    return;
  }
  // Allocated: waiting for the binder, then the image, then the pod start (on_launched notes the rest).
  model::WaitReason first = pods.bound_s > now_s    ? model::WaitReason::SCHEDULER_QUEUE
                            : pods.pulled_s > now_s ? model::WaitReason::IMAGE_PULL
                                                    : model::WaitReason::POD_START;
  job.accounting.note_wait(now_s, first);
  timer_.schedule(launch_s, JobLaunched{start.job, job.generation});
}

void JobLifecycle::allocate(ClusterRuntime& cluster, model::JobId id, JobRuntime& job) {
  const model::JobEntry& entry = cluster.view.job(id);
  std::vector<std::uint32_t> leaves;
  std::uint64_t milli = 0;
  for (const auto& share : entry.placement) {
    leaves.push_back(cluster.view.leaf_of(share.node));
    milli += model::share_milli(share);
    cluster.jobs_on_node[model::to_index(share.node)].push_back(id);
  }
  std::sort(leaves.begin(), leaves.end());
  job.leaves = static_cast<std::uint32_t>(std::unique(leaves.begin(), leaves.end()) - leaves.begin());
  job.nodes = static_cast<std::uint32_t>(entry.placement.size());
  job.allocated_gpus = static_cast<double>(milli) / model::MILLI_PER_GPU;
  job.allocated_since_s = timer_.now_s();
  if (job.checkpoint.enabled && job.nodes > 1) {
    io_.widen_nic(job.cluster, entry.placement.front().node, job.nodes);
  }
  if (job.checkpoint.enabled) {
    parts_.checkpoint->estimate_costs(job);
  }
  parts_.power->allocated(job);
}

void JobLifecycle::on_launched(model::JobId id, JobRuntime& job) {
  double now_s = timer_.now_s();
  if (job.pods_bound_s >= 0.0) { // launched by start_job: its waits for the image and the pod start
    if (job.pods_bound_s < job.image_pulled_s) {
      job.accounting.note_wait(std::min(job.pods_bound_s, now_s), model::WaitReason::IMAGE_PULL);
    }
    if (job.image_pulled_s < now_s) {
      job.accounting.note_wait(job.image_pulled_s, model::WaitReason::POD_START);
    }
    job.pods_bound_s = job.image_pulled_s = -1.0;
  }
  job.accounting.end_wait(now_s);
  if (job.accounting.first_start_s == model::UNKNOWN_TIME_S) {
    job.accounting.first_start_s = timer_.now_s();
  }
  if (table_.entry(id, job).spec.plan) {
    parts_.plans->begin(id, job);
    return;
  }
  parts_.checkpoint->resume(id, job);
}

void JobLifecycle::relaunch(model::JobId id, JobRuntime& job, const std::vector<model::NodeSwap>& swaps) {
  ++job.accounting.attempts;
  job.accounting.open_attempt(timer_.now_s());
  parts_.power->placement_changed(job, swaps); // failed nodes were replaced
  if (parts_.failures != nullptr && parts_.failures->has_latent_faults()) {
    for (const auto& swap : swaps) { // a replacement may hide one too; the other nodes were checked
      parts_.failures->job_lands(table_.cluster_of(job).view.shape().id, model::to_index(swap.to));
    }
  }
  on_launched(id, job);
}

void JobLifecycle::find_latent_faults(ClusterRuntime& cluster, const model::Placement& placement) {
  if (parts_.failures == nullptr || !parts_.failures->has_latent_faults()) {
    return; // every fault struck at once: none is latent
  }
  for (const auto& share : placement) {
    parts_.failures->job_lands(cluster.view.shape().id, model::to_index(share.node));
  }
}

void JobLifecycle::on_transfer_done(const TransferDone& done) {
  JobRuntime* job = table_.find(done.owner);
  if (job == nullptr) {
    return; // the job ended meanwhile
  }
  if (job->stage == JobStage::PLAN) {
    parts_.plans->on_transfer_done(done.owner, *job, done);
    return;
  }
  parts_.checkpoint->on_transfer_done(done.owner, *job, done);
}

void JobLifecycle::cancel_transfers(JobRuntime& job) {
  parts_.checkpoint->cancel_transfers(job);
  parts_.plans->cancel_transfers(job);
}

void JobLifecycle::release(model::JobId id, JobRuntime& job, model::JobPhase next) {
  ClusterRuntime& cluster = table_.cluster_of(job);
  const model::JobEntry& entry = cluster.view.job(id);
  ACME_ASSERT(entry.phase == model::JobPhase::RUNNING, "only running jobs release resources");
  cancel_transfers(job);
  parts_.power->releasing(job);
  job.accounting.gpu_seconds += job.allocated_gpus * (timer_.now_s() - job.allocated_since_s);
  for (const auto& share : entry.placement) {
    auto& on_node = cluster.jobs_on_node[model::to_index(share.node)];
    on_node.erase(std::remove(on_node.begin(), on_node.end(), id), on_node.end());
  }
  if (job.checkpoint.enabled && job.nodes > 1 && !entry.placement.empty()) {
    io_.widen_nic(job.cluster, entry.placement.front().node, 1);
  }
  if (next == model::JobPhase::HELD) {
    cluster.view.hold_job(id);
  } else {
    cluster.view.stop_job(id);
    job.accounting.begin_wait(timer_.now_s());
  }
  job.allocated_gpus = 0.0;
  job.enter(JobStage::WAITING, timer_.now_s());
}

void JobLifecycle::end_attempt(model::JobId id, JobRuntime& job, model::JobPhase next, model::JobState state,
                               model::EndCause cause) {
  release(id, job, next);
  table_.cluster_of(job).pending.emplace_back(model::JobEnded{id, state, cause});
}

void JobLifecycle::requeue(model::JobId id) {
  JobRuntime& job = table_.jobs.at(id);
  ClusterRuntime& cluster = table_.cluster_of(job);
  cluster.view.requeue_job(id);
  job.accounting.begin_wait(timer_.now_s());
  cluster.pending.emplace_back(model::JobSubmitted{id});
}

void JobLifecycle::finish(model::JobId id, JobRuntime& job, model::JobState state, model::EndCause cause) {
  ClusterRuntime& cluster = table_.cluster_of(job);
  if (cluster.view.job(id).phase == model::JobPhase::RUNNING) {
    release(id, job, model::JobPhase::QUEUED);
  }
  cluster.pending.emplace_back(model::JobEnded{id, state, cause});
  record(cluster.view.job(id), job, state, model::RejectReason::NONE);
  cluster.view.remove_job(id);
  table_.jobs.erase(id);
}

void JobLifecycle::reject(ClusterRuntime& cluster, model::JobId id, model::RejectReason reason) {
  const model::JobEntry& entry = cluster.view.job(id);
  ACME_ASSERT(entry.phase == model::JobPhase::QUEUED, "only queued jobs are rejected");
  ++jobs_rejected_;
  log_.debug("job {} rejected: {}", entry.spec.name, model::to_string(reason));
  record(entry, table_.jobs.at(id), model::JobState::CANCELLED, reason);
  cluster.view.remove_job(id);
  table_.jobs.erase(id);
}

void JobLifecycle::record(const model::JobEntry& entry, JobRuntime& job, model::JobState state,
                          model::RejectReason reason) {
  job.accounting.end_wait(timer_.now_s());
  if (trace_ != nullptr) {
    trace_->end(timer_.now_s(), entry.spec, state, reason);
  }
  log_.trace("job {} ends: {}", entry.spec.name, model::to_string(state));
  recorder_.on_job(make_job_record(entry, job, timer_.now_s(), state, reason));
  if (parts_.chain != nullptr) {
    parts_.chain->on_ended(entry.spec.id, timer_.now_s());
  }
  if (parts_.plan != nullptr) {
    parts_.plan->on_ended(entry.spec.id, timer_.now_s());
  }
}

} // namespace acme::core
