#include "policies/scheduling/quota.hpp"

#include "policies/scheduling/ordered_params.hpp"

namespace acme::policies {

QuotaSchedulerParams QuotaSchedulerParams::parse(const config::Node& node) {
  expect_policy_keys(node, concat_keys({QuotaParams::keys(),
                                        {"order", "backfill", "queue_depth"},
                                        PriorityParams::keys(),
                                        EstimatorParams::keys()}));
  QuotaSchedulerParams p;
  p.quota = QuotaParams::parse(node);
  p.order = parse_order(node, p.order);
  if (p.order != OrderKind::PRIORITY) {
    for (const auto& key : PriorityParams::keys()) {
      if (node[key].is_defined()) {
        node[key].fail("priority parameters need order: priority; expected no \"" + key + "\" with order: fifo");
      }
    }
  }
  p.priority = PriorityParams::parse(node);
  p.backfill = parse_backfill(node, p.backfill);
  p.queue_depth = parse_queue_depth(node);
  p.estimator = EstimatorParams::parse(node);
  return p;
}

std::vector<ParamDoc> QuotaSchedulerParams::docs() {
  return concat_docs({QuotaParams::docs(),
                      {{"order", "priority", "queue order: priority (multifactor, keys below) or fifo"},
                       backfill_doc(BackfillMode::EASY),
                       queue_depth_doc()},
                      PriorityParams::docs(),
                      EstimatorParams::docs()});
}

OrderedSchedulerConfig QuotaSchedulerParams::to_config() const {
  OrderedSchedulerConfig c;
  c.order = order;
  c.priority = priority;
  c.backfill = backfill;
  c.depth = queue_depth;
  c.estimator = estimator;
  c.quota = quota;
  return c;
}

std::unique_ptr<Scheduler> make_quota(const QuotaSchedulerParams& params) {
  return std::make_unique<OrderedScheduler>(params.to_config());
}

} // namespace acme::policies
