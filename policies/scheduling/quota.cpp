#include "policies/scheduling/quota.hpp"

#include "policies/scheduling/ordered_params.hpp"

namespace acme::policies {

namespace {

/// Priority keys mean nothing with a FIFO queue.
void check_order_keys(const config::Node& node, const QuotaSchedulerParams& p) {
  if (p.order == OrderKind::PRIORITY || !node.is_map()) {
    return;
  }
  for (const auto& key : PriorityParams::table().keys()) {
    if (node[key].is_defined()) {
      node[key].fail("priority parameters need order: priority; expected no \"" + key + "\" with order: fifo");
    }
  }
}

} // namespace

const ParamTable<QuotaSchedulerParams>& QuotaSchedulerParams::table() {
  using P = QuotaSchedulerParams;
  static const ParamTable<P> t = ParamTable<P>{}
                                     .include(&P::quota, QuotaParams::table())
                                     .add(order_param(&P::order))
                                     .add(backfill_param(&P::backfill))
                                     .add(queue_depth_param(&P::queue_depth))
                                     .include(&P::cadence, CadenceParams::table())
                                     .include(&P::limits, LimitParams::table())
                                     .include(&P::priority, PriorityParams::table())
                                     .include(&P::estimator, EstimatorParams::table())
                                     .check(check_order_keys);
  return t;
}

OrderedSchedulerConfig QuotaSchedulerParams::to_config() const {
  OrderedSchedulerConfig c;
  c.order = order;
  c.priority = priority;
  c.backfill = backfill;
  c.depth = queue_depth;
  c.cadence = cadence;
  c.estimator = estimator;
  c.quota = quota;
  c.limits = limits;
  return c;
}

std::unique_ptr<Scheduler> make_quota(const QuotaSchedulerParams& params) {
  return std::make_unique<OrderedScheduler>(params.to_config());
}

} // namespace acme::policies
