#pragma once

#include <functional>

#include "policies/scheduling/ordered_queue.hpp"
#include "policies/scheduling/running_jobs.hpp"
#include "sim/model/cluster_view.hpp"

namespace acme::policies {

/// What a dynamic order recomputes a queued job's key from (fixed while the job waits).
struct QueuedJob {
  model::JobId id{};
  double submit_time_s = 0.0;
  model::UserId user{};
  model::JobType type = model::JobType::OTHER;

  static QueuedJob of(const model::JobSpec& spec) { return {spec.id, spec.submit_time_s, spec.user, spec.type}; }
};

/// The order of a scheduler's GPU queue. Keys are computed when a job is queued; an order whose keys
/// change with time (priorities with age and fair share) asks for a recomputation through refresh().
class QueueOrder {
public:
  virtual ~QueueOrder() = default;
  /// Key of a queued job at `now_s` (smaller goes first).
  virtual QueueKey key(const model::JobEntry& entry, double now_s) const = 0;
  /// Called once per round before scheduling; true when every queued key must be recomputed now.
  virtual bool refresh(double now_s) {
    (void)now_s;
    return false;
  }
  /// Key of a queued job at `now_s` when refresh() asked for a recomputation (same as key()); only an
  /// order whose refresh() may return true overrides it.
  virtual QueueKey rekey(const QueuedJob& job, double now_s) {
    (void)now_s;
    return {job.submit_time_s, 0.0, job.id};
  }
  virtual void on_start(const RunningJob& job, double now_s) { (void)job, (void)now_s; }
  virtual void on_stop(const RunningJob& job, double now_s) { (void)job, (void)now_s; }
};

/// First come, first served: by submission time.
class FifoOrder final : public QueueOrder {
public:
  QueueKey key(const model::JobEntry& entry, double) const override {
    return {entry.spec.submit_time_s, 0.0, entry.spec.id};
  }
};

/// Shortest estimated job first: by remaining estimated service, then submission time.
class ShortestFirstOrder final : public QueueOrder {
public:
  using Estimate = std::function<double(const model::JobEntry&)>;
  explicit ShortestFirstOrder(Estimate estimate) : estimate_(std::move(estimate)) {}
  QueueKey key(const model::JobEntry& entry, double) const override {
    return {estimate_(entry), entry.spec.submit_time_s, entry.spec.id};
  }

private:
  Estimate estimate_;
};

} // namespace acme::policies
