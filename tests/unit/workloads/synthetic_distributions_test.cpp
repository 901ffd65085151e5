#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>

#include "tests/unit/workloads/synthetic_test_support.hpp"
#include "workloads/synthetic/job_draws.hpp"

namespace syn = acme::workloads::synthetic;
using acme::model::JobState;
using acme::model::JobType;

namespace {

constexpr const char* TEN_DAYS = "  kind: synthetic\n  preset: seren\n  days: 10\n";

const std::vector<syn::GeneratedJob>& seren_jobs() {
  static const std::vector<syn::GeneratedJob> jobs =
      acme::test::generate_cluster(acme::test::synthetic_config(TEN_DAYS), "seren");
  return jobs;
}

bool power_of_two(std::uint32_t g) {
  return g != 0 && (g & (g - 1)) == 0;
}

} // namespace

TEST_CASE("workloads::synthetic: GPU counts follow each type's fitted pmf and multi-node jobs take whole nodes",
          "[workloads][synthetic]") {
  auto model = acme::test::preset_model("seren");
  std::map<JobType, std::map<std::uint32_t, double>> seen;
  std::map<JobType, double> totals;
  std::size_t powers = 0;
  std::size_t gpu_jobs = 0;
  for (const auto& j : seren_jobs()) {
    const auto& s = j.spec;
    if (s.gpus == 0) {
      CHECK(s.cpus == 16); // the cluster's 128 cores / 8 GPUs
      continue;
    }
    ++gpu_jobs;
    powers += power_of_two(s.gpus) ? 1 : 0;
    REQUIRE(s.gpus <= 1024);
    if (s.gpus > 8) {
      REQUIRE(s.gpus % 8 == 0);
      REQUIRE(s.nodes == s.gpus / 8);
    } else {
      REQUIRE(s.nodes == 1);
    }
    CHECK(s.cpus == 16 * s.gpus);
    seen[s.type][s.gpus] += 1.0;
    totals[s.type] += 1.0;
  }
  CHECK(static_cast<double>(powers) / static_cast<double>(gpu_jobs) > 0.95);
  for (const auto& type : model.types) {
    if (totals[type.type] < 2000) {
      continue; // too few jobs in ten days for a tight comparison
    }
    for (std::size_t i = 0; i < type.gpus.size(); ++i) {
      double empirical = seen[type.type][type.gpus[i]] / totals[type.type];
      INFO(acme::model::to_string(type.type) << " " << type.gpus[i] << " GPUs");
      CHECK(std::abs(empirical - type.gpu_dist.probability(i)) < 0.01);
    }
  }
}

TEST_CASE("workloads::synthetic: durations follow each type's bins on the paper's 2^k grid, in whole seconds",
          "[workloads][synthetic]") {
  auto model = acme::test::preset_model("seren");
  for (const auto& type : model.types) {
    std::vector<double> durations;
    for (const auto& j : seren_jobs()) {
      if (j.spec.gpus > 0 && j.spec.type == type.type) {
        durations.push_back(j.spec.duration_s);
      }
    }
    if (durations.size() < 2000) {
      continue;
    }
    double expected = 0.0;
    double worst = 0.0;
    for (std::size_t k = 0; k < type.bins.hi_s.size(); ++k) {
      expected += type.bins.mass[k];
      double edge = type.bins.hi_s[k];
      auto below = std::count_if(durations.begin(), durations.end(), [&](double d) { return d <= edge; });
      worst = std::max(worst, std::abs(static_cast<double>(below) / static_cast<double>(durations.size()) - expected));
    }
    INFO(acme::model::to_string(type.type));
    CHECK(worst < 0.01);
    for (double d : durations) {
      REQUIRE(d >= 1.0);
      REQUIRE(d == std::floor(d));
      REQUIRE(d <= model.max_run_time_s);
    }
  }
}

