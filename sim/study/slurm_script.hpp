#pragma once

#include <cstddef>
#include <string>

namespace acme::study {

/// `acme-sim sweep STUDY --emit-slurm DIR`: a job array with one task per shard, each running
/// `acme-sim sweep STUDY --shard K/N -o OUT/shard-K`, and a merge job for afterwards.
struct SlurmOptions {
  std::string script_dir; ///< absolute: sweep.sbatch, merge.sbatch, README, logs/
  std::string executable; ///< absolute path of acme-sim
  std::string study_file; ///< absolute
  std::string out_dir;    ///< absolute: the shards write OUT/shard-K, the merge writes OUT
  std::string job_name;
  std::size_t shards = 1;
  std::size_t cpus = 1; ///< per array task (also its -j)
  std::string time_limit = "01:00:00";
  std::string partition; ///< "" for the cluster's default
};

/// Checks a Slurm time limit ("30", "1:00:00", "2-00:00:00"); throws ConfigError naming --slurm-time.
void check_slurm_time(const std::string& text);

/// The text of sweep.sbatch (the job array).
std::string sweep_sbatch_text(const SlurmOptions& options);
/// The text of merge.sbatch (acme-sim merge of the shards' folders into OUT).
std::string merge_sbatch_text(const SlurmOptions& options);
/// The one-line submit command (the array, then the merge once every task has ended).
std::string submit_command(const SlurmOptions& options);

/// Refuses (ConfigError naming the option) a value that an #SBATCH line cannot carry as it is: the
/// script folder, the job name and the partition go into those lines, which sbatch reads without a shell.
void check_slurm_options(const SlurmOptions& options);

/// Checks the options, then writes the scripts, README and logs/ folder into options.script_dir.
void write_slurm_scripts(const SlurmOptions& options);

/// A word for a shell command line, single-quoted when it needs to be.
std::string shell_quote(const std::string& word);

} // namespace acme::study
