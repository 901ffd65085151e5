#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sim/model/ids.hpp"

namespace acme::model {

/// Values keyed by job id. The engine numbers jobs densely from 0, so those ids index a vector (one
/// memory access per lookup, neighbours in the queue side by side); ids far beyond the dense range (jobs
/// spawned by task plans, ids a test picks) go to a hash map. `T{}` means "no value".
template <class T>
class IdTable {
public:
  /// The value of `id`, or T{} when it has none.
  T get(JobId id) const {
    auto i = to_index(id);
    if (i < dense_.size() && dense_[i] != T{}) {
      return dense_[i];
    }
    auto it = sparse_.find(id);
    return it == sparse_.end() ? T{} : it->second;
  }
  /// Sets the value of `id` (not T{}: use erase).
  void set(JobId id, T value) {
    auto i = to_index(id);
    if (i >= dense_.size() && i < 2 * dense_.size() + DENSE_SLACK) {
      dense_.resize(i + 1); // the next ids of a dense numbering: the vector grows with them
    }
    if (i < dense_.size()) {
      sparse_.erase(id); // it may have come before the vector reached it
      dense_[i] = value;
    } else {
      sparse_.insert_or_assign(id, value);
    }
  }
  /// Where the value of a densely numbered `id` lives (for prefetching); nullptr beyond the vector.
  const T* slot(JobId id) const {
    auto i = to_index(id);
    return i < dense_.size() ? &dense_[i] : nullptr;
  }
  void erase(JobId id) {
    auto i = to_index(id);
    if (i < dense_.size()) {
      dense_[i] = T{};
    }
    sparse_.erase(id);
  }
  void clear() {
    dense_.clear();
    sparse_.clear();
  }

private:
  static constexpr std::uint64_t DENSE_SLACK = 4096; ///< how far past the vector an id still extends it

  std::vector<T> dense_;
  std::unordered_map<JobId, T> sparse_;
};

} // namespace acme::model
