#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "policies/scheduling/availability_profile.hpp"
#include "policies/scheduling/multifactor_queue.hpp"
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
  /// every job tested that cannot start is planned its earliest start within bf_window; later jobs start
  /// only when they delay none of those plans (conservative backfilling, as Slurm's sched/backfill)
  CONSERVATIVE,
};

/// The building blocks of the single-queue schedulers (easy_backfill, sjf, priority, quota).
struct OrderedSchedulerConfig {
  OrderKind order = OrderKind::FIFO;
  PriorityParams priority; ///< with OrderKind::PRIORITY
  BackfillMode backfill = BackfillMode::NONE;
  std::uint32_t depth = DEFAULT_QUEUE_DEPTH;
  CadenceParams cadence; ///< Slurm's pass cadence (none by default)
  EstimatorParams estimator;
  std::optional<QuotaParams> quota; ///< quota admission, borrowing and reclaim
  LimitParams limits;               ///< QoS and association limits
};

/// One ordered GPU queue scanned at most `depth` jobs deep per pass, with a backfill mode and optional
/// quotas. A full pass runs when resources were released, nodes or estimates changed, or the order was
/// recomputed; in a round with only arrivals, just the arrivals are examined (QueueScheduler).
class OrderedScheduler final : public QueueScheduler {
public:
  explicit OrderedScheduler(OrderedSchedulerConfig config);

  /// The head job's reservation of the last EASY pass, once a backfill candidate needed it (for tests).
  const ShadowProfile& shadow() const { return shadow_; }
  /// The current head's EASY reservation computed afresh over `view` (between rounds, for tests);
  /// ShadowProfile::NEVER without a head.
  double head_reservation_s(const model::ClusterView& view) const;
  const WindowedQueue& queue() const { return queue_; }

protected:
  PassQueue& gpu_queue() override {
    return multifactor_ ? static_cast<PassQueue&>(*multifactor_) : static_cast<PassQueue&>(queue_);
  }
  void enqueue(const model::JobEntry& entry) override;
  bool prepare_round(const model::ClusterView& cluster) override;
  ArrivalsRound on_arrivals(const model::ClusterView& cluster, const std::vector<QueueKey>& arrivals) override;
  void begin_pass(PassKind kind) override;
  Step decide(const model::JobEntry& entry, PassKind kind, std::vector<model::Decision>& out) override;
  std::optional<Step> decide_brief(const JobBrief& job, PassKind kind) override;
  void on_job_started(const RunningJob& job) override;
  void on_job_stopped(const RunningJob& job, model::EndCause cause) override;

private:
  Step consider(const model::JobEntry& entry, bool backfilling, bool planning, std::vector<model::Decision>& out);
  /// consider() in a conservative backfill pass: start where no plan is delayed, else plan the job.
  Step consider_planned(const model::JobEntry& entry, Admission admit, std::vector<model::Decision>& out);
  /// The job's estimate rounded up to bf_resolution, as the backfill plan counts it.
  double planned_duration_s(const model::JobEntry& entry) const;
  /// decide()'s last word in a pass without backfilling: a waiting job, or one the quotas hold once
  /// no group has quota left, blocks the pass.
  Step strict_order(Step step) const;
  /// The backfill mode of a pass of `kind` (under a cadence, only BACKFILL passes backfill).
  BackfillMode backfill_in(PassKind kind) const;
  void ensure_shadow();

  OrderedSchedulerConfig config_;
  std::unique_ptr<QueueOrder> order_;
  WindowedQueue queue_;                           ///< FIFO and shortest-first orders
  std::unique_ptr<MultifactorQueue> multifactor_; ///< the priority order (over order_'s usage)
  ShadowProfile shadow_;
  bool shadow_stale_ = false;
  AvailabilityProfile plan_; ///< the conservative backfill pass's plan (BackfillMode::CONSERVATIVE)
  bool quota_held_ = false;  ///< the job decide() decides for is held back by the quotas (Admission::BLOCKED)
  std::vector<std::uint32_t> refused_sizes_; ///< sizes refused by the reservation since the last start
};

} // namespace acme::policies
