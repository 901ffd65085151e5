#include "sim/core/failure_trace.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

#include "sim/config/faults.hpp"
#include "sim/model/civil_time.hpp"
#include "sim/model/error.hpp"

namespace acme::core {
namespace {

const std::vector<std::string> COLUMNS = {"time", "cluster", "node", "category"};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  for (std::string cell; std::getline(ss, cell, ',');) {
    out.push_back(cell);
  }
  return out;
}

struct RowContext {
  const std::string& path;
  int line;
  [[noreturn]] void fail(const std::string& column, const std::string& what) const {
    throw ConfigError(Location{path, line, 0}, "", "column \"" + column + "\": " + what);
  }
};

double parse_time(const RowContext& row, const std::string& text, double epoch_unix_s) {
  double seconds = 0.0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (ec == std::errc() && end == text.data() + text.size()) {
    return seconds;
  }
  if (auto t = model::parse_datetime(text)) {
    return *t - epoch_unix_s;
  }
  row.fail("time", "expected seconds since the run's start or a date-time such as \"2023-03-01 10:00:00+08:00\", "
                   "got \"" +
                       text + "\"");
}

std::uint32_t parse_node(const RowContext& row, const std::string& text, const config::ClusterConfig& cluster) {
  std::uint32_t index = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), index);
  bool numeric = ec == std::errc() && end == text.data() + text.size();
  std::string prefix = cluster.name + "-n";
  if (!numeric && text.rfind(prefix, 0) == 0) {
    auto [e2, ec2] = std::from_chars(text.data() + prefix.size(), text.data() + text.size(), index);
    numeric = ec2 == std::errc() && e2 == text.data() + text.size();
  }
  if (!numeric || index >= cluster.nodes) {
    row.fail("node", "expected a node index below " + std::to_string(cluster.nodes) + " or a name such as \"" + prefix +
                         "0012\", got \"" + text + "\"");
  }
  return index;
}

} // namespace

std::vector<FailureTraceRow> load_failure_trace(const std::string& path, const config::Config& config,
                                                double epoch_unix_s) {
  std::ifstream in(path);
  if (!in) {
    throw ConfigError(Location{path, 0, 0}, "", "cannot open failure trace; expected a readable CSV file");
  }
  std::string line;
  if (!std::getline(in, line) || split(line) != COLUMNS) {
    throw ConfigError(Location{path, 1, 0}, "", "expected the header \"time,cluster,node,category\"");
  }
  std::vector<std::string> categories;
  for (const auto& c : config.faults->failures.categories) {
    categories.push_back(c.name);
  }
  std::vector<FailureTraceRow> out;
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty()) {
      continue;
    }
    RowContext row{path, number};
    auto cells = split(line);
    if (cells.size() != COLUMNS.size()) {
      row.fail("time", "expected 4 fields (time,cluster,node,category), got " + std::to_string(cells.size()));
    }
    FailureTraceRow f;
    f.time_s = parse_time(row, cells[0], epoch_unix_s);
    const config::ClusterConfig* cluster = config.find_cluster(cells[1]);
    if (cluster == nullptr) {
      row.fail("cluster", "unknown cluster \"" + cells[1] + "\"; expected one of: " + join(config.cluster_names()));
    }
    f.cluster = model::ClusterId{static_cast<std::uint16_t>(cluster - config.clusters.data())};
    f.node = parse_node(row, cells[2], *cluster);
    auto it = std::find(categories.begin(), categories.end(), cells[3]);
    if (it == categories.end()) {
      row.fail("category", "unknown category \"" + cells[3] + "\"; expected one of: " + join(categories));
    }
    f.category = static_cast<std::uint32_t>(it - categories.begin());
    out.push_back(f);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.time_s < b.time_s; });
  return out;
}

} // namespace acme::core
