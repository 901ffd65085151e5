#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "tests/unit/workloads/synthetic_test_support.hpp"

namespace syn = acme::workloads::synthetic;
using acme::model::JobState;
using acme::model::JobType;

namespace {

constexpr double DAY_S = 86400.0;

struct Window {
  double start_s;
  double end_s;
};

const std::vector<syn::GeneratedJob>& twenty_days() {
  static const std::vector<syn::GeneratedJob> jobs = acme::test::generate_cluster(
      acme::test::synthetic_config("  kind: synthetic\n  preset: seren\n  days: 20\n  resubmit_delay: 10min\n"),
      "seren");
  return jobs;
}

} // namespace

TEST_CASE("workloads::synthetic: evaluation jobs come in batches of about 60 per checkpoint of a running run",
          "[workloads][synthetic]") {
  // pretraining attempts emitted, by run: when they ran
  std::map<std::uint64_t, std::vector<Window>> attempts;
  double first_s = twenty_days().front().spec.submit_time_s;
  for (const auto& j : twenty_days()) {
    if (j.spec.type == JobType::PRETRAIN) {
      attempts[acme::model::to_index(j.spec.run)].push_back(
          {j.spec.submit_time_s, j.spec.submit_time_s + j.spec.duration_s});
    }
  }
  std::map<std::tuple<double, std::uint64_t, std::uint32_t>, std::vector<const acme::model::JobSpec*>> batches;
  std::size_t small = 0, evals = 0;
  for (const auto& j : twenty_days()) {
    if (j.spec.type != JobType::EVAL) {
      continue;
    }
    ++evals;
    small += j.spec.gpus <= 8 ? 1 : 0;
    batches[{j.spec.submit_time_s, j.evaluates_run, j.checkpoint}].push_back(&j.spec);
  }
  REQUIRE(batches.size() > 100);
  CHECK(static_cast<double>(evals) / static_cast<double>(batches.size()) == Approx(60.0).epsilon(0.1));
  CHECK(static_cast<double>(small) / static_cast<double>(evals) > 0.95); // small GPU counts
  std::size_t checked = 0, running = 0;
  std::map<std::uint64_t, std::uint32_t> last_checkpoint;
  for (const auto& [key, jobs] : batches) {
    auto [t, run, checkpoint] = key;
    REQUIRE(run != 0);
    for (const auto* job : jobs) {
      REQUIRE(job->model_params == jobs.front()->model_params); // one model checkpoint per batch
      REQUIRE(job->user == jobs.front()->user);
    }
    CHECK(checkpoint == last_checkpoint[run] + 1); // a run's checkpoints are evaluated in order
    last_checkpoint[run] = checkpoint;
    if (t < first_s + 2 * DAY_S || attempts.count(run) == 0) {
      continue; // the run may have started before the period (its attempt there is not emitted)
    }
    ++checked;
    for (const auto& w : attempts[run]) {
      running += (w.start_s <= t && t < w.end_s) ? 1 : 0;
    }
  }
  CHECK(static_cast<double>(running) / static_cast<double>(checked) > 0.9);
}

