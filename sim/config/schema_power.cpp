// Validation of `power:`. Each default cites its source or says it is an assumption. Sources:
// "paper" = Hu et al., NSDI'24, as summarised in data/README.md ("Power"); the per-GPU draws are
// calibrated so that the default run's per-GPU power distribution matches the paper's DCGM samples
// (data/acme/pkl_{seren,kalos}_gpu_power_W.csv; check: acme-sim validate power).
#include <algorithm>
#include <string>

#include "sim/config/power_config.hpp"

namespace acme::config {
namespace {

// GPU states besides computing. Assumptions: stalled or loading GPUs keep their copy engines and HBM
// busy with idle SMs, a little above the idle draw (the paper's samples between 70 and 90 W).
constexpr double IDLE_SPREAD_W = 8.0; // pkl_*_gpu_power_W.csv: the idle mode spans ~60-68 W (30% of samples)
constexpr double CHECKPOINT_W = 90.0; // assumption
constexpr double RESTORE_W = 90.0;    // assumption
constexpr double MODEL_LOAD_W = 75.0; // assumption

// Busy draw per GPU of a computing job, drawn once per job: quantiles at 0, 10, ..., 100%. Calibrated
// to the paper's Seren CDF at the load of its samples (tools/fit_power.py on the run of `validate power`:
// Seren alone at workload.scale 1.218, 67% GPU utilisation; the lowest quantile raised to 75 W and the
// highest capped at 445 W, the fitted 60 W and 558 W lying outside an A100's busy range): the allocated
// samples split between a mode near 100 W (GPUs waiting on communication or input at full
// "utilisation") and 290-440 W (compute-bound). Training types share one table; inference (Eval) and
// Debug draw less (assumption).
const std::vector<double> TRAIN_W = {75, 91, 95, 100, 120, 163, 286, 346, 388, 405, 445};
const std::vector<double> EVAL_W = {70, 80, 90, 96, 102, 115, 140, 180, 240, 300, 380};
const std::vector<double> DEBUG_W = {66, 72, 80, 88, 95, 100, 110, 130, 170, 250, 350};

// The rest of a GPU server (paper, Seren IPMI: GPU servers median 2,520 W, mean 2,930 W, max
// 6,554 W; GPUs about 2/3, CPUs 11.2%, power supplies 9.6% of a server's power). Two 64-core CPUs
// (paper: 128 cores per node) from idle to busy; memory, 9-10 NICs, NVSwitches, fans and disks
// (assumption: ~1 kW, fans rising with load); supplies at 90.4% (the paper's 9.6% losses).
constexpr double CPU_IDLE_W = 220.0;     // assumption
constexpr double CPU_BUSY_W = 580.0;     // paper: 11.2% of a loaded GPU server
constexpr double OTHER_IDLE_W = 980.0;   // assumption
constexpr double OTHER_BUSY_W = 1020.0;  // assumption
constexpr double PSU_EFFICIENCY = 0.904; // paper: supplies 9.6% of a GPU server's power
constexpr double NODE_OFF_W = 20.0;      // assumption: standby (BMC, supplies) of a powered-off server

// CPU servers (paper: median 546 W, mean 581 W; GPU servers draw about 5x as much).
constexpr std::uint32_t CPU_SERVER_CORES = 128; // assumption: as many cores as a GPU node
constexpr double CPU_SERVER_IDLE_W = 520.0;     // assumption, near the paper's median
constexpr double CPU_SERVER_BUSY_W = 800.0;     // assumption

constexpr double SWITCH_W = 250.0;    // assumption: a 40-port HDR InfiniBand switch, typical draw
constexpr double STORAGE_W = 10000.0; // assumption: all-NVMe storage serving 100 GB/s (a few appliances)

const std::vector<std::string> POWER_KEYS = {"gpu", "node", "cpu_server", "switch", "storage"};
const std::vector<std::string> GPU_KEYS = {"idle_spread", "checkpoint", "restore", "model_load", "busy"};
const std::vector<std::string> NODE_KEYS = {"cpu_idle",   "cpu_busy",       "other_idle",
                                            "other_busy", "psu_efficiency", "off"};

PowerQuantiles parse_quantiles(const Node& node) {
  PowerQuantiles q;
  if (node.is_scalar()) {
    q.W.push_back(node.as_power_W());
    return q;
  }
  if (!node.is_sequence() || node.size() == 0) {
    node.fail("expected a power (\"300W\") or a list of powers at equal quantile steps, lowest first");
  }
  for (std::size_t i = 0; i < node.size(); ++i) {
    q.W.push_back(node.at(i).as_power_W());
    if (i > 0 && q.W[i] < q.W[i - 1]) {
      node.at(i).fail("expected quantiles in ascending order");
    }
  }
  return q;
}

GpuStatePower parse_gpu_states(const Node& node) {
  GpuStatePower gpu{IDLE_SPREAD_W, CHECKPOINT_W, RESTORE_W, MODEL_LOAD_W, {}};
  for (model::JobType type : model::ALL_JOB_TYPES) {
    bool inference = type == model::JobType::EVAL;
    gpu.busy[static_cast<std::size_t>(type)].W =
        inference ? EVAL_W : (type == model::JobType::DEBUG ? DEBUG_W : TRAIN_W);
  }
  if (!node.is_defined()) {
    return gpu;
  }
  node.expect_keys(GPU_KEYS);
  gpu.idle_spread_W = node.get_or("idle_spread", gpu.idle_spread_W, &Node::as_power_W);
  gpu.checkpoint_W = node.get_or("checkpoint", gpu.checkpoint_W, &Node::as_power_W);
  gpu.restore_W = node.get_or("restore", gpu.restore_W, &Node::as_power_W);
  gpu.model_load_W = node.get_or("model_load", gpu.model_load_W, &Node::as_power_W);
  Node busy = node["busy"];
  if (!busy.is_defined()) {
    return gpu;
  }
  busy.expect_map();
  for (const auto& key : busy.keys()) {
    auto type = model::parse_job_type(key);
    if (!type) {
      busy[key].fail("unknown job type \"" + key + "\"; expected one of: Pretrain, SFT, MLLM, Eval, Debug, Other");
    }
    gpu.busy[static_cast<std::size_t>(*type)] = parse_quantiles(busy[key]);
  }
  return gpu;
}

NodeBasePower parse_node_base(const Node& node) {
  NodeBasePower base{CPU_IDLE_W, CPU_BUSY_W, OTHER_IDLE_W, OTHER_BUSY_W, PSU_EFFICIENCY, NODE_OFF_W};
  if (!node.is_defined()) {
    return base;
  }
  node.expect_keys(NODE_KEYS);
  base.cpu_idle_W = node.get_or("cpu_idle", base.cpu_idle_W, &Node::as_power_W);
  base.cpu_busy_W = node.get_or("cpu_busy", base.cpu_busy_W, &Node::as_power_W);
  base.other_idle_W = node.get_or("other_idle", base.other_idle_W, &Node::as_power_W);
  base.other_busy_W = node.get_or("other_busy", base.other_busy_W, &Node::as_power_W);
  base.off_W = node.get_or("off", base.off_W, &Node::as_power_W);
  if (Node eff = node["psu_efficiency"]; eff.is_defined()) {
    base.psu_efficiency = eff.as_double();
    if (!(base.psu_efficiency > 0.0 && base.psu_efficiency <= 1.0)) {
      eff.fail("expected a share in (0, 1], got \"" + eff.as_string() + "\"");
    }
  }
  if (base.cpu_busy_W < base.cpu_idle_W) {
    node["cpu_busy"].fail("expected cpu_busy >= cpu_idle");
  }
  if (base.other_busy_W < base.other_idle_W) {
    node["other_busy"].fail("expected other_busy >= other_idle");
  }
  return base;
}

CpuServerPower parse_cpu_server(const Node& node) {
  CpuServerPower s{CPU_SERVER_CORES, CPU_SERVER_IDLE_W, CPU_SERVER_BUSY_W};
  if (!node.is_defined()) {
    return s;
  }
  node.expect_keys({"cores", "idle", "busy"});
  s.cores = node.get_or("cores", s.cores, &Node::as_count);
  s.idle_W = node.get_or("idle", s.idle_W, &Node::as_power_W);
  s.busy_W = node.get_or("busy", s.busy_W, &Node::as_power_W);
  if (s.busy_W < s.idle_W) {
    node["busy"].fail("expected busy >= idle");
  }
  return s;
}

} // namespace

double PowerQuantiles::sample(model::Rng& rng) const {
  if (W.size() < 2) {
    return W.empty() ? 0.0 : W.front();
  }
  double x = rng.uniform() * static_cast<double>(W.size() - 1);
  auto i = std::min(static_cast<std::size_t>(x), W.size() - 2);
  double f = x - static_cast<double>(i);
  return W[i] + f * (W[i + 1] - W[i]);
}

double PowerQuantiles::mean() const {
  if (W.size() < 2) {
    return W.empty() ? 0.0 : W.front();
  }
  double sum = 0.0;
  for (std::size_t i = 0; i + 1 < W.size(); ++i) {
    sum += (W[i] + W[i + 1]) / 2.0;
  }
  return sum / static_cast<double>(W.size() - 1);
}

PowerConfig parse_power_config(const Node& root) {
  Node node = root["power"];
  if (node.is_defined()) {
    node.expect_keys(POWER_KEYS);
  }
  PowerConfig p{parse_gpu_states(node["gpu"]), parse_node_base(node["node"]), parse_cpu_server(node["cpu_server"]),
                SWITCH_W, STORAGE_W};
  p.switch_W = node.get_or("switch", p.switch_W, &Node::as_power_W);
  p.storage_W = node.get_or("storage", p.storage_W, &Node::as_power_W);
  return p;
}

} // namespace acme::config
