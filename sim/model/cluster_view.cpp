#include "sim/model/cluster_view.hpp"

#include <utility>

#include "sim/model/assert.hpp"

namespace acme::model {

ClusterView::ClusterView(ClusterShape shape)
    : shape_(std::move(shape))
    , free_gpus_(shape_.nodes, 0)
    , up_(shape_.nodes)
    , power_(shape_.nodes, NodePower::ON)
    , out_of_service_(shape_.nodes, 0)
    , off_(shape_.nodes)
    , by_free_(shape_.gpus_per_node + 1, NodeBitset(shape_.nodes))
    , idle_(shape_.nodes)
    , shared_nodes_(shape_.nodes)
    , gpu_offset_(shape_.nodes + 1, 0)
    , shared_on_node_(shape_.nodes, 0)
    , free_cpu_cores_(shape_.cpu_pool_cores) {
  ACME_ASSERT(shape_.leaf_of_node.empty() || shape_.leaf_of_node.size() == shape_.nodes, "one leaf per node");
  ACME_ASSERT(shape_.gpus_of_node.empty() || shape_.gpus_of_node.size() == shape_.nodes, "one GPU count per node");
  for (std::uint32_t n = 0; n < shape_.nodes; ++n) {
    std::uint32_t gpus = shape_.gpus_of(NodeId{n});
    ACME_ASSERT(gpus <= shape_.gpus_per_node, "gpus_per_node is the most GPUs any node has");
    free_gpus_[n] = gpus;
    gpu_offset_[n + 1] = gpu_offset_[n] + gpus;
    up_.set(n);
    by_free_[gpus].set(n);
    update_sets(n);
  }
  total_gpus_ = gpu_offset_[shape_.nodes];
  free_gpus_up_ = total_gpus_;
  slot_milli_.assign(total_gpus_, 0);
}

std::uint32_t ClusterView::leaf_of(NodeId node) const {
  return shape_.leaf_of_node.empty() ? 0 : shape_.leaf_of_node[to_index(node)];
}

const JobEntry* ClusterView::find_job(JobId id) const {
  return jobs_.find(id);
}

const JobEntry& ClusterView::job(JobId id) const {
  const JobEntry* entry = find_job(id);
  ACME_ASSERT(entry != nullptr, "job is active in this cluster");
  return *entry;
}

JobEntry& ClusterView::mutable_job(JobId id) {
  JobEntry* entry = jobs_.find(id);
  ACME_ASSERT(entry != nullptr, "job is active in this cluster");
  return *entry;
}

std::uint32_t ClusterView::shared_gpu_milli(NodeId node, std::uint32_t gpu) const {
  ACME_ASSERT(gpu < gpus_of(node), "a shared GPU is one of the node's GPUs");
  return slot_milli_[gpu_offset_[to_index(node)] + gpu];
}

bool ClusterView::fits(const Placement& placement) const {
  for (const auto& share : placement) {
    if (!is_up(share.node)) {
      return false;
    }
    if (share.milli == 0) {
      if (free_gpus(share.node) < share.gpus) {
        return false;
      }
      continue;
    }
    if (share.gpus != 0 || share.gpu >= gpus_of(share.node) || share.milli > MILLI_PER_GPU) {
      return false;
    }
    std::uint32_t used = shared_gpu_milli(share.node, share.gpu);
    if (used == 0 ? free_gpus(share.node) == 0 : used + share.milli > MILLI_PER_GPU) {
      return false;
    }
  }
  return true;
}

void ClusterView::set_now(double now_s) {
  ACME_ASSERT(now_s >= now_s_, "simulated time never goes backwards");
  now_s_ = now_s;
}

void ClusterView::integrate_busy() {
  // Summed only where this cluster's allocation changes: instants of other clusters split nothing, so
  // its figures do not move (in the last bit) with their events.
  busy_gpu_seconds_ += allocated_gpus() * (now_s_ - integrated_s_);
  integrated_s_ = now_s_;
}

JobEntry& ClusterView::add_job(JobSpec spec) {
  JobId id = spec.id;
  JobEntry entry;
  entry.queued_since_s = now_s_;
  entry.spec = std::move(spec);
  JobEntry* added = jobs_.emplace(id, std::move(entry));
  ACME_ASSERT(added != nullptr, "a job is submitted once while active");
  ++queued_jobs_;
  queued_gpus_ += added->spec.gpus;
  return *added;
}

void ClusterView::start_job(JobId id, Placement placement) {
  JobEntry& entry = mutable_job(id);
  ACME_ASSERT(entry.phase == JobPhase::QUEUED, "only queued jobs start");
  std::uint64_t placed_milli = 0;
  for (const auto& share : placement) {
    ACME_ASSERT(is_up(share.node), "jobs start on up nodes only");
    if (share.milli > 0) {
      ACME_ASSERT(entry.spec.is_fractional(), "only fractional jobs take shares of a GPU");
      take_share(share);
    } else {
      take_gpus(share.node, share.gpus);
      integrate_busy();
      allocated_milli_ += share_milli(share);
    }
    placed_milli += share_milli(share);
  }
  ACME_ASSERT(placed_milli >= std::uint64_t{entry.spec.gpus} * entry.spec.gpu_milli,
              "a placement covers the GPUs requested");
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

void ClusterView::release(JobEntry& entry) {
  ACME_ASSERT(entry.phase == JobPhase::RUNNING, "only running jobs release resources");
  for (const auto& share : entry.placement) {
    if (share.milli > 0) {
      give_share(share);
    } else {
      give_gpus(share.node, share.gpus);
      integrate_busy();
      allocated_milli_ -= share_milli(share);
    }
  }
  if (entry.spec.is_cpu_job()) {
    free_cpu_cores_ += entry.spec.cpus;
  }
  entry.attained_gpu_s += (now_s_ - entry.start_time_s) * entry.spec.gpu_share();
  entry.placement.clear();
}

void ClusterView::stop_job(JobId id) {
  JobEntry& entry = mutable_job(id);
  release(entry);
  entry.phase = JobPhase::QUEUED;
  entry.queued_since_s = now_s_;
  ++queued_jobs_;
  queued_gpus_ += entry.spec.gpus;
}

void ClusterView::hold_job(JobId id) {
  JobEntry& entry = mutable_job(id);
  release(entry);
  entry.phase = JobPhase::HELD;
  ++held_jobs_;
}

void ClusterView::requeue_job(JobId id) {
  JobEntry& entry = mutable_job(id);
  ACME_ASSERT(entry.phase == JobPhase::HELD, "only held jobs are queued again");
  --held_jobs_;
  entry.phase = JobPhase::QUEUED;
  entry.queued_since_s = now_s_;
  ++queued_jobs_;
  queued_gpus_ += entry.spec.gpus;
}

void ClusterView::move_share(JobId id, NodeId from, NodeId to) {
  JobEntry& entry = mutable_job(id);
  ACME_ASSERT(entry.phase == JobPhase::RUNNING, "only running jobs move");
  for (auto& share : entry.placement) {
    if (share.node != from) {
      continue;
    }
    ACME_ASSERT(share.milli == 0, "whole-GPU shares move");
    ACME_ASSERT(is_up(to) && free_gpus(to) >= share.gpus, "a share moves to free GPUs of an up node");
    give_gpus(from, share.gpus);
    take_gpus(to, share.gpus);
    share.node = to;
    return;
  }
  ACME_ASSERT(false, "the job has a share on the node it moves from");
}

void ClusterView::set_out_of_service(NodeId node, std::uint8_t reasons) {
  std::uint8_t& now = out_of_service_[to_index(node)];
  if (now == reasons) {
    return;
  }
  integrate_out_of_service();
  constexpr std::uint8_t FAILED_OR_SWITCH = OutOfService::FAILED | OutOfService::SWITCH;
  for (std::size_t bit = 0; bit < OutOfServiceTime::REASONS; ++bit) {
    out_by_reason_[bit] += ((reasons >> bit) & 1U) - ((now >> bit) & 1U);
  }
  out_any_ += (reasons != 0 ? 1 : 0) - (now != 0 ? 1 : 0);
  out_failed_ += ((reasons & FAILED_OR_SWITCH) != 0 ? 1 : 0) - ((now & FAILED_OR_SWITCH) != 0 ? 1 : 0);
  now = reasons;
}

void ClusterView::integrate_out_of_service() {
  out_of_service_time_ = out_of_service_time();
  out_integrated_s_ = now_s_;
}

OutOfServiceTime ClusterView::out_of_service_time() const {
  OutOfServiceTime t = out_of_service_time_;
  double dt = now_s_ - out_integrated_s_;
  for (std::size_t bit = 0; bit < OutOfServiceTime::REASONS; ++bit) {
    t.by_reason_node_s[bit] += out_by_reason_[bit] * dt;
  }
  t.any_node_s += out_any_ * dt;
  t.failed_node_s += out_failed_ * dt;
  return t;
}

void ClusterView::remove_job(JobId id) {
  const JobEntry* entry = jobs_.find(id);
  ACME_ASSERT(entry != nullptr, "removed jobs are active");
  ACME_ASSERT(entry->phase != JobPhase::RUNNING, "only queued, stopped or held jobs are removed");
  if (entry->phase == JobPhase::QUEUED) {
    --queued_jobs_;
    queued_gpus_ -= entry->spec.gpus;
  } else {
    --held_jobs_;
  }
  jobs_.erase(id);
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
  update_sets(n);
}

void ClusterView::set_node_power(NodeId node, NodePower power) {
  NodePower& now = power_[to_index(node)];
  if (now == NodePower::BOOTING) {
    --booting_;
  }
  if (power == NodePower::BOOTING) {
    ++booting_;
  }
  if (power == NodePower::OFF) {
    off_.set(to_index(node));
  } else {
    off_.reset(to_index(node));
  }
  now = power;
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
  ACME_ASSERT(old_free + gpus <= gpus_of(node), "a node never has more free GPUs than it has");
  free_gpus_[n] = old_free + gpus;
  busy_gpus_ -= gpus;
  if (up_.test(n)) {
    free_gpus_up_ += gpus;
  }
  rebucket(node, old_free);
}

void ClusterView::take_share(const NodeShare& share) {
  ACME_ASSERT(share.gpus == 0 && share.gpu < gpus_of(share.node), "a share names one GPU of its node");
  std::uint32_t& used = slot(share.node, share.gpu);
  ACME_ASSERT(used + share.milli <= MILLI_PER_GPU, "a shared GPU never holds more than 1000 milli");
  if (used == 0) {
    take_gpus(share.node, 1); // a free GPU becomes a shared GPU
    ++shared_on_node_[to_index(share.node)];
    update_sets(to_index(share.node));
  }
  used += share.milli;
  integrate_busy();
  allocated_milli_ += share.milli;
}

void ClusterView::give_share(const NodeShare& share) {
  std::uint32_t& used = slot(share.node, share.gpu);
  ACME_ASSERT(used >= share.milli, "a share returns what it took");
  used -= share.milli;
  integrate_busy();
  allocated_milli_ -= share.milli;
  if (used == 0) {
    --shared_on_node_[to_index(share.node)];
    give_gpus(share.node, 1); // the last share ended: the GPU is free again
  }
}

void ClusterView::rebucket(NodeId node, std::uint32_t old_free) {
  auto n = to_index(node);
  update_sets(n);
  if (!up_.test(n)) {
    return;
  }
  by_free_[old_free].reset(n);
  by_free_[free_gpus_[n]].set(n);
}

void ClusterView::update_sets(std::uint32_t n) {
  std::uint32_t gpus = shape_.gpus_of(NodeId{n});
  bool up = up_.test(n);
  if (up && gpus > 0 && free_gpus_[n] == gpus) {
    idle_.set(n);
  } else {
    idle_.reset(n);
  }
  if (up && shared_on_node_[n] > 0) {
    shared_nodes_.set(n);
  } else {
    shared_nodes_.reset(n);
  }
}

} // namespace acme::model
