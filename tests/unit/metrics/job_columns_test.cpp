// jobs.csv's column table: the header and every row come from it, so they always have as many cells.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>

#include "sim/metrics/fault_stats.hpp"
#include "sim/metrics/job_columns.hpp"

using namespace acme::metrics;

namespace {

std::size_t cells(const std::string& line) {
  return static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')) + 1;
}

} // namespace

TEST_CASE("metrics::job_columns: the header and a row have the same cells, with and without the network model",
          "[metrics][jobs_csv]") {
  std::vector<ClusterInfo> clusters{ClusterInfo{"seren", 8 * 3600.0, 4, 32, 0.0}};
  FaultStats faults(clusters, {"nvlink", "cuda"});
  acme::model::NameTable users;
  users.intern("u1");
  acme::model::JobSpec spec;
  spec.name = "j1";
  spec.gpus = 8;
  spec.cpus = 16;
  spec.submit_time_s = 100.0;
  JobRecord r;
  r.spec = &spec;
  r.first_start_s = 160.0;
  r.end_s = 1160.0;
  r.nodes = 1;
  r.failures = {2, 1};
  acme::model::DateTimeFormatter dates;
  for (bool network : {false, true}) {
    INFO("network model " << network);
    JobRowContext c{r, clusters[0], users, faults, 1677628800.0, dates, true, r.end_s - r.first_start_s};
    std::string row;
    append_job_row(row, c, network);
    REQUIRE(row.back() == '\n');
    row.pop_back();
    std::string header = jobs_header(network);
    CHECK(cells(header) == cells(row));
    CHECK(cells(header) == job_columns(network).size());
    CHECK(header.rfind("job_id,user,node_num,gpu_num,cpu_num,", 0) == 0); // AcmeTrace's first columns
    CHECK(row.find(",1000,60,8000,seren,") != std::string::npos);         // duration, queue, gpu_time, cluster
    CHECK(row.find(",nvlink:2;cuda:1,") != std::string::npos);
  }
  std::set<std::string> names;
  for (const JobColumn& column : job_columns(true)) {
    CHECK(names.insert(column.name).second); // each name once
    CHECK(std::string(column.meaning).size() > 0);
  }
}
