#include "policies/scheduling/priority.hpp"

#include "policies/scheduling/ordered_params.hpp"

namespace acme::policies {

const ParamTable<PrioritySchedulerParams>& PrioritySchedulerParams::table() {
  using P = PrioritySchedulerParams;
  static const ParamTable<P> t = ParamTable<P>{}
                                     .include(&P::priority, PriorityParams::table())
                                     .add(backfill_param(&P::backfill))
                                     .add(queue_depth_param(&P::queue_depth))
                                     .include(&P::cadence, CadenceParams::table())
                                     .include(&P::limits, LimitParams::table())
                                     .include(&P::estimator, EstimatorParams::table());
  return t;
}

OrderedSchedulerConfig PrioritySchedulerParams::to_config() const {
  OrderedSchedulerConfig c;
  c.order = OrderKind::PRIORITY;
  c.priority = priority;
  c.backfill = backfill;
  c.depth = queue_depth;
  c.cadence = cadence;
  c.limits = limits;
  c.estimator = estimator;
  return c;
}

std::unique_ptr<Scheduler> make_priority(const PrioritySchedulerParams& params) {
  return std::make_unique<OrderedScheduler>(params.to_config());
}

} // namespace acme::policies
