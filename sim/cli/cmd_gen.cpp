// `acme-sim gen [CONFIG] -o PATH`: writes a config's workload as AcmeTrace job traces, one per cluster.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>

#include "policies/builtin.hpp"
#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/run_command.hpp"
#include "sim/metrics/atomic_file.hpp"
#include "workloads/eval/eval_request_workload.hpp"
#include "workloads/synthetic/trace_rows.hpp"
#include "workloads/workload_source.hpp"

namespace acme::cli {
namespace {

const char* const GEN_HELP = R"(usage: acme-sim gen [CONFIG] -o PATH [--set key.path=value ...] [--seed N] [--quiet]

Generates the workload of CONFIG's `workload:` section (default: the embedded configs/acme.yaml; usually
kind: synthetic) and writes it as AcmeTrace job traces, one per cluster, so that it can be replayed
(workload: {kind: trace, format: acme, path: {seren: ..., kalos: ...}}), inspected, or read by the
authors' notebook. A cluster named "kalos" gets the Kalos schema, every other cluster the Seren schema;
times are in the cluster's utc_offset. start_time, end_time and queue stay empty (nothing ran yet).
Extra columns after the schema's: run_id, attempt, model_params, failure (pretraining runs, model
sizes, failure causes).

  -o, --output PATH   where to write; with "{cluster}" in PATH, one file per cluster named by it
                      (e.g. -o traces/sample_{cluster}.csv); a PATH ending in .csv when the workload
                      has one cluster; otherwise a folder (created) receiving trace_<cluster>.csv
  --set key.path=value, --seed N   as for `acme-sim run`
  --quiet             no summary line
Files appear only when generation succeeds (written under a temporary name, then renamed).
)";

constexpr std::size_t FLUSH_BYTES = std::size_t{1} << 20;

struct GenOptions {
  std::string config_path;
  std::string output;
  std::vector<config::Override> overrides;
  bool quiet = false;
};

GenOptions parse_gen_args(std::vector<std::string> argv) {
  Args args(std::move(argv), "gen");
  GenOptions o;
  o.quiet = args.flag("--quiet", "-q");
  if (auto out = args.value("--output", "-o")) {
    o.output = *out;
  }
  for (const auto& s : args.values("--set")) {
    o.overrides.push_back(config::parse_override(s));
  }
  if (auto seed = args.value("--seed")) {
    o.overrides.push_back({"seed", std::to_string(parse_u64(args, "--seed", *seed))});
  }
  auto positionals = args.positionals(1);
  if (!positionals.empty()) {
    o.config_path = positionals[0];
  }
  if (o.output.empty()) {
    args.fail("missing -o PATH; expected where to write the traces");
  }
  return o;
}

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

/// The file of one cluster's trace (see GEN_HELP); `earlier` clusters already have one.
std::string trace_path(const std::string& output, const std::string& cluster, std::size_t earlier) {
  const std::string placeholder = "{cluster}";
  if (auto at = output.find(placeholder); at != std::string::npos) {
    return output.substr(0, at) + cluster + output.substr(at + placeholder.size());
  }
  if (!ends_with(output, ".csv")) {
    return (std::filesystem::path(output) / ("trace_" + cluster + ".csv")).string();
  }
  if (earlier > 0) {
    throw ConfigError(Location{"acme-sim gen", 0, 0}, "",
                      "-o " + output +
                          ": one file, but the workload has jobs on several clusters; expected a "
                          "folder or a path with {cluster} in it");
  }
  return output;
}

/// One cluster's trace: buffered rows into an AtomicFile.
struct TraceOut {
  workloads::synthetic::TraceRows rows_format{workloads::AcmeRowWriter{}};
  std::unique_ptr<metrics::AtomicFile> file;
  std::string buffer;
  std::uint64_t rows = 0;
};

void open_trace(TraceOut& out, const std::string& path) {
  std::error_code ec;
  auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) {
    std::filesystem::create_directories(parent, ec);
  }
  out.file = std::make_unique<metrics::AtomicFile>(path); // a ConfigError naming the path when it cannot be written
  out.buffer = out.rows_format.header();
}

void append_job(TraceOut& out, const model::JobSpec& job, const model::NameTable& users) {
  out.rows_format.append(job, users, out.buffer);
  ++out.rows;
  if (out.buffer.size() >= FLUSH_BYTES) {
    out.file->write(out.buffer);
    out.buffer.clear();
  }
}

} // namespace

int cmd_gen(std::vector<std::string> argv) {
  if (printed_help(argv, GEN_HELP)) {
    return 0;
  }
  GenOptions o = parse_gen_args(std::move(argv));
  config::Config cfg = load_config_or_default(o.config_path, o.overrides);
  model::NameTable users;
  auto t0 = std::chrono::steady_clock::now();
  policies::PolicyRegistries registries = policies::make_builtin_registries();
  auto workload = workloads::make_workload(
      workloads::WorkloadContext{&cfg, &users, &registries.eval_dispatches, workloads::eval::eval_cluster_shapes(cfg)});
  std::map<std::uint16_t, TraceOut> outs;
  while (auto job = workload->next()) {
    auto cluster = model::to_index(job->cluster);
    auto [it, fresh] = outs.try_emplace(cluster);
    if (fresh) {
      const auto& c = cfg.clusters.at(cluster);
      it->second.rows_format = workloads::synthetic::TraceRows(
          workloads::AcmeRowWriter{workloads::synthetic::schema_for(c.name), workload->epoch_unix_s(), c.utc_offset_s});
      open_trace(it->second, trace_path(o.output, c.name, outs.size() - 1));
    }
    append_job(it->second, *job, users);
  }
  std::string summary;
  for (auto& [cluster, out] : outs) {
    out.file->write(out.buffer);
    out.file->commit();
    summary += (summary.empty() ? "" : ", ") + out.file->path() + " (" + std::to_string(out.rows) + " jobs)";
  }
  double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!o.quiet) {
    std::printf("wrote %s in %.2f s\n", summary.empty() ? "no jobs" : summary.c_str(), wall_s);
  }
  return 0;
}

} // namespace acme::cli
