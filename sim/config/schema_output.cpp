#include "sim/config/schema_output.hpp"

#include <utility>

#include "sim/config/param_table.hpp"
#include "sim/model/limits.hpp"
#include "sim/model/units.hpp"

namespace acme::config {
namespace {

constexpr double BYTES_PER_GIB = 1024.0 * 1024.0 * 1024.0;

/// The sampling interval: at least limits::MIN_TIMESERIES_INTERVAL_S.
Param<OutputConfig> interval_param() {
  return {"timeseries_interval", "a timeseries.csv row per cluster this often (at least 1s)",
          [](const Node& v, OutputConfig& o) {
            o.timeseries_interval_s = v.as_duration_s();
            if (o.timeseries_interval_s < model::limits::MIN_TIMESERIES_INTERVAL_S) {
              v.fail("expected a duration of at least 1s such as \"1h\", got \"" + v.as_string() + "\"");
            }
          },
          [](const OutputConfig& o) { return format_duration(o.timeseries_interval_s); }};
}

/// events.csv's size cap ("2GiB"), at least one byte.
Param<OutputConfig> events_max_param() {
  return {"events_max", "events.csv stops growing at this size; later events are counted, not written",
          [](const Node& v, OutputConfig& o) {
            o.events_max_bytes = v.as_bytes();
            if (o.events_max_bytes < 1.0) {
              v.fail("expected a size of at least 1 byte such as \"2GiB\"");
            }
          },
          [](const OutputConfig& o) { return format_number(o.events_max_bytes / BYTES_PER_GIB) + "GiB"; }};
}

} // namespace

const ParamTable<OutputConfig>& OutputConfig::table() {
  using P = OutputConfig;
  static const ParamTable<P> t{
      interval_param(), flag_param("jobs_csv", &P::jobs_csv, "write jobs.csv (one row per job)"),
      flag_param("events", &P::events, "write events.csv (every submit, start, end, failure, checkpoint, node event)"),
      events_max_param()};
  return t;
}

const ParamTable<InterconnectConfig>& InterconnectConfig::table() {
  using P = InterconnectConfig;
  static const ParamTable<P> t{
      {"bandwidth", "the link joining the clusters' spine layers (assumption: 4 x HDR)",
       [](const Node& v, P& ic) { ic.bw_Bps = v.as_bandwidth_Bps(); },
       [](const P& ic) { return format_number(ic.bw_Bps * model::BITS_PER_BYTE / model::GIGA) + "Gbps"; }},
      duration_param("latency", &P::latency_s, "the link's latency (assumption)")};
  return t;
}

OutputConfig parse_output(const Node& node) {
  OutputConfig out = OutputConfig::table().parse_section(node);
  out.timeseries_interval_where = node.is_defined() ? node["timeseries_interval"].location() : node.location();
  return out;
}

} // namespace acme::config
