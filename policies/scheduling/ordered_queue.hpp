#pragma once

#include <iterator>
#include <optional>
#include <set>
#include <unordered_map>

#include "policies/scheduling/pass_queue.hpp"
#include "sim/model/ids.hpp"

namespace acme::policies {

/// Where a pass over a std::set of keys stands, so that the step to the next job is an iterator
/// increment instead of a search. The queue forgets it when it erases the job it points at or rebuilds.
class PassCursor {
public:
  using Set = std::set<QueueKey>;

  /// Points at `it` (the job the pass examines now), or nowhere at the end.
  std::optional<QueueKey> point(const Set& set, Set::const_iterator it) {
    valid_ = it != set.end();
    at_ = it;
    return valid_ ? std::optional<QueueKey>(*it) : std::nullopt;
  }
  /// The first element after `key`: the cursor's successor when it points at `key`, else a search.
  Set::const_iterator after(const Set& set, const QueueKey& key) const {
    return valid_ && *at_ == key ? std::next(at_) : set.upper_bound(key);
  }
  /// `key` leaves the set: the cursor is dropped when it points at it.
  void erasing(const QueueKey& key) {
    if (valid_ && *at_ == key) {
      valid_ = false;
    }
  }
  void reset() { valid_ = false; }

private:
  Set::const_iterator at_;
  bool valid_ = false;
};

/// Waiting jobs in key order with O(log n) insertion and removal anywhere (backfilled jobs leave from
/// the middle). Keys may be recomputed (dynamic priorities) with rekey().
class OrderedQueue final : public PassQueue {
public:
  using Set = std::set<QueueKey>;
  using const_iterator = Set::const_iterator;

  bool empty() const { return set_.empty(); }
  std::size_t size() const { return set_.size(); }
  const_iterator begin() const { return set_.begin(); }
  const_iterator end() const { return set_.end(); }
  bool contains(model::JobId job) const { return index_.count(job) > 0; }
  /// The key of a queued job (it must be queued).
  const QueueKey& key_of(model::JobId job) const { return index_.at(job); }

  /// The first job after `key` (which need not be queued any more).
  const_iterator after(const QueueKey& key) const { return set_.upper_bound(key); }
  /// Adds a job (a job already queued is moved to its new key).
  void insert(const QueueKey& key) {
    erase(key.job);
    set_.insert(key);
    index_.emplace(key.job, key);
  }
  /// Removes a job; false when it was not queued.
  bool erase(model::JobId job) {
    auto it = index_.find(job);
    if (it == index_.end()) {
      return false;
    }
    cursor_.erasing(it->second);
    set_.erase(it->second);
    index_.erase(it);
    return true;
  }
  /// Removes the element at `it` and returns the next one (for scans that start jobs as they go).
  const_iterator erase(const_iterator it) {
    cursor_.erasing(*it);
    index_.erase(it->job);
    return set_.erase(it);
  }
  void add(const QueueKey& key, const model::JobSpec&) override { insert(key); }
  void drop(model::JobId job) override { erase(job); }
  std::optional<QueueKey> find(model::JobId job) const override {
    auto it = index_.find(job);
    return it == index_.end() ? std::nullopt : std::optional<QueueKey>(it->second);
  }
  std::optional<QueueKey> first_in_pass() override { return cursor_.point(set_, set_.begin()); }
  std::optional<QueueKey> next_in_pass(const QueueKey& key, Step) override {
    return cursor_.point(set_, cursor_.after(set_, key));
  }

  /// Recomputes every key with `key_of(job)`; O(n log n).
  template <class KeyOf>
  void rekey(KeyOf key_of) {
    Set fresh;
    for (const auto& k : set_) {
      QueueKey nk = key_of(k.job);
      fresh.insert(nk);
      index_[k.job] = nk;
    }
    set_.swap(fresh);
    cursor_.reset();
  }

private:
  Set set_;
  PassCursor cursor_;
  std::unordered_map<model::JobId, QueueKey> index_;
};

} // namespace acme::policies
