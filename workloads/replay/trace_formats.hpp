#pragma once

#include <string>

#include "workloads/merged_source.hpp"
#include "workloads/workload_source.hpp"

namespace acme::workloads {

/// One trace file to open for one cluster.
struct TracePartRequest {
  std::string format;       ///< "acme", ...
  config::Node format_node; ///< for errors about the format
  std::string path;         ///< resolved path
  model::ClusterId cluster{};
  const config::Config* config = nullptr;
  model::NameTable* users = nullptr;
  BadRowPolicy on_bad_row = BadRowPolicy::ERROR;
};

/// The names of the trace formats this build reads.
std::vector<std::string> trace_format_names();
/// Opens a streaming reader for the request; an unknown format fails at `format_node`.
MergedSource::Part open_trace_part(const TracePartRequest& request);

} // namespace acme::workloads
