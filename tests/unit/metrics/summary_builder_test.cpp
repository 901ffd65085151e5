#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/metrics/eval_stats.hpp"
#include "sim/metrics/fault_stats.hpp"
#include "sim/metrics/power_stats.hpp"
#include "sim/metrics/recorder.hpp"
#include "sim/metrics/summary_builder.hpp"
#include "sim/study/metrics_flatten.hpp"

using namespace acme::metrics;
using acme::model::JobSpec;
using acme::model::JobType;

namespace {

JobSpec job(JobType type, double submit_s, std::uint32_t user = 0) {
  JobSpec spec;
  spec.type = type;
  spec.user = acme::model::UserId{user};
  spec.gpus = 1;
  spec.submit_time_s = submit_s;
  spec.duration_s = 10.0;
  return spec;
}

std::map<std::string, double> render_metrics(const std::vector<JobSpec>& jobs, const std::vector<double>& delays_s,
                                             std::vector<std::optional<std::vector<double>>> plan_hold_s = {}) {
  std::vector<ClusterInfo> clusters{ClusterInfo{"seren", 0.0, 1, 8, 0.0}};
  acme::model::NameTable users;
  for (const JobSpec& j : jobs) {
    while (users.size() <= acme::model::to_index(j.user)) {
      users.intern("user" + std::to_string(users.size()));
    }
  }
  SummaryBuilder builder(clusters, users);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    JobRecord record;
    record.spec = &jobs[i];
    record.first_start_s = jobs[i].submit_time_s + delays_s[i];
    record.end_s = record.first_start_s + jobs[i].duration_s;
    record.gpu_seconds = jobs[i].gpus * jobs[i].duration_s;
    builder.add(record);
  }
  RecorderOptions options;
  RunInfo info;
  info.end_time_s = 1e5;
  info.plan_hold_s = std::move(plan_hold_s);
  FaultStats faults(clusters, {});
  EvalStats evals(clusters.size());
  PowerStats power(clusters.size());
  std::map<std::string, double> out;
  for (const auto& m :
       acme::study::flatten_json_metrics(builder.render(options, info, faults, evals, power), "summary.json")) {
    out[m.name] = m.value;
  }
  return out;
}

} // namespace

TEST_CASE("metrics::summary_builder: queueing CDF and started-within shares per job type", "[metrics][summary]") {
  // Submit times far from zero, so start - submit carries float rounding as in a 183-day run.
  std::vector<JobSpec> jobs{job(JobType::EVAL, 1.5e7), job(JobType::EVAL, 1.5e7 + 0.1), job(JobType::EVAL, 1.5e7),
                            job(JobType::EVAL, 1.5e7), job(JobType::SFT, 1.5e7)};
  std::vector<double> delays_s{0.0, 60.0, 100.0, 7200.0, 1.0};
  auto m = render_metrics(jobs, delays_s);
  const std::string eval = "clusters.seren.by_type.Evaluation.";
  REQUIRE(m.at(eval + "queue_cdf.1") == Approx(0.25));
  REQUIRE(m.at(eval + "queue_cdf.64") == Approx(0.5));
  REQUIRE(m.at(eval + "queue_cdf.128") == Approx(0.75));
  REQUIRE(m.at(eval + "queue_cdf.4096") == Approx(0.75));
  REQUIRE(m.at(eval + "queue_cdf.8192") == Approx(1.0));
  REQUIRE(m.at(eval + "queue_cdf.32768") == Approx(1.0));
  REQUIRE(m.at(eval + "started_within.1s") == Approx(0.25));
  REQUIRE(m.at(eval + "started_within.60s") == Approx(0.5));
  REQUIRE(m.at(eval + "started_within.1h") == Approx(0.75));
  REQUIRE(m.at("clusters.seren.by_type.SFT.started_within.1s") == Approx(1.0));
  REQUIRE(m.at("clusters.seren.by_type.all_gpu.started_within.1s") == Approx(0.4));
  REQUIRE(m.at("clusters.seren.by_type.Debug.queue_cdf.1") == 0.0); // no jobs of the type
  REQUIRE(m.count(eval + "queue_cdf.65536") == 0);                  // the grid stops at 2^15
}

