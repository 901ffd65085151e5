#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>

#include "sim/metrics/trace_states.hpp"

using namespace acme;
using namespace acme::metrics;

namespace {

model::JobSpec gpu_job(std::uint32_t gpus, model::FailureCategory failure = model::FailureCategory::NONE) {
  model::JobSpec spec;
  spec.type = model::JobType::PRETRAIN;
  spec.gpus = gpus;
  spec.failure = failure;
  return spec;
}

JobRecord ended(const model::JobSpec& spec, model::JobState state, double gpu_s) {
  JobRecord r;
  r.spec = &spec;
  r.first_start_s = 0.0;
  r.state = state;
  r.gpu_seconds = gpu_s;
  return r;
}

std::string fmt_share(const char* name, double share) {
  return fmt::format(R"("{}": {})", name, share);
}

} // namespace

TEST_CASE("metrics::trace_states: restarted attempts become FAILED rows, causes split", "[metrics][faults]") {
  TraceStates states({"nvlink", "ecc", "switch"});
  // A pretraining job of 3,600 GPU-hours cut twice by nvlink failures (1,000 GPU-hours in those attempts)
  // and once by an ecc failure (200 GPU-hours); it then completed: 3 FAILED rows + 1 COMPLETED row of 2,400.
  model::JobSpec restarted = gpu_job(64);
  JobRecord r = ended(restarted, model::JobState::COMPLETED, 3600 * 3600.0);
  r.failed_attempts.count = {2, 1, 0};
  r.failed_attempts.gpu_s = {1000 * 3600.0, 200 * 3600.0, 0.0};
  states.add(r);
  // A job an ecc failure ended (no recovery): NODE_FAIL, 100 GPU-hours, infrastructure (ecc).
  model::JobSpec killed = gpu_job(8);
  JobRecord k = ended(killed, model::JobState::NODE_FAIL, 100 * 3600.0);
  k.failed_attempts.end_category = 1;
  states.add(k);
  // A drawn infrastructure failure (50 GPU-hours) and a script error (150 GPU-hours).
  model::JobSpec drawn = gpu_job(1, model::FailureCategory::INFRASTRUCTURE);
  states.add(ended(drawn, model::JobState::FAILED, 50 * 3600.0));
  model::JobSpec script = gpu_job(1, model::FailureCategory::SCRIPT);
  states.add(ended(script, model::JobState::FAILED, 150 * 3600.0));
  // A cancelled job and a CPU job (not a GPU job: not counted).
  model::JobSpec cancelled = gpu_job(2);
  states.add(ended(cancelled, model::JobState::CANCELLED, 100 * 3600.0));
  model::JobSpec cpu = gpu_job(0);
  states.add(ended(cpu, model::JobState::FAILED, 0.0));

  std::string out = states.render();
  // Rows: 3 cut + 1 own + killed + drawn + script + cancelled = 8; failed: 3 + 1 + 1 + 1 = 6, of which
  // infrastructure 5. Failed GPU time 1,200 + 100 + 50 + 150 = 1,500 of 4,000 GPU-hours; infrastructure
  // 1,350: nvlink 1,000, ecc 300, drawn 50.
  CHECK_THAT(out, Catch::Contains(R"("rows": 8, "restart_rows": 3, "cancelled_rows": 1, "failed_rows": 6, )"));
  CHECK_THAT(
      out,
      Catch::Contains(
          R"("infrastructure_rows": 5, "drawn_infrastructure_rows": 1, "gpu_hours": 4000, "cancelled_gpu_hours": 100, )"));
  CHECK_THAT(out, Catch::Contains(R"("failed_gpu_hours": 1500, "infrastructure_gpu_hours": 1350, )"));
  CHECK_THAT(out, Catch::Contains(R"("failed_share": 0.75, "failed_gpu_time_share": 0.375, )"));
  CHECK_THAT(out, Catch::Contains(R"("infrastructure_share_of_failed_gpu_time": 0.9, )"));
  double nvlink = 1000.0 / 1350.0;
  double ecc = 300.0 / 1350.0;
  double drawn_share = 50.0 / 1350.0;
  CHECK_THAT(out, Catch::Contains(fmt_share("nvlink", nvlink)));
  CHECK_THAT(out, Catch::Contains(fmt_share("ecc", ecc)));
  CHECK_THAT(out, Catch::Contains(fmt_share("drawn", drawn_share)));
}
