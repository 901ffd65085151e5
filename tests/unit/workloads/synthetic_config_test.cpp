#include <catch2/catch.hpp>

#include "tests/unit/workloads/synthetic_test_support.hpp"
#include "workloads/workload_source.hpp"

namespace syn = acme::workloads::synthetic;

namespace {

constexpr const char* TWO_DAYS = "  kind: synthetic\n  preset: acme\n  days: 2\n  scale: 0.2\n";

std::vector<acme::model::JobSpec> all_jobs(const acme::config::Config& cfg) {
  acme::model::NameTable users;
  auto source = acme::workloads::make_workload(acme::workloads::WorkloadContext{&cfg, &users});
  std::vector<acme::model::JobSpec> jobs;
  while (auto job = source->next()) {
    jobs.push_back(std::move(*job));
  }
  return jobs;
}

std::string error_of(const std::string& workload) {
  try {
    auto cfg = acme::test::synthetic_config(workload);
    acme::model::NameTable users;
    acme::workloads::make_workload(acme::workloads::WorkloadContext{&cfg, &users});
  } catch (const acme::ConfigError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("workloads::synthetic: kind synthetic streams both clusters in submission order from the start date",
          "[workloads][synthetic]") {
  auto cfg = acme::test::synthetic_config(std::string(TWO_DAYS) + "  start: \"2023-03-01\"\n");
  acme::model::NameTable users;
  auto source = acme::workloads::make_workload(acme::workloads::WorkloadContext{&cfg, &users});
  CHECK(source->epoch_unix_s() == 1677628800.0); // 2023-03-01 00:00:00 UTC
  std::uint64_t expected_id = 0;
  double last_s = 0.0;
  std::size_t per_cluster[2] = {0, 0};
  while (auto job = source->next()) {
    REQUIRE(acme::model::to_index(job->id) == expected_id++);
    REQUIRE(job->submit_time_s >= last_s);
    REQUIRE(job->submit_time_s < 2 * 86400.0);
    last_s = job->submit_time_s;
    ++per_cluster[acme::model::to_index(job->cluster)];
    REQUIRE(!job->name.empty());
  }
  // scale 0.2 of Table 2's rates over 2 days: ~1,790 Seren (183-day period) and ~275 Kalos (90-day) jobs
  CHECK(per_cluster[0] > 1500);
  CHECK(per_cluster[1] > 50);
}

TEST_CASE("workloads::synthetic: the same seed gives the same jobs, another seed other jobs",
          "[workloads][synthetic]") {
  auto a = all_jobs(acme::test::synthetic_config(TWO_DAYS));
  auto b = all_jobs(acme::test::synthetic_config(TWO_DAYS));
  auto c = all_jobs(acme::test::synthetic_config(std::string(TWO_DAYS) + "  seed: 6\n"));
  REQUIRE(a.size() > 1000);
  CHECK(a == b);
  std::size_t same = 0;
  for (std::size_t i = 0; i < std::min(a.size(), c.size()); ++i) {
    same += a[i] == c[i] ? 1 : 0;
  }
  CHECK(same < a.size() / 10);
}

TEST_CASE("workloads::synthetic: scale multiplies the arrival rate", "[workloads][synthetic]") {
  auto base = all_jobs(acme::test::synthetic_config("  kind: synthetic\n  preset: seren\n  days: 6\n  scale: 0.5\n"));
  auto twice = all_jobs(acme::test::synthetic_config("  kind: synthetic\n  preset: seren\n  days: 6\n  scale: 1.0\n"));
  double ratio = static_cast<double>(twice.size()) / static_cast<double>(base.size());
  CHECK(ratio == Approx(2.0).epsilon(0.1));
  double per_day = static_cast<double>(twice.size()) / 6.0;
  // Seren's released trace (data/README.md: 450,590 GPU jobs) and Table 2's CPU jobs, over 183 days
  CHECK(per_day == Approx((450590.0 + 367737.0) / 183.0).epsilon(0.1));
}

TEST_CASE("workloads::synthetic: each cluster arrives at the rate of the days its jobs were counted in",
          "[workloads][synthetic]") {
  CHECK(acme::test::preset_model("seren").period_days == 183.0);
  CHECK(acme::test::preset_model("kalos").period_days == Approx(90.04)); // data/traces/acme_kalos_converted_*
  auto kalos = all_jobs(acme::test::synthetic_config("  kind: synthetic\n  preset: kalos\n  days: 28\n"));
  double per_day = static_cast<double>(kalos.size()) / 28.0;
  // Table 2's 19,907 GPU and 42,506 CPU jobs over 90 days (not over Seren's 183)
  CHECK(per_day == Approx((19907.0 + 42506.0) / 90.04).epsilon(0.1));
}

TEST_CASE("workloads::synthetic: bad workload keys stop with a located error", "[workloads][synthetic]") {
  std::string unknown = error_of("  kind: synthetic\n  preset: acme\n  dayz: 3\n");
  CHECK(unknown.find("synthetic_test.yaml:") == 0);
  CHECK(unknown.find("unknown key \"dayz\"") != std::string::npos);
  CHECK(unknown.find("did you mean \"days\"") != std::string::npos);
  CHECK(error_of("  kind: synthetic\n  preset: acem\n").find("did you mean \"acme\"") != std::string::npos);
  CHECK(error_of("  kind: synthetic\n").find("missing key \"preset\"") != std::string::npos);
  CHECK(error_of("  kind: synthetic\n  preset: acme\n  days: -1\n").find("workload.days: expected a positive number") !=
        std::string::npos);
  CHECK(error_of("  kind: synthetic\n  preset: acme\n  scale: 0\n").find("workload.scale") != std::string::npos);
  CHECK(error_of("  kind: synthetic\n  preset: acme\n  start: March\n").find("expected a date") != std::string::npos);
  CHECK(error_of("  kind: synthetic\n  preset: acme\n  rhythm: {peak_hour: 25}\n")
            .find("workload.rhythm.peak_hour: expected an hour in [0, 24)") != std::string::npos);
  CHECK(error_of("  kind: synthetic\n  preset: acme\n  rhythm: {amplitude: 1}\n").find("unknown key \"amplitude\"") !=
        std::string::npos);
  CHECK(error_of("  kind: synthetic\n  preset: acme\n  cluster: seren\n").find("workload.cluster") !=
        std::string::npos);
  CHECK(error_of("  kind: synthetic\n  preset: seren\n  cluster: philly\n").find("no cluster named \"philly\"") !=
        std::string::npos);
  CHECK(error_of("  kind: synthetic\n  preset: acme\n  users: 0\n").find("workload.users") != std::string::npos);
  CHECK(error_of("  kind: synthtic\n").find("did you mean \"synthetic\"") != std::string::npos);
  CHECK(error_of("  kind: synthetic\n  preset: seren\n  team_gpus: {philly: 1800}\n")
            .find("workload.team_gpus.philly: unknown key \"philly\"; expected one of: seren, kalos") !=
        std::string::npos);
  CHECK(error_of("  kind: synthetic\n  preset: seren\n  team_gpus: {kalos: -1}\n").find("workload.team_gpus.kalos") !=
        std::string::npos); // checked though Kalos is not generated
  CHECK(error_of("  kind: synthetic\n  preset: acme\n  team_gpus: 1800\n").find("workload.team_gpus: expected a map") !=
        std::string::npos);
  CHECK(error_of("  kind: synthetic\n  preset: acme\n  team_gpus: {seren: -5}\n").find("workload.team_gpus.seren") !=
        std::string::npos);
  CHECK(error_of("  kind: synthetic\n  preset: acme\n  sweep_size: 4\n").find("workload.sweep_size: expected a map") !=
        std::string::npos);
  CHECK(error_of("  kind: synthetic\n  preset: acme\n  sweep_size: {SFX: 4}\n")
            .find("workload.sweep_size.SFX: unknown job type \"SFX\"") != std::string::npos);
  CHECK(error_of("  kind: synthetic\n  preset: acme\n  sweep_size: {Evaluation: 4}\n")
            .find("evaluation batches (eval_batch_size) have their own arrivals") != std::string::npos);
  CHECK(error_of("  kind: synthetic\n  preset: acme\n  sweep_size: {SFT: 0.5}\n")
            .find("workload.sweep_size.SFT: expected a mean of 1 to 1000 jobs per sweep, got 0.5") !=
        std::string::npos);
}

TEST_CASE("workloads::synthetic: preset acme needs clusters named seren and kalos", "[workloads][synthetic]") {
  std::string text = "clusters:\n  - {name: seren, nodes: 2, gpus_per_node: 8, network: {nodes_per_leaf: 1}}\n"
                     "workload: {kind: synthetic, preset: acme}\n";
  auto cfg = acme::config::load_config_text(text, "one_cluster.yaml", "");
  acme::model::NameTable users;
  try {
    acme::workloads::make_workload(acme::workloads::WorkloadContext{&cfg, &users});
    FAIL("expected a ConfigError");
  } catch (const acme::ConfigError& e) {
    std::string what = e.what();
    CHECK(what.find("one_cluster.yaml:3:") == 0);
    CHECK(what.find("workload.preset: preset \"acme\" generates clusters named seren and kalos; the config has no "
                    "cluster named \"kalos\"") != std::string::npos);
  }
  auto seren_only = acme::config::load_config_text(
      "clusters:\n  - {name: seren, nodes: 2, gpus_per_node: 8, network: {nodes_per_leaf: 1}}\n"
      "workload: {kind: synthetic, preset: seren, days: 1, scale: 0.1}\n",
      "seren_only.yaml", "");
  CHECK(!all_jobs(seren_only).empty());
}

TEST_CASE("workloads::synthetic: the compiled-in parameters hold distributions and the paper's volumes",
          "[workloads][synthetic]") {
  for (const char* cluster : {"seren", "kalos"}) {
    auto model = acme::test::preset_model(cluster);
    double shares = 0.0;
    for (const auto& t : model.types) {
      shares += t.count_share;
      REQUIRE(t.bins_given_gpus.size() == t.gpus.size());
      double mass = 0.0;
      for (double m : t.bins.mass) {
        mass += m;
      }
      CHECK(mass == Approx(1.0).epsilon(1e-6));
      CHECK(t.gpus.back() <= 1024);
    }
    CHECK(shares == Approx(1.0).epsilon(1e-6));
  }
  CHECK(acme::test::preset_model("seren").gpu_jobs == 450590); // the released trace (data/README.md)
  CHECK(acme::test::preset_model("kalos").cpu_jobs == 42506);
}
