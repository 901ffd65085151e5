#pragma once

#include <deque>
#include <utility>

#include "sim/model/ids.hpp"

namespace acme::policies {

/// Jobs waiting, ordered by a key (submission time for FIFO) then id. Appending in key order is O(1);
/// a job coming back (preempted) is inserted at its place.
class JobQueue {
public:
  struct Item {
    double key = 0.0;
    model::JobId job{};
  };

  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const Item& front() const { return items_.front(); }
  void pop_front() { items_.pop_front(); }
  const std::deque<Item>& items() const { return items_; }

  void insert(double key, model::JobId job) {
    auto before = [](const Item& a, double k, model::JobId j) { return a.key < k || (a.key == k && a.job < j); };
    if (items_.empty() || before(items_.back(), key, job)) {
      items_.push_back({key, job});
      return;
    }
    auto it = items_.begin();
    while (it != items_.end() && before(*it, key, job)) {
      ++it;
    }
    items_.insert(it, {key, job});
  }

  /// Removes `job` wherever it is (a job cancelled while queued); false when absent.
  bool erase(model::JobId job) {
    for (auto it = items_.begin(); it != items_.end(); ++it) {
      if (it->job == job) {
        items_.erase(it);
        return true;
      }
    }
    return false;
  }

private:
  std::deque<Item> items_;
};

} // namespace acme::policies
