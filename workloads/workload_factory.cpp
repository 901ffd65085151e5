#include "workloads/eval/eval_dispatch_source.hpp"
#include "workloads/eval/eval_request_workload.hpp"
#include "workloads/merged_source.hpp"
#include "workloads/synthetic/synthetic_workload.hpp"
#include "workloads/workload_registry.hpp"

namespace acme::workloads {
namespace {

const std::vector<std::string> TRACE_KEYS = {"kind", "format", "path", "cluster", "on_bad_row", "limit"};

BadRowPolicy parse_bad_row(const config::Node& node) {
  if (!node.is_defined()) {
    return BadRowPolicy::ERROR;
  }
  std::string value = node.as_string();
  if (value == "error") {
    return BadRowPolicy::ERROR;
  }
  if (value == "skip") {
    return BadRowPolicy::SKIP;
  }
  node.fail("expected \"error\" or \"skip\", got \"" + value + "\"");
}

model::ClusterId cluster_id(const config::Config& cfg, const config::Node& where, const std::string& name) {
  for (std::size_t i = 0; i < cfg.clusters.size(); ++i) {
    if (cfg.clusters[i].name == name) {
      return model::ClusterId{static_cast<std::uint16_t>(i)};
    }
  }
  std::string msg = "unknown cluster \"" + name + "\"; expected one of: " + join(cfg.cluster_names());
  if (auto hint = did_you_mean(name, cfg.cluster_names()); !hint.empty()) {
    msg += " (did you mean \"" + hint + "\"?)";
  }
  where.fail(msg);
}

/// (cluster, path node) pairs from `path: file` (+ `cluster:`) or `path: {cluster: file, ...}`.
std::vector<std::pair<model::ClusterId, config::Node>> trace_files(const config::Config& cfg,
                                                                   const config::Node& section) {
  config::Node path = section["path"];
  if (!path.is_defined()) {
    section.fail("missing key \"path\"; expected the trace file (or a map of cluster name to file)");
  }
  std::vector<std::pair<model::ClusterId, config::Node>> out;
  if (path.is_map()) {
    for (const auto& name : path.keys()) {
      out.emplace_back(cluster_id(cfg, path[name], name), path[name]);
    }
    return out;
  }
  config::Node cluster = section["cluster"];
  if (!cluster.is_defined() && cfg.clusters.size() > 1) {
    section.fail("missing key \"cluster\"; expected the cluster the trace belongs to (one of: " +
                 join(cfg.cluster_names()) + ") or a map of cluster name to file under \"path\"");
  }
  model::ClusterId id = cluster.is_defined() ? cluster_id(cfg, cluster, cluster.as_string()) : model::ClusterId{0};
  out.emplace_back(id, path);
  return out;
}

std::unique_ptr<WorkloadSource> make_trace_workload(const WorkloadContext& ctx, const config::Node& section,
                                                    const TraceFormatRegistry& formats) {
  section.expect_keys(TRACE_KEYS);
  const config::Config& cfg = *ctx.config;
  config::Node format = section["format"];
  std::string format_name = format.is_defined() ? format.as_string() : "acme";
  BadRowPolicy on_bad_row = parse_bad_row(section["on_bad_row"]);
  auto files = trace_files(cfg, section);
  const TraceFormatFactory& open = formats.get(format_name, format);
  std::vector<MergedSource::Part> parts;
  for (auto& [cluster, path_node] : files) {
    double utc_offset_s = cfg.clusters.at(model::to_index(cluster)).utc_offset_s;
    parts.push_back(
        open(TraceFile{cfg.resolve_path(path_node.as_string()), cluster, utc_offset_s, ctx.users, on_bad_row}));
  }
  std::uint64_t limit = 0;
  if (config::Node l = section["limit"]; l.is_defined()) {
    limit = l.as_count();
  }
  return std::make_unique<MergedSource>(std::move(parts), -1.0, limit);
}

} // namespace

void register_builtin_workload_kinds(WorkloadKindRegistry& registry) {
  registry.add("eval_request", "one evaluation request dispatched into jobs (workloads/eval)",
               [](const WorkloadContext& ctx, const config::Node& section, const WorkloadRegistries&) {
                 return eval::make_eval_request_workload(ctx, section);
               });
  registry.add("synthetic", "jobs drawn from the Acme-calibrated generator (workloads/synthetic)",
               [](const WorkloadContext& ctx, const config::Node& section, const WorkloadRegistries&) {
                 return eval::with_evaluation(ctx, synthetic::make_synthetic_workload(ctx, section));
               });
  registry.add("trace", "trace files replayed (format: one of the trace formats)",
               [](const WorkloadContext& ctx, const config::Node& section, const WorkloadRegistries& registries) {
                 return eval::with_evaluation(ctx, make_trace_workload(ctx, section, registries.trace_formats));
               });
}

WorkloadRegistries make_builtin_workload_registries() {
  WorkloadRegistries registries;
  register_builtin_workload_kinds(registries.kinds);
  register_builtin_trace_formats(registries.trace_formats);
  return registries;
}

std::unique_ptr<WorkloadSource> make_workload(const WorkloadContext& ctx, const WorkloadRegistries& registries) {
  const config::Node& section = ctx.config->workload;
  if (!section.is_defined()) {
    section.fail("missing section \"workload\"; expected {kind: trace, format: acme, path: FILE} or "
                 "{kind: synthetic, preset: acme}");
  }
  section.expect_map();
  config::Node kind = section["kind"];
  if (!kind.is_defined()) {
    section.fail("missing key \"kind\"; expected one of: " + join(registries.kinds.names()));
  }
  return registries.kinds.get(kind.as_string(), kind)(ctx, section, registries);
}

std::unique_ptr<WorkloadSource> make_workload(const WorkloadContext& ctx) {
  return make_workload(ctx, make_builtin_workload_registries());
}

} // namespace acme::workloads
