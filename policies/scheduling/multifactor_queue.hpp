#pragma once

#include <cstdint>
#include <optional>
#include <unordered_set>

#include "policies/scheduling/pass_queue.hpp"
#include "policies/scheduling/priority_index.hpp"
#include "policies/scheduling/priority_order.hpp"

namespace acme::policies {

/// The GPU queue of the priority order, in Slurm's integer multifactor priority kept incrementally
/// (PriorityIndex): a recalculation every PriorityCalcPeriod costs O(users + jobs whose age changes
/// class), not a re-sort of the queue, and a pass step O(log n), whatever the backlog.
///
/// A job's priority at the priority time T (the last recalculation) is, as Slurm sums its factors into
/// an integer: round(type_weight x class factor) + round(fairshare_weight x fair-share factor of the user
/// at T) + the age, in whole units of max_age / age_weight since submission (at most age_weight units).
/// A user first seen between recalculations gets its fair-share term at T.
class MultifactorQueue final : public PassQueue {
public:
  /// `order` keeps the users' usage; it must outlive the queue.
  explicit MultifactorQueue(const PriorityOrder& order);

  void add(const QueueKey& key, const model::JobSpec& job) override;
  void drop(model::JobId job) override { index_.drop(job); }
  std::optional<QueueKey> find(model::JobId job) const override { return index_.find(job); }
  std::optional<QueueKey> first_in_pass() override { return index_.first_in_pass(); }
  std::optional<QueueKey> next_in_pass(const QueueKey& key, Step step) override {
    return index_.next_in_pass(key, step);
  }
  std::optional<model::JobId> peek_ahead(std::size_t ahead) const override { return index_.peek_ahead(ahead); }

  /// Recomputes every queued user's fair-share term at `now_s` and moves the priority time there.
  void recalc(double now_s);
  std::size_t size() const { return index_.size(); }
  /// The integer priority of a queued job at the last recalculation; nullopt when it is not queued.
  std::optional<std::int64_t> priority_of(model::JobId job) const { return index_.priority_of(job); }

private:
  const PriorityOrder& order_;
  PriorityIndex index_;
  std::unordered_set<model::UserId> users_; ///< users whose term the index holds
};

} // namespace acme::policies
