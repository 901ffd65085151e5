#include "workloads/replay/alibaba_pod_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "sim/model/error.hpp"

namespace acme::workloads {
namespace {

const char* const COLUMN_NAMES[] = {"name",      "cpu_milli",     "num_gpu",       "gpu_milli",     "qos",
                                    "pod_phase", "creation_time", "deletion_time", "scheduled_time"};
constexpr bool REQUIRED[] = {true, false, true, true, false, true, true, true, true};
constexpr std::uint32_t CPU_MILLI_PER_CORE = 1000; // Kubernetes: 1000 milli-CPU = one core

struct BadRow {
  std::string message;
};

} // namespace

AlibabaPodReader::AlibabaPodReader(std::string path, model::ClusterId cluster, model::NameTable& users,
                                   BadRowPolicy on_bad_row)
    : lines_(std::move(path))
    , cluster_(cluster)
    , users_(&users)
    , on_bad_row_(on_bad_row) {
  read_header();
}

void AlibabaPodReader::read_header() {
  std::string_view line;
  if (!lines_.next(line)) {
    throw ConfigError(Location{lines_.path(), 1, 0}, "", "empty trace; expected an Alibaba pod list header row");
  }
  LineReader::split(line, ',', fields_);
  field_count_ = fields_.size();
  index_.assign(COLUMN_COUNT, -1);
  for (std::size_t f = 0; f < fields_.size(); ++f) {
    for (std::size_t c = 0; c < COLUMN_COUNT; ++c) {
      if (fields_[f] == COLUMN_NAMES[c]) {
        index_[c] = static_cast<int>(f);
      }
    }
  }
  for (std::size_t c = 0; c < COLUMN_COUNT; ++c) {
    if (REQUIRED[c] && index_[c] < 0) {
      throw ConfigError(Location{lines_.path(), 1, 0}, "",
                        std::string("missing column \"") + COLUMN_NAMES[c] +
                            "\"; expected the Alibaba cluster-trace-gpu-v2023 pod list (name,cpu_milli,memory_mib,"
                            "num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time)");
    }
  }
}

std::string_view AlibabaPodReader::field(Column c) const {
  int i = index_[c];
  return i < 0 ? std::string_view{} : fields_[static_cast<std::size_t>(i)];
}

double AlibabaPodReader::time(Column c) const {
  std::string_view text = field(c);
  double value = 0.0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < 0.0) {
    throw BadRow{std::string("column \"") + COLUMN_NAMES[c] + "\": expected seconds >= 0, got \"" + std::string(text) +
                 "\""};
  }
  return value;
}

std::uint32_t AlibabaPodReader::count(Column c) const {
  std::string_view text = field(c);
  if (text.empty() && !REQUIRED[c]) {
    return 0;
  }
  std::uint32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw BadRow{std::string("column \"") + COLUMN_NAMES[c] + "\": expected a non-negative integer, got \"" +
                 std::string(text) + "\""};
  }
  return value;
}

std::optional<model::JobSpec> AlibabaPodReader::parse_row() {
  auto bad = [&](Column c, const std::string& what) {
    throw BadRow{std::string("column \"") + COLUMN_NAMES[c] + "\": " + what};
  };
  model::JobSpec job;
  job.cluster = cluster_;
  job.name = std::string(field(NAME));
  job.user = users_->intern(field(QOS));
  job.gpus = count(NUM_GPU);
  std::uint32_t milli = count(GPU_MILLI);
  if (job.gpus == 0 && milli != 0) {
    bad(GPU_MILLI, "expected 0 for a pod without GPUs (num_gpu 0), got \"" + std::string(field(GPU_MILLI)) + "\"");
  }
  if (job.gpus > 0 && (milli == 0 || milli > model::MILLI_PER_GPU)) {
    bad(GPU_MILLI, "expected 1..1000 milli-GPUs per GPU, got \"" + std::string(field(GPU_MILLI)) + "\"");
  }
  if (job.gpus > 1 && milli != model::MILLI_PER_GPU) {
    bad(GPU_MILLI, "expected 1000 (whole GPUs) when num_gpu > 1 (pods share within one GPU), got \"" +
                       std::string(field(GPU_MILLI)) + "\"");
  }
  job.gpu_milli = job.gpus == 0 ? model::MILLI_PER_GPU : milli;
  if (job.gpus == 0) {
    std::uint32_t cpu_milli = count(CPU_MILLI);
    job.cpus = std::max<std::uint32_t>(1, (cpu_milli + CPU_MILLI_PER_CORE - 1) / CPU_MILLI_PER_CORE);
  }
  std::string_view phase = field(POD_PHASE);
  job.submit_time_s = time(CREATION);
  double deletion = time(DELETION);
  if (phase == "Pending") {
    return std::nullopt; // never scheduled: no service time to replay
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
  job.duration_s = deletion - job.recorded_start_s;
  return job;
}

std::optional<model::JobSpec> AlibabaPodReader::next() {
  std::string_view line;
  while (lines_.next(line)) {
    if (line.empty()) {
      continue;
    }
    LineReader::split(line, ',', fields_);
    try {
      if (fields_.size() != field_count_) {
        throw BadRow{"expected " + std::to_string(field_count_) + " fields as in the header, got " +
                     std::to_string(fields_.size())};
      }
      if (auto job = parse_row()) {
        return job;
      }
      ++pending_;
    } catch (const BadRow& e) {
      if (on_bad_row_ == BadRowPolicy::SKIP) {
        ++skipped_;
        continue;
      }
      throw ConfigError(Location{lines_.path(), static_cast<int>(lines_.line_number()), 0}, "", e.message);
    }
  }
  return std::nullopt;
}

} // namespace acme::workloads
