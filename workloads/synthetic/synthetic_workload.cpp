#include "workloads/synthetic/synthetic_workload.hpp"

#include "workloads/eval/eval_batch_tags.hpp"
#include "workloads/merged_source.hpp"
#include "workloads/synthetic/cluster_generator.hpp"

namespace acme::workloads::synthetic {

std::unique_ptr<WorkloadSource> make_synthetic_workload(const SyntheticOptions& options, model::NameTable& users) {
  ParamTable params(acme_params_text(), "workloads/synthetic/acme_params.txt");
  std::vector<MergedSource::Part> parts;
  for (const auto& plan : options.clusters) {
    auto generator = std::make_shared<ClusterGenerator>(load_cluster_model(params, plan.preset), plan, options, users);
    auto tags = std::make_shared<eval::EvalBatchTags>(plan.id); // evaluation batches become requests
    parts.push_back(MergedSource::Part{[generator, tags]() -> std::optional<model::JobSpec> {
                                         auto job = generator->next();
                                         if (!job) {
                                           return std::nullopt;
                                         }
                                         tags->tag(job->spec, job->evaluates_run, job->checkpoint);
                                         return std::move(job->spec);
                                       },
                                       {}});
  }
  return std::make_unique<MergedSource>(std::move(parts), options.start_unix_s, 0);
}

std::unique_ptr<WorkloadSource> make_synthetic_workload(const WorkloadContext& context, const config::Node& section) {
  return make_synthetic_workload(parse_synthetic_options(*context.config, section), *context.users);
}

} // namespace acme::workloads::synthetic
