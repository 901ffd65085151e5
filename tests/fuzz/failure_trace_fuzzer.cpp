// Fuzzes the failure-trace reader (`failures: {trace: FILE}`) against a fixed two-cluster config, as a run
// reads it: the CSV format, or with ACME_FUZZ_FAILURE_TRACE_JSON the InfiniteHBD-Trace JSON format. A row it yields
// must name a cluster and node of the config, a known category and a finite time; bad input must end in a ConfigError.
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "sim/config/config.hpp"
#include "sim/config/faults.hpp"
#include "sim/core/failure_trace.hpp"
#include "sim/model/error.hpp"
#include "tests/fuzz/fuzz_input.hpp"

namespace {

constexpr const char* CONFIG = R"(clusters:
  - {name: seren, utc_offset: "+08:00", nodes: 4, cpu_job_cores_per_node: 4}
  - {name: kalos, utc_offset: "+08:00", nodes: 2, cpu_job_cores_per_node: 4}
workload: {kind: trace, format: acme, path: trace.csv}
failures: {trace: failures.csv, categories: {software: {new: true}, other: {new: true}}}
)";
#ifdef ACME_FUZZ_FAILURE_TRACE_JSON
constexpr const char* SUFFIX = ".json";
#else
constexpr const char* SUFFIX = ".csv";
#endif
constexpr double EPOCH_UNIX_S = 1677600000.0; // 2023-02-28 16:00:00 UTC, a trace's first day

void require(bool condition) {
  if (!condition) {
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const acme::config::Config config = acme::config::load_config_text(CONFIG, "fuzz.yaml", "/nonexistent");
  const std::string& path = acme::fuzz::write_input_file(acme::fuzz::as_text(data, size), SUFFIX);
  try {
    for (const auto& row : acme::core::load_failure_trace(path, config, EPOCH_UNIX_S)) {
      std::size_t cluster = acme::model::to_index(row.cluster);
      require(std::isfinite(row.time_s));
      require(row.repair_s < 0.0 || std::isfinite(row.repair_s));
      require(cluster < config.clusters.size());
      require(row.node < config.clusters[cluster].nodes);
      require(row.category < config.faults->failures.switch_category());
    }
  } catch (const acme::ConfigError&) {
    return 0;
  }
  return 0;
}
