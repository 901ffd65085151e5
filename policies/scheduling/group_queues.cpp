#include "policies/scheduling/group_queues.hpp"

namespace acme::policies {

void GroupQueues::add(const QueueKey& key, const model::JobSpec& job) {
  std::uint64_t group = QuotaBook::group_key(quota_, job.type, job.user);
  queues_[group].insert(key);
  group_of_[job.id] = group;
}

void GroupQueues::drop(model::JobId job) {
  auto it = group_of_.find(job);
  if (it == group_of_.end()) {
    return;
  }
  queues_.at(it->second).erase(job);
  group_of_.erase(it);
}

std::optional<QueueKey> GroupQueues::find(model::JobId job) const {
  auto it = group_of_.find(job);
  return it == group_of_.end() ? std::nullopt : queues_.at(it->second).find(job);
}

bool GroupQueues::is_first_of_its_queue(model::JobId job) const {
  auto it = group_of_.find(job);
  return it != group_of_.end() && queues_.at(it->second).begin()->job == job;
}

std::optional<QueueKey> GroupQueues::first_in_pass() {
  heads_.clear();
  for (const auto& [group, queue] : queues_) {
    if (!queue.empty()) {
      heads_.emplace(*queue.begin(), group);
    }
  }
  return take_head();
}

std::optional<QueueKey> GroupQueues::next_in_pass(const QueueKey& key, Step step) {
  if (step != Step::WAITING || !strict_fifo_) {
    const OrderedQueue& queue = queues_.at(current_group_);
    if (auto next = queue.after(key); next != queue.end()) {
      heads_.emplace(*next, current_group_);
    }
  }
  return take_head();
}

std::optional<QueueKey> GroupQueues::take_head() {
  if (heads_.empty()) {
    return std::nullopt;
  }
  auto [key, group] = *heads_.begin();
  heads_.erase(heads_.begin());
  current_group_ = group;
  return key;
}

} // namespace acme::policies
