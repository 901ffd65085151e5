#include <catch2/catch.hpp>

#include <string>

#include "sim/metrics/fault_stats.hpp"
#include "sim/metrics/recorder.hpp"

using namespace acme;
using namespace acme::metrics;

namespace {

model::JobSpec job(model::JobType type, std::uint32_t gpus, double submit_s) {
  model::JobSpec spec;
  spec.type = type;
  spec.gpus = gpus;
  spec.submit_time_s = submit_s;
  return spec;
}

JobRecord record(const model::JobSpec& spec, double start_s, double end_s) {
  JobRecord r;
  r.spec = &spec;
  r.first_start_s = start_s;
  r.end_s = end_s;
  r.work_s = end_s - start_s;
  return r;
}

} // namespace

TEST_CASE("metrics::fault_stats: rollback and pretraining GPU time lost, queueing of the other GPU jobs",
          "[metrics][faults]") {
  FaultStats stats({ClusterInfo{"seren", 0.0, 2, 16, 1e9}}, {"nvlink"});
  // A 16-GPU pretraining job that lost 225 s of work and 225 s of downtime to one failure: 2 GPU-hours.
  model::JobSpec pretrain = job(model::JobType::PRETRAIN, 16, 0.0);
  JobRecord p = record(pretrain, 1000.0, 5000.0);
  p.work_s = 3000.0;
  p.lost_work_s = 225.0;
  p.lost_gpu_s = 16 * 450.0;
  p.failures = {1};
  stats.add(p);
  // Queueing delays of other GPU jobs: 10, 20, 30 and 40 s; CPU and rejected jobs do not count.
  model::JobSpec eval = job(model::JobType::EVAL, 1, 0.0);
  model::JobSpec sft = job(model::JobType::SFT, 8, 100.0);
  model::JobSpec debug = job(model::JobType::DEBUG, 2, 50.0);
  model::JobSpec other = job(model::JobType::OTHER, 4, 0.0);
  model::JobSpec cpu = job(model::JobType::OTHER, 0, 0.0);
  model::JobSpec rejected = job(model::JobType::OTHER, 64, 0.0);
  stats.add(record(eval, 10.0, 20.0));
  JobRecord killed = record(sft, 120.0, 200.0); // no checkpoints: a failure lost 450 s on 8 GPUs, 1 GPU-hour
  killed.lost_work_s = 450.0;
  killed.lost_gpu_s = 8 * 450.0;
  stats.add(killed);
  stats.add(record(debug, 80.0, 90.0));
  stats.add(record(other, 40.0, 50.0));
  stats.add(record(cpu, 1000.0, 1001.0));
  JobRecord r = record(rejected, model::UNKNOWN_TIME_S, 0.0);
  r.reject = model::RejectReason::TOO_MANY_GPUS;
  stats.add(r);

  RunInfo info;
  info.end_time_s = 5000.0;
  std::string out = stats.render_cluster(0, info);
  REQUIRE_THAT(out, Catch::Contains(R"("gpu_hours_lost": 3, "rollback_gpu_hours": 2,)"));
  REQUIRE_THAT(out, Catch::Contains(R"("pretrain_jobs": 1, "pretrain_gpu_hours_lost": 2, "pretrain_ettr": 0.75,)"));
  // p99 = 39.7 up to rounding (numpy's linear interpolation).
  REQUIRE_THAT(out, Catch::Contains(R"("other_queue_s": {"jobs": 4, "mean": 25, "p50": 25, "p90": 37, "p99": 39.)") &&
                        Catch::Contains(R"(, "max": 40}, "trace_states": )"));

  SECTION("no other jobs: zeros") {
    FaultStats empty({ClusterInfo{"kalos", 0.0, 1, 8, 1e9}}, {"nvlink"});
    REQUIRE_THAT(
        empty.render_cluster(0, info),
        Catch::Contains(R"("other_queue_s": {"jobs": 0, "mean": 0, "p50": 0, "p90": 0, "p99": 0, "max": 0}, ")"));
  }
}
