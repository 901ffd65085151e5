#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/model/error.hpp"

namespace acme::metrics {

/// The files of one run, committed together or not at all. Everything is written into a staging folder
/// inside the output folder (`.acme-staging.<pid>/`, same file system); commit() syncs it, writes a commit
/// mark, then renames each file over its final name and removes the run's file names it did not write
/// (a stale jobs.csv of an earlier run with jobs_csv: true). A run that fails or is stopped before the mark
/// leaves the folder as it was; one stopped during the renames is completed by the next run in the folder
/// (roll forward). Staging folders of runs that no longer exist are removed then.
class OutputSet {
public:
  /// Creates `dir` when missing, finishes or removes what earlier runs left in it, and makes the staging
  /// folder. `names` are every file a run may write there. Throws ConfigError naming `dir` when it cannot
  /// be written (not a folder, read-only, full).
  OutputSet(std::string dir, std::vector<std::string> names);
  /// Removes the staging folder unless committed.
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  /// Where file `name` is written before the commit (for writers that stream, e.g. an AtomicFile).
  std::string staged_path(const std::string& name) const;
  /// Writes the whole file `name` into the staging folder.
  void write(const std::string& name, std::string_view text);
  /// Makes the staged files the folder's files, all at once. Throws ConfigError when the staged files
  /// cannot be synced (the folder is then unchanged).
  void commit();
  /// `error` (a write into the staging folder failed) rethrown with the files' final names in its text.
  [[noreturn]] void rethrow_at_final_names(const ConfigError& error) const;

  /// Installs SIGINT, SIGTERM and SIGHUP handlers that remove the staging folder of the OutputSet alive
  /// at the time, then end the process as the signal would have. Call once, from main's thread.
  static void remove_staging_on_signal();
  /// Removes the staging folder of the set being written, if it is not committed yet (async-signal-safe:
  /// for a watchdog that ends the process).
  static void remove_staging_now();

private:
  [[noreturn]] void fail(const std::string& what) const;

  std::string dir_;
  std::string staging_;
  std::vector<std::string> names_;
  bool committed_ = false;
};

} // namespace acme::metrics
