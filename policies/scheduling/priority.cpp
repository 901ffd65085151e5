#include "policies/scheduling/priority.hpp"

#include "policies/scheduling/ordered_params.hpp"

namespace acme::policies {

PrioritySchedulerParams PrioritySchedulerParams::parse(const config::Node& node) {
  expect_policy_keys(node, concat_keys({PriorityParams::keys(), {"backfill", "queue_depth"}, EstimatorParams::keys()}));
  PrioritySchedulerParams p;
  p.priority = PriorityParams::parse(node);
  p.backfill = parse_backfill(node, p.backfill);
  p.queue_depth = parse_queue_depth(node);
  p.estimator = EstimatorParams::parse(node);
  return p;
}

std::vector<ParamDoc> PrioritySchedulerParams::docs() {
  return concat_docs(
      {PriorityParams::docs(), {backfill_doc(BackfillMode::EASY), queue_depth_doc()}, EstimatorParams::docs()});
}

OrderedSchedulerConfig PrioritySchedulerParams::to_config() const {
  OrderedSchedulerConfig c;
  c.order = OrderKind::PRIORITY;
  c.priority = priority;
  c.backfill = backfill;
  c.depth = queue_depth;
  c.estimator = estimator;
  return c;
}

std::unique_ptr<Scheduler> make_priority(const PrioritySchedulerParams& params) {
  return std::make_unique<OrderedScheduler>(params.to_config());
}

} // namespace acme::policies