TEST_CASE("metrics::summary_builder: a team plan's holds are reported apart from queueing", "[metrics][summary]") {
  std::vector<JobSpec> jobs{job(JobType::PRETRAIN, 100.0)};
  auto none = render_metrics(jobs, {5.0});
  REQUIRE(none.count("clusters.seren.team_plan.held_jobs") == 0); // no plan: no block
  auto m = render_metrics(jobs, {5.0}, {std::vector<double>{3600.0, 600.0, 200.0}});
  REQUIRE(m.at("clusters.seren.team_plan.held_jobs") == 3.0);
  REQUIRE(m.at("clusters.seren.team_plan.hold_s.mean") == Approx(1466.667).epsilon(1e-4));
  REQUIRE(m.at("clusters.seren.team_plan.hold_s.max") == 3600.0);
  REQUIRE(m.at("clusters.seren.by_type.Pretrain.queue_s.mean") == 5.0); // the queueing figures exclude it
  auto empty = render_metrics(jobs, {5.0}, {std::vector<double>{}});
  REQUIRE(empty.at("clusters.seren.team_plan.held_jobs") == 0.0); // a plan that held nothing
}

TEST_CASE("metrics::summary_builder: fairness between users per cluster and job type", "[metrics][summary]") {
  // user0: two SFT jobs waiting 10 and 30 s (mean 20); user1: one SFT job waiting 40 s and one Debug job
  // waiting 0 s; user2: a CPU job (no GPUs: not counted). Every GPU job holds 1 GPU for 10 s.
  std::vector<JobSpec> jobs{job(JobType::SFT, 100.0, 0), job(JobType::SFT, 100.0, 0), job(JobType::SFT, 100.0, 1),
                            job(JobType::DEBUG, 100.0, 1), job(JobType::OTHER, 100.0, 2)};
  jobs[4].gpus = 0;
  auto m = render_metrics(jobs, {10.0, 30.0, 40.0, 0.0, 5.0});
  const std::string sft = "clusters.seren.by_type.SFT.fairness.";
  REQUIRE(m.at(sft + "users") == 2.0);
  REQUIRE(m.at(sft + "mean_wait_jain") == Approx(60.0 * 60.0 / (2.0 * (400.0 + 1600.0)))); // means 20 and 40
  REQUIRE(m.at(sft + "gpu_hours_jain") == Approx(9.0 / (2.0 * 5.0)));                      // 2 and 1 GPU-jobs
  REQUIRE(m.at(sft + "worst_served[0].mean_wait_s") == 40.0);                              // user1 first
  REQUIRE(m.at(sft + "worst_served[0].gpu_hour_share") == Approx(1.0 / 3.0));
  REQUIRE(m.at(sft + "worst_served[1].jobs") == 2.0);
  const std::string cluster = "clusters.seren.fairness.";
  REQUIRE(m.at(cluster + "users") == 2.0);                                                    // not user2
  REQUIRE(m.at(cluster + "mean_wait_jain") == Approx(40.0 * 40.0 / (2.0 * (400.0 + 400.0)))); // 20 and 20
  REQUIRE(m.at(cluster + "gpu_hours_jain") == Approx(1.0));
  REQUIRE(m.at("clusters.seren.by_type.Debug.fairness.users") == 1.0);
  REQUIRE(m.count("clusters.seren.by_type.Debug.fairness.worst_served[0].jobs") == 0); // it never waited
  REQUIRE(m.count("clusters.seren.by_type.CPU.fairness.users") == 0);
  REQUIRE(m.count("clusters.seren.by_type.all_gpu.fairness.users") == 0); // the cluster's own block
}
