#include "policies/scheduling/easy_backfill.hpp"

#include "policies/scheduling/ordered_params.hpp"

namespace acme::policies {

const ParamTable<EasyBackfillParams>& EasyBackfillParams::table() {
  static const ParamTable<EasyBackfillParams> t =
      ParamTable<EasyBackfillParams>{queue_depth_param(&EasyBackfillParams::queue_depth)}.include(
          &EasyBackfillParams::estimator, EstimatorParams::table());
  return t;
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
