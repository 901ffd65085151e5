#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "sim/config/config.hpp"
#include "tests/unit/test_paths.hpp"
#include "workloads/replay/philly_trace_reader.hpp"
#include "workloads/replay/sorted_trace.hpp"
#include "workloads/workload_source.hpp"

using namespace acme;
using Catch::Contains;

namespace {
std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = std::string(P_tmpdir) + "/acme-test-philly-" + name;
  std::ofstream(path) << text;
  return path;
}
const char* const HEADER = "timestamp,duration,num_gpus,gpu_time,cluster\n";
/// The Philly table as the registry opens it: read whole and sorted by submit time.
workloads::SortedTrace sorted(const std::string& path, model::NameTable& users, double utc_offset_s = 0.0,
                              workloads::BadRowPolicy policy = workloads::BadRowPolicy::ERROR) {
  return workloads::SortedTrace(
      std::make_unique<workloads::PhillyTraceReader>(workloads::TraceFile{.path = path,
                                                                          .cluster = model::ClusterId{3},
                                                                          .utc_offset_s = utc_offset_s,
                                                                          .users = &users,
                                                                          .on_bad_row = policy}));
}
constexpr double HOUR_S = 3600.0;
} // namespace

TEST_CASE("workloads::philly_trace_reader: sorts the Pollux table by submit time", "[workloads][philly]") {
  // data/traces/philly_jobs_pollux.csv (data/README.md): 82,247 jobs, unsorted, 2017-09-04 .. 2017-12-22.
  model::NameTable users;
  auto reader = sorted(test::source_path("data/traces/philly_jobs_pollux.csv"), users);
  REQUIRE(reader.jobs() == 82247);
  auto first = reader.next();
  REQUIRE(first->submit_time_s == 1504521041.0); // 2017-09-04 10:30:41 UTC, the earliest row
  REQUIRE(first->recorded_start_s == model::UNKNOWN_TIME_S);
  double last = first->submit_time_s;
  std::size_t jobs = 1;
  while (auto job = reader.next()) {
    REQUIRE(job->submit_time_s >= last);
    last = job->submit_time_s;
    ++jobs;
  }
  REQUIRE(jobs == 82247);
  REQUIRE(last == 1513929731.0); // 2017-12-22 08:02:11 UTC, the latest row
  REQUIRE(users.size() == 15);   // virtual clusters
}

TEST_CASE("workloads::philly_trace_reader: maps rows, keeps file order on ties, applies the offset",
          "[workloads][philly]") {
  std::string path = write_temp("map.csv", std::string(HEADER) + "2017-10-09 07:01:55,66.0,1,66.0,vc1\n"
                                                                 "2017-10-09 06:00:00,10.5,8,84.0,vc2\n"
                                                                 "2017-10-09 07:01:55,5.0,2,10.0,vc1\n");
  model::NameTable users;
  auto reader = sorted(path, users, 8 * HOUR_S);
  auto a = reader.next();
  REQUIRE(a->name == "2");
  REQUIRE(a->gpus == 8);
  REQUIRE(a->duration_s == 10.5);
  REQUIRE(a->cluster == model::ClusterId{3});
  REQUIRE(users.name(a->user) == "vc2");
  REQUIRE(a->submit_time_s == 1507528800.0 - 8 * HOUR_S); // read as +08:00
  REQUIRE(a->final_state == model::JobState::COMPLETED);
  REQUIRE(reader.next()->name == "1");
  REQUIRE(reader.next()->name == "3");
  REQUIRE_FALSE(reader.next().has_value());
  std::remove(path.c_str());
}

TEST_CASE("workloads::philly_trace_reader: malformed rows are located or skipped", "[workloads][philly][errors]") {
  std::string rows = std::string(HEADER) + "2017-10-09 07:01:55,66.0,1,66.0,vc1\n"
                                           "2017-10-09,66.0,1,66.0,vc1\n"
                                           "2017-10-09 07:01:55,66.0,two,66.0,vc1\n"
                                           "2017-10-09 07:01:55,66.0,2,66.0,vc1\n"
                                           "2017-10-09 07:01:55,-3,1,0,vc1\n"
                                           "2017-10-09 07:01:55,66.0,1\n"
                                           "2017-10-09 07:01:58,6.0,1,6.0,vc1\n";
  std::string path = write_temp("bad.csv", rows);
  model::NameTable users;
  auto open = [&](workloads::BadRowPolicy policy) { return sorted(path, users, 0.0, policy); };
  SECTION("error by default, at the first bad row") {
    REQUIRE_THROWS_WITH(open(workloads::BadRowPolicy::ERROR),
                        Contains(path +
                                 ":3: column \"timestamp\": expected a date-time such as \"2017-10-09 07:01:55\", "
                                 "got \"2017-10-09\""));
  }
  SECTION("each kind of bad row has its message") {
    std::vector<std::pair<std::string, std::string>> cases = {
        {"2017-10-09 07:01:55,66.0,two,66.0,vc1", "column \"num_gpus\": expected a non-negative integer, got \"two\""},
        {"2017-10-09 07:01:55,66.0,2,66.0,vc1", "column \"gpu_time\": expected duration x num_gpus (132.000000), got "
                                                "\"66.0\""},
        {"2017-10-09 07:01:55,-3,1,0,vc1", "column \"duration\": expected seconds >= 0, got \"-3\""},
        {"2017-10-09 07:01:55,66.0,1", "expected 5 fields as in the header, got 3"}};
    for (const auto& [row, message] : cases) {
      std::string file = write_temp("one.csv", std::string(HEADER) + "2017-10-09 07:01:55,1,1,1,vc\n" + row + "\n");
      REQUIRE_THROWS_WITH(sorted(file, users), Contains(file + ":3: " + message));
      std::remove(file.c_str());
    }
  }
  SECTION("skip counts the bad rows") {
    auto reader = open(workloads::BadRowPolicy::SKIP);
    REQUIRE(reader.jobs() == 2);
    REQUIRE(reader.skipped_rows() == 5);
  }
  std::remove(path.c_str());
}

TEST_CASE("workloads::philly_trace_reader: a missing column is named", "[workloads][philly][errors]") {
  std::string path = write_temp("nocol.csv", "timestamp,num_gpus\n2017-10-09 07:01:55,1\n");
  model::NameTable users;
  REQUIRE_THROWS_WITH(workloads::PhillyTraceReader({.path = path, .users = &users}),
                      Contains(path + ":1: missing column \"duration\""));
  std::remove(path.c_str());
}

TEST_CASE("workloads::make_workload: format philly reads through the factory", "[workloads][philly]") {
  std::string trace = write_temp("factory.csv", std::string(HEADER) + "2017-10-09 07:01:55,66.0,1,66.0,vc1\n"
                                                                      "2017-10-09 06:01:55,6.0,4,24.0,vc2\n");
  std::string yaml = "clusters:\n  - name: p\n    utc_offset: \"UTC\"\n    nodes: 1\n"
                     "workload: {kind: trace, format: philly, path: " +
                     trace + "}\n";
  config::Config cfg = config::load_config_text(yaml, "philly.yaml", "");
  model::NameTable users;
  auto source = workloads::make_workload({&cfg, &users});
  REQUIRE(source->epoch_unix_s() == 1507528800.0); // 2017-10-09 06:00 UTC, the hour of the first submission
  auto first = source->next();
  REQUIRE(first->submit_time_s == 115.0);
  REQUIRE(first->gpus == 4);
  REQUIRE(source->next()->submit_time_s == 3715.0);
  std::remove(trace.c_str());
}
