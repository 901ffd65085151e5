#include "sim/metrics/network_stats.hpp"

#include <fmt/format.h>

#include "sim/metrics/stats.hpp"
#include "sim/model/units.hpp"

namespace acme::metrics {
namespace {
using model::SECONDS_PER_HOUR;
std::string number(double v) {
  return fmt::format("{}", v);
}
double share(std::uint64_t part, std::uint64_t whole) {
  return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}
} // namespace

NetworkStats::NetworkStats(std::size_t clusters) : totals_(clusters) {}

double NetworkStats::comm_slowdown(const JobRecord& r) {
  if (r.first_start_s == model::UNKNOWN_TIME_S) {
    return 1.0;
  }
  double run = r.end_s - r.first_start_s;
  double uncontended = run - r.comm_lost_s;
  return uncontended > 0.0 ? run / uncontended : 1.0;
}

void NetworkStats::add(const JobRecord& r) {
  if (!r.comm_modelled || r.reject != model::RejectReason::NONE) {
    return;
  }
  Totals& t = totals_.at(model::to_index(r.spec->cluster));
  t.lost_gpu_s[static_cast<std::size_t>(r.spec->type)] += r.comm_lost_s * r.spec->gpu_share();
  if (r.nodes > 1) {
    t.multi_node_slowdowns.push_back(comm_slowdown(r));
  }
}

void NetworkStats::add_sample(const ClusterSample& s) {
  if (!s.network) {
    return;
  }
  Totals& t = totals_.at(s.cluster);
  ++t.samples;
  t.nic_samples += s.nics;
  t.nics_idle += s.nics_idle;
  t.nics_above_quarter += s.nics_above_quarter;
  t.nic_util_sum += s.nic_util_mean * s.nics;
  t.spine_util_sum += s.spine_util;
}

std::string NetworkStats::render_cluster(std::size_t c) {
  Totals& t = totals_.at(c);
  std::string by_type;
  double total = 0.0;
  for (std::size_t k = 0; k < model::JOB_TYPE_COUNT; ++k) {
    by_type += fmt::format(R"({}"{}": {})", k == 0 ? "" : ", ", model::to_string(static_cast<model::JobType>(k)),
                           number(t.lost_gpu_s[k] / SECONDS_PER_HOUR));
    total += t.lost_gpu_s[k];
  }
  Distribution d = summarise(t.multi_node_slowdowns);
  return fmt::format(
      R"("network": {{"model": "fluid", "nic_samples": {}, "nic_idle_share": {}, "nic_above_25pct_share": {}, )"
      R"("nic_util_mean": {}, "spine_util_mean": {}, "comm_gpu_hours_lost": {}, )"
      R"("comm_gpu_hours_lost_by_type": {{{}}}, "multi_node_comm_slowdown": {{"jobs": {}, "mean": {}, "p50": {}, )"
      R"("p90": {}, "p99": {}, "max": {}}}}})",
      t.nic_samples, number(share(t.nics_idle, t.nic_samples)), number(share(t.nics_above_quarter, t.nic_samples)),
      number(t.nic_samples > 0 ? t.nic_util_sum / static_cast<double>(t.nic_samples) : 0.0),
      number(t.samples > 0 ? t.spine_util_sum / static_cast<double>(t.samples) : 0.0), number(total / SECONDS_PER_HOUR),
      by_type, d.count, number(d.mean), number(d.p50), number(d.p90), number(d.p99), number(d.max));
}

} // namespace acme::metrics
