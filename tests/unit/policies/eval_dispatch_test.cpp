// The evaluation dispatch policies (policies/eval): coupled trials carry the catalogue's four phases;
// the trial coordinator batches small datasets, splits large ones, hands a sorted queue round-robin to
// GPU lanes with long-metric trials first, and keeps metric phases off the GPUs (spawned CPU jobs).
#include <catch2/catch.hpp>

#include <numeric>

#include "policies/builtin.hpp"
#include "policies/eval/coupled_dispatch.hpp"
#include "policies/eval/trial_coordinator.hpp"
#include "policies/eval/trial_packing.hpp"
#include "sim/model/error.hpp"
#include "tests/unit/error_of.hpp"

using namespace acme;
using K = model::TaskStep::Kind;
using Catch::Matchers::Contains;

using acme::test::error_of;

namespace {

constexpr double SEVEN_B = 7e9;
constexpr double SEVEN_B_BYTES = 14e9;

policies::EvalDataset dataset(std::uint32_t index, const std::string& name, double preprocess_s, double inference_s,
                              double metric_s) {
  return policies::EvalDataset{name, "test", index, 100, preprocess_s, inference_s, metric_s};
}

policies::EvalRequest request_of(std::vector<policies::EvalDataset> datasets, std::uint32_t nodes = 1) {
  policies::EvalRequest r;
  r.batch = 42;
  r.name = "ckpt";
  r.user = model::UserId{3};
  r.submit_time_s = 100.0;
  r.model_params = SEVEN_B;
  r.datasets = std::move(datasets);
  r.nodes = nodes;
  r.cluster.id = model::ClusterId{1};
  r.cluster.nodes = 4;
  r.cluster.storage_read_Bps = 25e9 / 8;
  return r;
}

std::unique_ptr<policies::EvalDispatch> make(const std::string& yaml) {
  static const policies::PolicyRegistries registries = policies::make_builtin_registries();
  config::Node root = config::load_yaml_text("dispatch: " + yaml, "t.yaml");
  return registries.eval_dispatches.create(config::parse_policy(root["dispatch"], "eval dispatch", "coupled"),
                                           {1, "test", ""});
}

policies::PlannedTrial trial(std::uint32_t dataset, double lane_s, double metric_s = 1.0) {
  return policies::PlannedTrial{{policies::TrialPart{dataset, 0, 1, 0.0, lane_s, metric_s}}};
}

std::vector<std::uint32_t> datasets_of(const std::vector<policies::PlannedTrial>& lane) {
  std::vector<std::uint32_t> out;
  for (const auto& t : lane) {
    for (const auto& p : t.parts) {
      out.push_back(p.dataset);
    }
  }
  return out;
}

double seconds_of(const model::TaskPlan& plan, K kind) {
  double total = 0.0;
  for (const auto& lane : plan.lanes) {
    for (const auto& s : lane) {
      total += s.kind == kind ? s.seconds : 0.0;
    }
  }
  return total;
}

std::vector<model::JobSpec> spawned_of(const model::TaskPlan& plan) {
  std::vector<model::JobSpec> out;
  for (const auto& lane : plan.lanes) {
    for (const auto& s : lane) {
      if (s.kind == K::SPAWN) {
        out.push_back(*s.follow_up);
      }
    }
  }
  return out;
}

} // namespace

