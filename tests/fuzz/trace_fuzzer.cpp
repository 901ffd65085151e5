// Fuzzes one trace reader (ACME_FUZZ_TRACE_FORMAT: acme, swf, philly or alibaba) through the trace-format
// registry, as a run opens it: every row read until the end or the first ConfigError. A job it yields must
// be within the bounds every format promises (sim/model/limits.hpp).
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "sim/model/error.hpp"
#include "sim/model/limits.hpp"
#include "sim/model/name_table.hpp"
#include "tests/fuzz/fuzz_input.hpp"
#include "workloads/workload_registry.hpp"

namespace {

constexpr int MAX_ROWS = 100000;

void require(bool condition) {
  if (!condition) {
    std::abort();
  }
}

void check_job(const acme::model::JobSpec& job) {
  namespace limits = acme::model::limits;
  require(std::isfinite(job.submit_time_s) && std::isfinite(job.duration_s));
  require(job.duration_s >= 0.0 && job.duration_s <= limits::MAX_JOB_DURATION_S);
  require(job.gpus <= limits::MAX_JOB_GPUS);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const acme::workloads::WorkloadRegistries registries = acme::workloads::make_builtin_workload_registries();
  const std::string& path = acme::fuzz::write_input_file(acme::fuzz::as_text(data, size), ".trace");
  acme::model::NameTable users;
  try {
    const auto& open = registries.trace_formats.get(ACME_FUZZ_TRACE_FORMAT, acme::config::Node());
    acme::workloads::TraceFile file{path, acme::model::ClusterId{0}, 0.0, &users, acme::workloads::BadRowPolicy::ERROR};
    acme::workloads::MergedSource::Part part = open(file);
    for (int rows = 0; rows < MAX_ROWS; ++rows) {
      std::optional<acme::model::JobSpec> job = part.next();
      if (!job) {
        break;
      }
      check_job(*job);
    }
  } catch (const acme::ConfigError&) {
    return 0;
  }
  return 0;
}
