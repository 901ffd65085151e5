#include "workloads/replay/trace_formats.hpp"

#include "workloads/replay/acme_trace_reader.hpp"
#include "workloads/replay/alibaba_pod_reader.hpp"
#include "workloads/replay/philly_trace_reader.hpp"
#include "workloads/replay/reorder_window.hpp"
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
  if (request.format == "acme") {
    auto reader = std::make_shared<AcmeTraceReader>(request.path, request.cluster, cluster.utc_offset_s, *request.users,
                                                    request.on_bad_row);
    auto window = std::make_shared<ReorderWindow>(reader->path());
    return MergedSource::Part{[reader, window] { return window->next([&] { return reader->next(); }); },
                              [reader] { return reader->skipped_rows(); }};
  }
  if (request.format == "swf") {
    return windowed(
        std::make_shared<SwfTraceReader>(request.path, request.cluster, *request.users, request.on_bad_row));
  }
  if (request.format == "alibaba") {
    return windowed(
        std::make_shared<AlibabaPodReader>(request.path, request.cluster, *request.users, request.on_bad_row));
  }
  if (request.format == "philly") {
    // Unsorted rows: the reader loads and sorts the whole (small) table.
    auto reader = std::make_shared<PhillyTraceReader>(request.path, request.cluster, cluster.utc_offset_s,
                                                      *request.users, request.on_bad_row);
    return MergedSource::Part{[reader] { return reader->next(); }, [reader] { return reader->skipped_rows(); }};
  }
  std::string msg = "unknown trace format \"" + request.format + "\"; expected one of: " + join(trace_format_names());
  if (auto hint = did_you_mean(request.format, trace_format_names()); !hint.empty()) {
    msg += " (did you mean \"" + hint + "\"?)";
  }
  request.format_node.fail(msg);
}

} // namespace acme::workloads
