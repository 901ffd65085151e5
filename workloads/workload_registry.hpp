#pragma once

#include <functional>
#include <memory>

#include "workloads/named_registry.hpp"
#include "workloads/replay/trace_formats.hpp"
#include "workloads/workload_source.hpp"

namespace acme::workloads {

struct WorkloadRegistries;

/// Builds the source of one workload kind from its `workload:` section (kind and keys validated by it).
using WorkloadKindFactory = std::function<std::unique_ptr<WorkloadSource>(
    const WorkloadContext& context, const config::Node& section, const WorkloadRegistries& registries)>;
/// Workload kinds keyed by their YAML name (`workload: {kind: NAME}`).
using WorkloadKindRegistry = NamedRegistry<WorkloadKindFactory>;

/// Every registry of the workload layer, filled explicitly.
struct WorkloadRegistries {
  WorkloadKindRegistry kinds{"workload kind"};
  TraceFormatRegistry trace_formats{"trace format"};
};

/// Registers the built-in kinds: eval_request, synthetic, trace.
void register_builtin_workload_kinds(WorkloadKindRegistry& registry);
/// Both registries with the built-in kinds and trace formats.
WorkloadRegistries make_builtin_workload_registries();

/// Builds the source the config's `workload:` section describes with the kinds and formats of
/// `registries`, merged across clusters and with dense job ids in submission order.
std::unique_ptr<WorkloadSource> make_workload(const WorkloadContext& context, const WorkloadRegistries& registries);

} // namespace acme::workloads
