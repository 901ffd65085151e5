#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "sim/metrics/atomic_file.hpp"
#include "sim/study/regression_check.hpp"
#include "tests/unit/study/study_test_util.hpp"

using namespace acme::study;

namespace {

const std::string QUEUE = "clusters.seren.by_type.SFT.queue_s.p90";
const std::string UTIL = "clusters.seren.gpu_utilisation";

Baseline baseline_of(double queue, double util) {
  return Baseline{"x.yaml", std::nullopt, ToleranceSet{}, {{QUEUE, queue}, {UTIL, util}}};
}

Verdict verdict_of(const std::vector<CheckRow>& rows, const std::string& metric) {
  for (const auto& r : rows) {
    if (r.metric == metric) {
      return r.verdict;
    }
  }
  FAIL("no row for " << metric);
  return Verdict::NEW;
}

} // namespace

TEST_CASE("study::check: delays regress upwards, utilisation downwards, beyond max(abs, rel x baseline)",
          "[study][check]") {
  ToleranceSet tol; // delay: rel 0.05, abs 1 s; utilisation: rel 0.05, abs 0.001
  Baseline base = baseline_of(100.0, 0.5);
  auto rows = compare_with_baseline(base, {{QUEUE, 105.0}, {UTIL, 0.5}}, tol);
  REQUIRE(verdict_of(rows, QUEUE) == Verdict::OK); // +5 s is exactly the 5% band
  REQUIRE(rows[0].allowed == Approx(5.0));
  REQUIRE(rows[0].delta == Approx(5.0));
  rows = compare_with_baseline(base, {{QUEUE, 105.5}, {UTIL, 0.5}}, tol);
  REQUIRE(verdict_of(rows, QUEUE) == Verdict::REGRESSION);
  REQUIRE(is_failure(rows[0]));
  rows = compare_with_baseline(base, {{QUEUE, 80.0}, {UTIL, 0.6}}, tol);
  REQUIRE(verdict_of(rows, QUEUE) == Verdict::IMPROVED);
  REQUIRE(verdict_of(rows, UTIL) == Verdict::IMPROVED);
  REQUIRE_FALSE(is_failure(rows[0]));
  rows = compare_with_baseline(base, {{QUEUE, 100.0}, {UTIL, 0.47}}, tol);
  REQUIRE(verdict_of(rows, UTIL) == Verdict::REGRESSION);
  // Near zero the absolute band rules: 0 s -> 0.9 s is within 1 s, 1.1 s is not.
  Baseline zero = baseline_of(0.0, 0.5);
  REQUIRE(verdict_of(compare_with_baseline(zero, {{QUEUE, 0.9}, {UTIL, 0.5}}, tol), QUEUE) == Verdict::OK);
  REQUIRE(verdict_of(compare_with_baseline(zero, {{QUEUE, 1.1}, {UTIL, 0.5}}, tol), QUEUE) == Verdict::REGRESSION);
}

TEST_CASE("study::check: missing metrics fail, new ones are reported, patterns override bands", "[study][check]") {
  ToleranceSet tol;
  Baseline base = baseline_of(100.0, 0.5);
  auto rows = compare_with_baseline(base, {{UTIL, 0.5}, {"clusters.kalos.gpu_utilisation", 0.7}}, tol);
  REQUIRE(verdict_of(rows, QUEUE) == Verdict::MISSING);
  REQUIRE(verdict_of(rows, "clusters.kalos.gpu_utilisation") == Verdict::NEW);
  REQUIRE(is_failure(rows[0]));
  tol.per_metric.push_back({"clusters.*.by_type.SFT.*", Tolerance{0.5, 0.0}});
  REQUIRE(tolerance_for(tol, QUEUE).rel == 0.5);
  REQUIRE(tolerance_for(tol, UTIL).abs == 0.001);
  REQUIRE(verdict_of(compare_with_baseline(base, {{QUEUE, 140.0}, {UTIL, 0.5}}, tol), QUEUE) == Verdict::OK);
}

TEST_CASE("study::check: more energy is a regression, within the energy band", "[study][check]") {
  const std::string energy = "clusters.seren.power.energy_kWh";
  const std::string by_type = "clusters.seren.by_type.Pretrain.energy_kWh";
  ToleranceSet tol; // energy: rel 0.05, abs 1 kWh
  Baseline base{"x.yaml", std::nullopt, tol, {{energy, 1000.0}, {by_type, 10.0}}};
  auto rows = compare_with_baseline(base, {{energy, 1050.0}, {by_type, 10.9}}, tol);
  REQUIRE(verdict_of(rows, energy) == Verdict::OK);
  REQUIRE(verdict_of(rows, by_type) == Verdict::OK); // the 1 kWh absolute band
  rows = compare_with_baseline(base, {{energy, 1051.0}, {by_type, 8.0}}, tol);
  REQUIRE(verdict_of(rows, energy) == Verdict::REGRESSION);
  REQUIRE(verdict_of(rows, by_type) == Verdict::IMPROVED);
  REQUIRE_FALSE(higher_is_better(energy));
  REQUIRE(tolerance_for(tol, energy).abs == 1.0);
  std::vector<Metric> summary{{energy, 1000.0}, {by_type, 10.0}, {"clusters.seren.power.gpu_kWh", 400.0}};
  REQUIRE(select_check_metrics(summary).size() == 2);
}

