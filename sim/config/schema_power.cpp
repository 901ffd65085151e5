// Validation of `power:`. Each default cites its source or says it is an assumption. Sources:
// "paper" = Hu et al., NSDI'24, as summarised in data/README.md ("Power"); the per-GPU draws are
// calibrated so that the default run's per-GPU power distribution matches the paper's DCGM samples
// (data/acme/pkl_{seren,kalos}_gpu_power_W.csv; check: acme-sim validate power).
#include <algorithm>
#include <string>
#include <utility>

#include "sim/config/param_power.hpp"
#include "sim/config/param_table.hpp"
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

// The rest of a GPU server and the CPU servers: NodeBasePower and CpuServerPower (power_config.hpp).

constexpr double SWITCH_W = 250.0;    // assumption: a 40-port HDR InfiniBand switch, typical draw
constexpr double STORAGE_W = 10000.0; // assumption: all-NVMe storage serving 100 GB/s (a few appliances)

const std::vector<std::string> POWER_KEYS = {"gpu", "node", "cpu_server", "switch", "storage"};
const std::vector<std::string> GPU_KEYS = {"idle_spread", "checkpoint", "restore", "model_load", "busy"};

/// `busy` draws at least `idle`.
template <class P>
void check_busy_above_idle(const Node& node, const P& p, double P::*idle, double P::*busy, const char* busy_key,
                           const char* what) {
  if (p.*busy < p.*idle) {
    node[busy_key].fail(what);
  }
}

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

const ParamTable<NodeBasePower>& NodeBasePower::table() {
  using P = NodeBasePower;
  static const ParamTable<P> t = [] {
    ParamTable<P> table{power_param("cpu_idle", &P::cpu_idle_W, "a GPU server's CPUs at idle (DC)"),
                        power_param("cpu_busy", &P::cpu_busy_W, "its CPUs with every GPU busy"),
                        power_param("other_idle", &P::other_idle_W, "memory, NICs, NVSwitches, fans, disks at idle"),
                        power_param("other_busy", &P::other_busy_W, "the same with every GPU busy"),
                        number_param("psu_efficiency", &P::psu_efficiency,
                                     "DC power over wall power (the supplies lose the rest)", Bounds{0.0, 1.0, true}),
                        power_param("off", &P::off_W, "a node the power policy switched off (standby)")};
    table.check([](const Node& node, const P& p) {
      check_busy_above_idle(node, p, &P::cpu_idle_W, &P::cpu_busy_W, "cpu_busy", "expected cpu_busy >= cpu_idle");
      check_busy_above_idle(node, p, &P::other_idle_W, &P::other_busy_W, "other_busy",
                            "expected other_busy >= other_idle");
    });
    return table;
  }();
  return t;
}

const ParamTable<CpuServerPower>& CpuServerPower::table() {
  using P = CpuServerPower;
  static const ParamTable<P> t = [] {
    ParamTable<P> table{count_param("cores", &P::cores, "cores of one CPU server of the CPU pool"),
                        power_param("idle", &P::idle_W, "one CPU server at idle"),
                        power_param("busy", &P::busy_W, "one CPU server with every core busy")};
    table.check([](const Node& node, const P& p) {
      check_busy_above_idle(node, p, &P::idle_W, &P::busy_W, "busy", "expected busy >= idle");
    });
    return table;
  }();
  return t;
}

PowerConfig parse_power_config(const Node& root) {
  Node node = root["power"];
  if (node.is_defined()) {
    node.expect_keys(POWER_KEYS);
  }
  PowerConfig p{parse_gpu_states(node["gpu"]), NodeBasePower::table().parse_section(node["node"]),
                CpuServerPower::table().parse_section(node["cpu_server"]), SWITCH_W, STORAGE_W};
  p.switch_W = node.get_or("switch", p.switch_W, &Node::as_power_W);
  p.storage_W = node.get_or("storage", p.storage_W, &Node::as_power_W);
  return p;
}

} // namespace acme::config
