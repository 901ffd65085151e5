#include "sim/core/failure_trace.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "sim/config/faults.hpp"
#include "sim/core/hbd_fault_trace.hpp"
#include "sim/csv/csv_reader.hpp"
#include "sim/model/civil_time.hpp"
#include "sim/model/error.hpp"
#include "sim/model/limits.hpp"

namespace acme::core {
namespace {

enum Column : std::uint8_t { TIME, CLUSTER, NODE, CATEGORY };
constexpr std::string_view JSON_SUFFIX = ".json";
constexpr const char* COLUMNS[] = {"time", "cluster", "node", "category"};
constexpr const char* EXPECTED_HEADER = "expected the header \"time,cluster,node,category\"";

double parse_time(const csv::CsvReader& in, std::size_t column, double epoch_unix_s) {
  std::string_view text = in.field(column);
  double seconds = 0.0;
  std::string why = "not a number of seconds nor a date-time";
  if (auto relative = csv::parse_number<double>(text)) {
    seconds = *relative;
  } else if (auto t = model::parse_datetime(text, 0.0, &why)) {
    seconds = *t - epoch_unix_s;
  } else {
    in.fail_column(column, "expected seconds since the run's start or a date-time such as \"2023-03-01 "
                           "10:00:00+08:00\", got \"" +
                               std::string(text) + "\" (" + why + ")");
  }
  if (!(std::fabs(seconds) <= model::limits::MAX_DURATION_S)) {
    in.fail_column(column, "expected a time within 10 years of the run's start, got \"" + std::string(text) + "\"");
  }
  return seconds;
}

std::uint32_t parse_node(const csv::CsvReader& in, std::size_t column, const config::ClusterConfig& cluster) {
  std::string_view text = in.field(column);
  std::string prefix = cluster.name + "-n";
  std::string_view digits = text.starts_with(prefix) ? text.substr(prefix.size()) : text;
  auto index = csv::parse_number<std::uint32_t>(digits);
  if (!index || *index >= cluster.nodes) {
    in.fail_column(column, "expected a node index below " + std::to_string(cluster.nodes) + " or a name such as \"" +
                               prefix + "0012\", got \"" + std::string(text) + "\"");
  }
  return *index;
}

} // namespace

std::vector<FailureTraceRow> load_failure_trace(const std::string& path, const config::Config& config,
                                                double epoch_unix_s) {
  if (path.size() > JSON_SUFFIX.size() && path.ends_with(JSON_SUFFIX)) {
    return load_hbd_fault_trace(path, config);
  }
  csv::LineReader lines = csv::LineReader::from_file(path);
  if (!lines.is_open()) {
    throw ConfigError(Location{path, 0, 0}, "",
                      "cannot open failure trace: " + lines.open_problem() + "; expected a readable CSV file");
  }
  csv::CsvReader in(std::move(lines));
  if (!in.has_header()) {
    in.fail_at(1, std::string("empty failure trace; ") + EXPECTED_HEADER);
  }
  std::size_t col[4];
  for (std::size_t c = 0; c < 4; ++c) {
    col[c] = in.require(COLUMNS[c], EXPECTED_HEADER);
  }
  std::vector<std::string> categories = config.faults->failures.category_names();
  categories.pop_back(); // the switch category: switch failures are not traced per node
  std::vector<FailureTraceRow> out;
  while (in.next()) {
    FailureTraceRow f;
    f.time_s = parse_time(in, col[TIME], epoch_unix_s);
    std::string cluster_name(in.field(col[CLUSTER]));
    const config::ClusterConfig* cluster = config.find_cluster(cluster_name);
    if (cluster == nullptr) {
      in.fail_column(col[CLUSTER],
                     "unknown cluster \"" + cluster_name + "\"; expected one of: " + join(config.cluster_names()));
    }
    f.cluster = model::ClusterId{static_cast<std::uint16_t>(cluster - config.clusters.data())};
    f.node = parse_node(in, col[NODE], *cluster);
    std::string category(in.field(col[CATEGORY]));
    auto it = std::find(categories.begin(), categories.end(), category);
    if (it == categories.end()) {
      in.fail_column(col[CATEGORY], "unknown category \"" + category + "\"; expected one of: " + join(categories));
    }
    f.category = static_cast<std::uint32_t>(it - categories.begin());
    out.push_back(f);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.time_s < b.time_s; });
  return out;
}

std::vector<double> traced_rates(const std::vector<FailureTraceRow>& trace, const std::vector<std::uint32_t>& nodes) {
  std::vector<double> count(nodes.size(), 0.0);
  double span_s = 0.0;
  for (const FailureTraceRow& row : trace) {
    count[model::to_index(row.cluster)] += 1.0;
    span_s = std::max(span_s, row.time_s);
  }
  std::vector<double> rates(nodes.size(), 0.0);
  for (std::size_t c = 0; c < nodes.size() && span_s > 0.0; ++c) {
    rates[c] = nodes[c] > 0 ? count[c] / (nodes[c] * span_s) : 0.0;
  }
  return rates;
}

} // namespace acme::core
