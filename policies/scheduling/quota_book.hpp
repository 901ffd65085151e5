#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "policies/param_table.hpp"
#include "policies/scheduling/running_jobs.hpp"
#include "sim/config/node.hpp"
#include "sim/model/job.hpp"

namespace acme::policies {

/// How jobs are grouped for quotas.
enum class QuotaGroupBy : std::uint8_t { TYPE, USER };

/// Quotas of GPUs per group (job type or user). A job whose group still has quota left for it runs as
/// an owner; otherwise it borrows: from the GPUs no quota reserves, and, with `borrowing`, from the
/// reserved GPUs that their owners leave idle. With `reclaim`, an owner that cannot fit preempts
/// borrowers (most recently started first) back down to the unreserved capacity.
struct QuotaParams {
  QuotaGroupBy group_by = QuotaGroupBy::TYPE;
  std::vector<double> type_quota_gpus = std::vector<double>(model::JOB_TYPE_COUNT, 0.0); ///< group_by type
  std::uint32_t default_quota_gpus = 0; ///< every user's quota (group_by user)
  bool borrowing = true;
  bool reclaim = true;
  static constexpr double NO_BORROWING_LIMIT = -1.0;
  /// Per job type (group_by type): GPUs its jobs may hold beyond its quota in all (Kueue's
  /// borrowingLimit); negative: no limit but the cluster's.
  std::vector<double> borrowing_limit_gpus = std::vector<double>(model::JOB_TYPE_COUNT, NO_BORROWING_LIMIT);
  /// Per job type (group_by type): the type whose quota its jobs run in (`quota_of: {debug: pretrain}`:
  /// a team's debug runs count against its reservation); by default its own.
  std::array<model::JobType, model::JOB_TYPE_COUNT> quota_of = model::ALL_JOB_TYPES;

  /// group_by, quotas or user_quota, borrowing, reclaim, borrowing_limit.
  static const ParamTable<QuotaParams>& table();
};

/// How a job would run right now under the quotas.
enum class Admission : std::uint8_t {
  OWNED,    ///< inside its group's quota
  BORROWED, ///< beyond its group's quota, within what borrowing allows
  BLOCKED,  ///< would exceed what borrowing allows in all: waits (does not block other jobs)
  CAPPED,   ///< would exceed its own group's borrowing limit: waits, as under a limit (Kueue's borrowingLimit,
            ///< Slurm's QOS GrpTRES), so even a strict-order pass goes on past it to the other groups
};

/// Whether the quotas hold a job back (BLOCKED or CAPPED).
constexpr bool held_back(Admission admit) {
  return admit == Admission::BLOCKED || admit == Admission::CAPPED;
}

/// The quota accounting of one cluster: GPUs owned per group and GPUs borrowed in all, in thousandths of
/// a GPU (a fractional job counts its share).
class QuotaBook {
public:
  QuotaBook(QuotaParams params, std::uint32_t total_gpus);

  Admission classify(const model::JobSpec& job) const;
  /// classify() for a job of `type` and `user` needing `milli` thousandths of a GPU.
  Admission classify(model::JobType type, model::UserId user, std::uint64_t milli) const;
  /// Whether a queued job could start inside its group's quota now (its group has quota left for it);
  /// with quotas per user, whether users have quotas at all.
  bool owner_room() const;
  /// The GPU queue's jobs, for owner_room().
  void on_queued(const model::JobSpec& job);
  void on_dequeued(model::JobId job);
  /// False when the job could never run under the quotas even on an empty cluster (reject it).
  bool can_ever_run(const model::JobSpec& job) const;
  void on_start(const RunningJob& job);
  void on_stop(const RunningJob& job);

  bool is_borrowing(model::JobId job) const { return borrowers_.count(job) > 0; }
  std::uint64_t borrowed_milli() const { return borrowed_milli_; }
  /// GPUs no quota reserves: borrowing up to this much is never reclaimed.
  std::uint64_t unreserved_milli() const { return unreserved_milli_; }
  /// GPUs owners may take back from borrowers right now.
  std::uint64_t reclaimable_milli() const {
    return borrowed_milli_ > unreserved_milli_ ? borrowed_milli_ - unreserved_milli_ : 0;
  }
  const QuotaParams& params() const { return params_; }
  /// GPUs the job's group owns (runs inside its quota) right now.
  std::uint64_t owned_milli(const model::JobSpec& job) const;
  std::uint64_t group_of(model::JobType type, model::UserId user) const { return group_key(params_, type, user); }
  static std::uint64_t group_key(const QuotaParams& params, model::JobType type, model::UserId user) {
    return params.group_by == QuotaGroupBy::TYPE
               ? static_cast<std::uint64_t>(params.quota_of[static_cast<std::size_t>(type)])
               : model::to_index(user);
  }
  std::uint64_t quota_milli(std::uint64_t group) const;

private:
  /// GPUs a group owns (runs inside its quota) right now.
  std::uint64_t owned_by_group(std::uint64_t group) const;
  std::uint64_t borrow_limit_milli() const;

  QuotaParams params_;
  std::uint64_t total_milli_ = 0;
  std::uint64_t unreserved_milli_ = 0;
  std::unordered_map<std::uint64_t, std::uint64_t> owned_by_group_;
  std::uint64_t owned_total_ = 0;
  /// The group's borrowing limit in thousandths of a GPU, if it has one.
  std::optional<std::uint64_t> borrowing_limit_milli(std::uint64_t group) const;

  std::unordered_map<model::JobId, std::pair<std::uint64_t, std::uint64_t>> borrowers_; ///< job -> GPUs, group
  std::unordered_map<std::uint64_t, std::uint64_t> borrowed_by_group_;
  std::uint64_t borrowed_milli_ = 0;
  /// Queued jobs of the groups with a quota: group and GPUs per job, and each group's GPUs per job.
  std::unordered_map<model::JobId, std::pair<std::uint64_t, std::uint64_t>> queued_;
  std::map<std::uint64_t, std::multiset<std::uint64_t>> queued_milli_;
};

class FreeResources;

/// Borrowers to preempt so that an owner job fits: most recently started first, only while borrowing
/// stays above the unreserved capacity; empty when that cannot make room.
std::vector<model::JobId> plan_reclaim(const model::JobSpec& owner, const QuotaBook& book, const RunningJobs& running,
                                       const FreeResources& free);

} // namespace acme::policies
