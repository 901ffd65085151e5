#include "policies/scheduling/kube_quota.hpp"

#include "policies/scheduling/ordered_params.hpp"

namespace acme::policies {

KubeQuotaParams KubeQuotaParams::parse(const config::Node& node) {
  expect_policy_keys(node, concat_keys({QuotaParams::keys(), {"queueing", "queue_depth"}}));
  KubeQuotaParams p;
  p.quota = QuotaParams::parse(node);
  p.strict_fifo = parse_choice(node, "queueing", p.strict_fifo, {{"strict_fifo", true}, {"best_effort_fifo", false}},
                               "queueing strategy");
  p.queue_depth = parse_queue_depth(node);
  return p;
}

std::vector<ParamDoc> KubeQuotaParams::docs() {
  return concat_docs({QuotaParams::docs(),
                      {{"queueing", "best_effort_fifo",
                        "strict_fifo: a queue's head that cannot be admitted blocks its queue; best_effort_fifo: "
                        "later jobs of the queue may go first (Kueue's default)"},
                       queue_depth_doc()}});
}

KubeQuotaScheduler::KubeQuotaScheduler(KubeQuotaParams params)
    : QueueScheduler({params.queue_depth, EstimatorParams{}, params.quota})
    , params_(std::move(params))
    , queues_(params_.quota, params_.strict_fifo) {}

Step KubeQuotaScheduler::decide(const model::JobEntry& entry, PassKind kind, std::vector<model::Decision>& out) {
  const model::JobSpec& job = entry.spec;
  // Every job queued before still waits; under strict FIFO an arrival behind one waits too.
  if (kind == PassKind::ARRIVALS && params_.strict_fifo && !queues_.is_first_of_its_queue(job.id)) {
    return Step::WAITING;
  }
  if (reject_if_never_admitted(job, out)) {
    return Step::SKIPPED;
  }
  Admission admit = admission(job);
  if (admit == Admission::BLOCKED) {
    return Step::WAITING;
  }
  if (auto where = place_unless_known_unfit(entry)) {
    start(entry, std::move(*where), out);
    return Step::STARTED;
  }
  return admit == Admission::OWNED && try_preempt(entry, out) ? Step::PREEMPTED : Step::WAITING;
}

std::unique_ptr<Scheduler> make_kube_quota(const KubeQuotaParams& params) {
  return std::make_unique<KubeQuotaScheduler>(params);
}

} // namespace acme::policies
