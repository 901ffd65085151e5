#include "policies/scheduling/quota_book.hpp"

#include <algorithm>
#include <cmath>

#include "policies/placement/placement_policy.hpp"
#include "policies/scheduling/policy_params.hpp"
#include "policies/scheduling/victim_planner.hpp"
#include "sim/model/assert.hpp"

namespace acme::policies {
namespace {

/// The keys of the other grouping are errors; quotas are whole GPUs.
void check_quota_keys(const config::Node& node, const QuotaParams& p) {
  if (p.group_by == QuotaGroupBy::TYPE) {
    if (node["user_quota"].is_defined()) {
      node["user_quota"].fail("user_quota needs group_by: user; expected quotas per job type under \"quotas\"");
    }
    for (double q : p.type_quota_gpus) {
      if (q != std::floor(q)) {
        node["quotas"].fail("expected whole numbers of GPUs");
      }
    }
    for (double limit : p.borrowing_limit_gpus) {
      if (limit >= 0.0 && limit != std::floor(limit)) {
        node["borrowing_limit"].fail("expected whole numbers of GPUs");
      }
    }
  } else if (node["borrowing_limit"].is_defined()) {
    node["borrowing_limit"].fail("borrowing limits are per job type; expected group_by: type");
  } else if (node["quota_of"].is_defined()) {
    node["quota_of"].fail("quota_of maps job types; expected group_by: type");
  } else if (node["quotas"].is_defined()) {
    node["quotas"].fail("per-user quotas by name are not supported (policies see anonymous user ids); "
                        "expected user_quota: the GPUs every user owns");
  }
}

/// Only the limited types are shown: "{eval: 32}"; "{}" when none is.
std::string show_limits(const std::vector<double>& limits) {
  std::string out;
  for (model::JobType type : model::ALL_JOB_TYPES) {
    double v = limits[static_cast<std::size_t>(type)];
    if (v >= 0.0) {
      out += std::string(out.empty() ? "" : ", ") + std::string(job_type_key(type)) + ": " + format_number(v);
    }
  }
  return "{" + out + "}";
}

Param<QuotaParams> borrowing_limit_param() {
  return {"borrowing_limit",
          "GPUs a job type may hold beyond its quota in all (Kueue borrowingLimit), e.g. {eval: 32}; unlisted "
          "types: no limit; a job it holds waits as under a Slurm QOS limit: the other types go on",
          [](const config::Node& map, QuotaParams& p) {
            read_type_map(map, p.borrowing_limit_gpus, Bounds{0.0, static_cast<double>(model::limits::MAX_COUNT)});
          },
          [](const QuotaParams& p) { return show_limits(p.borrowing_limit_gpus); }};
}

} // namespace

const ParamTable<QuotaParams>& QuotaParams::table() {
  using P = QuotaParams;
  static const ParamTable<P> t =
      ParamTable<P>{
          choice_param("group_by", &P::group_by, {{"type", QuotaGroupBy::TYPE}, {"user", QuotaGroupBy::USER}},
                       "what a quota belongs to: type (job type) or user"),
          type_map_param("quotas", &P::type_quota_gpus,
                         "GPUs reserved per job type (group_by type), e.g. {pretrain: 1800}; unlisted types own 0"),
          count_param("user_quota", &P::default_quota_gpus, "GPUs every user owns (group_by user)", 0),
          flag_param("borrowing", &P::borrowing,
                     "jobs beyond their quota may use reserved GPUs their owners leave idle"),
          flag_param("reclaim", &P::reclaim,
                     "an owner that cannot fit preempts borrowers back to the unreserved capacity"),
          borrowing_limit_param(),
          type_route_param("quota_of", &P::quota_of,
                           "job types that run in another type's quota (group_by type), e.g. {debug: pretrain}; "
                           "unlisted types: their own")}
          .check(check_quota_keys);
  return t;
}

QuotaBook::QuotaBook(QuotaParams params, std::uint32_t total_gpus)
    : params_(std::move(params))
    , total_milli_(std::uint64_t{total_gpus} * model::MILLI_PER_GPU) {
  if (params_.group_by == QuotaGroupBy::TYPE) {
    double reserved_gpus = 0.0;
    for (double q : params_.type_quota_gpus) {
      reserved_gpus += q;
    }
    auto reserved = static_cast<std::uint64_t>(std::min<double>(reserved_gpus, total_gpus)) * model::MILLI_PER_GPU;
    unreserved_milli_ = total_milli_ - reserved;
  } else {
    unreserved_milli_ = 0; // every GPU may be some user's quota
  }
}

std::uint64_t QuotaBook::quota_milli(std::uint64_t group) const {
  double gpus = params_.group_by == QuotaGroupBy::TYPE ? params_.type_quota_gpus[group] : params_.default_quota_gpus;
  return static_cast<std::uint64_t>(gpus) * model::MILLI_PER_GPU;
}

std::uint64_t QuotaBook::owned_milli(const model::JobSpec& job) const {
  return owned_by_group(group_of(job.type, job.user));
}

std::uint64_t QuotaBook::owned_by_group(std::uint64_t group) const {
  auto it = owned_by_group_.find(group);
  return it == owned_by_group_.end() ? 0 : it->second;
}

std::uint64_t QuotaBook::borrow_limit_milli() const {
  if (!params_.borrowing) {
    return unreserved_milli_;
  }
  // Unreserved GPUs plus every owner's idle quota: only the physical capacity limits borrowing.
  return total_milli_ > owned_total_ ? total_milli_ - owned_total_ : 0;
}

std::optional<std::uint64_t> QuotaBook::borrowing_limit_milli(std::uint64_t group) const {
  if (params_.group_by != QuotaGroupBy::TYPE || params_.borrowing_limit_gpus[group] < 0.0) {
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(params_.borrowing_limit_gpus[group]) * model::MILLI_PER_GPU;
}

Admission QuotaBook::classify(const model::JobSpec& job) const {
  return classify(job.type, job.user, job_milli(job));
}

Admission QuotaBook::classify(model::JobType type, model::UserId user, std::uint64_t need) const {
  std::uint64_t group = group_of(type, user);
  if (owned_by_group(group) + need <= quota_milli(group)) {
    return Admission::OWNED;
  }
  // The group's own limit first: like Slurm's limit checks, it holds the job before resources are looked at.
  if (auto limit = borrowing_limit_milli(group)) {
    auto it = borrowed_by_group_.find(group);
    std::uint64_t borrowed = it == borrowed_by_group_.end() ? 0 : it->second;
    if (borrowed + need > *limit) {
      return Admission::CAPPED;
    }
  }
  return borrowed_milli_ + need > borrow_limit_milli() ? Admission::BLOCKED : Admission::BORROWED;
}

bool QuotaBook::owner_room() const {
  if (params_.group_by == QuotaGroupBy::USER) {
    return params_.default_quota_gpus > 0;
  }
  for (const auto& [group, needs] : queued_milli_) {
    if (!needs.empty() && owned_by_group(group) + *needs.begin() <= quota_milli(group)) {
      return true;
    }
  }
  return false;
}

void QuotaBook::on_queued(const model::JobSpec& job) {
  std::uint64_t group = group_of(job.type, job.user);
  if (params_.group_by == QuotaGroupBy::USER || quota_milli(group) == 0 || queued_.count(job.id) > 0) {
    return;
  }
  std::uint64_t milli = job_milli(job);
  queued_.emplace(job.id, std::pair{group, milli});
  queued_milli_[group].insert(milli);
}

void QuotaBook::on_dequeued(model::JobId job) {
  auto it = queued_.find(job);
  if (it == queued_.end()) {
    return;
  }
  auto& needs = queued_milli_[it->second.first];
  needs.erase(needs.find(it->second.second));
  queued_.erase(it);
}

bool QuotaBook::can_ever_run(const model::JobSpec& job) const {
  std::uint64_t need = job_milli(job);
  std::uint64_t group = group_of(job.type, job.user);
  if (need <= quota_milli(group)) {
    return true;
  }
  if (auto limit = borrowing_limit_milli(group); limit && need > *limit) {
    return false;
  }
  return params_.borrowing ? need <= total_milli_ : need <= unreserved_milli_;
}

void QuotaBook::on_start(const RunningJob& job) {
  std::uint64_t group = group_of(job.type, job.user);
  std::uint64_t& owned = owned_by_group_[group];
  if (owned + job.milli <= quota_milli(group)) {
    owned += job.milli;
    owned_total_ += job.milli;
    return;
  }
  borrowers_.emplace(job.id, std::pair{job.milli, group});
  borrowed_by_group_[group] += job.milli;
  borrowed_milli_ += job.milli;
}

void QuotaBook::on_stop(const RunningJob& job) {
  if (auto it = borrowers_.find(job.id); it != borrowers_.end()) {
    borrowed_milli_ -= it->second.first;
    borrowed_by_group_[it->second.second] -= it->second.first;
    borrowers_.erase(it);
    return;
  }
  std::uint64_t& owned = owned_by_group_[group_of(job.type, job.user)];
  ACME_ASSERT(owned >= job.milli && owned_total_ >= job.milli, "owned GPUs are released once");
  owned -= job.milli;
  owned_total_ -= job.milli;
}

std::vector<model::JobId> plan_reclaim(const model::JobSpec& owner, const QuotaBook& book, const RunningJobs& running,
                                       const FreeResources& free) {
  std::vector<std::pair<double, model::JobId>> borrowers;
  for (const auto& [id, job] : running.all()) {
    if (book.is_borrowing(id)) {
      borrowers.emplace_back(job.start_s, id);
    }
  }
  std::sort(borrowers.begin(), borrowers.end(), [](const auto& a, const auto& b) { return a > b; });
  std::vector<model::JobId> candidates;
  candidates.reserve(borrowers.size());
  for (const auto& b : borrowers) {
    candidates.push_back(b.second);
  }
  return plan_victims(owner.gpus, free, running, candidates, book.reclaimable_milli());
}

} // namespace acme::policies