TEST_CASE("policies::eval coupled: one GPU job per dataset with the catalogue's four phases", "[policies][eval]") {
  auto jobs = make("coupled")->dispatch(
      request_of({dataset(5, "humaneval", 34.6, 123.0, 45.3), dataset(9, "mmlu", 173.4, 1404.2, 15.0)}));
  REQUIRE(jobs.size() == 2);
  const model::JobSpec& j = jobs[0];
  REQUIRE(j.name == "ckpt-humaneval");
  REQUIRE(j.type == model::JobType::EVAL);
  REQUIRE(j.eval_batch == 42);
  REQUIRE(j.dataset == 5);
  REQUIRE(j.cluster == model::ClusterId{1});
  REQUIRE(j.user == model::UserId{3});
  REQUIRE(j.submit_time_s == 100.0);
  REQUIRE(j.gpus == 1);
  REQUIRE(j.nodes == 1);
  REQUIRE(j.cpus == policies::DEFAULT_EVAL_CPUS_PER_GPU);
  REQUIRE(j.plan->lanes.empty());
  const auto& steps = j.plan->prologue;
  REQUIRE(steps.size() == 4);
  REQUIRE(steps[0].kind == K::STORAGE_READ);
  REQUIRE(steps[0].bytes == SEVEN_B_BYTES);
  REQUIRE(steps[1].kind == K::CPU);
  REQUIRE(steps[1].seconds == 34.6);
  REQUIRE(steps[2].kind == K::GPU);
  REQUIRE(steps[2].seconds == 123.0);
  REQUIRE(steps[3].kind == K::GPU_IDLE); // metrics hold the GPU idle
  REQUIRE(steps[3].seconds == 45.3);
  // The runtime estimate: a lone load at the node's storage speed plus the three timed phases.
  REQUIRE(j.duration_s == Approx(SEVEN_B_BYTES / (25e9 / 8) + 34.6 + 123.0 + 45.3));
  REQUIRE(jobs[1].dataset == 9);
}

TEST_CASE("policies::eval coupled: a larger model gets the GPUs its weights need and scaled inference",
          "[policies][eval]") {
  auto r = request_of({dataset(0, "gsm8k", 46.0, 660.0, 2.0)});
  r.model_params = 70e9; // 140 GB of bf16 weights: 40 GB per GPU allowed -> 4 GPUs (a power of two)
  auto jobs = make("coupled")->dispatch(r);
  REQUIRE(jobs[0].gpus == 4);
  REQUIRE(jobs[0].cpus == 4 * policies::DEFAULT_EVAL_CPUS_PER_GPU);
  REQUIRE(jobs[0].plan->prologue[0].bytes == 140e9);
  REQUIRE(jobs[0].plan->prologue[2].seconds == Approx(660.0 * 10.0 / 4.0));
  r.model_params = 0.0; // unknown: taken as 7B
  REQUIRE(make("coupled")->dispatch(r)[0].plan->prologue[2].seconds == 660.0);
  r.model_params = 1e12; // more than a node can hold: capped at a node
  REQUIRE(make("coupled")->dispatch(r)[0].gpus == 8);
  REQUIRE(make("{name: coupled, bytes_per_param: 1}")
              ->dispatch(request_of({dataset(0, "x", 1, 1, 1)}))[0]
              .plan->prologue[0]
              .bytes == SEVEN_B);
}

TEST_CASE("policies::eval packing: small datasets are batched into one trial, large ones split", "[policies][eval]") {
  policies::PackingParams p; // batch below 120 s, split above half a lane's fair share
  std::vector<policies::TrialPart> parts = {
      {0, 0, 1, 10.0, 30.0, 1.0},    // 40 s: small
      {1, 0, 1, 10.0, 50.0, 1.0},    // 60 s: small
      {2, 0, 1, 10.0, 20.0, 1.0},    // 30 s: small
      {3, 0, 1, 40.0, 1160.0, 30.0}, // 1200 s: large
      {4, 0, 1, 20.0, 280.0, 5.0},   // 300 s
  };
  // Total 1630 s over 2 lanes: fair share 815 s, trials above 407.5 s are split.
  auto trials = policies::pack_trials(parts, 2, p);
  std::vector<policies::PlannedTrial> shards;
  std::vector<policies::PlannedTrial> batches;
  for (const auto& t : trials) {
    (t.parts.size() > 1 ? batches : shards).push_back(t);
  }
  REQUIRE(batches.size() == 1); // 60 + 40 + 30 s: one load for three datasets
  REQUIRE(datasets_of(batches) == std::vector<std::uint32_t>{1, 0, 2});
  REQUIRE(batches[0].lane_s() == Approx(130.0));
  std::size_t split = 0;
  for (const auto& t : shards) {
    if (t.parts[0].dataset == 3) {
      ++split;
      REQUIRE(t.parts[0].shards == 3); // ceil(1200 / 407.5)
      REQUIRE(t.lane_s() == Approx(400.0));
      REQUIRE(t.parts[0].metric_s == Approx(10.0)); // each shard scores its share
    }
  }
  REQUIRE(split == 3);
  REQUIRE(trials.size() == 5); // 3 shards, dataset 4 whole, 1 batch
  // A batch closes once it reaches the threshold: with a 70 s threshold the 60 s and 40 s datasets fill one.
  p.batch_below_s = 70.0;
  auto small = policies::pack_trials({parts[0], parts[1], parts[2]}, 1, p);
  REQUIRE(small.size() == 2);
  REQUIRE(datasets_of({small[0]}) == std::vector<std::uint32_t>{1, 0});
  REQUIRE(datasets_of({small[1]}) == std::vector<std::uint32_t>{2});
}

