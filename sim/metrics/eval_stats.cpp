#include "sim/metrics/eval_stats.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sim/metrics/stats.hpp"
#include "sim/model/units.hpp"

namespace acme::metrics {
namespace {
using model::SECONDS_PER_HOUR;
std::string number(double v) {
  return fmt::format("{}", v);
}
} // namespace

EvalStats::EvalStats(std::size_t clusters) : totals_(clusters) {}

void EvalStats::add(const JobRecord& r) {
  const model::JobSpec& job = *r.spec;
  if (r.reject != model::RejectReason::NONE) {
    return;
  }
  if (job.type == model::JobType::EVAL || job.plan) {
    Totals& t = totals_.at(model::to_index(job.cluster));
    ++t.jobs;
    t.gpu_s += r.gpu_seconds;
    if (job.plan) {
      t.gpu_busy_s += r.gpu_busy_s;
      t.planned_gpu_s += r.gpu_seconds;
    }
  }
  if (job.eval_batch == 0) {
    return;
  }
  auto [it, fresh] = requests_.try_emplace(job.eval_batch);
  Request& req = it->second;
  if (fresh) {
    req.cluster = model::to_index(job.cluster);
    req.first_submit_s = job.submit_time_s;
  }
  req.first_submit_s = std::min(req.first_submit_s, job.submit_time_s);
  req.last_end_s = std::max(req.last_end_s, r.end_s);
  ++req.jobs;
}

std::string EvalStats::render_cluster(std::size_t c) const {
  const Totals& t = totals_.at(c);
  std::vector<double> latency;
  for (const auto& [id, req] : requests_) {
    if (req.cluster == c) {
      latency.push_back(req.last_end_s - req.first_submit_s);
    }
  }
  Distribution d = summarise(latency);
  double idle = t.planned_gpu_s - t.gpu_busy_s;
  return fmt::format(R"("evaluation": {{"jobs": {}, "gpu_hours": {}, "gpu_hours_in_plans": {}, )"
                     R"("gpu_busy_hours": {}, "gpu_idle_hours": {}, "requests": {}, )"
                     R"("feedback_latency_s": {{"mean": {}, "p50": {}, "p90": {}, "p99": {}, "max": {}}}}})",
                     t.jobs, number(t.gpu_s / SECONDS_PER_HOUR), number(t.planned_gpu_s / SECONDS_PER_HOUR),
                     number(t.gpu_busy_s / SECONDS_PER_HOUR), number(idle / SECONDS_PER_HOUR), d.count, number(d.mean),
                     number(d.p50), number(d.p90), number(d.p99), number(d.max));
}

} // namespace acme::metrics
