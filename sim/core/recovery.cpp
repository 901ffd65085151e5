#include "sim/core/recovery.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "sim/model/units.hpp"

namespace acme::core {

Recovery::Recovery(const config::FaultConfig& faults, const policies::RecoveryPolicy& policy, TimerService& timer,
                   IoService& io, JobTable& table, JobControl& control, NodeAvailability& nodes,
                   model::ClusterRngs& rng, double epoch_unix_s)
    : faults_(faults)
    , policy_(policy)
    , timer_(timer)
    , io_(io)
    , table_(table)
    , control_(control)
    , nodes_(nodes)
    , rng_(rng)
    , epoch_unix_s_(epoch_unix_s)
    , spares_(table.clusters.size())
    , awaiting_(table.clusters.size()) {}

void Recovery::set_aside_spares() {
  for (std::size_t c = 0; c < table_.clusters.size(); ++c) {
    model::ClusterId cid{static_cast<std::uint16_t>(c)};
    std::uint32_t nodes = table_.clusters[c].view.shape().nodes;
    for (std::uint32_t k = 0; k < faults_.recovery.spare_nodes && k < nodes; ++k) {
      std::uint32_t node = nodes - 1 - k; // the last nodes of the cluster
      nodes_.down(cid, node, model::OutOfService::SPARE, "spare");
      spares_[c].push_back(model::NodeId{node});
    }
  }
}

bool Recovery::take_as_spare(model::ClusterId cluster, std::uint32_t node) {
  if (!table_.cluster(cluster).jobs_on_node[node].empty()) {
    return false; // a job still holds it (recovering, hung or awaiting nodes): it comes back to that job
  }
  auto& spares = spares_[model::to_index(cluster)];
  if (nodes_.reasons(cluster, node) == 1 && spares.size() < faults_.recovery.spare_nodes) {
    spares.push_back(model::NodeId{node}); // the repaired node stays down, held back
    nodes_.relabel(cluster, node, model::OutOfService::FAILED, model::OutOfService::SPARE);
    return true;
  }
  return false;
}

policies::FailureNotice Recovery::notice_of(const JobRuntime& job, const model::JobSpec& spec, std::uint32_t category,
                                            double shows_at_s) const {
  const auto& categories = faults_.failures.categories;
  const double now_s = shows_at_s; // the policy reasons from when the failure shows
  policies::FailureNotice notice;
  notice.job = &spec;
  notice.category = category < categories.size() ? categories[category].name : "switch";
  notice.hang = category < categories.size() && categories[category].hang;
  notice.time_s = now_s;
  double local = epoch_unix_s_ + now_s + table_.cluster_of(job).view.shape().utc_offset_s;
  double days = std::floor(local / model::SECONDS_PER_DAY);
  notice.local_time_of_day_s = local - days * model::SECONDS_PER_DAY;
  constexpr int THURSDAY = 3; // 1970-01-01 was a Thursday; weekdays count from Monday = 0
  constexpr int WEEK = 7;
  notice.local_weekday = static_cast<int>((static_cast<long long>(days) + THURSDAY) % WEEK);
  notice.nodes = job.nodes;
  return notice;
}

void Recovery::on_failure(model::JobId id, JobRuntime& job, std::uint32_t category) {
  const double now_s = timer_.now_s();
  // The category's silent time first; the policy's detection starts when the failure shows.
  const auto& categories = faults_.failures.categories;
  double silent_s = category < categories.size() ? categories[category].detect.sample(rng_.of(job.cluster)) : 0.0;
  policies::FailureNotice notice = notice_of(job, table_.entry(id, job).spec, category, now_s + silent_s);
  policies::RecoveryPlan plan = policy_.on_failure(notice, rng_.of(job.cluster));
  plan.detect_s += silent_s;
  double recovered_at = now_s + plan.detect_s + plan.diagnose_s + plan.isolate_s;
  if (plan.keep_nodes) {
    job.enter(JobStage::RECOVERING, now_s);
    timer_.schedule(recovered_at, JobRecovered{id, job.generation});
    return;
  }
  if (notice.hang) {
    // A hung job holds its nodes until someone notices; then it is killed.
    job.enter(JobStage::HUNG, now_s);
    timer_.schedule(now_s + plan.detect_s, HangNoticed{id, job.generation, recovered_at});
    return;
  }
  control_.end_attempt(id, job, model::JobPhase::HELD, model::JobState::FAILED, model::EndCause::NODE_FAILURE);
  timer_.schedule(recovered_at, JobRecovered{id, job.generation});
}

void Recovery::on_hang_noticed(model::JobId id, JobRuntime& job, double requeue_at_s) {
  control_.end_attempt(id, job, model::JobPhase::HELD, model::JobState::FAILED, model::EndCause::NODE_FAILURE);
  timer_.schedule(std::max(requeue_at_s, timer_.now_s()), JobRecovered{id, job.generation});
}

void Recovery::on_recovered(model::JobId id, JobRuntime& job) {
  if (job.recovered_at_s < 0.0) {
    job.recovered_at_s = timer_.now_s(); // the recovery steps are done; what follows is the restart
  }
  if (job.stage != JobStage::RECOVERING && job.stage != JobStage::SELECTING_HOSTS) {
    control_.requeue(id);
    return;
  }
  if (job.stage == JobStage::RECOVERING) {
    if (replace_down_nodes(id, job, true)) {
      return; // the warm standbys cover it: swapped in at once
    }
    double selection_s = faults_.recovery.hosts.selection.sample(rng_.of(job.cluster));
    if (selection_s > 0.0) {
      job.enter(JobStage::SELECTING_HOSTS, timer_.now_s());
      timer_.schedule(timer_.now_s() + selection_s, JobRecovered{id, job.generation});
      return;
    }
  }
  if (take_new_hosts(id, job)) {
    return;
  }
  // No healthy node free: keep the healthy ones and restart as soon as one frees up, ahead of the
  // queue (the job waits at the head of its class).
  job.enter(JobStage::AWAITING_NODES, timer_.now_s());
  awaiting_[model::to_index(job.cluster)].push_back(id);
}

bool Recovery::take_new_hosts(model::JobId id, JobRuntime& job) {
  if (replace_down_nodes(id, job, false)) {
    return true;
  }
  if (!faults_.recovery.hosts.preempts()) {
    return false;
  }
  std::vector<model::JobId> victims = victims_for(id, job);
  if (victims.empty()) {
    return false;
  }
  for (model::JobId victim : victims) {
    control_.preempt_for_restart(victim); // their nodes are free at once
  }
  return replace_down_nodes(id, job, false);
}

std::vector<model::JobId> Recovery::victims_for(model::JobId id, const JobRuntime& job) const {
  const ClusterRuntime& cluster = table_.cluster_of(job);
  const model::JobEntry& entry = cluster.view.job(id);
  std::size_t down = static_cast<std::size_t>(std::count_if(
      entry.placement.begin(), entry.placement.end(), [&](const auto& s) { return !cluster.view.is_up(s.node); }));
  std::size_t free = cluster.view.idle_node_set().count() + ready_spares(job.cluster);
  std::vector<model::JobId> victims;
  // Nodes in index order whose every job is running and of a preemptible type free up once those
  // jobs are preempted; none is taken unless enough such nodes exist (no preemption in vain).
  for (std::uint32_t node = 0; node < cluster.view.shape().nodes && free < down; ++node) {
    const auto& on_node = cluster.jobs_on_node[node];
    if (on_node.empty() || !cluster.view.is_up(model::NodeId{node}) ||
        !std::all_of(on_node.begin(), on_node.end(), [&](model::JobId j) { return preemptible(j); })) {
      continue;
    }
    for (model::JobId j : on_node) {
      if (std::find(victims.begin(), victims.end(), j) == victims.end()) {
        victims.push_back(j);
      }
    }
    ++free;
  }
  return free >= down ? victims : std::vector<model::JobId>{};
}

bool Recovery::preemptible(model::JobId id) const {
  const JobRuntime* job = table_.find(id);
  if (job == nullptr) {
    return false;
  }
  const auto& types = faults_.recovery.hosts.preemptible;
  bool running = runs_own_work(job->stage) || job->stage == JobStage::PLAN;
  return running && std::find(types.begin(), types.end(), table_.entry(id, *job).spec.type) != types.end();
}

std::size_t Recovery::ready_spares(model::ClusterId cluster) const {
  const auto& spares = spares_[model::to_index(cluster)];
  return static_cast<std::size_t>(
      std::count_if(spares.begin(), spares.end(), [&](model::NodeId spare) { return spare_ready(cluster, spare); }));
}

bool Recovery::spare_ready(model::ClusterId cluster, model::NodeId spare) const {
  return nodes_.reasons(cluster, model::to_index(spare)) == 1; // the pool alone holds it down, not also its switch
}

bool Recovery::replace_down_nodes(model::JobId id, JobRuntime& job, bool standbys_only) {
  ClusterRuntime& cluster = table_.cluster_of(job);
  auto& spares = spares_[model::to_index(job.cluster)];
  const model::JobEntry& entry = cluster.view.job(id);
  std::vector<model::NodeId> down;
  for (const auto& share : entry.placement) {
    if (!cluster.view.is_up(share.node)) {
      down.push_back(share.node);
    }
  }
  auto ready = [&](model::NodeId spare) { return spare_ready(job.cluster, spare); };
  const auto& idle = cluster.view.idle_node_set();
  if (ready_spares(job.cluster) + (standbys_only ? 0 : idle.count()) < down.size()) {
    return false;
  }
  bool widened = job.checkpoint.enabled && job.nodes > 1;
  if (widened) {
    io_.widen_nic(job.cluster, entry.placement.front().node, 1);
  }
  std::vector<model::NodeSwap> swaps;
  for (model::NodeId bad : down) {
    model::NodeId good{static_cast<std::uint32_t>(idle.find_first())};
    if (auto spare = std::find_if(spares.rbegin(), spares.rend(), ready); spare != spares.rend()) {
      good = *spare; // spare nodes held back for restarts come first
      spares.erase(std::next(spare).base());
      nodes_.up(job.cluster, model::to_index(good), model::OutOfService::SPARE, "spare taken");
    }
    auto& on_bad = cluster.jobs_on_node[model::to_index(bad)];
    on_bad.erase(std::remove(on_bad.begin(), on_bad.end(), id), on_bad.end());
    cluster.view.move_share(id, bad, good);
    cluster.jobs_on_node[model::to_index(good)].push_back(id);
    swaps.push_back({bad, good});
  }
  if (widened) {
    io_.widen_nic(job.cluster, entry.placement.front().node, job.nodes);
  }
  control_.relaunch(id, job, swaps); // at once, from the last good checkpoint
  return true;
}

void Recovery::restart_awaiting_jobs() {
  for (auto& waiting : awaiting_) {
    for (auto it = waiting.begin(); it != waiting.end();) {
      JobRuntime* job = table_.find(*it);
      if (job == nullptr || job->stage != JobStage::AWAITING_NODES) {
        it = waiting.erase(it); // failed again, or gone
        continue;
      }
      if (!take_new_hosts(*it, *job)) {
        break; // first come, first served
      }
      it = waiting.erase(it);
    }
  }
}

} // namespace acme::core
