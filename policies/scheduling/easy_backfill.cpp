#include "policies/scheduling/easy_backfill.hpp"

#include "policies/scheduling/ordered_params.hpp"

namespace acme::policies {

EasyBackfillParams EasyBackfillParams::parse(const config::Node& node) {
  expect_policy_keys(node, concat_keys({{"queue_depth"}, EstimatorParams::keys()}));
  EasyBackfillParams p;
  p.queue_depth = parse_queue_depth(node);
  p.estimator = EstimatorParams::parse(node);
  return p;
}

std::vector<ParamDoc> EasyBackfillParams::docs() {
  return concat_docs({{queue_depth_doc()}, EstimatorParams::docs()});
}

OrderedSchedulerConfig EasyBackfillParams::to_config() const {
  OrderedSchedulerConfig c;
  c.order = OrderKind::FIFO;
  c.backfill = BackfillMode::EASY;
  c.depth = queue_depth;
  c.estimator = estimator;
  return c;
}

std::unique_ptr<Scheduler> make_easy_backfill(const EasyBackfillParams& params) {
  return std::make_unique<OrderedScheduler>(params.to_config());
}

} // namespace acme::policies
