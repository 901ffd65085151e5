#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "sim/model/ids.hpp"
#include "sim/model/job.hpp"

namespace acme::policies {

/// Position of a queued job: smaller keys go first; `job` breaks ties so the order is total.
struct QueueKey {
  double primary = 0.0;
  double secondary = 0.0;
  model::JobId job{};
  friend auto operator<=>(const QueueKey&, const QueueKey&) = default;
};

/// What a scheduler decided for one queued job during a pass (QueueScheduler::decide).
enum class Step : std::uint8_t {
  STARTED,   ///< it started (its GPUs are taken)
  SKIPPED,   ///< passed over and no blocker: rejected, or held back by a quota
  WAITING,   ///< it cannot start now; the pass goes on with the jobs behind it
  BLOCKED,   ///< it cannot start now and nothing behind it may start: the pass ends
  PREEMPTED, ///< preemptions were asked for so that it can start: the pass ends
};

/// The GPU queue of a scheduler, in the order a pass examines it. Each policy keeps its own kind (one
/// ordered queue, a window over a large dynamic-priority queue, one queue per quota group).
class PassQueue {
public:
  virtual ~PassQueue() = default;
  /// Queues `job` at `key` (a job already queued moves to `key`).
  virtual void add(const QueueKey& key, const model::JobSpec& job) = 0;
  /// Removes a job (started, rejected or no longer queued); nothing when absent.
  virtual void drop(model::JobId job) = 0;
  /// The key of a queued job; nullopt when it is not queued.
  virtual std::optional<QueueKey> find(model::JobId job) const = 0;
  /// The first job a full pass examines; nullopt when the queue is empty.
  virtual std::optional<QueueKey> first_in_pass() = 0;
  /// The job a full pass examines after `key`, once `step` was decided for it (`key` may have left the
  /// queue meanwhile); nullopt at the end.
  virtual std::optional<QueueKey> next_in_pass(const QueueKey& key, Step step) = 0;
  /// A job a pass will probably examine `ahead` steps after the one it was given last, when the queue
  /// knows it cheaply (for prefetching that job's data; it never changes the order); nullopt otherwise.
  virtual std::optional<model::JobId> peek_ahead(std::size_t /*ahead*/) const { return std::nullopt; }
};

} // namespace acme::policies
