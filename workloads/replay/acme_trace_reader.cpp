#include "workloads/replay/acme_trace_reader.hpp"

#include <charconv>
#include <cmath>

#include "sim/model/civil_time.hpp"
#include "sim/model/error.hpp"

namespace acme::workloads {
namespace {

const char* const COLUMN_NAMES[] = {"job_id", "user",        "node_num",   "gpu_num",  "cpu_num", "type",
                                    "state",  "submit_time", "start_time", "end_time", "duration"};
constexpr bool REQUIRED[] = {true, true, false, true, false, true, true, true, false, false, true};

/// A row that is malformed: thrown inside the reader, turned into ConfigError or a skip.
struct BadRow {
  std::string message;
};

template <class T>
bool parse_number(std::string_view text, T& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

} // namespace

AcmeTraceReader::AcmeTraceReader(std::string path, model::ClusterId cluster, double utc_offset_s,
                                 model::NameTable& users, BadRowPolicy on_bad_row)
    : lines_(std::move(path))
    , cluster_(cluster)
    , utc_offset_s_(utc_offset_s)
    , users_(&users)
    , on_bad_row_(on_bad_row) {
  read_header();
}

void AcmeTraceReader::read_header() {
  std::string_view line;
  if (!lines_.next(line)) {
    throw ConfigError(Location{lines_.path(), 1, 0}, "", "empty trace; expected an AcmeTrace header row");
  }
  LineReader::split(line, ',', fields_);
  field_count_ = fields_.size();
  index_.assign(COLUMN_COUNT, -1);
  for (std::size_t f = 0; f < fields_.size(); ++f) {
    names_.emplace_back(fields_[f]);
    for (int c = 0; c < COLUMN_COUNT; ++c) {
      if (fields_[f] == COLUMN_NAMES[c]) {
        index_[static_cast<std::size_t>(c)] = static_cast<int>(f);
      }
    }
  }
  for (int c = 0; c < COLUMN_COUNT; ++c) {
    if (REQUIRED[c] && index_[static_cast<std::size_t>(c)] < 0) {
      throw ConfigError(Location{lines_.path(), 1, 0}, "",
                        std::string("missing column \"") + COLUMN_NAMES[c] +
                            "\"; expected the AcmeTrace schema (job_id,user,node_num,gpu_num,cpu_num,type,state,"
                            "submit_time,start_time,end_time,duration,queue,gpu_time)");
    }
  }
}

void AcmeTraceReader::bad(Column column, const std::string& what) const {
  throw BadRow{std::string("column \"") + COLUMN_NAMES[column] + "\": " + what};
}

model::JobSpec AcmeTraceReader::parse_row() {
  auto field = [&](Column c) -> std::string_view {
    int i = index_[c];
    return i < 0 ? std::string_view{} : fields_[static_cast<std::size_t>(i)];
  };
  auto count = [&](Column c) -> std::uint32_t {
    std::string_view text = field(c);
    double value = 0.0; // traces written by pandas may show "8.0"
    if (text.empty() && !REQUIRED[c]) {
      return 0;
    }
    if (!parse_number(text, value) || value < 0 || value != std::floor(value)) {
      bad(c, "expected a non-negative integer, got \"" + std::string(text) + "\"");
    }
    return static_cast<std::uint32_t>(value);
  };
  auto time = [&](Column c) -> double {
    std::string_view text = field(c);
    if (text.empty() && !REQUIRED[c]) {
      return model::UNKNOWN_TIME_S;
    }
    auto t = model::parse_datetime(text, utc_offset_s_);
    if (!t) {
      bad(c, "expected a date-time such as \"2023-03-01 00:18:22+08:00\", got \"" + std::string(text) + "\"");
    }
    return *t;
  };
  model::JobSpec job;
  job.cluster = cluster_;
  job.name = std::string(field(JOB_ID));
  job.user = users_->intern(field(USER));
  job.gpus = count(GPU_NUM);
  job.nodes = count(NODE_NUM);
  job.cpus = count(CPU_NUM);
  auto type = model::parse_job_type(field(TYPE));
  if (!type) {
    bad(TYPE,
        "expected one of Pretrain, SFT, MLLM, Evaluation, Debug, Other, got \"" + std::string(field(TYPE)) + "\"");
  }
  job.type = *type;
  auto state = model::parse_job_state(field(STATE));
  if (!state) {
    bad(STATE,
        "expected one of COMPLETED, CANCELLED, FAILED, TIMEOUT, NODE_FAIL, got \"" + std::string(field(STATE)) + "\"");
  }
  job.final_state = *state;
  job.submit_time_s = time(SUBMIT);
  job.recorded_start_s = time(START);
  std::string_view duration = field(DURATION);
  if (!parse_number(duration, job.duration_s) || job.duration_s < 0 || !std::isfinite(job.duration_s)) {
    bad(DURATION, "expected a duration in seconds >= 0, got \"" + std::string(duration) + "\"");
  }
  if (job.recorded_start_s != model::UNKNOWN_TIME_S && job.recorded_start_s < job.submit_time_s) {
    bad(START, "start_time is before submit_time; expected start_time >= submit_time");
  }
  return job;
}

std::optional<model::JobSpec> AcmeTraceReader::next() {
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
      return parse_row();
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

std::string AcmeRowWriter::header(AcmeSchema schema) {
  if (schema == AcmeSchema::KALOS) {
    return "job_id,user,node_num,gpu_num,cpu_num,mem_per_pod_GB,shared_mem_per_pod,type,state,submit_time,"
           "start_time,end_time,fail_time,stop_time,duration,queue,gpu_time\n";
  }
  return "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,queue,gpu_time\n";
}

void AcmeRowWriter::append_row(const model::JobSpec& job, const model::NameTable& users, std::string& out) const {
  constexpr std::size_t BUFFER = 32;
  char stamp[BUFFER];
  auto datetime = [&](double t_s) {
    if (t_s != model::UNKNOWN_TIME_S) {
      out.append(stamp, model::format_datetime(epoch_unix_s + t_s, utc_offset_s, stamp));
    }
    out += ',';
  };
  out += job.name;
  out += ',';
  out += users.name(job.user);
  out += ',';
  std::uint32_t nodes = job.nodes;
  out += std::to_string(nodes) + ',' + std::to_string(job.gpus) + ',' + std::to_string(job.cpus) + ',';
  if (schema == AcmeSchema::KALOS) {
    out += ",,";
  }
  out += model::to_string(job.type);
  out += ',';
  out += model::to_string(job.final_state);
  out += ',';
  datetime(job.submit_time_s);
  datetime(job.recorded_start_s);
  double end =
      job.recorded_start_s == model::UNKNOWN_TIME_S ? model::UNKNOWN_TIME_S : job.recorded_start_s + job.duration_s;
  datetime(end);
  if (schema == AcmeSchema::KALOS) {
    out += ",,";
  }
  out += std::to_string(static_cast<long long>(std::llround(job.duration_s)));
  out += ',';
  if (job.recorded_start_s != model::UNKNOWN_TIME_S) {
    out += std::to_string(static_cast<long long>(std::llround(job.recorded_queue_s())));
  }
  out += ',';
  out += std::to_string(static_cast<long long>(std::llround(job.duration_s * job.gpus)));
  out += '\n';
}

} // namespace acme::workloads
