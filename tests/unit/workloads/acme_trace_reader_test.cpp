#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "sim/config/config.hpp"
#include "tests/unit/test_paths.hpp"
#include "workloads/replay/acme_trace_reader.hpp"
#include "workloads/workload_source.hpp"

using namespace acme;
using Catch::Contains;

namespace {
std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = std::string(P_tmpdir) + "/acme-test-" + name;
  std::ofstream(path) << text;
  return path;
}
const char* const HEADER =
    "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,queue,gpu_time\n";
} // namespace

TEST_CASE("workloads::acme_trace_reader: reads the sample trace with offsets and recorded starts",
          "[workloads][acme]") {
  model::NameTable users;
  workloads::AcmeTraceReader reader(
      {.path = test::source_path("configs/test/tiny_trace.csv"), .utc_offset_s = 8 * 3600.0, .users = &users});
  auto first = reader.next();
  REQUIRE(first.has_value());
  REQUIRE(first->name == "1");
  REQUIRE(first->gpus == 8);
  REQUIRE(first->type == model::JobType::PRETRAIN);
  REQUIRE(first->final_state == model::JobState::COMPLETED);
  REQUIRE(first->submit_time_s == Approx(1677600000.0)); // 2023-03-01 00:00:00+08:00
  REQUIRE(first->recorded_queue_s() == Approx(5.0));
  REQUIRE(first->duration_s == 3600.0);
  int rows = 1;
  while (auto job = reader.next()) {
    ++rows;
    if (job->name == "9") {
      REQUIRE(job->recorded_start_s == model::UNKNOWN_TIME_S); // never started
    }
    if (job->name == "6") {
      REQUIRE(job->is_cpu_job());
      REQUIRE(job->type == model::JobType::OTHER);
    }
  }
  REQUIRE(rows == 12);
  REQUIRE(users.size() == 7);
}

TEST_CASE("workloads::acme_trace_reader: malformed rows are located or skipped", "[workloads][acme][errors]") {
  std::string path =
      write_temp("bad.csv", std::string(HEADER) + "1,u,1,8,4,Pretrain,COMPLETED,2023-03-01 00:00:00+08:00,,,10,,80\n"
                                                  "2,u,1,n/a,4,SFT,COMPLETED,2023-03-01 00:00:01+08:00,,,10,,80\n"
                                                  "3,u,1,1,4,Training,COMPLETED,2023-03-01 00:00:02+08:00,,,10,,80\n"
                                                  "4,u,1,1,4,SFT,DONE,2023-03-01 00:00:03+08:00,,,10,,80\n"
                                                  "5,u,1,1,4,SFT,FAILED,yesterday,,,10,,80\n"
                                                  "6,u,1,1,4,SFT\n");
  model::NameTable users;
  SECTION("error by default, naming file:line and column") {
    workloads::AcmeTraceReader reader({.path = path, .users = &users});
    REQUIRE(reader.next().has_value());
    try {
      reader.next();
      FAIL("expected a ConfigError");
    } catch (const ConfigError& e) {
      REQUIRE_THAT(e.what(), Contains(path + ":3: column \"gpu_num\": expected a non-negative integer, got \"n/a\""));
    }
  }
  SECTION("skip counts the bad rows") {
    workloads::AcmeTraceReader reader({.path = path, .users = &users, .on_bad_row = workloads::BadRowPolicy::SKIP});
    int good = 0;
    while (reader.next()) {
      ++good;
    }
    REQUIRE(good == 1);
    REQUIRE(reader.skipped_rows() == 5);
  }
  std::remove(path.c_str());
}

