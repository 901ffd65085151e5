#pragma once

#include <string>

#include "workloads/replay/acme_trace_reader.hpp"

namespace acme::workloads::synthetic {

/// Rows of a generated trace: the cluster's AcmeTrace schema (AcmeRowWriter) followed by four columns
/// the schema lacks, so a replay or an analysis keeps what the generator knows:
/// run_id (pretraining run, empty for other jobs), attempt, model_params (empty when unknown) and
/// failure (infrastructure, framework, script; empty unless failed). Readers of the AcmeTrace schema
/// match columns by name and skip these.
class TraceRows {
public:
  explicit TraceRows(AcmeRowWriter writer) : writer_(writer) {}
  /// The header line (with its newline).
  std::string header() const;
  void append(const model::JobSpec& job, const model::NameTable& users, std::string& out) const;

private:
  AcmeRowWriter writer_;
};

/// The schema a cluster's trace gets: Kalos's for a cluster named "kalos", Seren's for every other.
AcmeSchema schema_for(const std::string& cluster);

} // namespace acme::workloads::synthetic
