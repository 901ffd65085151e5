// `acme-sim export RUN_DIR --acmetrace DIR`: a run's jobs as the AcmeTrace job traces the authors' notebook reads.
#include <cstdio>
#include <filesystem>

#include "sim/cli/acmetrace_export.hpp"
#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/model/error.hpp"

namespace acme::cli {
namespace {

const char* const EXPORT_HELP = R"(usage: acme-sim export RUN_DIR --acmetrace DIR [--quiet]

Writes the jobs of a run (RUN_DIR/jobs.csv, from acme-sim run) as AcmeTrace job traces, one file per
cluster in DIR: trace_seren.csv and trace_kalos.csv for the Acme clusters (trace_<cluster>.csv for
others), with exactly the columns of the released traces in their order (Seren: job_id, user, node_num,
gpu_num, cpu_num, type, state, submit_time, start_time, end_time, duration, queue, gpu_time; Kalos adds
mem_per_pod_GB, shared_mem_per_pod after cpu_num and fail_time, stop_time after end_time; a cluster
named kalos gets the Kalos schema) and AcmeTrace's spellings (type Eval for evaluation jobs). Jobs
rejected at submission are left out (a scheduler's log never had them). The authors' analysis notebook
(InternLM/AcmeTrace, analysis.ipynb) reads DIR as its data/job_trace folder.

options:
  --acmetrace DIR   where to write the traces (created when missing)
  --quiet           no summary line
Files appear only when all of jobs.csv was read (written under a temporary name, then renamed).
Exit codes: 0 ok, 2 bad input (no run folder, no jobs.csv, a malformed row).
)";

} // namespace

int cmd_export(std::vector<std::string> argv) {
  if (printed_help(argv, EXPORT_HELP)) {
    return 0;
  }
  Args args(std::move(argv), "export");
  bool quiet = args.flag("--quiet", "-q");
  auto out_dir = args.value("--acmetrace");
  auto positionals = args.positionals(1);
  if (positionals.empty() || !out_dir || out_dir->empty()) {
    args.fail("expected acme-sim export RUN_DIR --acmetrace DIR");
  }
  const std::string& run_dir = positionals[0];
  std::error_code ec;
  if (!std::filesystem::is_directory(run_dir, ec)) {
    throw ConfigError(Location{run_dir, 0, 0}, "", "not a folder; expected a run folder written by acme-sim run");
  }
  std::string jobs = (std::filesystem::path(run_dir) / "jobs.csv").string();
  if (!std::filesystem::is_regular_file(jobs, ec)) {
    throw ConfigError(Location{run_dir, 0, 0}, "",
                      "has no jobs.csv; expected a run folder written by acme-sim run (with output.jobs_csv on)");
  }
  ExportResult result = export_acmetrace(jobs, *out_dir);
  if (!quiet) {
    std::string files;
    for (const auto& t : result.traces) {
      files += (files.empty() ? "" : ", ") + t.path + " (" + std::to_string(t.rows) + " jobs)";
    }
    std::printf("wrote %s; %llu rejected jobs left out\n", files.empty() ? "no jobs" : files.c_str(),
                static_cast<unsigned long long>(result.rejected));
  }
  return 0;
}

} // namespace acme::cli
