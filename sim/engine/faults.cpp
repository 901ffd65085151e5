// Infrastructure failures: per-node failure processes by category, leaf switch outages that take
// their nodes down, repairs, and what happens to the jobs hit (recovery policies).
#include <algorithm>
#include <cmath>

#include "sim/engine/engine_state.hpp"
#include "sim/model/assert.hpp"

namespace acme::engine {

void Simulation::Impl::start_failure_processes() {
  if (!faults.failures.trace_path.empty()) {
    for (const FailureTraceRow& f :
         load_failure_trace(config.resolve_path(faults.failures.trace_path), config, workload->epoch_unix_s())) {
      queue.schedule(std::max(f.time_s, now_s), core::TracedFailure{f.cluster, f.node, f.category});
    }
  }
  if (!faults.failures.enabled) {
    return;
  }
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    model::ClusterId cid{static_cast<std::uint16_t>(c)};
    for (std::uint32_t n = 0; n < clusters[c].view.shape().nodes; ++n) {
      draw_next_failure(cid, n);
    }
    double leaf_rate = faults.failures.leaf_rate_per_switch_day / model::SECONDS_PER_DAY;
    for (std::uint32_t l = 0; leaf_rate > 0.0 && l < clusters[c].view.shape().leaves; ++l) {
      queue.schedule(now_s + failure_rng.exponential(1.0 / leaf_rate), core::LeafFailed{cid, l});
    }
  }
}

void Simulation::Impl::draw_next_failure(model::ClusterId cluster, std::uint32_t node) {
  if (!faults.failures.enabled) {
    return;
  }
  double rate = faults.failures.node_rate_per_day() / model::SECONDS_PER_DAY;
  if (rate <= 0.0) {
    return;
  }
  auto& generation = clusters[model::to_index(cluster)].failure_generation[node];
  ++generation;
  queue.schedule(now_s + failure_rng.exponential(1.0 / rate), core::NodeFailed{cluster, node, generation});
}

void Simulation::Impl::on_node_failure(const core::NodeFailed& event) {
  // Which category: proportional to the categories' rates.
  double pick = failure_rng.uniform() * faults.failures.node_rate_per_day();
  std::uint32_t category = 0;
  for (; category + 1 < faults.failures.categories.size(); ++category) {
    pick -= faults.failures.categories[category].rate_per_node_day;
    if (pick < 0.0) {
      break;
    }
  }
  model::ClusterId cid = event.cluster;
  std::uint32_t node = event.node;
  if (clusters[model::to_index(cid)].down_reasons[node] > 0) {
    draw_next_failure(cid, node); // down for another reason (its switch): the process goes on
    return;
  }
  fail_node(cid, node, category);
}

void Simulation::Impl::fail_node(model::ClusterId cid, std::uint32_t node, std::uint32_t category) {
  ClusterRuntime& cluster = clusters[model::to_index(cid)];
  if (cluster.down_reasons[node] > 0) {
    return; // already down (a traced failure of a node under repair)
  }
  // Fail the jobs first (cancelling their transfers), then power the node off.
  std::vector<model::JobId> hit = cluster.jobs_on_node[node];
  for (model::JobId id : hit) {
    fail_job(id, jobs.at(id), category);
  }
  node_down(cluster, cid, node);
  double repair = faults.failures.categories[category].repair.sample(failure_rng);
  if (faults.failures.isolated_until_operator) {
    repair += faults.failures.operator_return.sample(failure_rng);
  }
  ++cluster.failure_generation[node]; // its random failure process restarts after the repair
  queue.schedule(now_s + repair, core::NodeRepaired{cid, node});
}

void Simulation::Impl::node_down(ClusterRuntime& cluster, model::ClusterId cid, std::uint32_t node) {
  if (cluster.down_reasons[node]++ > 0) {
    return;
  }
  cluster.view.set_node_up(model::NodeId{node}, false);
  cluster.pending.emplace_back(model::NodeDown{model::NodeId{node}});
  io.set_node_power(cid, model::NodeId{node}, false);
}

void Simulation::Impl::node_up(ClusterRuntime& cluster, model::ClusterId cid, std::uint32_t node) {
  ACME_ASSERT(cluster.down_reasons[node] > 0, "a node comes back only when down");
  if (--cluster.down_reasons[node] > 0) {
    return;
  }
  cluster.view.set_node_up(model::NodeId{node}, true);
  cluster.pending.emplace_back(model::NodeUp{model::NodeId{node}});
  io.set_node_power(cid, model::NodeId{node}, true);
}

