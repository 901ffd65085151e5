#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "sim/config/config.hpp"
#include "tests/unit/test_paths.hpp"
#include "workloads/replay/alibaba_pod_reader.hpp"
#include "workloads/workload_source.hpp"

using namespace acme;
using Catch::Contains;

namespace {
std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = std::string(P_tmpdir) + "/acme-test-alibaba-" + name;
  std::ofstream(path) << text;
  return path;
}
const char* const HEADER =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";
workloads::AlibabaPodReader open(const std::string& path, model::NameTable& users,
                                 workloads::BadRowPolicy policy = workloads::BadRowPolicy::ERROR) {
  return workloads::AlibabaPodReader({.path = path, .users = &users, .on_bad_row = policy});
}
} // namespace

TEST_CASE("workloads::alibaba_pod_reader: reads the openb pod list", "[workloads][alibaba]") {
  // data/traces/alibaba_openb_pod_list_default.csv: 8,152 pods, 897 of them Pending (never scheduled).
  model::NameTable users;
  auto reader = open(test::source_path("data/traces/alibaba_openb_pod_list_default.csv"), users);
  std::size_t jobs = 0;
  std::size_t fractional = 0;
  std::size_t cpu = 0;
  double last = -1.0;
  while (auto job = reader.next()) {
    ++jobs;
    REQUIRE(job->submit_time_s >= last);
    last = job->submit_time_s;
    REQUIRE(job->recorded_start_s >= job->submit_time_s);
    fractional += job->is_fractional() ? 1 : 0;
    cpu += job->is_cpu_job() ? 1 : 0;
    if (job->name == "openb-pod-0001") {
      // openb-pod-0001,6000,12288,1,460,,LS,Running,427061,12902960,427061
      REQUIRE(job->gpus == 1);
      REQUIRE(job->gpu_milli == 460);
      REQUIRE(job->gpu_share() == Approx(0.46));
      REQUIRE(job->submit_time_s == 427061.0);
      REQUIRE(job->recorded_queue_s() == 0.0);
      REQUIRE(job->duration_s == 12902960.0 - 427061.0);
      REQUIRE(job->final_state == model::JobState::COMPLETED);
      REQUIRE(users.name(job->user) == "LS");
    }
  }
  REQUIRE(jobs == 8152 - 897);
  REQUIRE(reader.pending_pods() == 897);
  REQUIRE(reader.skipped_rows() == 897);
  REQUIRE(cpu == 1088 - 36);         // pods without GPUs, less the Pending ones
  REQUIRE(fractional == 3078 - 505); // gpu_milli < 1000, less the 505 Pending ones
}

TEST_CASE("workloads::alibaba_pod_reader: maps phases, CPU pods and whole GPUs", "[workloads][alibaba]") {
  std::string path = write_temp("map.csv", std::string(HEADER) + "p0,2500,1,0,0,,BE,Succeeded,10,30,12\n"
                                                                 "p1,1000,1,8,1000,,LS,Failed,11,100,20\n"
                                                                 "p2,1000,1,1,250,,LS,Pending,12,50,\n"
                                                                 "p3,0,1,1,1000,,Burstable,Running,13,13,13\n");
  model::NameTable users;
  auto reader = open(path, users);
  auto p0 = reader.next();
  REQUIRE(p0->is_cpu_job());
  REQUIRE(p0->cpus == 3); // ceil(2500 milli-CPU)
  REQUIRE(p0->duration_s == 18.0);
  REQUIRE(p0->recorded_queue_s() == 2.0);
  auto p1 = reader.next();
  REQUIRE(p1->gpus == 8);
  REQUIRE_FALSE(p1->is_fractional());
  REQUIRE(p1->final_state == model::JobState::FAILED);
  auto p3 = reader.next(); // p2 is Pending: not replayed
  REQUIRE(p3->name == "p3");
  REQUIRE(p3->duration_s == 0.0);
  REQUIRE_FALSE(reader.next().has_value());
  REQUIRE(reader.pending_pods() == 1);
  std::remove(path.c_str());
}

