#include "workloads/synthetic/synthetic_workload.hpp"

#include "sim/model/units.hpp"
#include "workloads/eval/eval_batch_tags.hpp"
#include "workloads/merged_source.hpp"
#include "workloads/synthetic/cluster_generator.hpp"

namespace acme::workloads::synthetic {

std::unique_ptr<WorkloadSource> make_synthetic_workload(const SyntheticOptions& options, model::NameTable& users) {
  FittedParams params(acme_params_text(), "workloads/synthetic/acme_params.txt");
  std::vector<MergedSource::Part> parts;
  for (const auto& plan : options.clusters) {
    ClusterModel model = load_cluster_model(params, plan.preset);
    if (!options.draws_infra_failures) {
      // The failure process strikes the jobs: the drawn states keep the script and framework failures.
      model.state.infra_base = 0.0;
      model.state.infra_hazard_per_gpu_s = 0.0;
    }
    auto generator = std::make_shared<ClusterGenerator>(std::move(model), plan, options, users);
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
  auto source = std::make_unique<MergedSource>(std::move(parts), options.start_unix_s, 0);
  source->set_span_s(options.days * model::SECONDS_PER_DAY);
  return source;
}

std::unique_ptr<WorkloadSource> make_synthetic_workload(const WorkloadContext& context, const config::Node& section) {
  return make_synthetic_workload(parse_synthetic_options(*context.config, section), *context.users);
}

} // namespace acme::workloads::synthetic
