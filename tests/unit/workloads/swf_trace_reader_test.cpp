#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "sim/config/config.hpp"
#include "tests/unit/test_paths.hpp"
#include "workloads/replay/swf_trace_reader.hpp"

using namespace acme;
using Catch::Contains;

namespace {
std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = std::string(P_tmpdir) + "/acme-test-swf-" + name;
  std::ofstream(path) << text;
  return path;
}
workloads::SwfTraceReader open(const std::string& path, model::NameTable& users,
                               workloads::BadRowPolicy policy = workloads::BadRowPolicy::ERROR) {
  return workloads::SwfTraceReader({.path = path, .users = &users, .on_bad_row = policy});
}
const char* const HEADER = "; Version: 2.2\n; UnixStartTime: 1000\n; MaxNodes: 10\n; MaxProcs: 40\n";
} // namespace

TEST_CASE("workloads::swf_trace_reader: reads the ALCF Theta log with recorded waits", "[workloads][swf]") {
  // data/traces/alcf_theta_2022.swf (data/README.md): 23,911 jobs, UnixStartTime 0, status always 0.
  model::NameTable users;
  auto reader = open(test::source_path("data/traces/alcf_theta_2022.swf"), users);
  auto first = reader.next();
  REQUIRE(first.has_value());
  // 1 1641021254 52645 10849 128 -1 -1 128 10800 -1 0 -1 ...
  REQUIRE(first->name == "1");
  REQUIRE(first->submit_time_s == 1641021254.0);
  REQUIRE(first->recorded_queue_s() == 52645.0);
  REQUIRE(first->duration_s == 10849.0);
  REQUIRE(first->gpus == 128);
  REQUIRE(first->requested_time_s == 10800.0);
  REQUIRE(first->final_state == model::JobState::FAILED); // SWF status 0 = failed
  REQUIRE(first->type == model::JobType::OTHER);
  std::size_t jobs = 1;
  double last = first->submit_time_s;
  double wait_sum = first->recorded_queue_s();
  while (auto job = reader.next()) {
    ++jobs;
    REQUIRE(job->submit_time_s >= last);
    last = job->submit_time_s;
    wait_sum += job->recorded_queue_s();
  }
  REQUIRE(jobs == 23911);
  REQUIRE(reader.skipped_rows() == 0);
  REQUIRE(wait_sum / jobs == Approx(90413.096).epsilon(1e-6)); // mean of field 3
}

TEST_CASE("workloads::swf_trace_reader: maps fields, unknowns and status codes", "[workloads][swf]") {
  std::string path =
      write_temp("map.swf", std::string(HEADER) + "; a comment\n"
                                                  "1 0 5 100 4 -1 -1 4 200 -1 1 7 -1 -1 -1 -1 -1 -1\n"
                                                  "\n"
                                                  "2   10\t-1 50 -1 -1 -1 8 -1 -1 5 7 -1 -1 -1 -1 -1 -1\n"
                                                  "3 20 0 0 1 -1 -1 1 -1 -1 -1 8 -1 -1 -1 -1 -1 -1\n"
                                                  "4 30 0 1 2 -1 -1 2 60 -1 4 8 -1 -1 -1 -1 -1 -1\n");
  model::NameTable users;
  auto reader = open(path, users);
  REQUIRE(reader.unix_start_time_s() == 0.0);
  auto a = reader.next();
  REQUIRE(reader.unix_start_time_s() == 1000.0);
  REQUIRE(a->submit_time_s == 1000.0);
  REQUIRE(a->recorded_start_s == 1005.0);
  REQUIRE(a->final_state == model::JobState::COMPLETED);
  REQUIRE(users.name(a->user) == "7");
  auto b = reader.next();
  REQUIRE(b->gpus == 8); // allocated unknown: requested processors
  REQUIRE(b->recorded_start_s == model::UNKNOWN_TIME_S);
  REQUIRE(b->requested_time_s == model::UNKNOWN_TIME_S);
  REQUIRE(b->final_state == model::JobState::CANCELLED);
  REQUIRE(reader.next()->final_state == model::JobState::COMPLETED); // status -1: unknown
  REQUIRE(reader.next()->final_state == model::JobState::FAILED);    // 4: last partial, failed
  REQUIRE_FALSE(reader.next().has_value());
  std::remove(path.c_str());
}

