#pragma once

#include <memory>

#include "workloads/synthetic/synthetic_options.hpp"
#include "workloads/workload_source.hpp"

namespace acme::workloads::synthetic {

/// The `kind: synthetic` workload: one ClusterGenerator per planned cluster (its preset's fitted
/// parameters, compiled in from acme_params.txt), merged in submission order; the run's epoch is the
/// period's start.
std::unique_ptr<WorkloadSource> make_synthetic_workload(const SyntheticOptions& options, model::NameTable& users);
std::unique_ptr<WorkloadSource> make_synthetic_workload(const WorkloadContext& context, const config::Node& section);

} // namespace acme::workloads::synthetic
