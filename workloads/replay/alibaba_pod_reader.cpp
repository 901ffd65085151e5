#include "workloads/replay/alibaba_pod_reader.hpp"

#include <algorithm>
#include <cmath>

#include "sim/model/error.hpp"

namespace acme::workloads {
namespace {

enum Column : std::uint8_t { NAME, CPU_MILLI, NUM_GPU, GPU_MILLI, QOS, POD_PHASE, CREATION, DELETION, SCHEDULED };
constexpr TraceColumn COLUMNS[] = {{"name", true},          {"cpu_milli", false},    {"num_gpu", true},
                                   {"gpu_milli", true},     {"qos", false},          {"pod_phase", true},
                                   {"creation_time", true}, {"deletion_time", true}, {"scheduled_time", true}};
constexpr CsvTraceSchema SCHEMA{
    COLUMNS, "empty trace; expected an Alibaba pod list header row",
    "expected the Alibaba cluster-trace-gpu-v2023 pod list (name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,"
    "pod_phase,creation_time,deletion_time,scheduled_time)"};
constexpr std::uint32_t CPU_MILLI_PER_CORE = 1000; // Kubernetes: 1000 milli-CPU = one core

} // namespace

AlibabaPodReader::AlibabaPodReader(const TraceFile& file) : CsvTraceReader(file, SCHEMA) {}

double AlibabaPodReader::time(std::size_t c) const {
  std::string_view text = field(c);
  auto value = csv::parse_number<double>(text);
  if (!value || !std::isfinite(*value) || *value < 0.0) {
    bad(c, "expected seconds >= 0, got \"" + std::string(text) + "\"");
  }
  check_trace_time(*value, COLUMNS[c].name, text);
  return *value;
}

std::uint32_t AlibabaPodReader::count(std::size_t c) const {
  std::string_view text = field(c);
  if (text.empty() && !COLUMNS[c].required) {
    return 0;
  }
  auto value = csv::parse_number<std::uint32_t>(text);
  if (!value) {
    bad(c, "expected a non-negative integer, got \"" + std::string(text) + "\"");
  }
  return *value;
}

/// The pod's share of each of its GPUs, checked against its GPU count.
std::uint32_t AlibabaPodReader::gpu_milli(std::uint32_t gpus) const {
  std::uint32_t milli = count(GPU_MILLI);
  std::string got = "got \"" + std::string(field(GPU_MILLI)) + "\"";
  if (gpus == 0 && milli != 0) {
    bad(GPU_MILLI, "expected 0 for a pod without GPUs (num_gpu 0), " + got);
  }
  if (gpus > 0 && (milli == 0 || milli > model::MILLI_PER_GPU)) {
    bad(GPU_MILLI, "expected 1..1000 milli-GPUs per GPU, " + got);
  }
  if (gpus > 1 && milli != model::MILLI_PER_GPU) {
    bad(GPU_MILLI, "expected 1000 (whole GPUs) when num_gpu > 1 (pods share within one GPU), " + got);
  }
  return gpus == 0 ? model::MILLI_PER_GPU : milli;
}

std::optional<model::JobSpec> AlibabaPodReader::parse_row() {
  model::JobSpec job;
  job.cluster = file().cluster;
  job.name = std::string(field(NAME));
  job.user = users().intern(field(QOS));
  job.gpus = check_trace_gpus(count(NUM_GPU), COLUMNS[NUM_GPU].name, field(NUM_GPU));
  job.gpu_milli = gpu_milli(job.gpus);
  if (job.gpus == 0) {
    std::uint32_t cpu_milli = count(CPU_MILLI);
    job.cpus = std::max<std::uint32_t>(1, (cpu_milli + CPU_MILLI_PER_CORE - 1) / CPU_MILLI_PER_CORE);
  }
  std::string_view phase = field(POD_PHASE);
  job.submit_time_s = time(CREATION);
  double deletion = time(DELETION);
  if (phase == "Pending") {
    ++pending_; // never scheduled: no service time to replay
    return std::nullopt;
  }
  if (phase == "Succeeded" || phase == "Running") {
    job.final_state = model::JobState::COMPLETED;
  } else if (phase == "Failed") {
    job.final_state = model::JobState::FAILED;
  } else {
    bad(POD_PHASE, "expected one of Succeeded, Failed, Running, Pending, got \"" + std::string(phase) + "\"");
  }
  if (field(SCHEDULED).empty()) {
    bad(SCHEDULED, "expected the time the " + std::string(phase) + " pod was scheduled, got an empty field");
  }
  job.recorded_start_s = time(SCHEDULED);
  if (job.recorded_start_s < job.submit_time_s) {
    bad(SCHEDULED, "scheduled_time is before creation_time; expected scheduled_time >= creation_time");
  }
  if (deletion < job.recorded_start_s) {
    bad(DELETION, "deletion_time is before scheduled_time; expected deletion_time >= scheduled_time");
  }
  job.duration_s = check_trace_duration(deletion - job.recorded_start_s, COLUMNS[DELETION].name, field(DELETION));
  return job;
}

} // namespace acme::workloads
