#include "workloads/replay/trace_formats.hpp"

#include "workloads/replay/acme_trace_reader.hpp"
#include "workloads/replay/alibaba_pod_reader.hpp"
#include "workloads/replay/philly_trace_reader.hpp"
#include "workloads/replay/swf_trace_reader.hpp"

namespace acme::workloads {

void register_builtin_trace_formats(TraceFormatRegistry& registry) {
  registry.add("acme", "AcmeTrace job CSV (Seren or Kalos schema)", open_windowed<AcmeTraceReader>);
  registry.add("alibaba", "Alibaba cluster-trace-gpu-v2023 pod list", open_windowed<AlibabaPodReader>);
  registry.add("philly", "Microsoft Philly job table (Pollux), unsorted", open_sorted<PhillyTraceReader>);
  registry.add("swf", "Standard Workload Format log (Parallel Workloads Archive)", open_windowed<SwfTraceReader>);
}

} // namespace acme::workloads
