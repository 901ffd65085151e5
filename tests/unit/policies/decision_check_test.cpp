#include <catch2/catch.hpp>

#include "policies/python/decision_check.hpp"
#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;
using policies::python::DecisionCheck;

namespace {

model::ClusterView two_nodes_with_jobs() {
  model::ClusterView view(test::make_shape(2, 8));
  view.add_job(test::make_job(0, 8, 0, 10));
  view.add_job(test::make_job(1, 4, 0, 10));
  view.add_job(test::make_job(2, 0, 0, 10)); // a CPU job (1 core)
  view.add_job(test::make_job(3, 16, 0, 10));
  view.start_job(model::JobId{0}, {{model::NodeId{0}, 8}});
  return view;
}

std::string start(DecisionCheck& check, std::uint64_t job, model::Placement placement) {
  return check.accept(model::StartJob{model::JobId{job}, std::move(placement)});
}

} // namespace

TEST_CASE("policies::python::DecisionCheck: accepts what the engine can apply, in order", "[policies][python]") {
  model::ClusterView view = two_nodes_with_jobs();
  DecisionCheck check;
  check.begin_round(view);
  REQUIRE(start(check, 1, {{model::NodeId{1}, 4}}).empty());
  REQUIRE(start(check, 2, {}).empty());
  REQUIRE(check.free().free_gpus(model::NodeId{1}) == 4);
  REQUIRE(check.accept(model::PreemptJob{model::JobId{0}}).empty());
  SECTION("a new round forgets the previous one's starts") {
    check.begin_round(view);
    REQUIRE(start(check, 1, {{model::NodeId{1}, 4}}).empty());
  }
}

TEST_CASE("policies::python::DecisionCheck: says what is wrong with an invalid decision", "[policies][python]") {
  model::ClusterView view = two_nodes_with_jobs();
  DecisionCheck check;
  check.begin_round(view);
  REQUIRE(start(check, 0, {{model::NodeId{1}, 8}}) == "StartJob for job 0, which is running; expected a queued job");
  REQUIRE(start(check, 9, {{model::NodeId{1}, 8}}).find("job 9, which is not in this cluster") != std::string::npos);
  REQUIRE(start(check, 1, {{model::NodeId{0}, 4}}) ==
          "StartJob for job 1 on [node 0: 4 GPUs]: 4 GPUs on node 0, which has 0 free; expected at most the free GPUs");
  REQUIRE(start(check, 1, {{model::NodeId{1}, 2}})
              .find("holds 2 GPUs and job 1 asks for 4; expected its GPUs, with no share to spare") !=
          std::string::npos);
  REQUIRE(start(check, 1, {{model::NodeId{7}, 4}}).find("node 7 does not exist") != std::string::npos);
  REQUIRE(start(check, 3, {{model::NodeId{1}, 4}, {model::NodeId{1}, 4}}).find("node 1 appears twice") !=
          std::string::npos);
  REQUIRE(start(check, 2, {{model::NodeId{1}, 1}}).find("is a CPU job") != std::string::npos);
  REQUIRE(check.accept(model::PreemptJob{model::JobId{1}}) ==
          "PreemptJob for job 1, which is queued; expected a running job");
  REQUIRE(check.accept(model::RejectJob{model::JobId{0}, model::RejectReason::BY_POLICY}) ==
          "RejectJob for job 0, which is running; expected a queued job");
  SECTION("two decisions for one job, or more GPUs than the earlier starts left") {
    REQUIRE(start(check, 1, {{model::NodeId{1}, 4}}).empty());
    REQUIRE(check.accept(model::RejectJob{model::JobId{1}, model::RejectReason::BY_POLICY})
                .find("already has a "
                      "decision") != std::string::npos);
    view.add_job(test::make_job(4, 8, 0, 10));
    REQUIRE(start(check, 4, {{model::NodeId{1}, 8}}).find("8 GPUs on node 1, which has 4 free") != std::string::npos);
  }
  SECTION("a down node") {
    view.set_node_up(model::NodeId{1}, false);
    check.begin_round(view);
    REQUIRE(start(check, 1, {{model::NodeId{1}, 4}}).find("node 1 is down") != std::string::npos);
  }
}
