#include "workloads/synthetic/cluster_generator.hpp"

#include "sim/model/units.hpp"
#include "workloads/synthetic/pretrain_stream.hpp"

namespace acme::workloads::synthetic {

double arrivals_per_paper_job(double scale, double period_days) {
  return scale / (period_days * model::SECONDS_PER_DAY);
}

ClusterGenerator::ClusterGenerator(ClusterModel model, ClusterPlan plan, const SyntheticOptions& options,
                                   model::NameTable& names)
    : model_(std::move(model))
    , plan_(std::move(plan))
    , options_(options)
    , rhythm_(options.rhythm, plan_.utc_offset_s)
    , users_(plan_.name, options.users, names) {
  StreamContext ctx{&model_,
                    &plan_,
                    &options_,
                    &rhythm_,
                    &users_,
                    options_.start_unix_s,
                    options_.end_unix_s(),
                    arrivals_per_paper_job(options_.scale, model_.period_days)};
  auto pretrain = std::make_unique<PretrainStream>(ctx, team_rate_factor(ctx));
  auto eval = std::make_unique<EvalStream>(ctx, *pretrain);
  streams_.push_back(std::move(pretrain));
  streams_.push_back(std::move(eval));
  streams_.push_back(std::make_unique<MiscStream>(ctx));
  streams_.push_back(std::make_unique<CpuStream>(ctx));
}

ClusterGenerator::~ClusterGenerator() = default;

std::optional<GeneratedJob> ClusterGenerator::next() {
  JobStream* best = nullptr;
  double best_s = NO_MORE_JOBS;
  for (auto& stream : streams_) {
    double t = stream->peek_s();
    if (t < best_s) {
      best_s = t;
      best = stream.get();
    }
  }
  if (best == nullptr) {
    return std::nullopt;
  }
  GeneratedJob job = best->pop();
  job.spec.name = plan_.name + "-" + std::to_string(++sequence_);
  return job;
}

} // namespace acme::workloads::synthetic