TEST_CASE("policies::eval packing: long-metric trials first, then longest first, round-robin over lanes",
          "[policies][eval]") {
  policies::PackingParams p; // long metric: 5 min
  std::vector<policies::PlannedTrial> trials = {trial(0, 100.0), trial(1, 500.0),        trial(2, 50.0, 1800.0),
                                                trial(3, 300.0), trial(4, 200.0, 600.0), trial(5, 400.0)};
  auto queue = policies::order_trials(trials, p);
  std::vector<std::uint32_t> order;
  for (const auto& t : queue) {
    order.push_back(t.parts[0].dataset);
  }
  // 2 (50 + 1800 s) and 4 (200 + 600 s) have long metrics; then 500, 400, 300, 100 s.
  REQUIRE(order == std::vector<std::uint32_t>{2, 4, 1, 5, 3, 0});
  auto lanes = policies::assign_lanes(queue, 4, policies::LaneAssignment::ROUND_ROBIN);
  REQUIRE(lanes.size() == 4);
  REQUIRE(datasets_of(lanes[0]) == std::vector<std::uint32_t>{2, 3});
  REQUIRE(datasets_of(lanes[1]) == std::vector<std::uint32_t>{4, 0});
  REQUIRE(datasets_of(lanes[2]) == std::vector<std::uint32_t>{1});
  REQUIRE(datasets_of(lanes[3]) == std::vector<std::uint32_t>{5});
  // least_loaded: each trial to the lane with the least expected work so far.
  auto balanced = policies::assign_lanes(queue, 2, policies::LaneAssignment::LEAST_LOADED);
  REQUIRE(datasets_of(balanced[0]) == std::vector<std::uint32_t>{2, 1, 3}); // 50, +500 (lane 1 had 200), +300
  REQUIRE(datasets_of(balanced[1]) == std::vector<std::uint32_t>{4, 5, 0}); // 200, +400, +100
}

TEST_CASE("policies::eval decoupled: one job per node, model read once, metrics are spawned CPU jobs",
          "[policies][eval]") {
  std::vector<policies::EvalDataset> ds;
  for (std::uint32_t i = 0; i < 20; ++i) {
    ds.push_back(dataset(i, "d" + std::to_string(i), 30.0, 200.0 + 10.0 * i, i % 4 == 0 ? 600.0 : 5.0));
  }
  auto r = request_of(ds, 2);
  auto jobs = make("{name: decoupled, metric_cpus: 6}")->dispatch(r);
  REQUIRE(jobs.size() == 2); // 2 nodes x 8 lanes, 20 trials
  double gpu_s = 0.0;
  double idle_s = 0.0;
  double metric_s = 0.0;
  std::size_t metric_jobs = 0;
  for (std::size_t n = 0; n < jobs.size(); ++n) {
    const model::JobSpec& j = jobs[n];
    REQUIRE(j.name == "ckpt-node" + std::to_string(n));
    REQUIRE(j.gpus == 8);
    REQUIRE(j.nodes == 1);
    REQUIRE(j.eval_batch == 42);
    REQUIRE(j.plan->prologue.size() == 1);
    REQUIRE(j.plan->prologue[0].kind == K::STORAGE_READ); // once per node, into host memory
    REQUIRE(j.plan->prologue[0].bytes == SEVEN_B_BYTES);
    REQUIRE(j.plan->lanes.size() == 8);
    gpu_s += seconds_of(*j.plan, K::GPU);
    idle_s += seconds_of(*j.plan, K::GPU_IDLE);
    for (const auto& lane : j.plan->lanes) {
      REQUIRE(lane[0].kind == K::HOST_COPY); // every trial copies the model from host memory
      REQUIRE(lane[0].bytes == SEVEN_B_BYTES);
      REQUIRE(lane[1].kind == K::CPU);
      REQUIRE(lane[2].kind == K::GPU);
    }
    for (const auto& m : spawned_of(*j.plan)) {
      REQUIRE(m.gpus == 0);
      REQUIRE(m.cpus == 6);
      REQUIRE(m.type == model::JobType::EVAL);
      REQUIRE_FALSE(m.plan);
      metric_s += m.duration_s;
      ++metric_jobs;
    }
  }
  double inference_s = 0.0;
  double all_metrics_s = 0.0;
  for (const auto& d : ds) {
    inference_s += d.inference_s;
    all_metrics_s += d.metric_s;
  }
  // GPU time is inference only: no metric phase holds a GPU; every metric second is a CPU job's.
  REQUIRE(gpu_s == Approx(inference_s));
  REQUIRE(idle_s == 0.0);
  REQUIRE(metric_s == Approx(all_metrics_s));
  REQUIRE(metric_jobs >= ds.size());
}

