#pragma once

#include "sim/config/node.hpp"
#include "sim/study/study.hpp"

namespace acme::study {

/// Most metrics a study's `answer:` may name (each is a table row and a figure per cluster in the report).
constexpr std::size_t MAX_ANSWER_METRICS = 12;

/// Reads `question:` (text), `answer:` (summary.json paths under clusters.<name>., `*` for one segment,
/// e.g. by_type.*.queue_s.mean) and `baseline:` (a value per varied key; keys left out take their first
/// value) into `study`, whose axes and labels are already parsed. Throws ConfigError, located.
void parse_question(const config::Node& root, Study& study);

/// The baseline setting when the study names none: every varied key at its first value.
std::vector<config::Override> first_values(const Study& study);

} // namespace acme::study
