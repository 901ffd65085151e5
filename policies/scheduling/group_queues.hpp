#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>

#include "policies/scheduling/ordered_queue.hpp"
#include "policies/scheduling/pass_queue.hpp"
#include "policies/scheduling/quota_book.hpp"

namespace acme::policies {

/// One queue per quota group (job type or user). A pass takes the queues' heads in key order; a queue
/// moves on to its next job once its head is dealt with, except that with strict FIFO a head that waits
/// blocks its own queue (Kueue's StrictFIFO).
class GroupQueues final : public PassQueue {
public:
  GroupQueues(QuotaParams quota, bool strict_fifo) : quota_(std::move(quota)), strict_fifo_(strict_fifo) {}

  void add(const QueueKey& key, const model::JobSpec& job) override;
  void drop(model::JobId job) override;
  std::optional<QueueKey> find(model::JobId job) const override;
  std::optional<QueueKey> first_in_pass() override;
  std::optional<QueueKey> next_in_pass(const QueueKey& key, Step step) override;

  /// Whether queued `job` is the first of its group's queue.
  bool is_first_of_its_queue(model::JobId job) const;

private:
  std::optional<QueueKey> take_head();

  QuotaParams quota_;
  bool strict_fifo_ = false;
  std::map<std::uint64_t, OrderedQueue> queues_;
  std::unordered_map<model::JobId, std::uint64_t> group_of_;
  /// The heads of this pass's queues, with their group.
  std::set<std::pair<QueueKey, std::uint64_t>> heads_;
  std::uint64_t current_group_ = 0; ///< the group of the job the pass examines
};

} // namespace acme::policies
