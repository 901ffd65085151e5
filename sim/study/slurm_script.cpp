#include "sim/study/slurm_script.hpp"

#include <cctype>
#include <filesystem>

#include "sim/metrics/atomic_file.hpp"
#include "sim/model/error.hpp"
#include <sys/stat.h>

namespace acme::study {
namespace {

namespace fs = std::filesystem;

std::string shard_dir(const SlurmOptions& o, const std::string& shard) {
  return o.out_dir + "/shard-" + shard;
}

std::string header(const SlurmOptions& o, const std::string& job, const std::string& log) {
  std::string text = "#!/bin/bash\n";
  text += "#SBATCH --job-name=" + job + "\n";
  text += "#SBATCH --time=" + o.time_limit + "\n";
  if (!o.partition.empty()) {
    text += "#SBATCH --partition=" + o.partition + "\n";
  }
  text += "#SBATCH --output=" + o.script_dir + "/logs/" + log + "\n";
  return text;
}

/// Characters an #SBATCH line may carry: sbatch reads those lines itself, without a shell's quoting, so a
/// space would add an option and a newline a shell line. '%' is left out too: it is a pattern in --output.
constexpr const char* SBATCH_PATH_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./+,:=@";
constexpr const char* SBATCH_NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,";

void check_sbatch_value(const std::string& option, const std::string& value, const char* allowed,
                        const std::string& expected) {
  if (!value.empty() && value.find_first_not_of(allowed) == std::string::npos) {
    return;
  }
  throw ConfigError(Location{option + " " + excerpt(value), 0, 0}, "",
                    "cannot go into an #SBATCH line of the generated script; expected " + expected);
}

void make_executable(const std::string& path) {
  constexpr mode_t SCRIPT_MODE = 0755;
  ::chmod(path.c_str(), SCRIPT_MODE);
}

} // namespace

std::string shell_quote(const std::string& word) {
  if (!word.empty() &&
      word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=@%+,") ==
          std::string::npos) {
    return word;
  }
  std::string out = "'";
  for (char c : word) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

void check_slurm_time(const std::string& text) {
  bool ok = !text.empty() && text.find_first_not_of("0123456789:-") == std::string::npos &&
            std::isdigit(static_cast<unsigned char>(text.front())) != 0 &&
            std::isdigit(static_cast<unsigned char>(text.back())) != 0;
  if (!ok) {
    throw ConfigError(Location{"--slurm-time " + text, 0, 0}, "",
                      "expected a Slurm time limit such as 30 (minutes), 2:00:00 or 1-00:00:00");
  }
}

std::string sweep_sbatch_text(const SlurmOptions& o) {
  std::string n = std::to_string(o.shards);
  std::string text = header(o, o.job_name, "shard-%a.out");
  text += "#SBATCH --array=1-" + n + "\n";
  text += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=" + std::to_string(o.cpus) + "\n";
  text += "# One array task per shard of the study; each writes its own folder, merged afterwards by merge.sbatch.\n";
  text += "set -euo pipefail\n";
  text += "shard=\"${SLURM_ARRAY_TASK_ID:?submit with sbatch: the array sets SLURM_ARRAY_TASK_ID}\"\n";
  text += "exec " + shell_quote(o.executable) + " sweep " + shell_quote(o.study_file) + " --shard \"$shard/" + n +
          "\" -o " + shell_quote(o.out_dir + "/shard-") + "\"$shard\" -j \"${SLURM_CPUS_PER_TASK:-" +
          std::to_string(o.cpus) + "}\" --quiet\n";
  return text;
}

std::string merge_sbatch_text(const SlurmOptions& o) {
  std::string text = header(o, o.job_name + "-merge", "merge.out");
  text += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
  text += "# Combines the shards' folders into one study folder (the same results as a single-machine sweep).\n";
  text += "set -euo pipefail\nexec " + shell_quote(o.executable) + " merge";
  for (std::size_t k = 1; k <= o.shards; ++k) {
    text += " " + shell_quote(shard_dir(o, std::to_string(k)));
  }
  return text + " -o " + shell_quote(o.out_dir) + "\n";
}

std::string submit_command(const SlurmOptions& o) {
  return "jid=$(sbatch --parsable " + shell_quote(o.script_dir + "/sweep.sbatch") +
         ") && sbatch --dependency=afterany:\"${jid%%;*}\" " + shell_quote(o.script_dir + "/merge.sbatch");
}

void check_slurm_options(const SlurmOptions& o) {
  check_sbatch_value("--emit-slurm", o.script_dir, SBATCH_PATH_CHARS,
                     "a folder path of letters, digits and _ - . / + , : = @ (no spaces, quotes or '%')");
  check_sbatch_value("study name", o.job_name, SBATCH_NAME_CHARS, "letters, digits and _ - . ,");
  if (!o.partition.empty()) {
    check_sbatch_value("--slurm-partition", o.partition, SBATCH_NAME_CHARS,
                       "a partition name (or a comma-separated list) of letters, digits and _ - .");
  }
  check_slurm_time(o.time_limit);
}

void write_slurm_scripts(const SlurmOptions& o) {
  check_slurm_options(o);
  fs::create_directories(fs::path(o.script_dir) / "logs");
  std::string sweep = o.script_dir + "/sweep.sbatch";
  std::string merge = o.script_dir + "/merge.sbatch";
  metrics::write_file_atomically(sweep, sweep_sbatch_text(o));
  metrics::write_file_atomically(merge, merge_sbatch_text(o));
  make_executable(sweep);
  make_executable(merge);
  std::string readme = "Slurm job array for the study " + o.study_file + " (" + std::to_string(o.shards) +
                       " shards, written by acme-sim sweep --emit-slurm).\n\nSubmit the array and the merge "
                       "that runs once every array task has ended:\n\n    " +
                       submit_command(o) + "\n\nResults: " + o.out_dir + "/results.csv (shards in " + o.out_dir +
                       "/shard-K, logs in " + o.script_dir + "/logs/).\n";
  metrics::write_file_atomically(o.script_dir + "/README", readme);
}

} // namespace acme::study
