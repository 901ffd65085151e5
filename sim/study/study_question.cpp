#include "sim/study/study_question.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "sim/model/error.hpp"

namespace acme::study {
namespace {

constexpr std::size_t MAX_QUESTION_CHARS = 2000;
constexpr const char* ANSWER_EXPECTED = "expected a summary.json path under clusters.<name>. such as "
                                        "by_type.all_gpu.queue_s.mean or by_type.*.queue_s.mean ('*': every job "
                                        "type), in letters, digits, '_' and '.'";

bool is_metric_path(const std::string& path) {
  if (path.empty() || path.size() > 200 || path.front() == '.' || path.back() == '.' ||
      path.find("..") != std::string::npos) {
    return false;
  }
  return std::all_of(path.begin(), path.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '*';
  });
}

std::vector<std::string> parse_answer(const config::Node& answer) {
  std::vector<std::string> paths;
  if (!answer.is_defined()) {
    return paths;
  }
  if (!answer.is_sequence() || answer.size() == 0 || answer.size() > MAX_ANSWER_METRICS) {
    answer.fail("expected a list of 1 to " + std::to_string(MAX_ANSWER_METRICS) +
                " metrics, e.g. [by_type.*.queue_s.mean, gpu_utilisation]");
  }
  for (std::size_t i = 0; i < answer.size(); ++i) {
    std::string path = answer.at(i).as_string();
    if (path.rfind("clusters.", 0) == 0) {
      answer.at(i).fail("\"" + excerpt(path) +
                        "\" names the cluster; expected the path under clusters.<name>. "
                        "(the report shows it for every cluster)");
    }
    if (!is_metric_path(path)) {
      answer.at(i).fail("\"" + excerpt(path) + "\" is not a metric path; " + ANSWER_EXPECTED);
    }
    if (std::find(paths.begin(), paths.end(), path) != paths.end()) {
      answer.at(i).fail("\"" + path + "\" appears twice; expected distinct metrics");
    }
    paths.push_back(path);
  }
  return paths;
}

/// The indices of an axis's values that `text` names: the value as written, or its label.
std::vector<std::size_t> matching_columns(const Study& study, const Axis& axis, const std::string& text) {
  std::vector<std::size_t> columns;
  const AxisLabels* names = nullptr;
  for (const auto& l : study.labels) {
    names = l.key_path == axis.key_path ? &l : names;
  }
  for (std::size_t i = 0; i < axis.values.size(); ++i) {
    if (axis.values[i] == text || (names != nullptr && names->names[i] == text)) {
      columns.push_back(i);
    }
  }
  return columns;
}

/// The column `baseline` names for `axes` (one grid axis, or a zip group's axes), or 0 when it names none.
std::size_t baseline_column(const config::Node& baseline, const Study& study, const std::vector<Axis>& axes) {
  std::set<std::size_t> allowed;
  for (std::size_t i = 0; i < axes.front().values.size(); ++i) {
    allowed.insert(i);
  }
  for (const auto& axis : axes) {
    if (!baseline[axis.key_path].is_defined()) {
      continue;
    }
    config::Node value = baseline[axis.key_path];
    std::string text = value_text(value);
    auto columns = matching_columns(study, axis, text);
    if (columns.empty()) {
      std::vector<std::string> shown(axis.values.begin(), axis.values.end());
      value.fail("\"" + excerpt(text) + "\" is not a value of " + axis.key_path + "; expected one of: " + join(shown));
    }
    std::set<std::size_t> kept;
    for (auto c : columns) {
      if (allowed.count(c) != 0) {
        kept.insert(c);
      }
    }
    if (kept.empty()) {
      value.fail("\"" + excerpt(text) +
                 "\" is never zipped with the other baseline values of its zip group; "
                 "expected values of one column of the zip");
    }
    allowed = kept;
  }
  return *allowed.begin();
}

std::vector<config::Override> parse_baseline(const config::Node& baseline, const Study& study) {
  if (!baseline.is_defined()) {
    return first_values(study);
  }
  baseline.expect_map();
  auto keys = axis_keys(study);
  for (const auto& key : baseline.keys()) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      baseline[key].fail("is not varied by grid or zip; expected one of: " + join(keys, ", "));
    }
  }
  std::vector<config::Override> out;
  for (const auto& axis : study.grid) {
    out.emplace_back(axis.key_path, axis.values[baseline_column(baseline, study, {axis})]);
  }
  for (const auto& group : study.zips) {
    std::size_t column = baseline_column(baseline, study, group.axes);
    for (const auto& axis : group.axes) {
      out.emplace_back(axis.key_path, axis.values[column]);
    }
  }
  return out;
}

} // namespace

std::vector<config::Override> first_values(const Study& study) {
  std::vector<config::Override> out;
  for (const auto& axis : study.grid) {
    out.emplace_back(axis.key_path, axis.values.front());
  }
  for (const auto& group : study.zips) {
    for (const auto& axis : group.axes) {
      out.emplace_back(axis.key_path, axis.values.front());
    }
  }
  return out;
}

void parse_question(const config::Node& root, Study& study) {
  if (root["question"].is_defined()) {
    study.question = root["question"].as_string();
    if (study.question.empty() || study.question.size() > MAX_QUESTION_CHARS) {
      root["question"].fail("expected the study's question as text of 1 to " + std::to_string(MAX_QUESTION_CHARS) +
                            " characters");
    }
  }
  study.answer = parse_answer(root["answer"]);
  if (root["baseline"].is_defined() && axis_keys(study).empty()) {
    root["baseline"].fail("names a baseline setting, but the study varies no key; expected grid: or zip: axes");
  }
  study.baseline = parse_baseline(root["baseline"], study);
}

} // namespace acme::study
