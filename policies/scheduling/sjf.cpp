#include "policies/scheduling/sjf.hpp"

#include "policies/scheduling/ordered_params.hpp"

namespace acme::policies {

const ParamTable<SjfParams>& SjfParams::table() {
  static const ParamTable<SjfParams> t = ParamTable<SjfParams>{queue_depth_param(&SjfParams::queue_depth)}.include(
      &SjfParams::estimator, EstimatorParams::table());
  return t;
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