TEST_CASE("workloads::swf_trace_reader: malformed rows are located or skipped", "[workloads][swf][errors]") {
  std::string path = write_temp("bad.swf", std::string(HEADER) + "1 0 0 100 4 -1 -1 4 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n"
                                                                 "2 1 0 -1 4 -1 -1 4 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n"
                                                                 "3 2 0 10 4 -1 -1 4 -1 -1 1 1 -1 -1 -1\n"
                                                                 "4 3 0 10 0 -1 -1 4 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n"
                                                                 "5 4 0 10 4 -1 -1 4 -1 -1 9 1 -1 -1 -1 -1 -1 -1\n"
                                                                 "6 5 x 10 4 -1 -1 4 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n"
                                                                 "7 6 0 10 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n"
                                                                 "8 7 0 10 4 -1 -1 4 -1 -1 1 1 -1 -1 -1 -1 -1 -2\n"
                                                                 "9 8 0 10 4 -1 -1 4 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n");
  model::NameTable users;
  SECTION("error by default, naming file:line and column") {
    auto reader = open(path, users);
    REQUIRE(reader.next().has_value());
    REQUIRE_THROWS_WITH(reader.next(), Contains(path + ":6: column \"run_time\" (field 4): the run time is unknown"));
  }
  SECTION("each kind of bad row has its message") {
    auto reader = open(path, users, workloads::BadRowPolicy::ERROR);
    reader.next();
    std::vector<std::string> expected = {
        ":6: column \"run_time\" (field 4)",
        ":7: expected 18 whitespace-separated SWF fields, got 15",
        ":8: column \"allocated_processors\" (field 5): expected a positive whole number",
        ":9: column \"status\" (field 11): expected 1 (completed)",
        ":10: column \"wait_time\" (field 3): expected a number >= 0 or -1 (unknown), got \"x\"",
        ":11: column \"requested_processors\" (field 8)",
        ":12: column \"think_time\" (field 18)"};
    for (const auto& message : expected) {
      REQUIRE_THROWS_WITH(reader.next(), Contains(message));
    }
    REQUIRE(reader.next()->name == "9");
  }
  SECTION("skip counts the bad rows") {
    auto reader = open(path, users, workloads::BadRowPolicy::SKIP);
    std::vector<std::string> names;
    while (auto job = reader.next()) {
      names.push_back(job->name);
    }
    REQUIRE(names == std::vector<std::string>{"1", "9"});
    REQUIRE(reader.skipped_rows() == 7);
  }
  std::remove(path.c_str());
}

TEST_CASE("workloads::swf_trace_reader: a bad UnixStartTime is a located header error", "[workloads][swf][errors]") {
  std::string path = write_temp("header.swf", "; UnixStartTime: soon\n1 0 0 1 1 -1 -1 1 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n");
  model::NameTable users;
  auto reader = open(path, users, workloads::BadRowPolicy::SKIP);
  REQUIRE_THROWS_WITH(reader.next(), Contains(path + ":1: header UnixStartTime: expected Unix seconds, got \"soon\""));
  std::remove(path.c_str());
}

namespace {
config::Config load_hpc(const std::string& cluster_yaml, const std::string& swf_header) {
  write_temp("platform.swf", swf_header + "1 0 0 1 1 -1 -1 1 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n");
  std::string config =
      write_temp("hpc.yaml", "clusters:\n  - name: hpc\n    kind: hpc\n" + cluster_yaml +
                                 "workload: {kind: trace, format: swf, path: acme-test-swf-platform.swf}\n");
  return config::load_config(config);
}
} // namespace

