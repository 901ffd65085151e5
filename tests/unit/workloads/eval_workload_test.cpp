// Evaluation workloads (workloads/eval): the dataset catalogue and its located errors, the
// `kind: eval_request` workload, the `evaluation:` decorator that turns generated batches into
// dispatched requests, and the tags the synthetic generator puts on batch jobs.
#include <catch2/catch.hpp>

#include <set>

#include "policies/builtin.hpp"
#include "sim/model/assert.hpp"
#include "sim/model/error.hpp"
#include "tests/unit/error_of.hpp"
#include "workloads/eval/dataset_catalogue.hpp"
#include "workloads/eval/eval_batch_tags.hpp"
#include "workloads/eval/eval_dispatch_source.hpp"
#include "workloads/eval/eval_request_workload.hpp"
#include "workloads/list_source.hpp"
#include "workloads/workload_source.hpp"

using namespace acme;
using Catch::Matchers::Contains;
using workloads::ListSource;
using workloads::eval::parse_catalogue;

using acme::test::error_of;

namespace {

constexpr const char* HEADER = "name,samples,preprocess_s,inference_s,metric_s\n";

const char* const PLATFORM = R"(seed: 1
clusters:
  - name: seren
    nodes: 4
    network: {storage_nics_per_node: 1, storage_nic_bandwidth: 25Gbps}
)";

config::Config config_with(const std::string& rest) {
  return config::load_config_text(std::string(PLATFORM) + rest, "eval.yaml", "/");
}

std::vector<model::JobSpec> drain(workloads::WorkloadSource& source) {
  std::vector<model::JobSpec> out;
  while (auto job = source.next()) {
    out.push_back(std::move(*job));
  }
  return out;
}

/// The dispatch policies a run passes to its workload.
const policies::Registry<policies::EvalDispatch>& dispatches() {
  static const policies::PolicyRegistries registries = policies::make_builtin_registries();
  return registries.eval_dispatches;
}

/// A workload context as the run builds it: the run's registry, the shapes of the config's clusters.
workloads::WorkloadContext context_of(const config::Config& cfg, model::NameTable& users) {
  return {&cfg, &users, &dispatches(), workloads::eval::eval_cluster_shapes(cfg)};
}

std::vector<model::JobSpec> run_workload(const std::string& workload) {
  config::Config cfg = config_with(workload);
  model::NameTable users;
  auto source = workloads::make_workload(context_of(cfg, users));
  return drain(*source);
}

model::JobSpec generated(const std::string& name, double t_s, std::uint64_t batch, std::uint32_t position) {
  model::JobSpec j;
  j.name = name;
  j.type = batch != 0 ? model::JobType::EVAL : model::JobType::SFT;
  j.gpus = 1;
  j.submit_time_s = t_s;
  j.duration_s = 60.0;
  j.eval_batch = batch;
  j.dataset = position;
  j.model_params = 7e9;
  return j;
}

} // namespace

TEST_CASE("workloads::eval catalogue: the built-in catalogue has 63 datasets and HumanEval's profile",
          "[workloads][eval]") {
  auto catalogue = workloads::eval::builtin_catalogue();
  REQUIRE(catalogue.size() == 63);
  std::set<std::string> names;
  for (std::uint32_t i = 0; i < catalogue.size(); ++i) {
    REQUIRE(catalogue[i].index == i);
    names.insert(catalogue[i].name);
  }
  REQUIRE(names.size() == catalogue.size());
  auto he = std::find_if(catalogue.begin(), catalogue.end(), [](const auto& d) { return d.name == "humaneval"; });
  REQUIRE(he != catalogue.end());
  // 8 trials share a 25 Gb/s node NIC: 14 GB take 35.84 s each (the paper's profile, data/README.md).
  double load_s = 8 * 14e9 / (25e9 / 8);
  double trial_s = load_s + he->preprocess_s + he->inference_s + he->metric_s;
  REQUIRE(load_s + he->preprocess_s > 60.0);
  REQUIRE((load_s + he->preprocess_s) / trial_s == Approx(0.295).epsilon(0.01));
  REQUIRE(he->metric_s / trial_s == Approx(0.190).epsilon(0.01));
  REQUIRE(he->inference_s / trial_s == Approx(0.515).epsilon(0.01));
  double longest_metric = 0.0;
  for (const auto& d : catalogue) {
    longest_metric = std::max(longest_metric, d.metric_s);
  }
  REQUIRE(longest_metric <= 30 * 60.0); // the paper: metric phases up to 30 minutes
}

