#include <catch2/catch.hpp>

#include "sim/model/parallel_layout.hpp"

using namespace acme;

namespace {

model::ParallelLayout layout(std::uint32_t gpus, double params, model::JobType type = model::JobType::PRETRAIN) {
  model::LayoutInputs in;
  in.gpus = gpus;
  in.params = params;
  in.type = type;
  return model::plan_layout(in, model::TrainingAssumptions{});
}

} // namespace

TEST_CASE("model::parallel_layout: degrees follow Megatron-LM's Table 1 on 80 GB GPUs", "[model][network]") {
  // Narayanan et al., SC'21, Table 1 (tensor, pipeline): the memory rule reproduces its choices.
  struct Row {
    double params;
    std::uint32_t gpus;
    std::uint32_t tp;
    std::uint32_t pp;
  };
  const Row rows[] = {{1.7e9, 32, 1, 1},   {7.5e9, 128, 4, 1},   {18.4e9, 256, 8, 1},
                      {39.1e9, 512, 8, 2}, {76.1e9, 1024, 8, 4}, {145.6e9, 1536, 8, 8}};
  for (const Row& r : rows) {
    model::ParallelLayout l = layout(r.gpus, r.params);
    INFO(r.params << " parameters on " << r.gpus << " GPUs");
    CHECK(l.tp == r.tp);
    CHECK(l.pp == r.pp);
    CHECK(l.dp == r.gpus / (r.tp * r.pp));
    CHECK(l.nodes == r.gpus / 8);
  }
}

TEST_CASE("model::parallel_layout: traffic per link class", "[model][network]") {
  SECTION("multi-node data parallel: a ring all-reduce of one stage's bf16 gradients per node") {
    model::ParallelLayout l = layout(128, 7e9); // t=4, p=1, d=32 over 16 nodes
    REQUIRE(l.uses_ib());
    CHECK(l.dp_bytes_per_node == Approx(2.0 * 31 / 32 * 2.0 * 7e9));
    CHECK(l.pp_bytes_per_node == 0.0);
    CHECK(l.dp_cap_Bps == Approx(25e9)); // one HDR NIC per node
    CHECK(l.dp_s == Approx(l.dp_bytes_per_node / 25e9));
    CHECK(l.hidden_s == Approx(0.5 * l.dp_s));
    CHECK(l.nvlink_s > 0.0); // tensor-parallel all-reduces stay inside the node
  }
  SECTION("pipeline stages of whole nodes exchange activations") {
    model::ParallelLayout l = layout(512, 39.1e9); // t=8, p=2, d=32: 64 nodes, 32 per stage
    CHECK(l.nodes_per_stage == 32);
    CHECK(l.pp_bytes_per_node > 0.0);
    CHECK(l.dp_bytes_per_node == Approx(2.0 * 31 / 32 * 2.0 * 39.1e9 / 2));
  }
  SECTION("a single node uses NVLink only") {
    model::ParallelLayout l = layout(8, 7e9);
    CHECK_FALSE(l.uses_ib());
    CHECK(l.nodes == 1);
    CHECK(l.nvlink_s > 0.0);
  }
  SECTION("evaluation is inference: no gradient traffic") {
    model::ParallelLayout l = layout(16, 7e9, model::JobType::EVAL);
    CHECK_FALSE(l.uses_ib());
    CHECK(l.tp == 1); // 14 GB of bf16 weights fit one GPU
  }
  SECTION("the ring volume is 2 (N - 1) / N of the buffer") {
    CHECK(model::ring_allreduce_bytes(1, 100.0) == 0.0);
    CHECK(model::ring_allreduce_bytes(2, 100.0) == Approx(100.0));
    CHECK(model::ring_allreduce_bytes(8, 100.0) == Approx(175.0));
  }
}

TEST_CASE("model::parallel_layout: progress rate from the achieved share of demand", "[model][network]") {
  model::ParallelLayout l;
  l.compute_s = 6.0;
  l.dp_s = 4.0;
  l.hidden_s = 2.0;
  l.pp_s = 1.0;
  l.dp_bytes_per_node = 80.0;
  // DP and PP transfers run together; 2 s of DP hide behind compute: 6 + max(4 - 2, 1).
  REQUIRE(l.iteration_s() == Approx(8.0));
  CHECK(l.progress_rate(1.0, 1.0) == 1.0);
  // DP at half its cap: the all-reduce takes 8 s, 2 s of it still hidden.
  CHECK(l.iteration_s(0.5, 1.0) == Approx(12.0));
  CHECK(l.progress_rate(0.5, 1.0) == Approx(8.0 / 12.0));
  CHECK(l.progress_rate(1.0, 0.25) == Approx(8.0 / 10.0));
  // On average over an iteration a DP flow moves its bytes per iteration time.
  CHECK(l.dp_average_Bps(1.0, 1.0) == Approx(10.0));
  CHECK(l.dp_average_Bps(0.5, 1.0) == Approx(80.0 / 12.0));
  CHECK(l.progress_rate(0.0, 1.0) > 0.0); // a flow that gets nothing stalls the job, it does not stop it
}

TEST_CASE("model::parallel_layout: degrees the workload gives win over the rules when they fit", "[model][network]") {
  model::LayoutInputs in;
  in.gpus = 64;
  in.params = 7e9;
  SECTION("given tensor and pipeline degrees") {
    in.tp_hint = 8;
    in.pp_hint = 2;
    model::ParallelLayout l = model::plan_layout(in, model::TrainingAssumptions{});
    CHECK(l.tp == 8);
    CHECK(l.pp == 2);
    CHECK(l.dp == 4);
    CHECK(l.nodes_per_stage == 4);
    CHECK(l.pp_bytes_per_node > 0.0);
  }
  SECTION("degrees that do not fit the job (TP beyond a node, PP not dividing its nodes) fall back to the rules") {
    in.tp_hint = 16;
    in.pp_hint = 3;
    model::ParallelLayout l = model::plan_layout(in, model::TrainingAssumptions{});
    CHECK(l.tp == 4);
    CHECK(l.pp == 1);
  }
}
