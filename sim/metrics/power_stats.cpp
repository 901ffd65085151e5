#include "sim/metrics/power_stats.hpp"

#include <fmt/format.h>

#include "sim/model/units.hpp"

namespace acme::metrics {
namespace {

using model::JOULES_PER_KWH;
using model::SECONDS_PER_HOUR;
constexpr double WATTS_PER_KW = 1000.0;
// The per-GPU power CDF on 60..450 W every 10 W (data/acme/pkl_*_gpu_power_W.csv spans ~58-600 W; the
// idle mode is 60-70 W, 99% of samples are below 450 W).
constexpr int CDF_FROM_W = 60;
constexpr int CDF_TO_W = 450;
constexpr int CDF_STEP_W = 10;

std::string number(double v) {
  return fmt::format("{}", v);
}

double kwh(double joules) {
  return joules / JOULES_PER_KWH;
}

std::string quantiles_json(const PowerHistogram& h, bool with_cdf) {
  std::string out = fmt::format(R"({{"mean": {}, "p10": {}, "p25": {}, "p50": {}, "p75": {}, "p90": {}, "p99": {})",
                                number(h.mean_W()), number(h.quantile_W(0.10)), number(h.quantile_W(0.25)),
                                number(h.quantile_W(0.50)), number(h.quantile_W(0.75)), number(h.quantile_W(0.90)),
                                number(h.quantile_W(0.99)));
  if (with_cdf) {
    out += R"(, "cdf": {)";
    for (int w = CDF_FROM_W; w <= CDF_TO_W; w += CDF_STEP_W) {
      out += fmt::format(R"({}"{}": {})", w == CDF_FROM_W ? "" : ", ", w, number(h.cdf(w)));
    }
    out += "}";
  }
  return out + "}";
}

} // namespace

PowerStats::PowerStats(std::size_t clusters) : totals_(clusters) {}

void PowerStats::add(const JobRecord& r) {
  if (r.reject != model::RejectReason::NONE) {
    return;
  }
  Totals& t = totals_.at(model::to_index(r.spec->cluster));
  t.jobs_J += r.energy.total_J;
  t.stall_J += r.energy.stall_J;
  t.rollback_J += r.energy.rollback_J;
  t.useful_gpu_s += r.work_s * r.spec->gpu_share();
}

std::string PowerStats::render_cluster(std::size_t c) const {
  const ClusterPowerReport& r = reports_.at(c);
  const Totals& t = totals_.at(c);
  double total_J = r.total_J();
  double useful_h = t.useful_gpu_s / SECONDS_PER_HOUR;
  std::string out = fmt::format(
      R"("power": {{"energy_kWh": {}, "gpu_kWh": {}, "node_base_kWh": {}, "cpu_servers_kWh": {}, "network_kWh": {}, )"
      R"("storage_kWh": {}, "mean_kW": {}, "peak_kW": {}, "jobs_kWh": {}, "useful_gpu_hours": {}, )"
      R"("kWh_per_useful_gpu_hour": {}, "failure_rollback_kWh": {}, "checkpoint_stall_kWh": {}, )"
      R"("node_off_hours": {}, "boots": {},)",
      number(kwh(total_J)), number(kwh(r.gpu_J)), number(kwh(r.node_base_J)), number(kwh(r.cpu_servers_J)),
      number(kwh(r.network_J)), number(kwh(r.storage_J)),
      number(r.span_s > 0.0 ? total_J / r.span_s / WATTS_PER_KW : 0.0), number(r.peak_W / WATTS_PER_KW),
      number(kwh(t.jobs_J)), number(useful_h), number(useful_h > 0.0 ? kwh(total_J) / useful_h : 0.0),
      number(kwh(t.rollback_J)), number(kwh(t.stall_J)), number(r.node_off_s / SECONDS_PER_HOUR), r.boots);
  out += "\n        \"gpu_W\": " + quantiles_json(r.gpu_W, true) + ",";
  out += "\n        \"gpu_server_W\": " + quantiles_json(r.gpu_server_W, false) + ",";
  out += "\n        \"cpu_server_W\": " + quantiles_json(r.cpu_server_W, false) + "}";
  return out;
}

} // namespace acme::metrics
