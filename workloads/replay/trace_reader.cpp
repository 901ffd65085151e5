#include "workloads/replay/trace_reader.hpp"

#include <cmath>
#include <cstring>

#include "sim/model/assert.hpp"
#include "sim/model/civil_time.hpp"
#include "sim/model/error.hpp"
#include "sim/model/limits.hpp"
#include "sim/model/units.hpp"

namespace acme::workloads {

void bad_column(std::string_view column, const std::string& what) {
  throw BadRow{"column \"" + std::string(column) + "\": " + what};
}

namespace {

double unix_time_of_year(int year) {
  return static_cast<double>(model::days_from_civil(year, 1, 1)) * model::SECONDS_PER_DAY;
}

std::string got(std::string_view text) {
  return ", got \"" + std::string(text) + "\"";
}

/// FNV-1a 64 (Fowler, Noll, Vo): ids are remembered by this hash.
std::uint64_t id_hash(std::string_view text) {
  constexpr std::uint64_t OFFSET_BASIS = 14695981039346656037ULL;
  constexpr std::uint64_t PRIME = 1099511628211ULL;
  std::uint64_t hash = OFFSET_BASIS;
  for (unsigned char c : text) {
    hash = (hash ^ c) * PRIME;
  }
  return hash;
}

} // namespace

void check_trace_time(double unix_s, std::string_view column, std::string_view text) {
  static const double earliest = unix_time_of_year(model::limits::MIN_YEAR);
  static const double latest = unix_time_of_year(model::limits::MAX_YEAR + 1);
  if (!(unix_s >= earliest && unix_s < latest)) {
    bad_column(column, "expected a time in the years " + std::to_string(model::limits::MIN_YEAR) + " to " +
                           std::to_string(model::limits::MAX_YEAR) + got(text));
  }
}

double check_trace_duration(double seconds, std::string_view column, std::string_view text) {
  if (!(seconds >= 0.0 && seconds <= model::limits::MAX_JOB_DURATION_S)) {
    bad_column(column, "expected a duration of 0 to " + number_text(model::limits::MAX_JOB_DURATION_S) + " s (a year)" +
                           got(text));
  }
  return seconds;
}

std::uint32_t check_trace_gpus(double count, std::string_view column, std::string_view text) {
  if (!(count >= 0.0 && count <= model::limits::MAX_JOB_GPUS) || count != std::floor(count)) {
    bad_column(column, "expected a whole number of 0 to " + std::to_string(model::limits::MAX_JOB_GPUS) + got(text));
  }
  return static_cast<std::uint32_t>(count);
}

TraceReader::TraceReader(TraceFile file) : file_(std::move(file)) {
  ACME_ASSERT(file_.users != nullptr, "a trace reader interns user names");
}

csv::LineReader TraceReader::open_lines(const std::string& path) {
  csv::LineReader lines = csv::LineReader::from_file(path);
  if (!lines.is_open()) {
    throw ConfigError(Location{path, 0, 0}, "",
                      "cannot open trace: " + lines.open_problem() + "; expected a readable file");
  }
  return lines;
}

void TraceReader::check_id(const model::JobSpec& job) {
  const char* column = id_column();
  if (column == nullptr) {
    return;
  }
  if (job.name.empty()) {
    bad_column(column, "expected a job id, got an empty field");
  }
  auto [it, fresh] = ids_.emplace(id_hash(job.name), row_line());
  if (!fresh && !may_repeat_id()) {
    bad_column(column, "job id \"" + job.name + "\" is used twice (first on line " + std::to_string(it->second) +
                           "); expected unique ids");
  }
}

std::optional<model::JobSpec> TraceReader::next() {
  while (true) {
    try {
      if (!read_row()) {
        return std::nullopt;
      }
      if (auto job = parse_row()) {
        check_id(*job);
        return job;
      }
    } catch (const BadRow& e) {
      if (file_.on_bad_row != BadRowPolicy::SKIP) {
        throw ConfigError(Location{file_.path, static_cast<int>(row_line()), 0}, "", e.message);
      }
      ++skipped_;
    }
  }
}

} // namespace acme::workloads
