#include "validate/scenario_run.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "sim/csv/csv_reader.hpp"
#include "sim/metrics/atomic_file.hpp"
#include "sim/study/point_runner.hpp"
#include "validate/embedded_files.hpp"

namespace acme::validate {
namespace {

constexpr const char* RUNS_DIR = "runs";
constexpr const char* INPUTS_DIR = "inputs";
constexpr const char* JOBS_FILE = "jobs.csv";

constexpr const char* JOBS_EXPECTED = "expected the jobs.csv of acme-sim run";

template <class T>
T number_field(const csv::CsvReader& in, std::size_t column) {
  auto value = csv::parse_number<T>(in.field(column));
  if (!value) {
    in.fail_column(column, "expected a number, got \"" + std::string(in.field(column)) + "\"");
  }
  return *value;
}

/// The failures column ("nvlink:2;node:1"): the total count.
std::uint32_t count_failures(const csv::CsvReader& in, std::size_t column) {
  std::uint32_t total = 0;
  std::string_view text = in.field(column);
  while (!text.empty()) {
    std::size_t end = std::min(text.find(';'), text.size());
    std::string_view item = text.substr(0, end);
    if (auto colon = item.find(':'); colon != std::string_view::npos) {
      auto count = csv::parse_number<std::uint32_t>(item.substr(colon + 1));
      if (!count) {
        in.fail_column(column, "expected CATEGORY:COUNT;..., got \"" + std::string(in.field(column)) + "\"");
      }
      total += *count;
    }
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return total;
}

std::vector<JobMeasure> read_jobs(const std::string& path) {
  csv::CsvReader in(csv::LineReader::from_file(path));
  if (!in.has_header()) {
    in.fail_at(0, JOBS_EXPECTED);
  }
  std::size_t wall = in.require("duration", JOBS_EXPECTED);
  std::size_t work = in.require("work_s", JOBS_EXPECTED);
  std::size_t stall = in.require("ckpt_stall_s", JOBS_EXPECTED);
  std::size_t restore = in.require("restore_s", JOBS_EXPECTED);
  std::size_t checkpoints = in.require("checkpoints", JOBS_EXPECTED);
  std::size_t attempts = in.require("attempts", JOBS_EXPECTED);
  std::size_t failures = in.require("failures", JOBS_EXPECTED);
  std::optional<std::size_t> slowdown = in.find("comm_slowdown"); // network.model: fluid only
  std::vector<JobMeasure> out;
  while (in.next()) {
    out.push_back(JobMeasure{number_field<double>(in, wall), number_field<double>(in, work),
                             number_field<double>(in, stall), number_field<double>(in, restore),
                             number_field<std::uint32_t>(in, checkpoints), number_field<std::uint32_t>(in, attempts),
                             count_failures(in, failures)});
    if (slowdown && !in.field(*slowdown).empty()) {
      out.back().comm_slowdown = number_field<double>(in, *slowdown);
    }
  }
  return out;
}

} // namespace

std::string write_scenario(const ValidationContext& ctx, std::string_view name) {
  std::filesystem::path path = std::filesystem::path(ctx.work_dir) / name;
  std::filesystem::create_directories(path.parent_path());
  metrics::write_file_atomically(path.string(), validation_file(name));
  return path.string();
}

std::string input_dir(const ValidationContext& ctx, const std::string& id) {
  std::filesystem::path dir = std::filesystem::path(ctx.work_dir) / INPUTS_DIR / id;
  std::filesystem::create_directories(dir);
  return dir.string();
}

RunMeasures run_scenario(const ValidationContext& ctx, const std::string& scenario_path, const ScenarioRun& run) {
  std::string runs_dir = (std::filesystem::path(ctx.work_dir) / RUNS_DIR).string();
  std::filesystem::create_directories(runs_dir);
  study::Point point{run.id, run.id, run.overrides, run.seed};
  if (!run.jobs) {
    point.overrides.push_back({"output.jobs_csv", "false"});
  }
  study::PointRecord record =
      study::run_point(study::WorkerCommand{ctx.self_exe, {"run"}}, scenario_path, point, runs_dir);
  if (record.status != study::STATUS_OK) {
    throw std::runtime_error("validation run " + run.id + " of " + scenario_path + " failed: " + record.error);
  }
  RunMeasures out;
  std::string dir = (std::filesystem::path(runs_dir) / run.id).string();
  if (run.jobs) {
    out.jobs = read_jobs(dir + "/" + JOBS_FILE);
  }
  for (const auto& m : record.metrics) {
    out.metrics[m.name] = m.value;
  }
  return out;
}

double mean_wall_s(const std::vector<JobMeasure>& jobs) {
  double total = 0.0;
  for (const auto& j : jobs) {
    total += j.wall_s;
  }
  return jobs.empty() ? 0.0 : total / static_cast<double>(jobs.size());
}

} // namespace acme::validate
