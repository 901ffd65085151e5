#include "workloads/replay/trace_formats.hpp"

#include "workloads/replay/acme_trace_reader.hpp"
#include "workloads/replay/alibaba_pod_reader.hpp"
#include "workloads/replay/philly_trace_reader.hpp"
#include "workloads/replay/reorder_window.hpp"
#include "workloads/replay/sorted_trace.hpp"
#include "workloads/replay/swf_trace_reader.hpp"

namespace acme::workloads {

std::vector<std::string> trace_format_names() {
  return {"acme", "alibaba", "philly", "swf"};
}

namespace {

/// A streaming reader behind a reorder window (rows a little out of submit order are fine).
template <class Reader>
MergedSource::Part windowed(std::shared_ptr<Reader> reader) {
  auto window = std::make_shared<ReorderWindow>(reader->path());
  return MergedSource::Part{[reader, window] { return window->next([&] { return reader->next(); }); },
                            [reader] { return reader->skipped_rows(); }};
}

} // namespace

MergedSource::Part open_trace_part(const TracePartRequest& request) {
  const auto& cluster = request.config->clusters.at(model::to_index(request.cluster));
  TraceFile file{request.path, request.cluster, cluster.utc_offset_s, request.users, request.on_bad_row};
  if (request.format == "acme") {
    return windowed(std::make_shared<AcmeTraceReader>(file));
  }
  if (request.format == "swf") {
    return windowed(std::make_shared<SwfTraceReader>(file));
  }
  if (request.format == "alibaba") {
    return windowed(std::make_shared<AlibabaPodReader>(file));
  }
  if (request.format == "philly") {
    // Unsorted rows: the whole (small) table is loaded and sorted.
    auto sorted = std::make_shared<SortedTrace>(std::make_unique<PhillyTraceReader>(file));
    return MergedSource::Part{[sorted] { return sorted->next(); }, [sorted] { return sorted->skipped_rows(); }};
  }
  std::string msg = "unknown trace format \"" + request.format + "\"; expected one of: " + join(trace_format_names());
  if (auto hint = did_you_mean(request.format, trace_format_names()); !hint.empty()) {
    msg += " (did you mean \"" + hint + "\"?)";
  }
  request.format_node.fail(msg);
}

} // namespace acme::workloads
