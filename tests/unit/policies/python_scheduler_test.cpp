#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "policies/python/register_python.hpp"
#include "sim/config/config.hpp"
#include "tests/unit/error_of.hpp"
#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;
using test::Driver;

namespace {

const policies::PolicyRegistries& registries() {
  static const policies::PolicyRegistries r = policies::python::make_registries_with_python();
  return r;
}

/// A policy of `family` from YAML such as "{name: python, module: ..., class: ...}"; paths resolve
/// against `base_dir`.
template <class Policy>
std::unique_ptr<Policy> make(const policies::Registry<Policy>& registry, const char* family, const std::string& yaml,
                             const std::string& base_dir) {
  config::Node root = config::load_yaml_text(std::string(family) + ": " + yaml, "t.yaml");
  return registry.create(config::parse_policy(root[family], family, "fifo"), {42, "test", base_dir});
}

std::unique_ptr<policies::Scheduler> python_fifo() {
  return make(registries().schedulers, "scheduler", "{name: python, module: fifo.py, class: Fifo}",
              std::string(ACME_SOURCE_DIR) + "/policies/python/examples");
}

/// Writes `source` as a module in a fresh folder and builds its class `Sched` as a scheduler.
std::unique_ptr<policies::Scheduler> python_scheduler(const std::string& name, const std::string& source) {
  auto dir = std::filesystem::temp_directory_path() / ("acme-pytest-" + name);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / (name + ".py")) << source;
  return make(registries().schedulers, "scheduler", "{name: python, module: " + name + ".py, class: Sched}",
              dir.string());
}

} // namespace

TEST_CASE("policies::python: the example fifo.py decides as the C++ fifo", "[policies][python]") {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    auto jobs = test::random_workload(seed, 150, 4, 8);
    Driver cpp(test::make_shape(4, 8), test::make_scheduler("fifo"), test::make_placement("pack"));
    Driver py(test::make_shape(4, 8), python_fifo(), test::make_placement("pack"));
    for (const auto& job : jobs) {
      cpp.add(job);
      py.add(job);
    }
    REQUIRE(cpp.run_to_end());
    REQUIRE(py.run_to_end());
    for (const auto& [id, record] : cpp.records()) {
      INFO("seed " << seed << ", job " << model::to_index(id));
      REQUIRE(py.records().at(id).starts == record.starts);
      REQUIRE(py.records().at(id).placements == record.placements);
    }
  }
}

TEST_CASE("policies::python: a view kept past its call raises instead of reading freed memory", "[policies][python]") {
  Driver d(test::make_shape(1, 8), python_scheduler("keeps_view", R"(import acme_sim
class Sched:
    def __init__(self, params, context):
        self.view = None
    def on_events(self, events, view):
        if self.view is not None:
            self.view.free_gpus_total
        self.view = view
        return [view.start(e.job, view.place(e.job)) for e in events if isinstance(e, acme_sim.JobSubmitted)]
)"));
  d.add(test::make_job(0, 8, 0, 10));
  std::string error = test::error_of([&] { d.run_to_end(); });
  REQUIRE(error.find("keeps_view.py:7: scheduler: Sched.on_events raised ValueError: this ClusterView is only valid "
                     "during the call that received it") != std::string::npos);
}

TEST_CASE("policies::python: params arrive as Python values, context names the run", "[policies][python]") {
  Driver d(test::make_shape(1, 8), python_scheduler("params", R"(
class Sched:
    def __init__(self, params, context):
        assert params == {}, params
        assert (context.seed, context.cluster) == (42, "test"), (context.seed, context.cluster)
    def on_events(self, events, view):
        return None
)"));
  d.add(test::make_job(0, 8, 0, 10));
  REQUIRE_FALSE(d.run_to_end()); // it starts nothing: the job never runs
}

TEST_CASE("policies::python: `acme-sim list` entries document module, class and params", "[policies][python]") {
  std::vector<std::vector<policies::ParamDoc>> docs = {registries().schedulers.entries().at("python").params,
                                                       registries().placements.entries().at("python").params};
  for (const auto& params : docs) {
    REQUIRE(params.size() == 3);
    REQUIRE(params[0].name == "module");
    REQUIRE(params[1].name == "class");
    REQUIRE(params[2].name == "params");
  }
}