TEST_CASE("workloads::synthetic: the final state depends on duration and size", "[workloads][synthetic]") {
  auto model = acme::test::preset_model("seren");
  constexpr double MINUTE = 60.0;
  constexpr double DAY = 86400.0;
  auto short_job = syn::gpu_state_probabilities(model.state, 1, 10.0);
  auto long_job = syn::gpu_state_probabilities(model.state, 1, DAY);
  auto long_large_job = syn::gpu_state_probabilities(model.state, 1024, 4 * DAY);
  for (const auto& p : {short_job, long_job, long_large_job}) {
    CHECK(p[0] + p[1] + p[2] + p[3] == Approx(1.0));
  }
  CHECK(short_job[1] < long_job[1]);          // long jobs get cancelled
  CHECK(short_job[2] > long_job[2]);          // framework and script errors come early
  CHECK(long_large_job[3] > 2 * long_job[3]); // infrastructure failures hit large, long jobs (4 days here)

  std::size_t short_n = 0, short_cancelled = 0, long_n = 0, long_cancelled = 0;
  double early_s = 0, early_n = 0, done_s = 0, done_n = 0, infra_gpu_s = 0, infra_n = 0, early_gpu_s = 0;
  for (const auto& j : seren_jobs()) {
    const auto& s = j.spec;
    if (s.gpus == 0) {
      continue;
    }
    bool cancelled = s.final_state == JobState::CANCELLED;
    if (s.duration_s <= MINUTE) {
      ++short_n;
      short_cancelled += cancelled ? 1 : 0;
    } else if (s.duration_s >= DAY / 4) {
      ++long_n;
      long_cancelled += cancelled ? 1 : 0;
    }
    if (s.failure == acme::model::FailureCategory::FRAMEWORK || s.failure == acme::model::FailureCategory::SCRIPT) {
      REQUIRE(s.final_state == JobState::FAILED);
      early_s += s.duration_s;
      early_gpu_s += s.duration_s * s.gpus;
      early_n += 1;
    } else if (s.failure == acme::model::FailureCategory::INFRASTRUCTURE) {
      infra_gpu_s += s.duration_s * s.gpus;
      infra_n += 1;
    } else if (s.final_state == JobState::COMPLETED) {
      done_s += s.duration_s;
      done_n += 1;
    }
  }
  CHECK(static_cast<double>(long_cancelled) / long_n > 3.0 * static_cast<double>(short_cancelled) / short_n);
  CHECK(early_s / early_n < done_s / done_n);
  CHECK(infra_gpu_s / infra_n > 3.0 * early_gpu_s / early_n);
}

TEST_CASE("workloads::synthetic: the rhythm keeps a week's mean rate and peaks in local time",
          "[workloads][synthetic]") {
  constexpr double HOUR = 3600.0;
  constexpr double OFFSET = 8 * HOUR;         // Seren: +08:00
  constexpr double MONDAY_UTC = 1677456000.0; // 2023-02-27 00:00:00 UTC, a Monday
  syn::Rhythm rhythm(syn::RhythmOptions{true, 0.5, 15.0, 0.5}, OFFSET);
  double sum = 0.0;
  constexpr int STEPS = 7 * 24 * 60;
  for (int i = 0; i < STEPS; ++i) {
    sum += rhythm.factor(MONDAY_UTC + i * 60.0);
  }
  CHECK(sum / STEPS == Approx(1.0).epsilon(1e-3));
  double wednesday_15_local = MONDAY_UTC + 2 * 24 * HOUR + 15 * HOUR - OFFSET;
  CHECK(rhythm.factor(wednesday_15_local) == Approx(rhythm.max_factor()).epsilon(1e-9));
  CHECK(rhythm.factor(wednesday_15_local - 12 * HOUR) < rhythm.factor(wednesday_15_local) / 2.9);
  CHECK(rhythm.factor(wednesday_15_local + 3 * 24 * HOUR) == Approx(0.5 * rhythm.factor(wednesday_15_local)));
  syn::Rhythm flat(syn::RhythmOptions{false, 0.5, 15.0, 0.5}, OFFSET);
  CHECK(flat.factor(wednesday_15_local) == 1.0);
}

TEST_CASE("workloads::synthetic: arrivals follow the rhythm in the cluster's local time", "[workloads][synthetic]") {
  auto by_local_hour = [](const std::string& rhythm) {
    auto cfg = acme::test::synthetic_config("  kind: synthetic\n  preset: seren\n  days: 14\n  scale: 0.25\n" + rhythm);
    std::array<double, 24> hours{};
    std::array<double, 7> weekdays{};
    for (const auto& j : acme::test::generate_cluster(cfg, "seren")) {
      double local = j.spec.submit_time_s + 8 * 3600.0;
      auto day = static_cast<long long>(std::floor(local / 86400.0));
      hours[static_cast<std::size_t>((local - day * 86400.0) / 3600.0)] += 1;
      weekdays[static_cast<std::size_t>(((day + 3) % 7 + 7) % 7)] += 1;
    }
    return std::pair{hours, weekdays};
  };
  auto [hours, days] = by_local_hour("  rhythm: {daily_amplitude: 0.5, peak_hour: 15, weekend_factor: 0.5}\n");
  double afternoon = hours[13] + hours[14] + hours[15] + hours[16];
  double night = hours[1] + hours[2] + hours[3] + hours[4];
  CHECK(afternoon > 2.0 * night);
  double weekday = (days[0] + days[1] + days[2] + days[3] + days[4]) / 5.0;
  double weekend = (days[5] + days[6]) / 2.0;
  CHECK(weekend < 0.7 * weekday);
  auto [flat_hours, flat_days] = by_local_hour("  rhythm: false\n");
  double flat_ratio = (flat_hours[13] + flat_hours[14] + flat_hours[15] + flat_hours[16]) /
                      (flat_hours[1] + flat_hours[2] + flat_hours[3] + flat_hours[4]);
  CHECK(flat_ratio > 0.8);
  CHECK(flat_ratio < 1.25);
}