TEST_CASE("study::check: picks queueing delay, JCT and utilisation from a summary", "[study][check]") {
  std::vector<Metric> summary{{"seed", 7},
                              {UTIL, 0.6},
                              {"clusters.seren.busy_gpu_hours", 41},
                              {QUEUE, 9},
                              {"clusters.seren.by_type.SFT.queue_s.max", 10},
                              {"clusters.seren.by_type.all_gpu.jct_s.mean", 11},
                              {"clusters.seren.by_type.SFT.recorded_queue_s.mean", 3}};
  auto selected = select_check_metrics(summary);
  REQUIRE(selected.size() == 3);
  REQUIRE(selected[0].name == UTIL);
  REQUIRE(selected[1].name == QUEUE);
  REQUIRE(selected[2].name == "clusters.seren.by_type.all_gpu.jct_s.mean");
  REQUIRE(higher_is_better(UTIL));
  REQUIRE_FALSE(higher_is_better(QUEUE));
}

TEST_CASE("study::check: gates pretraining ETTR (down is worse) and GPU time lost (up is worse)", "[study][check]") {
  const std::string ettr = "clusters.seren.fault_tolerance.pretrain_ettr";
  const std::string lost = "clusters.seren.fault_tolerance.gpu_hours_lost";
  std::vector<Metric> summary{{ettr, 0.99}, {lost, 100}, {"clusters.seren.fault_tolerance.failures", 3}};
  auto selected = select_check_metrics(summary);
  REQUIRE(selected.size() == 2);
  REQUIRE(higher_is_better(ettr));
  REQUIRE_FALSE(higher_is_better(lost));
  Baseline baseline;
  baseline.metrics = {{ettr, 0.99}, {lost, 100}};
  auto rows = compare_with_baseline(baseline, {{ettr, 0.90}, {lost, 150}}, ToleranceSet{});
  REQUIRE(verdict_of(rows, ettr) == Verdict::REGRESSION);
  REQUIRE(verdict_of(rows, lost) == Verdict::REGRESSION);
  rows = compare_with_baseline(baseline, {{ettr, 0.999}, {lost, 50}}, ToleranceSet{});
  REQUIRE(verdict_of(rows, ettr) == Verdict::OK); // +0.009 is within the utilisation band (5%)
  REQUIRE(verdict_of(rows, lost) == Verdict::IMPROVED);
}

TEST_CASE("study::check: baselines round-trip; missing or garbled ones are located bad input", "[study][check]") {
  acme::test::TempDir tmp;
  std::string path = (tmp / "baseline.json").string();
  Baseline base = baseline_of(100.25, 0.5);
  base.tolerance.delay = Tolerance{0.1, 30.0};
  base.tolerance.per_metric.push_back({"*.Debug.*", Tolerance{0.5, 600.0}});
  acme::metrics::write_file_atomically(path, baseline_json_text(base));
  Baseline back = load_baseline(path);
  REQUIRE(back.source == "x.yaml");
  REQUIRE(back.metrics.size() == 2);
  REQUIRE(back.metrics[0].value == 100.25);
  REQUIRE(back.tolerance.delay.abs == 30.0);
  REQUIRE(back.tolerance.per_metric.size() == 1);
  REQUIRE(back.tolerance.per_metric[0].second.abs == 600.0);

  REQUIRE_THROWS_WITH(load_baseline((tmp / "absent.json").string()), Catch::Contains("cannot read the baseline"));
  acme::metrics::write_file_atomically(path, "{\"format\": \"acme-sim-baseline/1\",\n \"metrics\": {\"a\": }");
  REQUIRE_THROWS_WITH(load_baseline(path), Catch::Contains("baseline.json:2:") && Catch::Contains("malformed"));
  acme::metrics::write_file_atomically(path, "{\"format\": \"acme-sim-baseline/1\",\n \"metrics\": {\"a\": \"x\"}}");
  REQUIRE_THROWS_WITH(load_baseline(path), Catch::Contains("metrics.a"));
  acme::metrics::write_file_atomically(path, "{\"metrics\": {\"a\": 1}}");
  REQUIRE_THROWS_WITH(load_baseline(path), Catch::Contains("format") && Catch::Contains("acme-sim-baseline/1"));
}

TEST_CASE("study::check: tolerance files set bands with units", "[study][check]") {
  acme::test::TempDir tmp;
  std::string path = (tmp / "tol.yaml").string();
  acme::metrics::write_file_atomically(path, "delay: {rel: 0.1, abs: 2min}\nutilisation: {abs: 0.01}\n"
                                             "metrics: {\"*.Debug.*\": {rel: 1}}\n");
  ToleranceSet tol = load_tolerance_file(path);
  REQUIRE(tol.delay.rel == 0.1);
  REQUIRE(tol.delay.abs == 120.0);
  REQUIRE(tol.utilisation.abs == 0.01);
  REQUIRE(tol.utilisation.rel == 0.05);
  REQUIRE(tol.per_metric.size() == 1);
  acme::metrics::write_file_atomically(path, "delay: {rell: 0.1}\n");
  REQUIRE_THROWS_WITH(load_tolerance_file(path), Catch::Contains("tol.yaml:1:") && Catch::Contains("rell"));
}

TEST_CASE("study::regression_check: a baseline keeps the seed of its run", "[study]") {
  Baseline base = baseline_of(10.0, 0.5);
  base.seed = 7;
  std::string path = (std::filesystem::temp_directory_path() / "acme_baseline_seed_test.json").string();
  {
    std::ofstream out(path);
    out << baseline_json_text(base);
  }
  Baseline read = load_baseline(path);
  REQUIRE(read.seed.has_value());
  CHECK(*read.seed == 7);
  base.seed.reset();
  {
    std::ofstream out(path);
    out << baseline_json_text(base);
  }
  CHECK_FALSE(load_baseline(path).seed.has_value());
  std::filesystem::remove(path);
}
