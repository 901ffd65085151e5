#include "workloads/replay/swf_trace_reader.hpp"

#include <charconv>
#include <cmath>

#include "sim/model/error.hpp"

namespace acme::workloads {
namespace {

// SWF v2.2 field names (1-based field numbers in messages), Parallel Workloads Archive.
constexpr const char* FIELD_NAMES[SwfTraceReader::FIELD_COUNT] = {"job_number",
                                                                  "submit_time",
                                                                  "wait_time",
                                                                  "run_time",
                                                                  "allocated_processors",
                                                                  "average_cpu_time",
                                                                  "used_memory",
                                                                  "requested_processors",
                                                                  "requested_time",
                                                                  "requested_memory",
                                                                  "status",
                                                                  "user_id",
                                                                  "group_id",
                                                                  "executable",
                                                                  "queue",
                                                                  "partition",
                                                                  "preceding_job",
                                                                  "think_time"};
enum Field : std::uint8_t {
  JOB_NUMBER = 0,
  SUBMIT = 1,
  WAIT = 2,
  RUN = 3,
  ALLOCATED = 4,
  REQUESTED_PROCS = 7,
  REQUESTED_TIME = 8,
  STATUS = 10,
  USER = 11,
};
constexpr double UNKNOWN = -1.0;     // SWF: -1 marks a missing value
constexpr double MAX_START_S = 1e10; // UnixStartTime: year 2286; job times are bounded after the addition

// SWF status codes (v2.2): 1 completed, 0 failed, 5 cancelled; 2, 3, 4 partial executions (2: to be
// continued, 3: last partial, completed, 4: last partial, failed); -1 unknown.
constexpr int STATUS_FAILED = 0;
constexpr int STATUS_COMPLETED = 1;
constexpr int STATUS_PARTIAL_CONTINUED = 2;
constexpr int STATUS_PARTIAL_COMPLETED = 3;
constexpr int STATUS_PARTIAL_FAILED = 4;
constexpr int STATUS_CANCELLED = 5;

[[noreturn]] void bad(std::size_t field, const std::string& what) {
  throw BadRow{std::string("column \"") + FIELD_NAMES[field] + "\" (field " + std::to_string(field + 1) + "): " + what};
}

std::optional<model::JobState> state_of(double status) {
  if (!(status >= -1.0 && status <= STATUS_CANCELLED) || status != std::floor(status)) {
    return std::nullopt; // not a whole status code (checked before the conversion to int)
  }
  switch (static_cast<int>(status)) {
  case STATUS_COMPLETED:
  case STATUS_PARTIAL_CONTINUED:
  case STATUS_PARTIAL_COMPLETED:
    return model::JobState::COMPLETED;
  case STATUS_FAILED:
  case STATUS_PARTIAL_FAILED:
    return model::JobState::FAILED;
  case STATUS_CANCELLED:
    return model::JobState::CANCELLED;
  case -1:
    return model::JobState::COMPLETED; // unknown: the log does not say it ended badly
  default:
    return std::nullopt;
  }
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

/// SWF's tokenizer: fields separated by runs of blanks (spaces or tabs).
void split_blanks(std::string_view line, std::vector<std::string_view>& fields) {
  fields.clear();
  std::size_t start = 0;
  while (true) {
    while (start < line.size() && (line[start] == ' ' || line[start] == '\t')) {
      ++start;
    }
    if (start == line.size()) {
      return;
    }
    std::size_t pos = start;
    while (pos < line.size() && line[pos] != ' ' && line[pos] != '\t') {
      ++pos;
    }
    fields.push_back(line.substr(start, pos - start));
    start = pos;
  }
}

} // namespace

SwfTraceReader::SwfTraceReader(const TraceFile& file) : TraceReader(file), lines_(open_lines(path())) {}

void SwfTraceReader::read_header_line(std::string_view line) {
  if (seen_job_) {
    return; // a comment between jobs, not header
  }
  std::string_view body = trim(line.substr(1));
  std::size_t colon = body.find(':');
  if (colon == std::string_view::npos || trim(body.substr(0, colon)) != "UnixStartTime") {
    return;
  }
  std::string_view value = trim(body.substr(colon + 1));
  double t = 0.0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), t);
  if (ec != std::errc() || end != value.data() + value.size() || !std::isfinite(t) || std::fabs(t) > MAX_START_S) {
    throw ConfigError(Location{lines_.path(), static_cast<int>(lines_.line_number()), 0}, "",
                      "header UnixStartTime: expected Unix seconds, got \"" + std::string(value) + "\"");
  }
  unix_start_s_ = t;
}

