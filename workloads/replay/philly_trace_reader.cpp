#include "workloads/replay/philly_trace_reader.hpp"

#include <algorithm>
#include <cmath>

#include "sim/model/civil_time.hpp"

namespace acme::workloads {
namespace {

enum Column : std::uint8_t { TIMESTAMP, DURATION, NUM_GPUS, GPU_TIME, CLUSTER };
constexpr TraceColumn COLUMNS[] = {
    {"timestamp", true}, {"duration", true}, {"num_gpus", true}, {"gpu_time", false}, {"cluster", false}};
constexpr CsvTraceSchema SCHEMA{COLUMNS, "empty trace; expected a header row timestamp,duration,num_gpus,...",
                                "expected the Philly (Pollux) schema timestamp,duration,num_gpus,gpu_time,cluster"};
// gpu_time is written with one decimal in the Pollux table: allow rounding, and a relative slack for
// long jobs whose product exceeds double-to-text precision.
constexpr double GPU_TIME_ABS_TOLERANCE_S = 1.0;
constexpr double GPU_TIME_REL_TOLERANCE = 1e-6;

std::optional<double> finite_number(std::string_view text) {
  auto value = csv::parse_number<double>(text);
  return value && std::isfinite(*value) ? value : std::nullopt;
}

} // namespace

PhillyTraceReader::PhillyTraceReader(const TraceFile& file) : CsvTraceReader(file, SCHEMA) {}

double PhillyTraceReader::seconds(std::size_t c) const {
  auto value = finite_number(field(c));
  if (!value || *value < 0.0) {
    bad(c, "expected seconds >= 0, got \"" + std::string(field(c)) + "\"");
  }
  return *value;
}

std::optional<model::JobSpec> PhillyTraceReader::parse_row() {
  model::JobSpec job;
  job.cluster = file().cluster;
  job.name = std::to_string(row_number());
  std::string why;
  auto submit = model::parse_datetime(field(TIMESTAMP), file().utc_offset_s, &why);
  if (!submit) {
    bad(TIMESTAMP, "expected a date-time such as \"2017-10-09 07:01:55\", got \"" + std::string(field(TIMESTAMP)) +
                       "\" (" + why + ")");
  }
  job.submit_time_s = *submit;
  check_trace_time(job.submit_time_s, COLUMNS[TIMESTAMP].name, field(TIMESTAMP));
  job.duration_s = check_trace_duration(seconds(DURATION), COLUMNS[DURATION].name, field(DURATION));
  auto gpus = finite_number(field(NUM_GPUS)); // the table may show "8.0"
  if (!gpus || *gpus < 0.0 || *gpus != std::floor(*gpus)) {
    bad(NUM_GPUS, "expected a non-negative integer, got \"" + std::string(field(NUM_GPUS)) + "\"");
  }
  job.gpus = check_trace_gpus(*gpus, COLUMNS[NUM_GPUS].name, field(NUM_GPUS));
  if (has_column(GPU_TIME)) {
    double gpu_time = seconds(GPU_TIME);
    double expected = job.duration_s * job.gpus;
    if (std::abs(gpu_time - expected) > std::max(GPU_TIME_ABS_TOLERANCE_S, GPU_TIME_REL_TOLERANCE * expected)) {
      bad(GPU_TIME, "expected duration x num_gpus (" + std::to_string(expected) + "), got \"" +
                        std::string(field(GPU_TIME)) + "\"");
    }
  }
  job.user = users().intern(field(CLUSTER));
  return job;
}

} // namespace acme::workloads
