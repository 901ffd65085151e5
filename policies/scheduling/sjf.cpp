#include "policies/scheduling/sjf.hpp"

#include "policies/scheduling/ordered_params.hpp"

namespace acme::policies {

SjfParams SjfParams::parse(const config::Node& node) {
  expect_policy_keys(node, concat_keys({{"queue_depth"}, EstimatorParams::keys()}));
  SjfParams p;
  p.queue_depth = parse_queue_depth(node);
  p.estimator = EstimatorParams::parse(node);
  return p;
}

std::vector<ParamDoc> SjfParams::docs() {
  return concat_docs({{queue_depth_doc()}, EstimatorParams::docs()});
}

OrderedSchedulerConfig SjfParams::to_config() const {
  OrderedSchedulerConfig c;
  c.order = OrderKind::SHORTEST_FIRST;
  c.backfill = BackfillMode::GREEDY;
  c.depth = queue_depth;
  c.estimator = estimator;
  return c;
}

std::unique_ptr<Scheduler> make_sjf(const SjfParams& params) {
  return std::make_unique<OrderedScheduler>(params.to_config());
}

} // namespace acme::policies