TEST_CASE("workloads::eval catalogue: columns in any order, comments and blank lines skipped", "[workloads][eval]") {
  auto c = parse_catalogue("# a comment\n\nmetric_s,name,inference_s,preprocess_s,samples,category\r\n"
                           "4.5,a,100,30,164,code\r\n1,b,2,3,4,\n",
                           "c.csv");
  REQUIRE(c.size() == 2);
  REQUIRE(c[0].name == "a");
  REQUIRE(c[0].metric_s == 4.5);
  REQUIRE(c[0].inference_s == 100.0);
  REQUIRE(c[0].preprocess_s == 30.0);
  REQUIRE(c[0].samples == 164);
  REQUIRE(c[0].category == "code");
  REQUIRE(c[1].index == 1);
}

TEST_CASE("workloads::eval catalogue: bad headers and rows fail with file, line and column", "[workloads][eval]") {
  auto fails = [](const std::string& text) { return error_of([&] { parse_catalogue(text, "cat.csv"); }); };
  REQUIRE_THAT(fails("name,samples,preprocess,inference_s,metric_s\n"),
               Contains("cat.csv:1: unknown column \"preprocess\"; expected columns among: name, category, form, "
                        "samples, preprocess_s, inference_s, metric_s (did you mean \"preprocess_s\"?)"));
  REQUIRE_THAT(fails("# c\nname,samples,preprocess_s,inference_s\n"),
               Contains("cat.csv:2: missing column \"metric_s\"; expected a header with name, samples"));
  REQUIRE_THAT(fails("name,name,samples,preprocess_s,inference_s,metric_s\n"),
               Contains("cat.csv:1: column \"name\" appears twice"));
  REQUIRE_THAT(fails(std::string(HEADER) + "a,10,1,2,3\nb,0,1,2,3\n"),
               Contains("cat.csv:3: column \"samples\": expected a positive integer, got \"0\""));
  REQUIRE_THAT(fails(std::string(HEADER) + "a,10,1,-2,3\n"),
               Contains("cat.csv:2: column \"inference_s\": expected seconds >= 0, got \"-2\""));
  REQUIRE_THAT(fails(std::string(HEADER) + "a,10,1,2,x\n"),
               Contains("cat.csv:2: column \"metric_s\": expected seconds >= 0, got \"x\""));
  REQUIRE_THAT(fails(std::string(HEADER) + "a,10,1,2\n"),
               Contains("cat.csv:2: expected 5 fields as in the header, got 4"));
  REQUIRE_THAT(fails(std::string(HEADER) + "a,10,1,2,3\n\na,1,1,1,1\n"),
               Contains("cat.csv:4: column \"name\": dataset \"a\" is listed twice (first on line 2)"));
  REQUIRE_THAT(fails(std::string(HEADER) + "a b,10,1,2,3\n"),
               Contains("cat.csv:2: column \"name\": expected a dataset name of letters"));
  REQUIRE_THAT(fails(HEADER), Contains("cat.csv:1: no datasets; expected one row per dataset"));
  REQUIRE_THAT(fails("# only comments\n"), Contains("cat.csv:1: empty catalogue"));
  REQUIRE_THAT(error_of([] { workloads::eval::load_catalogue("/nonexistent/cat.csv"); }),
               Contains("/nonexistent/cat.csv: cannot open the dataset catalogue"));
}