TEST_CASE("config::hpc cluster: nodes and processors per node from the SWF header or the config", "[config][swf]") {
  SECTION("the Theta header: 4,360 nodes of one processor") {
    std::string yaml =
        "clusters:\n  - name: theta\n    kind: hpc\n    nodes_from: ../../data/traces/alcf_theta_2022.swf\n";
    config::Config cfg = config::load_config_text(yaml, test::source_path("configs/examples/x.yaml"), "");
    REQUIRE(cfg.clusters[0].kind == config::ClusterKind::HPC);
    REQUIRE(cfg.clusters[0].nodes == 4360);
    REQUIRE(cfg.clusters[0].gpus_per_node == 1);
    REQUIRE(cfg.clusters[0].total_gpus() == 4360);
  }
  SECTION("MaxProcs / MaxNodes processors per node") {
    config::Config cfg = load_hpc("    nodes_from: acme-test-swf-platform.swf\n", HEADER);
    REQUIRE(cfg.clusters[0].nodes == 10);
    REQUIRE(cfg.clusters[0].gpus_per_node == 4);
  }
  SECTION("config values override the header") {
    config::Config cfg = load_hpc("    nodes_from: acme-test-swf-platform.swf\n    processors_per_node: 8\n", HEADER);
    REQUIRE(cfg.clusters[0].nodes == 10);
    REQUIRE(cfg.clusters[0].gpus_per_node == 8);
  }
  SECTION("only MaxProcs: nodes of processors_per_node (default 1)") {
    config::Config cfg =
        load_hpc("    nodes_from: acme-test-swf-platform.swf\n    processors_per_node: 16\n", "; MaxProcs: 40\n");
    REQUIRE(cfg.clusters[0].nodes == 3);
    REQUIRE(cfg.clusters[0].gpus_per_node == 16);
  }
  SECTION("inline, without a log") {
    config::Config cfg = load_hpc("    nodes: 6\n", "");
    REQUIRE(cfg.clusters[0].nodes == 6);
    REQUIRE(cfg.clusters[0].gpus_per_node == 1);
  }
  SECTION("errors are located") {
    REQUIRE_THROWS_WITH(
        load_hpc("    nodes_from: acme-test-swf-platform.swf\n", "; MaxNodes: 3\n; MaxProcs: 40\n"),
        Contains("acme-test-swf-platform.swf:2: header MaxProcs (40) is not a multiple of MaxNodes (3)"));
    REQUIRE_THROWS_WITH(load_hpc("    nodes_from: acme-test-swf-platform.swf\n", "; MaxNodes: many\n"),
                        Contains("acme-test-swf-platform.swf:1: header MaxNodes: expected a positive integer"));
    REQUIRE_THROWS_WITH(load_hpc("    nodes_from: acme-test-swf-platform.swf\n", "; Computer: x\n"),
                        Contains("clusters[0].nodes_from: the SWF header of"));
    REQUIRE_THROWS_WITH(load_hpc("    nodes: 4\n    gpus_per_node: 8\n", ""),
                        Contains("clusters[0].gpus_per_node: an hpc cluster counts processors"));
    REQUIRE_THROWS_WITH(load_hpc("    processors_per_node: 8\n", ""), Contains("clusters[0]: missing key \"nodes\""));
    REQUIRE_THROWS_WITH(load_hpc("    nodes_from: missing.swf\n", ""), Contains("clusters[0].nodes_from: cannot open"));
  }
}

TEST_CASE("config::cluster kind: unknown kinds and hpc keys on GPU clusters are errors", "[config][swf]") {
  auto load = [](const std::string& cluster) {
    return config::load_config_text("clusters:\n  - name: c\n" + cluster, "k.yaml", "");
  };
  REQUIRE_THROWS_WITH(load("    kind: hcp\n    nodes: 2\n"),
                      Contains("clusters[0].kind: unknown cluster kind \"hcp\"; expected one of: gpu, hpc (did you "
                               "mean \"hpc\"?)"));
  REQUIRE_THROWS_WITH(load("    nodes: 2\n    processors_per_node: 4\n"),
                      Contains("clusters[0].processors_per_node: processors_per_node is for kind: hpc"));
  REQUIRE(load("    nodes: 2\n").clusters[0].kind == config::ClusterKind::GPU);
}
