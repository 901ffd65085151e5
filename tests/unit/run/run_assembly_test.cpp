#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/config/faults.hpp"
#include "sim/run/run_assembly.hpp"
#include "tests/unit/test_paths.hpp"
#include "workloads/list_source.hpp"
#include <unistd.h>

using namespace acme;

namespace {

std::string temp_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("acme-run-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir.string();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

// One engine per process: this test case builds exactly one run.
TEST_CASE("run::make_run: wires the tiny trace's run and commits its files at the end", "[run]") {
  config::Config cfg = config::load_config(test::source_path("configs/test/tiny.yaml"));
  const std::string out = temp_dir("tiny");
  run::RunSetup setup;
  setup.out_dir = out;
  setup.simulation.check_invariants = true;
  auto assembled = run::make_run(cfg, std::move(setup));
  REQUIRE(std::filesystem::is_directory(out)); // created before the run
  REQUIRE(assembled->platform_summary().total_gpus == 16);
  REQUIRE_FALSE(std::filesystem::exists(out + "/summary.json"));
  run::RunReport report = assembled->run();
  REQUIRE(report.result.jobs_submitted == 12);
  REQUIRE(report.result.jobs_rejected == 1);
  REQUIRE(report.wall_s >= 0.0);
  std::string jobs = read_file(out + "/jobs.csv");
  REQUIRE(jobs.find("5,u01,2,16,32,,,Pretrain,COMPLETED,2023-03-01 00:03:00+08:00,2023-03-01 02:02:00+08:00") !=
          std::string::npos);
  REQUIRE(read_file(out + "/summary.json").find("\"jobs_submitted\": 12") != std::string::npos);
  std::filesystem::remove_all(out);
}

TEST_CASE("run::make_run: an output folder that cannot be written is a config error", "[run]") {
  config::Config cfg = config::load_config(test::source_path("configs/test/tiny.yaml"));
  run::RunSetup setup;
  setup.out_dir = "/proc/acme-cannot-write-here";
  setup.workload = std::make_unique<workloads::ListSource>(std::vector<model::JobSpec>{});
  REQUIRE_THROWS_AS(run::make_run(cfg, std::move(setup)), ConfigError);
}

TEST_CASE("run::recorder_options: clusters, output switches and the fault config's categories", "[run]") {
  config::Config cfg = config::load_config(test::source_path("configs/test/tiny.yaml"));
  metrics::RecorderOptions ro = run::recorder_options(cfg, "some/dir", 1.5);
  REQUIRE(ro.out_dir == "some/dir");
  REQUIRE(ro.epoch_unix_s == 1.5);
  REQUIRE(ro.seed == cfg.seed);
  REQUIRE(ro.clusters.size() == 1);
  REQUIRE(ro.clusters[0].name == "seren");
  REQUIRE(ro.failure_categories == cfg.faults->failures.category_names());
  REQUIRE(ro.failure_categories.back() == config::SWITCH_FAILURE_CATEGORY);
}

namespace {

/// The cells of one events.csv row (no quoted cells in these scenarios).
std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::istringstream in(line);
  for (std::string cell; std::getline(in, cell, ',');) {
    cells.push_back(cell);
  }
  if (!line.empty() && line.back() == ',') {
    cells.emplace_back();
  }
  return cells;
}

/// Rows of events.csv whose `event` column is `event`, as cells: time_s, cluster, job, event, nodes, detail.
std::vector<std::vector<std::string>> rows_of(const std::string& csv, const std::string& event) {
  std::vector<std::vector<std::string>> out;
  std::istringstream in(csv);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells = cells_of(line);
    REQUIRE(cells.size() == 6);
    if (cells[3] == event) {
      out.push_back(std::move(cells));
    }
  }
  return out;
}

} // namespace

// One engine per process: this test case builds exactly one run.
TEST_CASE("run::make_run: events.csv traces every job's life and every node outage", "[run][events]") {
  config::Config cfg = config::load_config(test::source_path("configs/test/faults_small.yaml"));
  cfg.output.events = true;
  const std::string out = temp_dir("events");
  run::RunSetup setup;
  setup.out_dir = out;
  run::RunReport report = run::make_run(cfg, std::move(setup))->run();
  std::string csv = read_file(out + "/events.csv");
  REQUIRE(csv.rfind("time_s,cluster,job,event,nodes,detail\n", 0) == 0);
  // Every job is submitted and ends exactly once; every attempt starts.
  REQUIRE(rows_of(csv, "submit").size() == report.result.jobs_submitted);
  REQUIRE(rows_of(csv, "end").size() == report.result.jobs_recorded);
  REQUIRE(rows_of(csv, "start").size() >= report.result.jobs_submitted - report.result.jobs_rejected);
  // The fault scenario fails a pretraining job through its node, which goes down at that instant with
  // the same category, and comes back later.
  auto fails = rows_of(csv, "fail");
  REQUIRE_FALSE(fails.empty());
  const auto& fail = fails.front();
  REQUIRE_FALSE(fail[4].empty());
  bool node_went_down = false;
  for (const auto& down : rows_of(csv, "node_down")) {
    node_went_down |= down[0] == fail[0] && down[4] == fail[4] && down[5] == fail[5];
  }
  REQUIRE(node_went_down);
  REQUIRE_FALSE(rows_of(csv, "node_up").empty());
  REQUIRE_FALSE(rows_of(csv, "checkpoint").empty());
  REQUIRE_FALSE(rows_of(csv, "restore").empty()); // the failed job reads its checkpoint back
  std::filesystem::remove_all(out);
}
