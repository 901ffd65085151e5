#include "acme/model/cluster_view.hpp"

#include "acme/model/assert.hpp"

#include <utility>

namespace acme::model {

ClusterView::ClusterView(ClusterShape shape)
    : shape_(std::move(shape)), free_gpus_(shape_.nodes, shape_.gpus_per_node), up_(shape_.nodes),
      by_free_(shape_.gpus_per_node + 1, NodeBitset(shape_.nodes)), free_gpus_up_(shape_.nodes * shape_.gpus_per_node),
      free_cpu_cores_(shape_.cpu_pool_cores) {
  ACME_ASSERT(shape_.leaf_of_node.empty() || shape_.leaf_of_node.size() == shape_.nodes, "one leaf per node");
  for (std::uint32_t n = 0; n < shape_.nodes; ++n) {
    up_.set(n);
    by_free_[shape_.gpus_per_node].set(n);
  }
}

std::uint32_t ClusterView::leaf_of(NodeId node) const {
  return shape_.leaf_of_node.empty() ? 0 : shape_.leaf_of_node[to_index(node)];
}

const JobEntry* ClusterView::find_job(JobId id) const {
  auto it = jobs_.find(id);
  return it == jobs_.end() ? nullptr : &it->second;
}

const JobEntry& ClusterView::job(JobId id) const {
  const JobEntry* entry = find_job(id);
  ACME_ASSERT(entry != nullptr, "job is active in this cluster");
  return *entry;
}

JobEntry& ClusterView::mutable_job(JobId id) {
  auto it = jobs_.find(id);
  ACME_ASSERT(it != jobs_.end(), "job is active in this cluster");
  return it->second;
}

bool ClusterView::fits(const Placement& placement) const {
  for (const auto& share : placement) {
    if (!is_up(share.node) || free_gpus(share.node) < share.gpus) {
      return false;
    }
  }
  return true;
}

void ClusterView::set_now(double now_s) {
  ACME_ASSERT(now_s >= now_s_, "simulated time never goes backwards");
  busy_gpu_seconds_ += busy_gpus_ * (now_s - now_s_);
  now_s_ = now_s;
}

JobEntry& ClusterView::add_job(JobSpec spec) {
  JobId id = spec.id;
  JobEntry entry;
  entry.queued_since_s = now_s_;
  entry.spec = std::move(spec);
  auto [it, inserted] = jobs_.emplace(id, std::move(entry));
  ACME_ASSERT(inserted, "a job is submitted once while active");
  ++queued_jobs_;
  queued_gpus_ += it->second.spec.gpus;
  return it->second;
}

void ClusterView::start_job(JobId id, Placement placement) {
  JobEntry& entry = mutable_job(id);
  ACME_ASSERT(entry.phase == JobPhase::QUEUED, "only queued jobs start");
  std::uint32_t placed = 0;
  for (const auto& share : placement) {
    ACME_ASSERT(is_up(share.node), "jobs start on up nodes only");
    take_gpus(share.node, share.gpus);
    placed += share.gpus;
  }
  ACME_ASSERT(placed >= entry.spec.gpus, "a placement covers the GPUs requested");
  if (entry.spec.is_cpu_job()) {
    ACME_ASSERT(entry.spec.cpus <= free_cpu_cores_, "the CPU pool is never over-allocated");
    free_cpu_cores_ -= entry.spec.cpus;
  }
  entry.phase = JobPhase::RUNNING;
  entry.start_time_s = now_s_;
  entry.placement = std::move(placement);
  --queued_jobs_;
  queued_gpus_ -= entry.spec.gpus;
}

void ClusterView::stop_job(JobId id) {
  JobEntry& entry = mutable_job(id);
  ACME_ASSERT(entry.phase == JobPhase::RUNNING, "only running jobs stop");
  for (const auto& share : entry.placement) {
    give_gpus(share.node, share.gpus);
  }
  if (entry.spec.is_cpu_job()) {
    free_cpu_cores_ += entry.spec.cpus;
  }
  entry.attained_gpu_s += (now_s_ - entry.start_time_s) * entry.spec.gpus;
  entry.placement.clear();
  entry.phase = JobPhase::QUEUED;
  entry.queued_since_s = now_s_;
  ++queued_jobs_;
  queued_gpus_ += entry.spec.gpus;
}

void ClusterView::remove_job(JobId id) {
  auto it = jobs_.find(id);
  ACME_ASSERT(it != jobs_.end(), "removed jobs are active");
  ACME_ASSERT(it->second.phase == JobPhase::QUEUED, "only queued (or stopped) jobs are removed");
  --queued_jobs_;
  queued_gpus_ -= it->second.spec.gpus;
  jobs_.erase(it);
}

void ClusterView::set_node_up(NodeId node, bool up) {
  auto n = to_index(node);
  if (up_.test(n) == up) {
    return;
  }
  std::uint32_t free = free_gpus_[n];
  if (up) {
    up_.set(n);
    by_free_[free].set(n);
    free_gpus_up_ += free;
  } else {
    up_.reset(n);
    by_free_[free].reset(n);
    free_gpus_up_ -= free;
  }
}

void ClusterView::take_gpus(NodeId node, std::uint32_t gpus) {
  auto n = to_index(node);
  std::uint32_t old_free = free_gpus_[n];
  ACME_ASSERT(gpus <= old_free, "GPUs are never over-allocated");
  free_gpus_[n] = old_free - gpus;
  free_gpus_up_ -= gpus;
  busy_gpus_ += gpus;
  rebucket(node, old_free);
}

void ClusterView::give_gpus(NodeId node, std::uint32_t gpus) {
  auto n = to_index(node);
  std::uint32_t old_free = free_gpus_[n];
  ACME_ASSERT(old_free + gpus <= shape_.gpus_per_node, "a node never has more free GPUs than it has");
  free_gpus_[n] = old_free + gpus;
  busy_gpus_ -= gpus;
  if (up_.test(n)) {
    free_gpus_up_ += gpus;
  }
  rebucket(node, old_free);
}

void ClusterView::rebucket(NodeId node, std::uint32_t old_free) {
  auto n = to_index(node);
  if (!up_.test(n)) {
    return;
  }
  by_free_[old_free].reset(n);
  by_free_[free_gpus_[n]].set(n);
}

} // namespace acme::model
