#include "workloads/replay/philly_trace_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "sim/model/civil_time.hpp"
#include "sim/model/error.hpp"
#include "workloads/replay/line_reader.hpp"

namespace acme::workloads {
namespace {

const char* const COLUMN_NAMES[] = {"timestamp", "duration", "num_gpus", "gpu_time", "cluster"};
constexpr bool REQUIRED[] = {true, true, true, false, false};
constexpr std::size_t COLUMNS = 5;
// gpu_time is written with one decimal in the Pollux table: allow rounding, and a relative slack for
// long jobs whose product exceeds double-to-text precision.
constexpr double GPU_TIME_ABS_TOLERANCE_S = 1.0;
constexpr double GPU_TIME_REL_TOLERANCE = 1e-6;
constexpr double MAX_GPUS = 4294967295.0; // fits JobSpec::gpus (uint32)

struct BadRow {
  std::string message;
};

[[noreturn]] void bad(std::size_t column, const std::string& what) {
  throw BadRow{std::string("column \"") + COLUMN_NAMES[column] + "\": " + what};
}

bool parse_double(std::string_view text, double& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && std::isfinite(out);
}

struct RowParser {
  const std::vector<int>& index;
  const std::vector<std::string_view>& fields;
  double utc_offset_s;

  std::string_view field(std::size_t c) const {
    int i = index[c];
    return i < 0 ? std::string_view{} : fields[static_cast<std::size_t>(i)];
  }
  double seconds(std::size_t c) const {
    double value = 0.0;
    if (!parse_double(field(c), value) || value < 0.0) {
      bad(c, "expected seconds >= 0, got \"" + std::string(field(c)) + "\"");
    }
    return value;
  }
  PhillyTraceReader::Row parse(model::NameTable& users, std::uint32_t row) const {
    PhillyTraceReader::Row job;
    job.row = row;
    auto submit = model::parse_datetime(field(0), utc_offset_s);
    if (!submit) {
      bad(0, "expected a date-time such as \"2017-10-09 07:01:55\", got \"" + std::string(field(0)) + "\"");
    }
    job.submit_time_s = *submit;
    job.duration_s = seconds(1);
    double gpus = 0.0; // the table may show "8.0"
    if (!parse_double(field(2), gpus) || gpus < 0.0 || gpus != std::floor(gpus) || gpus > MAX_GPUS) {
      bad(2, "expected a non-negative integer, got \"" + std::string(field(2)) + "\"");
    }
    job.gpus = static_cast<std::uint32_t>(gpus);
    if (index[3] >= 0) {
      double gpu_time = seconds(3);
      double expected = job.duration_s * job.gpus;
      if (std::abs(gpu_time - expected) > std::max(GPU_TIME_ABS_TOLERANCE_S, GPU_TIME_REL_TOLERANCE * expected)) {
        bad(3,
            "expected duration x num_gpus (" + std::to_string(expected) + "), got \"" + std::string(field(3)) + "\"");
      }
    }
    job.user = users.intern(field(4));
    return job;
  }
};

} // namespace

PhillyTraceReader::PhillyTraceReader(std::string path, model::ClusterId cluster, double utc_offset_s,
                                     model::NameTable& users, BadRowPolicy on_bad_row)
    : cluster_(cluster) {
  read(path, utc_offset_s, users, on_bad_row);
  std::sort(rows_.begin(), rows_.end(), [](const Row& a, const Row& b) {
    return a.submit_time_s < b.submit_time_s || (a.submit_time_s == b.submit_time_s && a.row < b.row);
  });
}

void PhillyTraceReader::read(const std::string& path, double utc_offset_s, model::NameTable& users,
                             BadRowPolicy on_bad_row) {
  LineReader lines(path);
  std::string_view line;
  std::vector<std::string_view> fields;
  if (!lines.next(line)) {
    throw ConfigError(Location{path, 1, 0}, "", "empty trace; expected a header row timestamp,duration,num_gpus,...");
  }
  LineReader::split(line, ',', fields);
  const std::size_t field_count = fields.size();
  std::vector<int> index(COLUMNS, -1);
  for (std::size_t f = 0; f < fields.size(); ++f) {
    for (std::size_t c = 0; c < COLUMNS; ++c) {
      if (fields[f] == COLUMN_NAMES[c]) {
        index[c] = static_cast<int>(f);
      }
    }
  }
  for (std::size_t c = 0; c < COLUMNS; ++c) {
    if (REQUIRED[c] && index[c] < 0) {
      throw ConfigError(Location{path, 1, 0}, "",
                        std::string("missing column \"") + COLUMN_NAMES[c] +
                            "\"; expected the Philly (Pollux) schema timestamp,duration,num_gpus,gpu_time,cluster");
    }
  }
  RowParser parser{index, fields, utc_offset_s};
  std::uint32_t row = 0;
  while (lines.next(line)) {
    if (line.empty()) {
      continue;
    }
    ++row;
    LineReader::split(line, ',', fields);
    try {
      if (fields.size() != field_count) {
        throw BadRow{"expected " + std::to_string(field_count) + " fields as in the header, got " +
                     std::to_string(fields.size())};
      }
      rows_.push_back(parser.parse(users, row));
    } catch (const BadRow& e) {
      if (on_bad_row == BadRowPolicy::SKIP) {
        ++skipped_;
        continue;
      }
      throw ConfigError(Location{path, static_cast<int>(lines.line_number()), 0}, "", e.message);
    }
  }
}

std::optional<model::JobSpec> PhillyTraceReader::next() {
  if (next_ >= rows_.size()) {
    return std::nullopt;
  }
  const Row& row = rows_[next_++];
  model::JobSpec job;
  job.cluster = cluster_;
  job.name = std::to_string(row.row);
  job.user = row.user;
  job.submit_time_s = row.submit_time_s;
  job.duration_s = row.duration_s;
  job.gpus = row.gpus;
  return job;
}

} // namespace acme::workloads