TEST_CASE("workloads::eval eval_request: a request dispatched by coupled and by decoupled", "[workloads][eval]") {
  auto coupled = run_workload(
      "workload: {kind: eval_request, datasets: [humaneval, mmlu, copa], at: 30s, dispatch: {name: coupled}}\n");
  REQUIRE(coupled.size() == 3);
  for (std::size_t i = 0; i < coupled.size(); ++i) {
    REQUIRE(coupled[i].id == model::JobId{i});
    REQUIRE(coupled[i].submit_time_s == 30.0);
    REQUIRE(coupled[i].eval_batch == 1);
    REQUIRE(coupled[i].gpus == 1);
    REQUIRE(coupled[i].plan->prologue.size() == 4);
  }
  REQUIRE(coupled[0].name == "eval-humaneval");
  auto decoupled = run_workload("workload: {kind: eval_request, model_params: 7e9, datasets: all, nodes: 2, "
                                "dispatch: {name: decoupled, metric_cpus: 2}}\n");
  REQUIRE(decoupled.size() == 2); // one job per node
  REQUIRE(decoupled[0].gpus == 8);
  REQUIRE(decoupled[1].id == model::JobId{1});
  // Default dispatch is coupled; the default catalogue is the built-in one.
  REQUIRE(run_workload("workload: {kind: eval_request}\n").size() == 63);
}

TEST_CASE("workloads::eval eval_request: bad settings fail located", "[workloads][eval]") {
  REQUIRE_THAT(error_of([] { run_workload("workload: {kind: eval_request, datasets: [humaneva]}\n"); }),
               Contains("eval.yaml:6:43: workload.datasets[0]: unknown dataset \"humaneva\"; expected a dataset of "
                        "the catalogue (did you mean \"humaneval\"?)"));
  REQUIRE_THAT(error_of([] { run_workload("workload: {kind: eval_request, nodes: 5}\n"); }),
               Contains("workload.nodes: expected at most 4 nodes (the cluster's)"));
  REQUIRE_THAT(error_of([] { run_workload("workload: {kind: eval_request, dispatch: {name: decoupld}}\n"); }),
               Contains("workload.dispatch.name: unknown eval dispatch policy \"decoupld\""));
  REQUIRE_THAT(error_of([] { run_workload("workload: {kind: eval_request, model_params: -1}\n"); }),
               Contains("workload.model_params: expected a positive parameter count"));
  REQUIRE_THAT(error_of([] { run_workload("workload: {kind: eval_request, node: 1}\n"); }),
               Contains("workload.node: unknown key \"node\""));
  REQUIRE_THAT(error_of([] { run_workload("workload: {kind: eval_reqest}\n"); }),
               Contains("(did you mean \"eval_request\"?)"));
}

TEST_CASE("workloads::eval decorator: each generated batch becomes one dispatched request", "[workloads][eval]") {
  std::vector<model::JobSpec> inner = {generated("sft-1", 10.0, 0, 0),   generated("seren-2", 10.0, 7, 0),
                                       generated("seren-3", 10.0, 7, 1), generated("sft-4", 10.0, 0, 0),
                                       generated("seren-5", 10.0, 7, 2), generated("seren-6", 20.0, 8, 0)};
  inner[0].type = model::JobType::SFT;
  config::Config cfg =
      config_with("workload: {kind: trace, path: none.csv}\nevaluation: {dispatch: {name: coupled}}\n");
  workloads::eval::EvalSettings settings;
  settings.catalogue = parse_catalogue(std::string(HEADER) + "a,1,10,100,5\nb,1,10,200,5\nc,1,10,300,5\n", "c.csv");
  settings.clusters.push_back(policies::EvalClusterShape{});
  model::NameTable users;
  settings.policies.push_back(
      workloads::eval::make_eval_dispatch(context_of(cfg, users), cfg.root["evaluation"]["dispatch"], "seren"));
  workloads::eval::EvalDispatchSource source(std::make_unique<ListSource>(inner), std::move(settings));
  auto out = drain(source);
  REQUIRE(out.size() == 6); // sft-1, 3 trials of batch 7, sft-4, 1 trial of batch 8
  std::vector<std::string> names;
  for (std::size_t i = 0; i < out.size(); ++i) {
    REQUIRE(out[i].id == model::JobId{i});
    names.push_back(out[i].name);
  }
  // Batch 7: job i evaluates row (7 + i) mod 3 = b, c, a; batch 8: row (8 + 0) mod 3 = c.
  REQUIRE(names == std::vector<std::string>{"sft-1", "seren-2-b", "seren-2-c", "seren-2-a", "sft-4", "seren-6-c"});
  REQUIRE(out[1].eval_batch == 7);
  REQUIRE(out[1].plan);
  REQUIRE(out[1].submit_time_s == 10.0);
  REQUIRE(out[5].submit_time_s == 20.0);
  REQUIRE_FALSE(out[4].plan);
  REQUIRE(source.requests() == 2);
}

