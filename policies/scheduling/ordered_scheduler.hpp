#pragma once

#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "policies/scheduling/ordered_queue.hpp"
#include "policies/scheduling/policy_params.hpp"
#include "policies/scheduling/priority_order.hpp"
#include "policies/scheduling/queue_order.hpp"
#include "policies/scheduling/queue_scheduler.hpp"
#include "policies/scheduling/quota_book.hpp"
#include "policies/scheduling/shadow_profile.hpp"
#include "policies/scheduling/windowed_queue.hpp"

namespace acme::policies {

enum class OrderKind : std::uint8_t { FIFO, SHORTEST_FIRST, PRIORITY };

/// What a job that does not fit does to the jobs behind it.
enum class BackfillMode : std::uint8_t {
  NONE,   ///< it blocks them (strict order)
  EASY,   ///< it gets a reservation; later jobs start if they do not delay it (EASY backfilling)
  GREEDY, ///< nothing: every job that fits starts, in queue order (list scheduling)
};

/// The building blocks of the single-queue schedulers (easy_backfill, sjf, priority, quota).
struct OrderedSchedulerConfig {
  OrderKind order = OrderKind::FIFO;
  PriorityParams priority; ///< with OrderKind::PRIORITY
  BackfillMode backfill = BackfillMode::NONE;
  std::uint32_t depth = DEFAULT_QUEUE_DEPTH;
  EstimatorParams estimator;
  std::optional<QuotaParams> quota; ///< quota admission, borrowing and reclaim
};

/// One ordered GPU queue scanned at most `depth` jobs deep per pass, with a backfill mode and optional
/// quotas. A pass runs when resources were released, nodes or estimates changed, or the order was
/// recomputed; in a round with only arrivals, just the arrivals are examined (every other job still
/// cannot start where it could not), which keeps long queues cheap.
class OrderedScheduler final : public QueueScheduler {
public:
  explicit OrderedScheduler(OrderedSchedulerConfig config);

  /// The head job's reservation of the last EASY pass, once a backfill candidate needed it (for tests).
  const ShadowProfile& shadow() const { return shadow_; }
  std::optional<model::JobId> head() const { return head_; }
  /// The current head's EASY reservation computed afresh over `view` (between rounds, for tests);
  /// ShadowProfile::NEVER without a head.
  double head_reservation_s(const model::ClusterView& view) const;
  const QuotaBook* quota() const { return quota_ ? &*quota_ : nullptr; }
  const WindowedQueue& queue() const { return queue_; }

protected:
  void enqueue(const model::JobEntry& entry) override;
  void schedule_gpus(const model::ClusterView& cluster, const RoundChanges& changes,
                     std::vector<model::Decision>& out) override;
  void on_job_started(const RunningJob& job) override;
  void on_job_stopped(const RunningJob& job, model::EndCause cause) override;

private:
  enum class Step : std::uint8_t { STARTED, SKIPPED, NOT_NOW, RECLAIMED };

  void full_pass(const model::ClusterView& cluster, std::vector<model::Decision>& out);
  bool arrivals_pass(const model::ClusterView& cluster, const RoundChanges& changes, std::vector<model::Decision>& out);
  Step consider(const model::JobEntry& entry, bool backfilling, std::vector<model::Decision>& out);
  void ensure_shadow();
  bool try_reclaim(const model::JobEntry& entry, std::vector<model::Decision>& out);
  bool may_reclaim() const;
  Admission admission(const model::JobSpec& job) const;

  OrderedSchedulerConfig config_;
  std::unique_ptr<QueueOrder> order_;
  WindowedQueue queue_;
  std::optional<QuotaBook> quota_;
  ShadowProfile shadow_;
  std::optional<model::JobId> head_;
  bool shadow_stale_ = false;
  std::vector<std::uint32_t> refused_sizes_; ///< sizes refused by the reservation since the last start
  std::uint32_t min_unplaceable_ = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t min_unreclaimable_ = std::numeric_limits<std::uint32_t>::max();
};

} // namespace acme::policies