TEST_CASE("workloads::alibaba_pod_reader: malformed rows are located or skipped", "[workloads][alibaba][errors]") {
  std::vector<std::pair<std::string, std::string>> cases = {
      {"b,1,1,1,1500,,LS,Running,1,5,2", "column \"gpu_milli\": expected 1..1000 milli-GPUs per GPU, got \"1500\""},
      {"b,1,1,2,500,,LS,Running,1,5,2", "column \"gpu_milli\": expected 1000 (whole GPUs) when num_gpu > 1"},
      {"b,1,1,0,300,,LS,Running,1,5,2", "column \"gpu_milli\": expected 0 for a pod without GPUs"},
      {"b,1,1,x,1000,,LS,Running,1,5,2", "column \"num_gpu\": expected a non-negative integer, got \"x\""},
      {"b,1,1,1,1000,,LS,Running,1,5,", "column \"scheduled_time\": expected the time the Running pod was scheduled"},
      {"b,1,1,1,1000,,LS,Running,3,5,2", "column \"scheduled_time\": scheduled_time is before creation_time"},
      {"b,1,1,1,1000,,LS,Failed,1,1,2", "column \"deletion_time\": deletion_time is before scheduled_time"},
      {"b,1,1,1,1000,,LS,Evicted,1,5,2", "column \"pod_phase\": expected one of Succeeded, Failed, Running, Pending"},
      {"b,1,1,1,1000,,LS,Running,soon,5,2", "column \"creation_time\": expected seconds >= 0, got \"soon\""},
      {"b,1,1,1,1000,,LS,Running,1,5", "expected 11 fields as in the header, got 10"}};
  model::NameTable users;
  std::string all = HEADER;
  for (const auto& [row, message] : cases) {
    std::string path = write_temp("bad.csv", std::string(HEADER) + "a,1,1,1,1000,,LS,Running,0,5,0\n" + row + "\n");
    auto reader = open(path, users);
    REQUIRE(reader.next().has_value());
    REQUIRE_THROWS_WITH(reader.next(), Contains(path + ":3: " + message));
    std::remove(path.c_str());
    all += row + "\n";
  }
  std::string path = write_temp("skip.csv", all + "ok,1,1,1,100,,LS,Pending,9,9,\nok2,1,1,1,100,,LS,Running,9,9,9\n");
  auto reader = open(path, users, workloads::BadRowPolicy::SKIP);
  REQUIRE(reader.next()->name == "ok2");
  REQUIRE_FALSE(reader.next().has_value());
  REQUIRE(reader.pending_pods() == 1);
  REQUIRE(reader.skipped_rows() == cases.size() + 1);
  std::remove(path.c_str());
}

TEST_CASE("config::nodes_from: a node list gives heterogeneous GPU nodes", "[config][alibaba]") {
  SECTION("the openb node list: 1,523 nodes, 6,212 GPUs, 0 to 8 per node") {
    std::string yaml =
        "clusters:\n  - name: openb\n    nodes_from: ../../data/traces/alibaba_openb_node_list_all_node.csv\n";
    config::Config cfg = config::load_config_text(yaml, test::source_path("configs/examples/x.yaml"), "");
    const auto& c = cfg.clusters[0];
    REQUIRE(c.nodes == 1523);
    REQUIRE(c.gpus_per_node == 8);
    REQUIRE(c.gpus_of_node.size() == 1523);
    REQUIRE(c.gpus_of_node[0] == 0);
    REQUIRE(c.total_gpus() == 6212);
  }
  auto load = [](const std::string& list, const std::string& extra = "") {
    std::string file = write_temp("nodes.csv", list);
    std::string config =
        write_temp("nodes.yaml", "clusters:\n  - name: c\n    nodes_from: acme-test-alibaba-nodes.csv\n" + extra);
    return config::load_config(config);
  };
  SECTION("identical nodes stay a uniform cluster") {
    config::Config cfg = load("sn,gpu\na,4\nb,4\n");
    REQUIRE(cfg.clusters[0].nodes == 2);
    REQUIRE(cfg.clusters[0].gpus_per_node == 4);
    REQUIRE(cfg.clusters[0].gpus_of_node.empty());
  }
  SECTION("bad rows are located") {
    std::string file = std::string(P_tmpdir) + "/acme-test-alibaba-nodes.csv";
    REQUIRE_THROWS_WITH(load("sn,cpu_milli,memory_mib,gpu,model\na,1,1,8,G2\nb,1,1,eight,G2\n"),
                        Contains(file + ":3: column \"gpu\": expected an integer in [0, 1024], got \"eight\""));
    REQUIRE_THROWS_WITH(load("sn,gpu\na,1\na,2\n"),
                        Contains(file + ":3: column \"sn\": node \"a\" is listed twice (first on line 2)"));
    REQUIRE_THROWS_WITH(load("sn,gpu\na,1,2\n"), Contains(file + ":2: expected 2 fields as in the header, got 3"));
    REQUIRE_THROWS_WITH(load("sn,gpus\na,1\n"), Contains(file + ":1: missing column \"gpu\""));
    REQUIRE_THROWS_WITH(load("sn,gpu\n"), Contains(file + ":1: no nodes"));
    REQUIRE_THROWS_WITH(load("sn,gpu\na,0\n"), Contains("clusters[0].nodes_from: no node of"));
    REQUIRE_THROWS_WITH(load("sn,gpu\na,1\n", "    nodes: 4\n"),
                        Contains("clusters[0].nodes: the nodes come from nodes_from"));
  }
}

TEST_CASE("workloads::make_workload: format alibaba reads through the factory", "[workloads][alibaba]") {
  std::string trace = write_temp("factory.csv", std::string(HEADER) + "p,1,1,1,500,,LS,Running,7200,7300,7210\n");
  std::string yaml =
      "clusters:\n  - name: a\n    nodes: 1\nworkload: {kind: trace, format: alibaba, path: " + trace + "}\n";
  config::Config cfg = config::load_config_text(yaml, "alibaba.yaml", "");
  model::NameTable users;
  auto source = workloads::make_workload({&cfg, &users});
  REQUIRE(source->epoch_unix_s() == 7200.0);
  auto pod = source->next();
  REQUIRE(pod->submit_time_s == 0.0);
  REQUIRE(pod->recorded_start_s == 10.0);
  REQUIRE(pod->gpu_milli == 500);
  REQUIRE_FALSE(source->next().has_value());
  std::remove(trace.c_str());
}