TEST_CASE("workloads::trace_reader: every format's jobs are within the bounds", "[workloads][acme][errors]") {
  // Each row is wrong in one way; the shared row loop and its checks name the column.
  const std::pair<const char*, const char*> rows[] = {
      {"1,u,1,4294967296,4,SFT,COMPLETED,2023-03-01 00:00:00+08:00,,,10,,",
       "column \"gpu_num\": expected a whole number"},
      {"1,u,1,1e20,4,SFT,COMPLETED,2023-03-01 00:00:00+08:00,,,10,,", "column \"gpu_num\": expected a whole number"},
      {"1,u,1,1,4,SFT,COMPLETED,0001-01-01 00:00:00+08:00,,,10,,", "(a year outside 1970..2199)"},
      {"1,u,1,1,4,SFT,COMPLETED,2023-02-29 00:00:00+08:00,,,10,,", "(no such date)"},
      {"1,u,1,1,4,SFT,COMPLETED,2023-03-01 00:00:00+99:00,,,10,,", "(a UTC offset beyond +-14:00)"},
      {"1,u,1,1,4,SFT,COMPLETED,2023-03-01 00:00:00+08:00,,,1e10,,", "column \"duration\": expected a duration of 0"},
      {",u,1,1,4,SFT,COMPLETED,2023-03-01 00:00:00+08:00,,,10,,", "column \"job_id\": expected a job id"},
  };
  model::NameTable users;
  for (const auto& [row, expected] : rows) {
    CAPTURE(row);
    std::string path = write_temp("bounds.csv", std::string(HEADER) + row + "\n");
    workloads::AcmeTraceReader reader({.path = path, .users = &users});
    REQUIRE_THROWS_WITH(reader.next(), Contains(path + ":2: ") && Contains(expected));
    std::remove(path.c_str());
  }
  std::string twice =
      write_temp("twice.csv", std::string(HEADER) + "7,u,1,1,4,SFT,COMPLETED,2023-03-01 00:00:00+08:00,,,10,,\n"
                                                    "7,u,1,1,4,SFT,COMPLETED,2023-03-01 00:00:01+08:00,,,10,,\n");
  workloads::AcmeTraceReader reader({.path = twice, .users = &users});
  REQUIRE(reader.next().has_value());
  REQUIRE_THROWS_WITH(reader.next(), Contains(":3: column \"job_id\": job id \"7\" is used twice (first on line 2)"));
  std::remove(twice.c_str());
}

TEST_CASE("workloads::acme_trace_reader: a missing column is named", "[workloads][acme][errors]") {
  std::string path = write_temp("nocol.csv", "job_id,user,gpu_num,type,state,duration\n");
  model::NameTable users;
  REQUIRE_THROWS_WITH(workloads::AcmeTraceReader({.path = path, .users = &users}),
                      Contains(":1: missing column \"submit_time\""));
  std::remove(path.c_str());
}

TEST_CASE("workloads::acme_trace_reader: reads AcmeTrace's \"Eval\" and our older \"Evaluation\"; writes \"Eval\"",
          "[workloads][acme]") {
  std::string path = write_temp("eval.csv", std::string(HEADER) +
                                                "1,u,1,1,4,Eval,COMPLETED,2023-03-01 00:00:00+08:00,,,10,,10\n"
                                                "2,u,1,1,4,Evaluation,COMPLETED,2023-03-01 00:00:01+08:00,,,10,,10\n");
  model::NameTable users;
  workloads::AcmeTraceReader reader({.path = path, .users = &users});
  auto first = reader.next();
  auto second = reader.next();
  REQUIRE((first && second));
  REQUIRE(first->type == model::JobType::EVAL);
  REQUIRE(second->type == model::JobType::EVAL);
  REQUIRE_FALSE(reader.next().has_value());
  std::string row;
  workloads::AcmeRowWriter{}.append_row(*first, users, row);
  REQUIRE_THAT(row, Contains(",Eval,COMPLETED,"));
  std::remove(path.c_str());
}

TEST_CASE("workloads::make_workload: merges clusters, rebases times and numbers jobs densely", "[workloads]") {
  config::Config cfg = config::load_config(test::source_path("configs/test/tiny.yaml"));
  model::NameTable users;
  auto source = workloads::make_workload({&cfg, &users});
  REQUIRE(source->epoch_unix_s() == Approx(1677600000.0)); // the whole hour of the first submission
  std::uint64_t expected_id = 0;
  double last = -1.0;
  while (auto job = source->next()) {
    REQUIRE(model::to_index(job->id) == expected_id++);
    REQUIRE(job->submit_time_s >= last);
    last = job->submit_time_s;
  }
  REQUIRE(expected_id == 12);
}