void Simulation::Impl::on_node_repaired(const core::NodeRepaired& event) {
  model::ClusterId cid = event.cluster;
  std::uint32_t node = event.node;
  ClusterRuntime& cluster = clusters[model::to_index(cid)];
  draw_next_failure(cid, node); // a failed node fails again only once back in service
  if (cluster.down_reasons[node] == 1 && cluster.spares.size() < faults.recovery.spare_nodes) {
    cluster.spares.push_back(model::NodeId{node}); // the repaired node refills the spare pool
    return;
  }
  node_up(cluster, cid, node);
}

void Simulation::Impl::on_leaf_failure(const core::LeafFailed& event) {
  model::ClusterId cid = event.cluster;
  std::uint32_t leaf = event.leaf;
  ClusterRuntime& cluster = clusters[model::to_index(cid)];
  const std::uint32_t switch_category = static_cast<std::uint32_t>(faults.failures.categories.size());
  for (model::NodeId node : graph.nodes_under(graph.cluster(cid).leaves.at(leaf))) {
    std::vector<model::JobId> hit = cluster.jobs_on_node[model::to_index(node)];
    for (model::JobId id : hit) {
      if (jobs.at(id).stage != JobStage::WAITING && jobs.at(id).failed_at_s != now_s) {
        fail_job(id, jobs.at(id), switch_category);
      }
    }
    node_down(cluster, cid, model::to_index(node));
  }
  queue.schedule(now_s + faults.failures.leaf_repair.sample(failure_rng), core::LeafRepaired{cid, leaf});
}

void Simulation::Impl::on_leaf_repaired(const core::LeafRepaired& event) {
  model::ClusterId cid = event.cluster;
  std::uint32_t leaf = event.leaf;
  ClusterRuntime& cluster = clusters[model::to_index(cid)];
  for (model::NodeId node : graph.nodes_under(graph.cluster(cid).leaves.at(leaf))) {
    node_up(cluster, cid, model::to_index(node));
  }
  double rate = faults.failures.leaf_rate_per_switch_day / model::SECONDS_PER_DAY;
  queue.schedule(now_s + failure_rng.exponential(1.0 / rate), core::LeafFailed{cid, leaf});
}

void Simulation::Impl::fail_job(model::JobId id, JobRuntime& job, std::uint32_t category) {
  ClusterRuntime& cluster = cluster_of_job(job);
  const model::JobSpec& spec = cluster.view.job(id).spec;
  if (job.failures.empty()) {
    job.failures.assign(faults.failures.categories.size() + 1, 0); // + switch failures
  }
  ++job.failures[category];
  stop_progress(job);
  cancel_transfers(job);
  double rollback = job.progress_s - job.persisted_s;
  job.lost_work_s += rollback;
  job.lost_gpu_s += rollback * spec.gpu_share();
  job.progress_s = job.persisted_s;
  job.next_checkpoint_s = 0.0; // the next interval counts from the restored state
  job.needs_restore = job.persisted_s > 0.0;
  job.failed_at_s = now_s;
  if (!faults.recovery.applies(spec.type)) {
    finish_job(id, job, model::JobState::NODE_FAIL, model::EndCause::NODE_FAILURE);
    return;
  }
  bool hang = category < faults.failures.categories.size() && faults.failures.categories[category].hang;
  policies::FailureNotice notice;
  notice.job = &spec;
  notice.category = category < faults.failures.categories.size() ? faults.failures.categories[category].name : "switch";
  notice.hang = hang;
  notice.time_s = now_s;
  double local = workload->epoch_unix_s() + now_s + cluster.view.shape().utc_offset_s;
  double days = std::floor(local / model::SECONDS_PER_DAY);
  notice.local_time_of_day_s = local - days * model::SECONDS_PER_DAY;
  constexpr int THURSDAY = 3; // 1970-01-01 was a Thursday; weekdays count from Monday = 0
  constexpr int WEEK = 7;
  notice.local_weekday = static_cast<int>((static_cast<long long>(days) + THURSDAY) % WEEK);
  notice.nodes = job.nodes;
  policies::RecoveryPlan plan = recovery_policy->on_failure(notice, recovery_rng);
  double recovered_at = now_s + plan.detect_s + plan.diagnose_s + plan.isolate_s;
  if (plan.keep_nodes) {
    enter(id, job, JobStage::RECOVERING);
    queue.schedule(recovered_at, core::JobRecovered{id, job.generation});
    return;
  }
  if (hang) {
    // A hung job holds its nodes until someone notices; then it is killed.
    enter(id, job, JobStage::HUNG);
    queue.schedule(now_s + plan.detect_s, core::HangNoticed{id, job.generation, recovered_at});
    return;
  }
  release(id, job, model::JobPhase::HELD);
  cluster.pending.emplace_back(model::JobEnded{id, model::JobState::FAILED, model::EndCause::NODE_FAILURE});
  queue.schedule(recovered_at, core::JobRecovered{id, job.generation});
}

