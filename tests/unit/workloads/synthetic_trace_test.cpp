#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "tests/unit/workloads/synthetic_test_support.hpp"
#include "workloads/replay/acme_trace_reader.hpp"
#include "workloads/synthetic/trace_rows.hpp"
#include "workloads/workload_source.hpp"
#include <unistd.h>

namespace syn = acme::workloads::synthetic;

TEST_CASE("workloads::synthetic: a generated workload written as AcmeTrace rows reads back the same",
          "[workloads][synthetic]") {
  auto cfg = acme::test::synthetic_config("  kind: synthetic\n  preset: acme\n  days: 1\n  scale: 0.3\n");
  acme::model::NameTable users;
  auto source = acme::workloads::make_workload(acme::workloads::WorkloadContext{&cfg, &users});
  std::vector<acme::model::JobSpec> jobs[2];
  std::string text[2];
  for (std::size_t c = 0; c < 2; ++c) {
    syn::TraceRows rows(acme::workloads::AcmeRowWriter{syn::schema_for(cfg.clusters[c].name), source->epoch_unix_s(),
                                                       cfg.clusters[c].utc_offset_s});
    text[c] = rows.header();
  }
  while (auto job = source->next()) {
    auto c = acme::model::to_index(job->cluster);
    syn::TraceRows rows(acme::workloads::AcmeRowWriter{syn::schema_for(cfg.clusters[c].name), source->epoch_unix_s(),
                                                       cfg.clusters[c].utc_offset_s});
    rows.append(*job, users, text[c]);
    jobs[c].push_back(std::move(*job));
  }
  auto dir = std::filesystem::temp_directory_path() / ("acme-synthetic-trace-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (std::size_t c = 0; c < 2; ++c) {
    std::string path = (dir / ("trace_" + cfg.clusters[c].name + ".csv")).string();
    std::ofstream(path) << text[c];
    acme::model::NameTable read_users;
    acme::workloads::AcmeTraceReader reader({.path = path,
                                             .cluster = acme::model::ClusterId{static_cast<std::uint16_t>(c)},
                                             .utc_offset_s = cfg.clusters[c].utc_offset_s,
                                             .users = &read_users});
    REQUIRE(!jobs[c].empty());
    for (const auto& job : jobs[c]) {
      auto back = reader.next();
      REQUIRE(back);
      REQUIRE(back->name == job.name);
      REQUIRE(read_users.name(back->user) == users.name(job.user));
      REQUIRE(back->submit_time_s == job.submit_time_s + source->epoch_unix_s());
      REQUIRE(back->duration_s == job.duration_s);
      REQUIRE(back->gpus == job.gpus);
      REQUIRE(back->nodes == job.nodes);
      REQUIRE(back->cpus == job.cpus);
      REQUIRE(back->type == job.type);
      REQUIRE(back->final_state == job.final_state);
    }
    REQUIRE(!reader.next());
  }
  std::filesystem::remove_all(dir);
}
