#include "sim/metrics/fault_stats.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sim/metrics/recorder.hpp"
#include "sim/metrics/stats.hpp"
#include "sim/model/text_escape.hpp"
#include "sim/model/units.hpp"

namespace acme::metrics {
namespace {
using model::SECONDS_PER_HOUR;
std::string number(double v) {
  return fmt::format("{}", v);
}
/// OutOfService bits, lowest first (sim/model/cluster_view.hpp).
constexpr std::array<const char*, 6> OUT_OF_SERVICE_NAMES = {"repair", "manual_repair", "quarantine",
                                                             "switch", "spare",         "power"};

/// "faults_by_detection": per category, how its faults showed (job_crash, job_hang, job_start, ...).
std::string detection_json(const FaultCounts& f, const std::vector<std::string>& categories) {
  std::string out;
  for (std::size_t c = 0; c < f.detected_by.size() && c < categories.size(); ++c) {
    std::string paths;
    for (std::size_t d = 0; d < DETECTION_COUNT; ++d) {
      paths += fmt::format("{}\"{}\": {}", d == 0 ? "" : ", ", DETECTION_NAMES[d], f.detected_by[c][d]);
    }
    out += fmt::format("{}{}: {{{}}}", out.empty() ? "" : ", ", model::json_quote(categories[c]), paths);
  }
  return ", \"faults_by_detection\": {" + out + "}";
}

/// "node_availability": the shares of node time in service, and node hours out by reason.
std::string availability_json(const FaultCounts& f) {
  auto share_in = [&](double out_node_s) { return f.node_s > 0.0 ? 1.0 - out_node_s / f.node_s : 1.0; };
  std::string hours;
  for (std::size_t r = 0; r < OUT_OF_SERVICE_NAMES.size(); ++r) {
    hours += fmt::format("{}\"{}\": {}", r == 0 ? "" : ", ", OUT_OF_SERVICE_NAMES[r],
                         number(f.out_of_service_node_s[r] / SECONDS_PER_HOUR));
  }
  return fmt::format(R"(, "node_availability": {{"available_share": {}, "in_service_share": {}, )"
                     R"("out_of_service_node_hours": {{{}}}}})",
                     number(share_in(f.failed_node_s)), number(share_in(f.any_out_of_service_node_s)), hours);
}

std::string latent_json(const FaultCounts& l) {
  return fmt::format(R"(, "latent_faults": {{"struck": {}, "found_at_job_start": {}, "found_by_health_check": {}, )"
                     R"("health_checks": {}}}, "repairs": {{"done": {}, "manual": {}, "not_fixed": {}}})",
                     l.struck, l.found_at_start, l.found_by_check, l.checks, l.repairs, l.manual_repairs, l.unfixed);
}
} // namespace

std::string FaultStats::fault_counts_json(const FaultCounts& counts) const {
  return latent_json(counts) + detection_json(counts, categories_) + availability_json(counts);
}

FaultStats::FaultStats(std::vector<ClusterInfo> clusters, std::vector<std::string> categories)
    : clusters_(std::move(clusters))
    , categories_(std::move(categories))
    , totals_(clusters_.size()) {
  for (auto& t : totals_) {
    t.failures.assign(categories_.size(), 0);
  }
  states_.assign(clusters_.size(), TraceStates(categories_));
}

void FaultStats::add(const JobRecord& r) {
  const model::JobSpec& job = *r.spec;
  states_.at(model::to_index(job.cluster)).add(r);
  if (r.reject != model::RejectReason::NONE) {
    return;
  }
  Totals& t = totals_.at(model::to_index(job.cluster));
  double gpus = job.gpu_share();
  for (std::size_t i = 0; i < r.failures.size() && i < t.failures.size(); ++i) {
    t.failures[i] += r.failures[i];
  }
  t.lost_gpu_s += r.lost_gpu_s;
  t.rollback_gpu_s += r.lost_work_s * gpus;
  t.stall_gpu_s += r.stall_s * gpus;
  t.restore_gpu_s += r.restore_s * gpus;
  t.checkpoints += r.checkpoints;
  t.preemptions += r.preemptions;
  t.restart_preemptions += r.restart_preemptions;
  t.restart_preempted_gpu_s += r.restart_preempted_gpu_s;
  t.straggler_gpu_s += r.straggler_lost_s * gpus;
  t.detection_gpu_s += r.detection_gpu_s;
  t.restart_gpu_s += r.restart_gpu_s;
  t.failure_rollback_gpu_s += std::max(0.0, r.lost_gpu_s - r.detection_gpu_s - r.restart_gpu_s);
  if (job.type == model::JobType::PRETRAIN && ever_started(r)) {
    t.pretrain_lost_gpu_s += r.lost_gpu_s;
    t.pretrain_work_s += r.work_s;
    t.pretrain_wall_s += r.end_s - r.first_start_s;
    ++t.pretrain_jobs;
  } else if (!job.is_cpu_job() && ever_started(r)) {
    t.other_queue_s.push_back(queueing_delay_s(r));
  }
  if (job.run == model::RunId{}) {
    return;
  }
  RunTotals& run = runs_[{model::to_index(job.cluster), model::to_index(job.run)}]; // runs are numbered per cluster
  run.cluster = model::to_index(job.cluster);
  run.type = std::string(model::to_string(job.type));
  run.gpus = std::max(run.gpus, job.gpus);
  ++run.jobs;
  run.attempts += r.attempts;
  run.failures.resize(categories_.size(), 0);
  for (std::size_t i = 0; i < r.failures.size() && i < run.failures.size(); ++i) {
    run.failures[i] += r.failures[i];
  }
  run.lost_gpu_s += r.lost_gpu_s;
  run.stall_s += r.stall_s;
  run.work_s += r.work_s;
  if (r.first_start_s != model::UNKNOWN_TIME_S && (run.first_start_s < 0.0 || r.first_start_s < run.first_start_s)) {
    run.first_start_s = r.first_start_s;
  }
  run.last_end_s = std::max(run.last_end_s, r.end_s);
}

std::string FaultStats::failures_text(const std::vector<std::uint16_t>& failures) const {
  std::string out;
  for (std::size_t i = 0; i < failures.size() && i < categories_.size(); ++i) {
    if (failures[i] > 0) {
      out += fmt::format("{}{}:{}", out.empty() ? "" : ";", categories_[i], failures[i]);
    }
  }
  return out;
}

std::string FaultStats::lost_by_cause(const Totals& t) {
  auto hours = [](double gpu_s) { return number(gpu_s / SECONDS_PER_HOUR); };
  return fmt::format(
      R"("lost_by_cause_gpu_hours": {{"rollback": {}, "detection": {}, "restart": {}, "stragglers": {}, )"
      R"("second_order": {}}})",
      hours(t.failure_rollback_gpu_s), hours(t.detection_gpu_s), hours(t.restart_gpu_s), hours(t.straggler_gpu_s),
      hours(t.restart_preempted_gpu_s));
}

std::string FaultStats::render_cluster(std::size_t c, const RunInfo& info) const {
  const Totals& t = totals_.at(c);
  std::string failures;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < categories_.size(); ++i) {
    failures += fmt::format("{}{}: {}", i == 0 ? "" : ", ", model::json_quote(categories_[i]), t.failures[i]);
    total += t.failures[i];
  }
  double ettr = t.pretrain_wall_s > 0.0 ? t.pretrain_work_s / t.pretrain_wall_s : 0.0;
  std::vector<double> delays = t.other_queue_s; // summarise sorts
  Distribution queue = summarise(delays);
  std::string out = fmt::format(
      R"("fault_tolerance": {{"failures": {}, "failures_by_category": {{{}}}, "gpu_hours_lost": {}, )"
      R"("rollback_gpu_hours": {}, "checkpoint_stall_gpu_hours": {}, "restore_gpu_hours": {}, "checkpoints": {}, )"
      R"("preemptions": {}, "second_order": {{"preemptions": {}, "gpu_hours_lost": {}}}, )"
      R"("straggler_gpu_hours_lost": {}, {}, "pretrain_jobs": {}, )"
      R"("pretrain_gpu_hours_lost": {}, "pretrain_ettr": {}, )"
      R"("other_queue_s": {{"jobs": {}, "mean": {}, "p50": {}, "p90": {}, "p99": {}, "max": {}}}, {}}})",
      total, failures, number(t.lost_gpu_s / SECONDS_PER_HOUR), number(t.rollback_gpu_s / SECONDS_PER_HOUR),
      number(t.stall_gpu_s / SECONDS_PER_HOUR), number(t.restore_gpu_s / SECONDS_PER_HOUR), t.checkpoints,
      t.preemptions, t.restart_preemptions, number(t.restart_preempted_gpu_s / SECONDS_PER_HOUR),
      number(t.straggler_gpu_s / SECONDS_PER_HOUR), lost_by_cause(t), t.pretrain_jobs,
      number(t.pretrain_lost_gpu_s / SECONDS_PER_HOUR), number(ettr), queue.count, number(queue.mean),
      number(queue.p50), number(queue.p90), number(queue.p99), number(queue.max),
      states_.at(c).render() + fault_counts_json(c < info.fault_counts.size() ? info.fault_counts[c] : FaultCounts{}));
  double written = c < info.storage_bytes_written.size() ? info.storage_bytes_written[c] : 0.0;
  double read = c < info.storage_bytes_read.size() ? info.storage_bytes_read[c] : 0.0;
  double capacity = clusters_[c].storage_bw_Bps * info.end_time_s;
  out += fmt::format(
      R"(, "storage": {{"bytes_written": {}, "bytes_read": {}, "write_utilisation": {}, "read_utilisation": {}}})",
      number(written), number(read), number(capacity > 0.0 ? written / capacity : 0.0),
      number(capacity > 0.0 ? read / capacity : 0.0));
  return out;
}

std::string FaultStats::runs_csv() const {
  std::string out = "run_id,cluster,type,gpus,jobs,attempts,failures,failures_by_category,gpu_hours_lost,"
                    "checkpoint_stall_s,work_s,first_start_s,last_end_s,ettr\n";
  for (const auto& [id, run] : runs_) {
    std::uint64_t failures = 0;
    std::vector<std::uint16_t> counts;
    for (auto f : run.failures) {
      failures += f;
      counts.push_back(static_cast<std::uint16_t>(f));
    }
    double wall = run.first_start_s >= 0.0 ? run.last_end_s - run.first_start_s : 0.0;
    fmt::format_to(std::back_inserter(out), "{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", id.second,
                   model::csv_field(clusters_.at(run.cluster).name), run.type, run.gpus, run.jobs, run.attempts,
                   failures, model::csv_field(failures_text(counts)), number(run.lost_gpu_s / SECONDS_PER_HOUR),
                   number(run.stall_s), number(run.work_s), number(run.first_start_s), number(run.last_end_s),
                   number(wall > 0.0 ? run.work_s / wall : 0.0));
  }
  return out;
}

} // namespace acme::metrics
