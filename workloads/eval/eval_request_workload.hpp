#pragma once

#include <memory>
#include <string>
#include <vector>

#include "policies/eval/eval_dispatch.hpp"
#include "policies/registry.hpp"
#include "workloads/workload_source.hpp"

namespace acme::workloads::eval {

/// Name of the user that submits evaluation requests of `kind: eval_request`.
inline constexpr const char* EVAL_REQUEST_USER = "evaluator";

/// What dispatch needs to know about each cluster of the config (by cluster id), from its platform: GPUs and
/// nodes, GPU memory, CPU cores per GPU, and one node's path to remote storage (its storage NICs, else its
/// compute NICs, capped by the storage system). For callers that build a WorkloadContext.
std::vector<policies::EvalClusterShape> eval_cluster_shapes(const config::Config& config);
/// The dispatch policy a config's `dispatch:` names, from the context's registry (an unknown name fails with
/// the accepted ones).
std::unique_ptr<policies::EvalDispatch> make_eval_dispatch(const WorkloadContext& context, const config::Node& node,
                                                           const std::string& cluster);
/// The context's shape of cluster `id`.
const policies::EvalClusterShape& eval_cluster_shape(const WorkloadContext& context, model::ClusterId id);

/// The `kind: eval_request` workload: one evaluation request (the paper's study: a 7B model on 63
/// datasets on N nodes), dispatched by a policy into jobs that are all submitted at `at`.
///   workload: {kind: eval_request, model_params: 7e9, datasets: all, nodes: 1, at: 0s,
///              dispatch: {name: coupled | decoupled, ...}, catalogue: builtin, cluster: NAME, name: eval}
std::unique_ptr<WorkloadSource> make_eval_request_workload(const WorkloadContext& context, const config::Node& section);

} // namespace acme::workloads::eval