std::optional<model::JobSpec> SwfTraceReader::parse_row() {
  if (fields_.size() != FIELD_COUNT) {
    throw BadRow{"expected " + std::to_string(FIELD_COUNT) + " whitespace-separated SWF fields, got " +
                 std::to_string(fields_.size())};
  }
  values_.resize(FIELD_COUNT);
  for (std::size_t f = 0; f < FIELD_COUNT; ++f) {
    std::string_view text = fields_[f];
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), values_[f]);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(values_[f]) ||
        (values_[f] < 0.0 && values_[f] != UNKNOWN)) {
      bad(f, "expected a number >= 0 or -1 (unknown), got \"" + std::string(text) + "\"");
    }
  }
  model::JobSpec job;
  job.cluster = file().cluster;
  job.name = std::string(fields_[JOB_NUMBER]);
  job.user = users().intern(fields_[USER]);
  if (values_[SUBMIT] == UNKNOWN) {
    bad(SUBMIT, "the submit time is unknown (-1); expected seconds since UnixStartTime");
  }
  job.submit_time_s = unix_start_s_ + values_[SUBMIT];
  check_trace_time(job.submit_time_s, FIELD_NAMES[SUBMIT],
                   std::string(fields_[SUBMIT]) + " s after UnixStartTime " + number_text(unix_start_s_));
  if (values_[WAIT] != UNKNOWN) {
    job.recorded_start_s = job.submit_time_s + check_trace_duration(values_[WAIT], FIELD_NAMES[WAIT], fields_[WAIT]);
  }
  if (values_[RUN] == UNKNOWN) {
    bad(RUN, "the run time is unknown (-1); expected seconds >= 0 (a job without one cannot be replayed)");
  }
  job.duration_s = check_trace_duration(values_[RUN], FIELD_NAMES[RUN], fields_[RUN]);
  double procs = values_[ALLOCATED] != UNKNOWN ? values_[ALLOCATED] : values_[REQUESTED_PROCS];
  std::size_t procs_field = values_[ALLOCATED] != UNKNOWN ? ALLOCATED : REQUESTED_PROCS;
  if (procs == UNKNOWN || procs < 1.0 || procs != std::floor(procs)) {
    bad(procs_field, "expected a positive whole number of processors (allocated, or requested when allocated is "
                     "-1), got \"" +
                         std::string(fields_[procs_field]) + "\"");
  }
  job.gpus = check_trace_gpus(procs, FIELD_NAMES[procs_field], fields_[procs_field]);
  if (values_[REQUESTED_TIME] != UNKNOWN) {
    job.requested_time_s =
        check_trace_duration(values_[REQUESTED_TIME], FIELD_NAMES[REQUESTED_TIME], fields_[REQUESTED_TIME]);
  }
  auto state = state_of(values_[STATUS]);
  if (!state) {
    bad(STATUS, "expected 1 (completed), 0 (failed), 5 (cancelled), 2-4 (partial) or -1, got \"" +
                    std::string(fields_[STATUS]) + "\"");
  }
  job.final_state = *state;
  return job;
}

bool SwfTraceReader::may_repeat_id() const {
  double status = values_.size() > STATUS ? values_[STATUS] : UNKNOWN;
  return status == STATUS_PARTIAL_CONTINUED || status == STATUS_PARTIAL_COMPLETED || status == STATUS_PARTIAL_FAILED;
}

bool SwfTraceReader::read_row() {
  std::string_view line;
  while (lines_.next(line)) {
    std::string_view body = trim(line);
    if (body.empty()) {
      continue;
    }
    if (body.front() == ';') {
      read_header_line(body);
      continue;
    }
    seen_job_ = true;
    split_blanks(body, fields_);
    return true;
  }
  return false;
}

} // namespace acme::workloads
