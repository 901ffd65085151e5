// The config's `network:` section: whether training traffic runs on the fabric, and the training
// assumptions that size it (defaults and their sources: model::TrainingAssumptions).
#include <fmt/format.h>

#include <utility>

#include "sim/config/config.hpp"
#include "sim/config/param_table.hpp"

namespace acme::config {
namespace {

/// The global batch, shown in whole tokens (4194304, not 4.1943e+06: the text reads back as the default).
Param<model::TrainingAssumptions> tokens_param() {
  using T = model::TrainingAssumptions;
  Param<T> p = number_param("tokens_per_iteration", &T::tokens_per_iteration, "global batch in tokens per iteration",
                            Bounds::positive());
  p.show = [](const T& t) { return fmt::format("{:.0f}", t.tokens_per_iteration); };
  return p;
}

const ParamTable<model::TrainingAssumptions>& training_table() {
  using T = model::TrainingAssumptions;
  static const ParamTable<T> t{
      tokens_param(),
      number_param("sequence_length", &T::sequence_length, "tokens per sequence", Bounds::positive()),
      number_param("micro_batch", &T::micro_batch, "sequences per micro-batch", Bounds::positive()),
      number_param("gpu_peak_flops", &T::peak_flops, "one GPU's peak FLOP/s (A100 bf16 dense)", Bounds::positive()),
      number_param("mfu", &T::mfu, "model FLOPs utilisation: the share of peak a job computes at",
                   Bounds{0.0, 1.0, true}),
      number_param("dp_overlap", &T::dp_overlap,
                   "share of the data-parallel all-reduce hidden behind the backward pass", Bounds::share()),
      number_param("state_bytes_per_param", &T::state_bytes_per_param,
                   "bytes of model state per parameter (mixed-precision Adam)", Bounds::positive()),
      number_param("state_memory_share", &T::state_memory_share,
                   "share of GPU memory for model states (the rest: activations)", Bounds{0.0, 1.0, true})};
  return t;
}

} // namespace

const ParamTable<NetworkModelConfig>& NetworkModelConfig::table() {
  using P = NetworkModelConfig;
  static const ParamTable<P> t = [] {
    ParamTable<P> table{choice_param("model", &P::model,
                                     {{"none", NetworkModelKind::NONE}, {"fluid", NetworkModelKind::FLUID}},
                                     "none: jobs run at their traced pace; fluid: training traffic shares the fabric")};
    table.include(&P::training, training_table());
    return table;
  }();
  return t;
}

NetworkModelConfig parse_network_model(const Node& node) {
  return NetworkModelConfig::table().parse_section(node);
}

} // namespace acme::config
