#pragma once

#include <string>

#include "sim/study/results.hpp"

namespace acme::study {

constexpr const char* PAIRED_CSV = "paired.csv";

/// paired.csv: every setting against the study's baseline setting (each varied key at its first value),
/// metric by metric, over the seeds both finished: the baseline's mean, the setting's mean, the mean of the
/// per-seed differences and its Student t interval at CONFIDENCE. Every point of a study runs the same
/// seeds, and a seed draws the same workload and failures at every setting, so the paired interval is the
/// one that says whether two settings differ (the unpaired intervals of aggregate.csv overlap far more).
/// One row per setting and metric (long format); "" when the study has no baseline setting or one setting.
std::string paired_csv(const ResultsInput& input);

} // namespace acme::study