TEST_CASE("workloads::synthetic: a pretraining run's attempts follow each other until one completes",
          "[workloads][synthetic]") {
  std::map<std::uint64_t, std::vector<const acme::model::JobSpec*>> runs;
  double end_s = 0.0;
  for (const auto& j : twenty_days()) {
    end_s = std::max(end_s, j.spec.submit_time_s);
    if (j.spec.type == JobType::PRETRAIN) {
      REQUIRE(j.spec.run != acme::model::RunId{});
      runs[acme::model::to_index(j.spec.run)].push_back(&j.spec);
    } else {
      REQUIRE(j.spec.run == acme::model::RunId{});
    }
  }
  REQUIRE(runs.size() > 100);
  // RunIds count from 1 in order of first use (a run evaluated before any of its attempts is emitted
  // also takes one, so a few may be missing here)
  REQUIRE(runs.begin()->first >= 1);
  CHECK(static_cast<double>(runs.size()) > 0.9 * static_cast<double>(runs.rbegin()->first));
  std::size_t several = 0;
  for (const auto& [id, attempts] : runs) {
    several += attempts.size() > 1 ? 1 : 0;
    for (std::size_t i = 0; i < attempts.size(); ++i) {
      const auto& a = *attempts[i];
      CHECK(a.model_params >= 7e9);
      CHECK(a.model_params <= 123e9);
      if (i == 0) {
        continue;
      }
      const auto& before = *attempts[i - 1];
      REQUIRE(a.attempt == before.attempt + 1);
      REQUIRE(before.final_state != JobState::COMPLETED);
      REQUIRE(a.submit_time_s >= before.submit_time_s + before.duration_s + 600.0 - 1.0);
      REQUIRE(a.gpus == before.gpus);
      REQUIRE(a.model_params == before.model_params);
      REQUIRE(a.user == before.user);
    }
    const auto& last = *attempts.back();
    if (last.final_state != JobState::COMPLETED) {
      // unfinished: its next attempt would be submitted after the period
      CHECK(last.submit_time_s + last.duration_s + 600.0 >= end_s - DAY_S);
    }
  }
  CHECK(several > 10);
}

namespace {

/// The most GPUs the emitted pretraining runs and Debug jobs hold at once, a run holding its GPUs from
/// its first emitted attempt's submission to its last emitted attempt's end (between attempts included).
double peak_team_gpus(const std::vector<syn::GeneratedJob>& jobs) {
  std::map<std::uint64_t, std::tuple<double, double, double>> runs; // first submit, last end, GPUs
  std::uint64_t debug_key = UINT64_MAX;                             // Debug jobs: one window each
  for (const auto& j : jobs) {
    if (j.spec.type == JobType::DEBUG) {
      runs.try_emplace(debug_key--, j.spec.submit_time_s, j.spec.submit_time_s + j.spec.duration_s,
                       static_cast<double>(j.spec.gpus));
      continue;
    }
    if (j.spec.type != JobType::PRETRAIN) {
      continue;
    }
    auto [it, fresh] = runs.try_emplace(acme::model::to_index(j.spec.run), j.spec.submit_time_s, 0.0,
                                        static_cast<double>(j.spec.gpus));
    std::get<1>(it->second) = std::max(std::get<1>(it->second), j.spec.submit_time_s + j.spec.duration_s);
  }
  std::vector<std::pair<double, double>> steps; // time, change of GPUs (ends sort before starts)
  for (const auto& [run, window] : runs) {
    steps.emplace_back(std::get<0>(window), std::get<2>(window));
    steps.emplace_back(std::get<1>(window), -std::get<2>(window));
  }
  std::sort(steps.begin(), steps.end());
  double held = 0.0, peak = 0.0;
  for (const auto& [t, change] : steps) {
    held += change;
    peak = std::max(peak, held);
  }
  return peak;
}

std::vector<syn::GeneratedJob> sixty_days(const std::string& extra) {
  return acme::test::generate_cluster(
      acme::test::synthetic_config("  kind: synthetic\n  preset: seren\n  days: 60\n" + extra), "seren");
}

} // namespace

