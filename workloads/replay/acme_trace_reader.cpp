#include "workloads/replay/acme_trace_reader.hpp"

#include <cmath>

#include "sim/model/civil_time.hpp"
#include "sim/model/error.hpp"
#include "sim/model/text_escape.hpp"

namespace acme::workloads {
namespace {

// model_params, tp and pp are not AcmeTrace columns: optional extensions giving a job's model size and
// parallelism layout where known (sim/model/parallel_layout.hpp; empty or absent: the layout rules decide).
enum Column : std::uint8_t {
  JOB_ID,
  USER,
  NODE_NUM,
  GPU_NUM,
  CPU_NUM,
  TYPE,
  STATE,
  SUBMIT,
  START,
  END,
  DURATION,
  MODEL_PARAMS,
  TP,
  PP
};
constexpr TraceColumn COLUMNS[] = {
    {"job_id", true},   {"user", true},          {"node_num", false},   {"gpu_num", true},     {"cpu_num", false},
    {"type", true},     {"state", true},         {"submit_time", true}, {"start_time", false}, {"end_time", false},
    {"duration", true}, {"model_params", false}, {"tp", false},         {"pp", false}};
constexpr CsvTraceSchema SCHEMA{COLUMNS, "empty trace; expected an AcmeTrace header row",
                                "expected the AcmeTrace schema (job_id,user,node_num,gpu_num,cpu_num,type,state,"
                                "submit_time,start_time,end_time,duration,queue,gpu_time)"};

} // namespace

AcmeTraceReader::AcmeTraceReader(const TraceFile& file) : CsvTraceReader(file, SCHEMA) {}

std::uint32_t AcmeTraceReader::count(std::size_t c) const {
  std::string_view text = field(c);
  if (text.empty() && !COLUMNS[c].required) {
    return 0;
  }
  auto value = csv::parse_number<double>(text); // traces written by pandas may show "8.0"
  if (!value || *value < 0 || *value != std::floor(*value)) {
    bad(c, "expected a non-negative integer, got \"" + std::string(text) + "\"");
  }
  return check_trace_gpus(*value, COLUMNS[c].name, text);
}

double AcmeTraceReader::time(std::size_t c) const {
  std::string_view text = field(c);
  if (text.empty() && !COLUMNS[c].required) {
    return model::UNKNOWN_TIME_S;
  }
  std::string why;
  auto t = model::parse_datetime(text, file().utc_offset_s, &why);
  if (!t) {
    bad(c,
        "expected a date-time such as \"2023-03-01 00:18:22+08:00\", got \"" + std::string(text) + "\" (" + why + ")");
  }
  check_trace_time(*t, COLUMNS[c].name, text);
  return *t;
}

void AcmeTraceReader::parse_layout(model::JobSpec& job) const {
  if (std::string_view text = field(MODEL_PARAMS); !text.empty()) {
    auto params = csv::parse_number<double>(text);
    if (!params || !(*params > 0.0) || !std::isfinite(*params)) {
      bad(MODEL_PARAMS, "expected a positive parameter count such as 7e9, got \"" + std::string(text) + "\"");
    }
    job.model_params = *params;
  }
  job.tp_degree = count(TP);
  job.pp_degree = count(PP);
}

std::optional<model::JobSpec> AcmeTraceReader::parse_row() {
  model::JobSpec job;
  job.cluster = file().cluster;
  job.name = std::string(field(JOB_ID));
  job.user = users().intern(field(USER));
  job.gpus = count(GPU_NUM);
  job.nodes = count(NODE_NUM);
  job.cpus = count(CPU_NUM);
  auto type = model::parse_job_type(field(TYPE));
  if (!type) {
    bad(TYPE, "expected one of Pretrain, SFT, MLLM, Eval (or Evaluation), Debug, Other, got \"" +
                  std::string(field(TYPE)) + "\"");
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
  auto duration = csv::parse_number<double>(field(DURATION));
  if (!duration || *duration < 0 || !std::isfinite(*duration)) {
    bad(DURATION, "expected a duration in seconds >= 0, got \"" + std::string(field(DURATION)) + "\"");
  }
  job.duration_s = check_trace_duration(*duration, COLUMNS[DURATION].name, field(DURATION));
  parse_layout(job);
  if (job.recorded_start_s != model::UNKNOWN_TIME_S && job.recorded_start_s < job.submit_time_s) {
    bad(START, "start_time is before submit_time; expected start_time >= submit_time");
  }
  return job;
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
  model::append_csv_field(out, job.name);
  out += ',';
  model::append_csv_field(out, users.name(job.user));
  out += ',';
  std::uint32_t nodes = job.nodes;
  out += std::to_string(nodes) + ',' + std::to_string(job.gpus) + ',' + std::to_string(job.cpus) + ',';
  if (schema == AcmeSchema::KALOS) {
    out += ",,";
  }
  out += model::acmetrace_name(job.type);
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
