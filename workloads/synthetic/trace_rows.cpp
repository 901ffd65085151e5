#include "workloads/synthetic/trace_rows.hpp"

#include <cstdio>

namespace acme::workloads::synthetic {
namespace {

constexpr const char* EXTRA_COLUMNS = ",run_id,attempt,model_params,failure\n";
constexpr int PARAMS_DIGITS = 6;

} // namespace

std::string TraceRows::header() const {
  std::string line = AcmeRowWriter::header(writer_.schema);
  line.pop_back();
  return line + EXTRA_COLUMNS;
}

void TraceRows::append(const model::JobSpec& job, const model::NameTable& users, std::string& out) const {
  writer_.append_row(job, users, out);
  out.pop_back();
  out += ',';
  if (job.run != model::RunId{}) {
    out += std::to_string(model::to_index(job.run));
  }
  out += ',' + std::to_string(job.attempt) + ',';
  if (job.model_params > 0.0) {
    char params[32];
    std::snprintf(params, sizeof params, "%.*g", PARAMS_DIGITS, job.model_params);
    out += params;
  }
  out += ',';
  out += model::to_string(job.failure);
  out += '\n';
}

AcmeSchema schema_for(const std::string& cluster) {
  return cluster == "kalos" ? AcmeSchema::KALOS : AcmeSchema::SEREN;
}

} // namespace acme::workloads::synthetic