void Simulation::Impl::on_hang_noticed(model::JobId id, JobRuntime& job, double recovered_at) {
  release(id, job, model::JobPhase::HELD);
  cluster_of_job(job).pending.emplace_back(model::JobEnded{id, model::JobState::FAILED, model::EndCause::NODE_FAILURE});
  queue.schedule(std::max(recovered_at, now_s), core::JobRecovered{id, job.generation});
}

void Simulation::Impl::on_recovered(model::JobId id, JobRuntime& job) {
  ClusterRuntime& cluster = cluster_of_job(job);
  if (job.stage == JobStage::RECOVERING) {
    if (replace_down_nodes(id, job)) {
      return;
    }
    // No healthy node free: keep the healthy ones and restart as soon as one frees up, ahead of the
    // queue (the job waits at the head of its class).
    enter(id, job, JobStage::AWAITING_NODES);
    cluster.awaiting_nodes.push_back(id);
    return;
  }
  cluster.view.requeue_job(id);
  cluster.pending.emplace_back(model::JobSubmitted{id});
}

bool Simulation::Impl::replace_down_nodes(model::JobId id, JobRuntime& job) {
  ClusterRuntime& cluster = cluster_of_job(job);
  const model::JobEntry& entry = cluster.view.job(id);
  std::vector<model::NodeId> down;
  for (const auto& share : entry.placement) {
    if (!cluster.view.is_up(share.node)) {
      down.push_back(share.node);
    }
  }
  const auto& idle = cluster.view.idle_node_set();
  if (cluster.spares.size() + idle.count() < down.size()) {
    return false;
  }
  bool widened = job.checkpointing && job.nodes > 1;
  if (widened) {
    io.widen_nic(job.cluster, entry.placement.front().node, 1);
  }
  for (model::NodeId bad : down) {
    model::NodeId good{static_cast<std::uint32_t>(idle.find_first())};
    if (!cluster.spares.empty()) {
      good = cluster.spares.back(); // spare nodes held back for restarts come first
      cluster.spares.pop_back();
      node_up(cluster, job.cluster, model::to_index(good));
    }
    auto& on_bad = cluster.jobs_on_node[model::to_index(bad)];
    on_bad.erase(std::remove(on_bad.begin(), on_bad.end(), id), on_bad.end());
    cluster.view.move_share(id, bad, good);
    cluster.jobs_on_node[model::to_index(good)].push_back(id);
  }
  if (widened) {
    io.widen_nic(job.cluster, entry.placement.front().node, job.nodes);
  }
  ++job.attempts;
  on_launched(id, job); // restart at once from the last good checkpoint
  return true;
}

void Simulation::Impl::restart_awaiting_jobs() {
  for (auto& cluster : clusters) {
    auto& waiting = cluster.awaiting_nodes;
    for (auto it = waiting.begin(); it != waiting.end();) {
      auto job = jobs.find(*it);
      if (job == jobs.end() || job->second.stage != JobStage::AWAITING_NODES) {
        it = waiting.erase(it); // failed again, or gone
        continue;
      }
      if (!replace_down_nodes(*it, job->second)) {
        break; // first come, first served
      }
      it = waiting.erase(it);
    }
  }
}

void Simulation::Impl::set_aside_spares() {
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    ClusterRuntime& cluster = clusters[c];
    std::uint32_t nodes = cluster.view.shape().nodes;
    for (std::uint32_t k = 0; k < faults.recovery.spare_nodes && k < nodes; ++k) {
      std::uint32_t node = nodes - 1 - k; // the last nodes of the cluster
      node_down(cluster, model::ClusterId{static_cast<std::uint16_t>(c)}, node);
      cluster.spares.push_back(model::NodeId{node});
    }
  }
}

} // namespace acme::engine