TEST_CASE("workloads::synthetic: a team plan keeps the pretraining runs and Debug jobs under way within its GPUs",
          "[workloads][synthetic]") {
  constexpr double TEAM_GPUS = 1800.0; // configs/acme.yaml's pretraining quota on Seren
  auto unplanned = sixty_days("");
  auto planned = sixty_days("  team_gpus: {seren: 1800}\n");
  CHECK(peak_team_gpus(unplanned) > TEAM_GPUS); // independent runs overlap beyond it
  CHECK(peak_team_gpus(planned) <= TEAM_GPUS);
  auto runs_of = [](const std::vector<syn::GeneratedJob>& jobs) {
    std::set<std::uint64_t> runs;
    for (const auto& j : jobs) {
      if (j.spec.type == JobType::PRETRAIN) {
        runs.insert(acme::model::to_index(j.spec.run));
      }
    }
    return runs.size();
  };
  auto count = [](const std::vector<syn::GeneratedJob>& jobs, JobType type) {
    return static_cast<double>(
        std::count_if(jobs.begin(), jobs.end(), [type](const auto& j) { return j.spec.type == type; }));
  };
  // The team draws nothing while it waits for room, and faster while it does not (team_rate_factor).
  CHECK(runs_of(planned) > runs_of(unplanned) / 2);
  CHECK(count(planned, JobType::DEBUG) > count(unplanned, JobType::DEBUG) / 2); // the team draws them now
  // With a plan the size of the cluster the team keeps up: as many runs and Debug jobs as an unplanned
  // team over the period (the paper's counts), within their draws' noise.
  auto whole = sixty_days("  team_gpus: {seren: 2288}\n");
  CHECK(peak_team_gpus(whole) <= 2288.0);
  INFO("runs " << runs_of(whole) << " planned, " << runs_of(unplanned) << " unplanned");
  CHECK(static_cast<double>(runs_of(whole)) == Approx(static_cast<double>(runs_of(unplanned))).epsilon(0.08));
  INFO("Debug jobs " << count(whole, JobType::DEBUG) << " planned, " << count(unplanned, JobType::DEBUG));
  CHECK(count(whole, JobType::DEBUG) == Approx(count(unplanned, JobType::DEBUG)).epsilon(0.08));
  CHECK(count(planned, JobType::SFT) == Approx(count(unplanned, JobType::SFT)).epsilon(0.05));
  constexpr double PERIOD_START_S = 1677628800.0; // 2023-03-01 00:00 UTC, the default start
  REQUIRE(planned.front().spec.submit_time_s >= PERIOD_START_S);
  for (std::size_t i = 1; i < planned.size(); ++i) {
    REQUIRE(planned[i - 1].spec.submit_time_s <= planned[i].spec.submit_time_s);
  }
}

TEST_CASE("workloads::synthetic: a type's sweeps come from one user in one second, and the paper's counts hold",
          "[workloads][synthetic]") {
  auto jobs_of = [](const std::string& extra) {
    return acme::test::generate_cluster(
        acme::test::synthetic_config("  kind: synthetic\n  preset: seren\n  days: 20\n" + extra), "seren");
  };
  auto groups = [](const std::vector<syn::GeneratedJob>& jobs, JobType type, std::size_t& count) {
    std::map<std::pair<double, std::uint64_t>, std::size_t> by_second_and_user;
    count = 0;
    for (const auto& j : jobs) {
      if (j.spec.type == type) {
        ++count;
        ++by_second_and_user[{j.spec.submit_time_s, acme::model::to_index(j.spec.user)}];
      }
    }
    return static_cast<double>(count) / static_cast<double>(by_second_and_user.size());
  };
  std::size_t sft_single = 0, sft_swept = 0, mllm_single = 0, mllm_swept = 0;
  auto single = jobs_of("");
  auto swept = jobs_of("  sweep_size: {SFT: 4}\n");
  CHECK(groups(single, JobType::SFT, sft_single) == Approx(1.0).epsilon(0.02));
  CHECK(groups(swept, JobType::SFT, sft_swept) == Approx(4.0).epsilon(0.1));    // 1 + Poisson(3)
  CHECK(groups(swept, JobType::MLLM, mllm_swept) == Approx(1.0).epsilon(0.02)); // other types one by one
  groups(single, JobType::MLLM, mllm_single);
  REQUIRE(sft_single > 1000);
  CHECK(static_cast<double>(sft_swept) == Approx(static_cast<double>(sft_single)).epsilon(0.1));
  CHECK(static_cast<double>(mllm_swept) == Approx(static_cast<double>(mllm_single)).epsilon(0.1));
}
