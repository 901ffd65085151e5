#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace acme::cli {

/// One trace file written by export_acmetrace.
struct ExportedTrace {
  std::string cluster;
  std::string path;
  std::uint64_t rows = 0;
};

struct ExportResult {
  std::vector<ExportedTrace> traces; ///< in order of the clusters' first rows in jobs.csv
  std::uint64_t rejected = 0;        ///< rows of jobs rejected at submission (never in a trace)
};

/// Splits a run's jobs.csv into AcmeTrace job traces, one per cluster, in `out_dir`: trace_<cluster>.csv
/// with exactly the released columns in their order (the Kalos schema for a cluster named "kalos", the
/// Seren schema for every other; data/README.md), AcmeTrace's type spellings ("Eval"), and no rows for
/// jobs rejected at submission (a scheduler never logged them). Every file is written under a
/// temporary name and renamed into place only when all of jobs.csv was read. Throws ConfigError
/// (file:line, column) on a jobs.csv that lacks a column or holds an unknown type.
ExportResult export_acmetrace(const std::string& jobs_csv, const std::string& out_dir);

} // namespace acme::cli
