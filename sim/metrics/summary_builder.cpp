#include "sim/metrics/summary_builder.hpp"

#include <fmt/format.h>

#include "sim/metrics/eval_stats.hpp"
#include "sim/metrics/fault_stats.hpp"
#include "sim/metrics/network_stats.hpp"
#include "sim/metrics/power_stats.hpp"
#include "sim/metrics/recorder.hpp"
#include "sim/model/civil_time.hpp"
#include "sim/model/text_escape.hpp"
#include "sim/model/units.hpp"

namespace acme::metrics {
namespace {

using model::JOULES_PER_KWH;
using model::SECONDS_PER_HOUR;

std::string number(double v) {
  return fmt::format("{}", v);
}

std::string distribution_json(std::vector<double>& values) {
  Distribution d = summarise(values);
  return fmt::format(R"({{"mean": {}, "p50": {}, "p90": {}, "p99": {}, "max": {}}})", number(d.mean), number(d.p50),
                     number(d.p90), number(d.p99), number(d.max));
}

/// "queue_cdf" (keys: the thresholds 2^k in seconds) and "started_within" of sorted queueing delays.
std::string queue_shares_json(const std::vector<double>& sorted_delays_s) {
  QueueShares q = queue_shares(sorted_delays_s);
  std::string cdf;
  std::uint64_t threshold_s = 1;
  for (std::size_t k = 0; k < q.cdf.size(); ++k, threshold_s *= 2) {
    cdf += fmt::format(R"({}"{}": {})", k == 0 ? "" : ", ", threshold_s, number(q.cdf[k]));
  }
  return fmt::format(R"("queue_cdf": {{{}}}, "started_within": {{"1s": {}, "60s": {}, "1h": {}}})", cdf,
                     number(q.within_1s), number(q.within_60s), number(q.within_1h));
}

/// "wait_hours": total waiting time, "wait_reasons": each reason's share of it (reasons with none left out).
std::string wait_reasons_json(const std::array<double, model::WAIT_REASON_COUNT>& wait_s) {
  double total = 0.0;
  for (double w : wait_s) {
    total += w;
  }
  std::string shares;
  for (std::size_t r = 0; r < model::WAIT_REASON_COUNT && total > 0.0; ++r) {
    if (wait_s[r] > 0.0) {
      shares += fmt::format(R"({}"{}": {})", shares.empty() ? "" : ", ",
                            model::to_string(static_cast<model::WaitReason>(r)), number(wait_s[r] / total));
    }
  }
  return fmt::format(R"("wait_hours": {}, "wait_reasons": {{{}}})", number(total / SECONDS_PER_HOUR), shares);
}

std::string quote(std::string_view s) {
  return model::json_quote(s);
}

} // namespace

SummaryBuilder::SummaryBuilder(const std::vector<ClusterInfo>& clusters, const model::NameTable& users)
    : clusters_(clusters)
    , users_(&users)
    , stats_(clusters.size()) {}

void SummaryBuilder::add(const JobRecord& record) {
  const model::JobSpec& job = *record.spec;
  std::size_t cls = job.is_cpu_job() ? CPU_CLASS : static_cast<std::size_t>(job.type);
  ClassStats& s = stats_.at(model::to_index(job.cluster)).classes[cls];
  ++s.jobs;
  if (record.reject != model::RejectReason::NONE) {
    ++s.rejected;
    return;
  }
  ++s.states[static_cast<std::size_t>(record.state)];
  double queue_s = queueing_delay_s(record);
  s.queue_s.push_back(queue_s);
  s.jct_s.push_back(record.end_s - job.submit_time_s);
  if (job.recorded_start_s != model::UNKNOWN_TIME_S) {
    s.recorded_queue_s.push_back(job.recorded_queue_s());
  }
  s.gpu_seconds += record.gpu_seconds;
  s.energy_J += record.energy.total_J;
  for (std::size_t r = 0; r < model::WAIT_REASON_COUNT; ++r) {
    s.wait_s[r] += record.wait_s[r];
  }
  if (!job.is_cpu_job()) {
    s.users.add(job.user, queue_s, record.gpu_seconds);
  }
}

void SummaryBuilder::add_busy_gpu_seconds(std::uint16_t cluster, double gpu_seconds) {
  stats_.at(cluster).busy_gpu_seconds += gpu_seconds;
}

void SummaryBuilder::ClassStats::merge(const ClassStats& other) {
  jobs += other.jobs;
  rejected += other.rejected;
  for (std::size_t i = 0; i < model::JOB_STATE_COUNT; ++i) {
    states[i] += other.states[i];
  }
  queue_s.insert(queue_s.end(), other.queue_s.begin(), other.queue_s.end());
  jct_s.insert(jct_s.end(), other.jct_s.begin(), other.jct_s.end());
  recorded_queue_s.insert(recorded_queue_s.end(), other.recorded_queue_s.begin(), other.recorded_queue_s.end());
  gpu_seconds += other.gpu_seconds;
  energy_J += other.energy_J;
  for (std::size_t r = 0; r < model::WAIT_REASON_COUNT; ++r) {
    wait_s[r] += other.wait_s[r];
  }
  users.merge(other.users);
}

std::string SummaryBuilder::render_class(ClassStats& s, bool with_fairness) const {
  std::string states;
  for (std::size_t i = 0; i < model::JOB_STATE_COUNT; ++i) {
    states += fmt::format("{}{}: {}", i == 0 ? "" : ", ", quote(model::to_string(static_cast<model::JobState>(i))),
                          s.states[i]);
  }
  std::string out =
      fmt::format(R"({{"jobs": {}, "rejected": {}, "states": {{{}}}, "gpu_hours": {}, "energy_kWh": {}, )", s.jobs,
                  s.rejected, states, number(s.gpu_seconds / SECONDS_PER_HOUR), number(s.energy_J / JOULES_PER_KWH));
  out += R"("queue_s": )" + distribution_json(s.queue_s); // sorts queue_s
  out += ", " + queue_shares_json(s.queue_s) + R"(, "jct_s": )" + distribution_json(s.jct_s);
  if (!s.recorded_queue_s.empty()) {
    out += R"(, "recorded_queue_s": )" + distribution_json(s.recorded_queue_s);
  }
  out += ", " + wait_reasons_json(s.wait_s);
  if (with_fairness) {
    out += R"(, "fairness": )" + fairness_json(s.users.fairness(*users_));
  }
  return out + "}";
}

std::string SummaryBuilder::render_cluster(std::size_t c, const RunInfo& info, const FaultStats& faults,
                                           const EvalStats& evals, const PowerStats& power, NetworkStats* network) {
  ClusterStats& cs = stats_[c];
  const ClusterInfo& ci = clusters_[c];
  ClassStats all_gpu;
  std::uint64_t jobs = 0;
  std::uint64_t rejected = 0;
  for (std::size_t k = 0; k < CLASS_COUNT; ++k) {
    const ClassStats& s = cs.classes[k];
    jobs += s.jobs;
    rejected += s.rejected;
    if (k != CPU_CLASS) {
      all_gpu.merge(s);
    }
  }
  double capacity = static_cast<double>(ci.gpus) * info.end_time_s;
  double utilisation = capacity > 0.0 ? cs.busy_gpu_seconds / capacity : 0.0;
  std::string out = fmt::format(
      R"(    {}: {{"nodes": {}, "gpus": {}, "jobs": {}, "rejected": {}, "gpu_utilisation": {}, "busy_gpu_hours": {},)",
      quote(ci.name), ci.nodes, ci.gpus, jobs, rejected, number(utilisation),
      number(cs.busy_gpu_seconds / SECONDS_PER_HOUR));
  out += "\n      " + faults.render_cluster(c, info) + ",";
  out += "\n      " + evals.render_cluster(c) + ",";
  if (c < info.plan_hold_s.size() && info.plan_hold_s[c]) {
    // Before submission, so not in queue_s: how long the team plan held jobs back (README, "Policies").
    std::vector<double> hold_s = *info.plan_hold_s[c];
    out += fmt::format("\n      \"team_plan\": {{\"held_jobs\": {}, \"hold_s\": {}}},", hold_s.size(),
                       distribution_json(hold_s));
  }
  if (network != nullptr) {
    out += "\n      " + network->render_cluster(c) + ",";
  }
  if (power.has_reports()) {
    out += "\n      " + power.render_cluster(c) + ",";
  }
  // Between the users of the cluster's GPU jobs (all_gpu's jobs); per job type in by_type.
  out += "\n      \"fairness\": " + fairness_json(all_gpu.users.fairness(*users_)) + ",";
  out += "\n      \"by_type\": {\n";
  for (std::size_t k = 0; k < CLASS_COUNT; ++k) {
    std::string name = k == CPU_CLASS ? "CPU" : std::string(model::to_string(static_cast<model::JobType>(k)));
    out += "        " + quote(name) + ": " + render_class(cs.classes[k], k != CPU_CLASS) + ",\n";
  }
  out += "        \"all_gpu\": " + render_class(all_gpu, false) + "\n      }\n    }";
  return out;
}

std::string SummaryBuilder::provenance_json(const RecorderOptions& options) {
  std::string overrides;
  for (const auto& o : options.overrides) {
    overrides += (overrides.empty() ? "" : ", ") + quote(o);
  }
  std::string inputs;
  for (const auto& in : options.inputs) {
    inputs += fmt::format("{}\n      {}: {{\"path\": {}, \"hash\": {}}}", inputs.empty() ? "" : ",", quote(in.key),
                          quote(in.path), quote(in.hash));
  }
  return fmt::format("  \"provenance\": {{\n    \"overrides\": [{}],\n    \"inputs\": {{{}\n    }}\n  }},\n", overrides,
                     inputs);
}

std::string SummaryBuilder::render(const RecorderOptions& options, const RunInfo& info, const FaultStats& faults,
                                   const EvalStats& evals, const PowerStats& power, NetworkStats* network) {
  std::string out = "{\n";
  out += fmt::format(
      "  \"seed\": {},\n  \"config\": {},\n  \"version\": {},\n  \"epoch\": {},\n  \"simulated_end_s\": {},\n",
      options.seed, quote(options.config_file), quote(ACME_VERSION_TEXT),
      quote(model::format_datetime(options.epoch_unix_s, 0.0)), number(info.end_time_s));
  out += provenance_json(options);
  out += fmt::format("  \"jobs_submitted\": {},\n  \"trace_rows_skipped\": {},\n  \"clusters\": {{\n",
                     info.jobs_submitted, info.trace_rows_skipped);
  for (std::size_t c = 0; c < clusters_.size(); ++c) {
    out += render_cluster(c, info, faults, evals, power, network) + (c + 1 < clusters_.size() ? ",\n" : "\n");
  }
  out += "  }\n}\n";
  return out;
}

} // namespace acme::metrics
