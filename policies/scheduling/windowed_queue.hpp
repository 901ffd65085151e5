#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <unordered_map>
#include <vector>

#include "policies/scheduling/ordered_queue.hpp"
#include "policies/scheduling/queue_order.hpp"

namespace acme::policies {

/// Waiting jobs in key order, of which only a window of the smallest keys is kept sorted: a scheduling
/// pass looks at the first queue_depth jobs, so recomputing every key (dynamic priorities) costs a
/// selection, O(n), instead of a sort. Keys outside the window sit unsorted in a reserve, each larger
/// than every key in the window; the window grows from the reserve when a scan reaches its end.
class WindowedQueue final : public PassQueue {
public:
  using Set = OrderedQueue::Set;
  using const_iterator = Set::const_iterator;

  /// Keys moved into the window when it is rebuilt or runs out.
  static constexpr std::size_t WINDOW_CHUNK = 512;

  bool empty() const { return index_.empty(); }
  std::size_t size() const { return index_.size(); }
  /// The first job; fills the window from the reserve when it is empty.
  const_iterator begin() {
    if (window_.empty()) {
      extend();
    }
    return window_.begin();
  }
  const_iterator end() const { return window_.end(); }
  /// The job after `it`, filling the window from the reserve when `it` is its last job.
  const_iterator next(const_iterator it) {
    auto after = std::next(it);
    if (after == window_.end()) {
      extend();
      after = std::next(it);
    }
    return after;
  }
  bool contains(model::JobId job) const { return index_.count(job) > 0; }
  /// The key of a queued job (it must be queued).
  const QueueKey& key_of(model::JobId job) const { return slots_[index_.at(job)].key; }

  /// Adds a job (a job already queued is moved to its new key).
  void insert(const QueueKey& key, const QueuedJob& job) {
    erase(job.id);
    std::uint32_t at = allocate();
    Slot& slot = slots_[at];
    slot.key = key;
    slot.job = job;
    index_.emplace(job.id, at);
    if (reserve_live_ > 0 && (window_.empty() || *window_.rbegin() < key)) {
      to_reserve(at);
      return;
    }
    slot.in_window = true;
    window_.insert(key);
  }
  /// Removes a job; false when it was not queued.
  bool erase(model::JobId job) {
    auto it = index_.find(job);
    if (it == index_.end()) {
      return false;
    }
    release(it->second);
    index_.erase(it);
    return true;
  }
  /// Removes the element at `it` (in the window).
  void erase(const_iterator it) { erase(it->job); }

  void add(const QueueKey& key, const model::JobSpec& job) override { insert(key, QueuedJob::of(job)); }
  void drop(model::JobId job) override { erase(job); }
  std::optional<QueueKey> find(model::JobId job) const override {
    auto it = index_.find(job);
    return it == index_.end() ? std::nullopt : std::optional<QueueKey>(slots_[it->second].key);
  }
  std::optional<QueueKey> first_in_pass() override { return cursor_.point(window_, begin()); }
  /// The first job after `key`, filling the window from the reserve when none is left in it.
  std::optional<QueueKey> next_in_pass(const QueueKey& key, Step) override {
    auto after = cursor_.after(window_, key);
    if (after == window_.end()) {
      extend();
      after = window_.upper_bound(key);
    }
    return cursor_.point(window_, after);
  }

  /// Recomputes every key with `key_of(const QueuedJob&)` and rebuilds the window; O(n) for n jobs.
  template <class KeyOf>
  void rekey(KeyOf key_of) {
    cursor_.reset();
    window_.clear();
    reserve_.clear();
    reserve_live_ = 0;
    for (std::uint32_t at = 0; at < slots_.size(); ++at) {
      Slot& slot = slots_[at];
      if (!slot.live) {
        continue;
      }
      slot.key = key_of(slot.job);
      slot.in_window = false;
      to_reserve(at);
    }
    extend();
  }

private:
  struct Slot {
    QueueKey key;
    QueuedJob job;
    std::uint32_t serial = 0; ///< bumped on reuse, so stale reserve entries are recognised
    bool live = false;
    bool in_window = false;
  };
  struct Reserved {
    QueueKey key;
    std::uint32_t slot = 0;
    std::uint32_t serial = 0;
  };

  std::uint32_t allocate() {
    std::uint32_t at = 0;
    if (free_.empty()) {
      at = static_cast<std::uint32_t>(slots_.size());
      slots_.emplace_back();
    } else {
      at = free_.back();
      free_.pop_back();
    }
    Slot& slot = slots_[at];
    ++slot.serial;
    slot.live = true;
    slot.in_window = false;
    return at;
  }
  void release(std::uint32_t at) {
    Slot& slot = slots_[at];
    if (slot.in_window) {
      cursor_.erasing(slot.key);
      window_.erase(slot.key);
    } else {
      --reserve_live_;
    }
    slot.live = false;
    slot.in_window = false;
    free_.push_back(at);
  }
  void to_reserve(std::uint32_t at) {
    reserve_.push_back({slots_[at].key, at, slots_[at].serial});
    ++reserve_live_;
  }
  bool reserved_live(const Reserved& r) const {
    const Slot& slot = slots_[r.slot];
    return slot.live && !slot.in_window && slot.serial == r.serial;
  }
  /// Moves the smallest reserve keys (all larger than the window's) to the end of the window.
  void extend() {
    if (reserve_live_ == 0) {
      reserve_.clear();
      return;
    }
    std::erase_if(reserve_, [&](const Reserved& r) { return !reserved_live(r); });
    auto by_key = [](const Reserved& a, const Reserved& b) { return a.key < b.key; };
    auto cut = reserve_.end();
    if (reserve_.size() > WINDOW_CHUNK) {
      cut = reserve_.begin() + static_cast<std::ptrdiff_t>(WINDOW_CHUNK);
      std::nth_element(reserve_.begin(), cut, reserve_.end(), by_key);
    }
    std::sort(reserve_.begin(), cut, by_key);
    for (auto it = reserve_.begin(); it != cut; ++it) {
      slots_[it->slot].in_window = true;
      window_.insert(window_.end(), it->key);
    }
    reserve_live_ -= static_cast<std::size_t>(cut - reserve_.begin());
    reserve_.erase(reserve_.begin(), cut);
  }

  Set window_;
  PassCursor cursor_;
  std::vector<Reserved> reserve_;
  std::size_t reserve_live_ = 0;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_;
  std::unordered_map<model::JobId, std::uint32_t> index_;
};

} // namespace acme::policies
