// The registries of the workload layer: trace formats and workload kinds keyed by their YAML name, and
// what a new format takes (one CsvTraceReader subclass, one registration line).
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "sim/config/config.hpp"
#include "tests/unit/error_of.hpp"
#include "workloads/replay/csv_trace_reader.hpp"
#include "workloads/workload_registry.hpp"

using namespace acme;
using acme::test::error_of;
using Catch::Contains;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = std::string(P_tmpdir) + "/acme-test-registry-" + name;
  std::ofstream(path) << text;
  return path;
}

config::Config config_with(const std::string& workload) {
  return config::load_config_text("clusters:\n  - name: c\n    nodes: 2\nworkload: " + workload + "\n", "reg.yaml",
                                  "/");
}

/// A format made for this test: `submit_s,gpus` (Unix seconds, GPUs), one job per row.
class PairTraceReader final : public workloads::CsvTraceReader {
public:
  explicit PairTraceReader(const workloads::TraceFile& file) : CsvTraceReader(file, SCHEMA) {}

private:
  static constexpr workloads::TraceColumn COLUMNS[] = {{"submit_s", true}, {"gpus", true}};
  static constexpr workloads::CsvTraceSchema SCHEMA{COLUMNS, "empty trace; expected submit_s,gpus",
                                                    "expected the columns submit_s,gpus"};

  std::optional<model::JobSpec> parse_row() override {
    model::JobSpec job;
    job.cluster = file().cluster;
    job.name = "pair-" + std::to_string(row_number());
    auto submit = csv::parse_number<double>(field(0));
    auto gpus = csv::parse_number<std::uint32_t>(field(1));
    if (!submit || !gpus) {
      bad(submit ? 1 : 0, "expected a number, got \"" + std::string(field(submit ? 1 : 0)) + "\"");
    }
    job.submit_time_s = *submit;
    job.gpus = *gpus;
    job.duration_s = 1.0;
    job.user = users().intern("u");
    return job;
  }
};

} // namespace

TEST_CASE("workloads::registry: the built-in kinds and trace formats", "[workloads][registry]") {
  auto registries = workloads::make_builtin_workload_registries();
  REQUIRE(registries.kinds.names() == std::vector<std::string>{"eval_request", "synthetic", "trace"});
  REQUIRE(registries.trace_formats.names() == std::vector<std::string>{"acme", "alibaba", "philly", "swf"});
  for (const auto& [name, entry] : registries.trace_formats.entries()) {
    REQUIRE_FALSE(entry.summary.empty());
  }
}

TEST_CASE("workloads::registry: unknown kinds and formats fail located with the accepted names",
          "[workloads][registry][errors]") {
  model::NameTable users;
  auto run = [&](const std::string& workload) {
    return error_of([&] {
      config::Config cfg = config_with(workload);
      workloads::make_workload({&cfg, &users});
    });
  };
  REQUIRE_THAT(run("{kind: trace, format: swff, path: t.swf}"),
               Contains("reg.yaml:4:33: workload.format: unknown trace format \"swff\"; expected one of: acme, "
                        "alibaba, philly, swf (did you mean \"swf\"?)"));
  REQUIRE_THAT(run("{kind: synthetik}"), Contains("workload.kind: unknown workload kind \"synthetik\"; expected one "
                                                  "of: eval_request, synthetic, trace (did you mean \"synthetic\"?)"));
  REQUIRE_THAT(run("{format: acme}"),
               Contains("missing key \"kind\"; expected one of: eval_request, synthetic, trace"));
}

TEST_CASE("workloads::registry: a new trace format is one reader and one registration line", "[workloads][registry]") {
  std::string trace = write_temp("pairs.csv", "submit_s,gpus\n7200,4\n7260,x\n7230,\"2\"\n");
  auto registries = workloads::make_builtin_workload_registries();
  registries.trace_formats.add("pairs", "submit time and GPUs", workloads::open_windowed<PairTraceReader>);
  model::NameTable users;
  config::Config cfg = config_with("{kind: trace, format: pairs, on_bad_row: skip, path: " + trace + "}");
  auto source = workloads::make_workload({&cfg, &users}, registries);
  REQUIRE(source->epoch_unix_s() == 7200.0);
  auto first = source->next();
  REQUIRE(first->name == "pair-1");
  REQUIRE(first->gpus == 4);
  auto second = source->next(); // the reorder window restores submit order
  REQUIRE(second->name == "pair-3");
  REQUIRE(second->submit_time_s == 30.0);
  REQUIRE_FALSE(source->next());
  REQUIRE(source->skipped_rows() == 1);
  config::Config strict = config_with("{kind: trace, format: pairs, path: " + trace + "}");
  REQUIRE_THAT(error_of([&] {
                 workloads::make_workload({&strict, &users}, registries);
               }),
               Contains(trace + ":3: column \"gpus\": expected a number, got \"x\""));
  std::remove(trace.c_str());
}
