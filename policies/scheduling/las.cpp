#include "policies/scheduling/las.hpp"

#include <algorithm>

#include "policies/scheduling/ordered_params.hpp"
#include "policies/scheduling/victim_planner.hpp"

namespace acme::policies {
namespace {
constexpr double NEVER = std::numeric_limits<double>::infinity();

/// `queue_thresholds`: positive GPU-seconds in increasing order.
Param<LasParams> thresholds_param() {
  return {"queue_thresholds", "attained GPU-seconds at which a job moves to the next queue (Tiresias)",
          [](const config::Node& list, LasParams& p) {
            if (!list.is_sequence() || list.size() == 0) {
              list.fail("expected a non-empty list of GPU-second thresholds such as [3250, 36000]");
            }
            p.thresholds_gpu_s.clear();
            for (std::size_t i = 0; i < list.size(); ++i) {
              double t = list.at(i).as_nonnegative();
              if (t <= 0.0 || (!p.thresholds_gpu_s.empty() && t <= p.thresholds_gpu_s.back())) {
                list.at(i).fail("expected positive thresholds in increasing order");
              }
              p.thresholds_gpu_s.push_back(t);
            }
          },
          [](const LasParams& p) {
            std::string text;
            for (double t : p.thresholds_gpu_s) {
              text += (text.empty() ? "[" : ", ") + format_number(t);
            }
            return text + "]";
          }};
}

} // namespace

const ParamTable<LasParams>& LasParams::table() {
  static const ParamTable<LasParams> t{
      thresholds_param(),
      number_param("starvation_knob", &LasParams::starvation_knob,
                   "a queued job waiting this many times its counted run time returns to queue 0 (0: never)"),
      flag_param("preemption", &LasParams::preemption, "a job that does not fit preempts running jobs of lower queues"),
      duration_param("min_run", &LasParams::min_run_s,
                     "a running job is preempted only after it ran this long since it started"),
      queue_depth_param(&LasParams::queue_depth)};
  return t;
}

LasScheduler::LasScheduler(LasParams params)
    : QueueScheduler({params.queue_depth, EstimatorParams{}, std::nullopt, model::WaitReason::QUOTA, {}, {}})
    , params_(std::move(params))
    , by_level_(params_.thresholds_gpu_s.size() + 1) {}

std::uint32_t LasScheduler::level_of(double service_gpu_s) const {
  const auto& t = params_.thresholds_gpu_s;
  return static_cast<std::uint32_t>(std::upper_bound(t.begin(), t.end(), service_gpu_s) - t.begin());
}

int LasScheduler::running_level(model::JobId job) const {
  auto it = running_info_.find(job);
  return it == running_info_.end() ? -1 : static_cast<int>(it->second.level);
}

double LasScheduler::counted_gpu_s(const model::JobEntry& entry) const {
  auto it = offset_gpu_s_.find(entry.spec.id);
  double offset = it == offset_gpu_s_.end() ? 0.0 : it->second;
  return std::max(0.0, entry.attained_gpu_s - offset);
}

void LasScheduler::enqueue(const model::JobEntry& entry) {
  double counted = counted_gpu_s(entry);
  std::uint32_t level = level_of(counted);
  queue_.insert({static_cast<double>(level), entry.spec.submit_time_s, entry.spec.id});
  if (level > 0 && params_.starvation_knob > 0.0) {
    double at_s = now_s() + params_.starvation_knob * counted / entry.spec.gpu_share();
    promotion_at_[entry.spec.id] = at_s;
    promotions_.emplace(at_s, entry.spec.id);
  }
}

void LasScheduler::on_job_started(const RunningJob& job) {
  if (auto it = promotion_at_.find(job.id); it != promotion_at_.end()) {
    promotions_.erase({it->second, job.id});
    promotion_at_.erase(it);
  }
  auto offset = offset_gpu_s_.find(job.id);
  Running info;
  info.counted_at_start_gpu_s = std::max(0.0, job.prior_gpu_s - (offset == offset_gpu_s_.end() ? 0.0 : offset->second));
  info.level = level_of(info.counted_at_start_gpu_s);
  info.share = static_cast<double>(job.milli) / model::MILLI_PER_GPU;
  info.start_s = job.start_s;
  by_level_[info.level].emplace(info.start_s, job.id);
  schedule_demotion(job.id, info);
  running_info_[job.id] = info;
}

void LasScheduler::on_job_stopped(const RunningJob& job, model::EndCause cause) {
  auto it = running_info_.find(job.id);
  if (it == running_info_.end()) {
    return;
  }
  by_level_[it->second.level].erase({it->second.start_s, job.id});
  demotions_.erase({it->second.demote_at_s, job.id});
  running_info_.erase(it);
  if (cause != model::EndCause::PREEMPTED) {
    offset_gpu_s_.erase(job.id);
  }
}

void LasScheduler::schedule_demotion(model::JobId id, Running& info) {
  info.demote_at_s = NEVER;
  if (info.level >= params_.thresholds_gpu_s.size() || info.share <= 0.0) {
    return;
  }
  double to_go_gpu_s = params_.thresholds_gpu_s[info.level] - info.counted_at_start_gpu_s;
  info.demote_at_s = info.start_s + to_go_gpu_s / info.share;
  demotions_.emplace(info.demote_at_s, id);
}

void LasScheduler::set_level(model::JobId id, Running& info, std::uint32_t level) {
  by_level_[info.level].erase({info.start_s, id});
  info.level = level;
  by_level_[level].emplace(info.start_s, id);
}

bool LasScheduler::prepare_round(const model::ClusterView& cluster) {
  bool changed = false;
  while (!demotions_.empty() && demotions_.begin()->first <= now_s()) {
    model::JobId id = demotions_.begin()->second;
    demotions_.erase(demotions_.begin());
    Running& info = running_info_.at(id);
    set_level(id, info, info.level + 1);
    schedule_demotion(id, info);
    changed = true;
  }
  while (!promotions_.empty() && promotions_.begin()->first <= now_s()) {
    model::JobId id = promotions_.begin()->second;
    promotions_.erase(promotions_.begin());
    promotion_at_.erase(id);
    if (const model::JobEntry* entry = queued_entry(cluster, id)) {
      offset_gpu_s_[id] = entry->attained_gpu_s;
      queue_.insert({0.0, entry->spec.submit_time_s, id});
      changed = true;
    }
  }
  return changed;
}

Step LasScheduler::decide(const model::JobEntry& entry, PassKind, std::vector<model::Decision>& out) {
  if (auto where = place_unless_known_unfit(entry)) {
    start(entry, std::move(*where), out);
    return Step::STARTED;
  }
  return try_preempt(entry, out) ? Step::PREEMPTED : Step::WAITING;
}

std::vector<model::JobId> LasScheduler::plan_preemption(const model::JobEntry& entry) {
  // Victims come from strictly lower queues, the lowest and the latest started first.
  auto level = static_cast<std::uint32_t>(queue_.key_of(entry.spec.id).primary);
  std::vector<model::JobId> candidates;
  for (std::size_t l = by_level_.size(); l-- > level + 1;) {
    for (auto r = by_level_[l].rbegin(); r != by_level_[l].rend(); ++r) {
      if (r->first + params_.min_run_s <= now_s()) { // started (r->first) at least min_run ago
        candidates.push_back(r->second);
      }
    }
  }
  return candidates.empty() ? candidates : plan_victims(entry.spec.gpus, free_, running_, candidates);
}

std::unique_ptr<Scheduler> make_las(const LasParams& params) {
  return std::make_unique<LasScheduler>(params);
}

} // namespace acme::policies
