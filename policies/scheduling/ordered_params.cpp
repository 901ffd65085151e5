#include "policies/scheduling/ordered_params.hpp"

namespace acme::policies {

std::uint32_t parse_queue_depth(const config::Node& node) {
  return parse_count_or(node, "queue_depth", DEFAULT_QUEUE_DEPTH);
}

ParamDoc queue_depth_doc() {
  return {"queue_depth", std::to_string(DEFAULT_QUEUE_DEPTH),
          "queued jobs examined per scheduling pass (Slurm default_queue_depth); arrivals are examined "
          "when they arrive"};
}

BackfillMode parse_backfill(const config::Node& node, BackfillMode fallback) {
  return parse_choice(node, "backfill", fallback, {{"easy", BackfillMode::EASY}, {"none", BackfillMode::NONE}},
                      "backfill mode");
}

ParamDoc backfill_doc(BackfillMode fallback) {
  return {"backfill", fallback == BackfillMode::EASY ? "easy" : "none",
          "easy: later jobs start when they do not delay the first blocked job's reservation; none: strict order"};
}

OrderKind parse_order(const config::Node& node, OrderKind fallback) {
  return parse_choice(node, "order", fallback, {{"fifo", OrderKind::FIFO}, {"priority", OrderKind::PRIORITY}},
                      "queue order");
}

std::vector<std::string> concat_keys(std::vector<std::vector<std::string>> lists) {
  std::vector<std::string> out;
  for (auto& list : lists) {
    out.insert(out.end(), list.begin(), list.end());
  }
  return out;
}

std::vector<ParamDoc> concat_docs(std::vector<std::vector<ParamDoc>> lists) {
  std::vector<ParamDoc> out;
  for (auto& list : lists) {
    out.insert(out.end(), list.begin(), list.end());
  }
  return out;
}

} // namespace acme::policies