TEST_CASE("policies::eval decoupled: few trials use only the lanes and nodes they need", "[policies][eval]") {
  // Three 100 s datasets (under the 2-minute batching threshold): two trials, [a, b] and [c].
  auto r = request_of(
      {dataset(0, "a", 30.0, 70.0, 5.0), dataset(1, "b", 30.0, 70.0, 5.0), dataset(2, "c", 30.0, 70.0, 5.0)}, 4);
  auto jobs = make("decoupled")->dispatch(r);
  REQUIRE(jobs.size() == 1);
  REQUIRE(jobs[0].gpus == 2);
  REQUIRE(jobs[0].plan->lanes.size() == 2);
  REQUIRE(spawned_of(*jobs[0].plan).size() == 3); // one metric job per dataset of a batched trial
  REQUIRE(jobs[0].duration_s == Approx(SEVEN_B_BYTES / (25e9 / 8) + 200.0));
}

TEST_CASE("policies::eval registry: both policies, documented; bad names and parameters fail located",
          "[policies][eval][registry]") {
  auto registries = policies::make_builtin_registries();
  REQUIRE(registries.eval_dispatches.names() == std::vector<std::string>{"coupled", "decoupled"});
  for (const auto& [name, entry] : registries.eval_dispatches.entries()) {
    REQUIRE_FALSE(entry.summary.empty());
    for (const auto& doc : entry.params) {
      REQUIRE_FALSE(doc.description.empty());
      REQUIRE_FALSE(doc.default_value.empty());
    }
  }
  REQUIRE(registries.eval_dispatches.entries().at("decoupled").params.size() == 7);
  REQUIRE_THAT(error_of([] { make("{name: coupld}"); }),
               Contains("t.yaml:1:18: dispatch.name: unknown eval dispatch policy \"coupld\"; expected one of: "
                        "coupled, decoupled (did you mean \"coupled\"?)"));
  REQUIRE_THAT(error_of([] { make("{name: decoupled, split_share: 2}"); }),
               Contains("dispatch.split_share: expected a number in (0, 1], got \"2\""));
  REQUIRE_THAT(error_of([] { make("{name: decoupled, assign: snake}"); }),
               Contains("dispatch.assign: unknown assign \"snake\"; expected one of: round_robin, "
                        "least_loaded"));
  REQUIRE_THAT(error_of([] { make("{name: decoupled, metric_cpus: 0}"); }),
               Contains("dispatch.metric_cpus: expected a positive integer"));
  REQUIRE_THAT(error_of([] { make("{name: coupled, metric_cpus: 4}"); }), Contains("metric_cpus"));
  REQUIRE_THAT(error_of([] { make("{name: coupled, weight_memory_share: 0}"); }),
               Contains("dispatch.weight_memory_share: expected a number in (0, 1], got \"0\""));
  REQUIRE(make("{name: decoupled, batch_below: 1min, long_metric: 10min, assign: least_loaded}") != nullptr);
}
