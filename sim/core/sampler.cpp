#include "sim/core/sampler.hpp"

#include <string>
#include <utility>

#include "sim/model/limits.hpp"
#include "sim/model/units.hpp"

namespace acme::core {

Sampler::Sampler(double interval_s, std::vector<const model::ClusterView*> views, Emit emit, Probe probe,
                 const PowerMeter* power, Location interval_where)
    : interval_s_(interval_s)
    , next_sample_s_(interval_s)
    , views_(std::move(views))
    , busy_at_last_sample_(views_.size(), 0.0)
    , energy_at_last_sample_(views_.size(), 0.0)
    , emit_(std::move(emit))
    , probe_(std::move(probe))
    , power_(power)
    , interval_where_(std::move(interval_where)) {}

void Sampler::count_rows(double at_s) {
  rows_ += views_.size();
  if (rows_ <= model::limits::MAX_TIMESERIES_ROWS) {
    return;
  }
  throw ConfigError(interval_where_, "output.timeseries_interval",
                    "timeseries.csv passed " + std::to_string(model::limits::MAX_TIMESERIES_ROWS) + " rows " +
                        std::to_string(static_cast<std::uint64_t>(at_s / model::SECONDS_PER_DAY)) +
                        " days into the run (a row per cluster every " + number_text(interval_s_) +
                        " s); expected a longer interval for a run this long");
}

void Sampler::sample_until(double time_s, bool inclusive) {
  while (next_sample_s_ < time_s || (inclusive && next_sample_s_ <= time_s)) {
    emit_at(next_sample_s_);
    next_sample_s_ += interval_s_;
  }
  if (inclusive && time_s > last_sample_s_) {
    emit_at(time_s); // the last, partial interval
  }
}

void Sampler::emit_at(double at_s) {
  count_rows(at_s);
  for (std::size_t c = 0; c < views_.size(); ++c) {
    const model::ClusterView& view = *views_[c];
    // The view's integral is as of its now_s(); its state is constant from then to `at_s`.
    double busy_integral = view.busy_gpu_seconds_at(at_s);
    double span = at_s - last_sample_s_;
    metrics::ClusterSample s;
    s.time_s = at_s;
    s.cluster = static_cast<std::uint16_t>(c);
    s.busy_gpus_avg = span > 0.0 ? (busy_integral - busy_at_last_sample_[c]) / span : view.allocated_gpus();
    s.queued_jobs = view.queued_jobs();
    s.queued_gpus = view.queued_gpus();
    s.running_jobs = view.running_jobs();
    s.up_nodes = view.up_nodes();
    if (probe_) {
      probe_(c, s);
    }
    s.nodes_off = view.powered_off_nodes();
    if (power_ != nullptr) {
      double energy = power_->energy_J(view.shape().id, at_s);
      s.power_W = span > 0.0 ? (energy - energy_at_last_sample_[c]) / span : power_->power_W(view.shape().id);
      energy_at_last_sample_[c] = energy;
    }
    emit_(s);
    busy_at_last_sample_[c] = busy_integral;
  }
  last_sample_s_ = at_s;
}

} // namespace acme::core
