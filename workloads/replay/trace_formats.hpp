#pragma once

#include <functional>
#include <memory>

#include "workloads/merged_source.hpp"
#include "workloads/named_registry.hpp"
#include "workloads/replay/reorder_window.hpp"
#include "workloads/replay/sorted_trace.hpp"
#include "workloads/replay/trace_reader.hpp"

namespace acme::workloads {

/// Opens one trace file of one cluster as a part of the merged workload. Throws ConfigError on a file that
/// cannot be read (a missing column, an unreadable file).
using TraceFormatFactory = std::function<MergedSource::Part(const TraceFile& file)>;
/// Trace formats keyed by their YAML name (`workload: {kind: trace, format: NAME}`).
using TraceFormatRegistry = NamedRegistry<TraceFormatFactory>;

/// Registers the built-in formats: acme, alibaba, philly, swf.
void register_builtin_trace_formats(TraceFormatRegistry& registry);

/// Opens a streaming reader of format Reader behind a reorder window (rows a little out of submit order
/// are fine; see ReorderWindow).
template <class Reader>
MergedSource::Part open_windowed(const TraceFile& file) {
  auto reader = std::make_shared<Reader>(file);
  auto window = std::make_shared<ReorderWindow>(reader->path());
  return MergedSource::Part{[reader, window] { return window->next([&] { return reader->next(); }); },
                            [reader] { return reader->skipped_rows(); }};
}

/// Opens a reader of format Reader whose rows are in no order: the whole file is read and sorted.
template <class Reader>
MergedSource::Part open_sorted(const TraceFile& file) {
  auto sorted = std::make_shared<SortedTrace>(std::make_unique<Reader>(file));
  return MergedSource::Part{[sorted] { return sorted->next(); }, [sorted] { return sorted->skipped_rows(); }};
}

} // namespace acme::workloads
