#include "policies/scheduling/multifactor_queue.hpp"

#include <algorithm>
#include <vector>

namespace acme::policies {

MultifactorQueue::MultifactorQueue(const PriorityOrder& order)
    : order_(order)
    , index_(order.index_params(), [&order](const model::JobSpec& job) { return order.base_term(job.type); }) {}

void MultifactorQueue::add(const QueueKey&, const model::JobSpec& job) {
  if (users_.insert(job.user).second) {
    index_.set_user_term(job.user, order_.fairshare_term(job.user, index_.get_priority_time()));
  }
  index_.add(QueueKey{}, job);
}

void MultifactorQueue::recalc(double now_s) {
  // Sorted, so that the index sees the same calls in the same order on every run.
  std::vector<model::UserId> users(users_.begin(), users_.end());
  std::sort(users.begin(), users.end());
  for (model::UserId user : users) {
    index_.set_user_term(user, order_.fairshare_term(user, now_s));
  }
  index_.recalc(now_s);
}

} // namespace acme::policies