TEST_CASE("workloads::eval decorator: the evaluation section wraps a workload, bad keys fail located",
          "[workloads][eval]") {
  REQUIRE_THAT(error_of([] {
                 config::Config cfg =
                     config_with("workload: {kind: trace, path: none.csv}\nevaluation: {dispach: coupled}\n");
                 model::NameTable users;
                 workloads::eval::with_evaluation(context_of(cfg, users),
                                                  std::make_unique<ListSource>(std::vector<model::JobSpec>{}));
               }),
               Contains("unknown key \"dispach\"; expected one of: dispatch, catalogue, nodes"));
  config::Config plain = config_with("workload: {kind: trace, path: none.csv}\n");
  model::NameTable users;
  auto inner = std::make_unique<ListSource>(std::vector<model::JobSpec>{});
  auto* raw = inner.get();
  REQUIRE(workloads::eval::with_evaluation({&plain, &users}, std::move(inner)).get() == raw); // needs no registry
}

TEST_CASE("workloads::eval tags: one request id per batch, unique across clusters, positions in the batch",
          "[workloads][eval]") {
  workloads::eval::EvalBatchTags seren(model::ClusterId{0});
  workloads::eval::EvalBatchTags kalos(model::ClusterId{1});
  auto job = [](double t_s, model::JobType type = model::JobType::EVAL) {
    model::JobSpec j;
    j.type = type;
    j.submit_time_s = t_s;
    return j;
  };
  std::vector<model::JobSpec> jobs = {job(5), job(5), job(5, model::JobType::SFT), job(5), job(9), job(9)};
  seren.tag(jobs[0], 3, 1);
  seren.tag(jobs[1], 3, 1);
  seren.tag(jobs[2], 0, 0);
  seren.tag(jobs[3], 3, 1);
  seren.tag(jobs[4], 3, 2);
  kalos.tag(jobs[5], 3, 2);
  REQUIRE(jobs[0].eval_batch == jobs[1].eval_batch);
  REQUIRE(jobs[3].eval_batch == jobs[0].eval_batch);
  REQUIRE(jobs[2].eval_batch == 0); // not an evaluation job
  REQUIRE(jobs[3].dataset == 2);
  REQUIRE(jobs[4].eval_batch != jobs[0].eval_batch);
  REQUIRE(jobs[4].dataset == 0);
  REQUIRE(jobs[5].eval_batch != jobs[4].eval_batch); // same run and checkpoint number, other cluster
  REQUIRE(jobs[0].eval_batch != 0);
}

TEST_CASE("workloads::eval context: dispatch takes the caller's registry and cluster shapes", "[workloads][eval]") {
  config::Config cfg = config_with("workload: {kind: eval_request, datasets: [mmlu], dispatch: {name: coupled}}\n");
  auto shapes = workloads::eval::eval_cluster_shapes(cfg);
  REQUIRE(shapes.size() == 1);
  REQUIRE(shapes[0].nodes == 4);
  REQUIRE(shapes[0].gpus_per_node == 8);
  REQUIRE(shapes[0].storage_read_Bps == Approx(25e9 / 8)); // the dedicated storage NIC, not the compute NICs
  model::NameTable users;
  SECTION("without a registry the run is a programming error, not bad input") {
    REQUIRE_THROWS_AS(workloads::make_workload({&cfg, &users}), InternalError);
  }
  SECTION("the shape given is the shape used") {
    workloads::WorkloadContext ctx = context_of(cfg, users);
    ctx.eval_clusters[0].nodes = 1;
    config::Config two = config_with("workload: {kind: eval_request, nodes: 2}\n");
    ctx.config = &two;
    REQUIRE_THAT(error_of([&] { workloads::make_workload(ctx); }),
                 Contains("workload.nodes: expected at most 1 nodes (the cluster's)"));
  }
}
