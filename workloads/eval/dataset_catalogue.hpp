#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "policies/eval/eval_dispatch.hpp"
#include "sim/config/config.hpp"

namespace acme::workloads::eval {

/// Where the built-in catalogue comes from (compiled in; named so in error messages).
inline constexpr const char* BUILTIN_CATALOGUE_NAME = "configs/eval/datasets.csv";

/// Parses a dataset catalogue (configs/eval/datasets.csv documents the format): '#' comment lines, a
/// header naming the columns (name, samples, preprocess_s, inference_s, metric_s required; category,
/// form optional; in any order), one row per dataset. A bad header, row or value throws ConfigError
/// "file:line: column "x": what is wrong; expected ...". `file_name` names the text in messages.
std::vector<policies::EvalDataset> parse_catalogue(std::string_view text, const std::string& file_name);
/// Reads and parses the catalogue at `path` (ConfigError when it cannot be opened).
std::vector<policies::EvalDataset> load_catalogue(const std::string& path);
/// The catalogue compiled into the binary (configs/eval/datasets.csv).
std::string_view builtin_catalogue_text();
std::vector<policies::EvalDataset> builtin_catalogue();

/// The catalogue a config names: `node` absent or "builtin" gives the built-in one, else a CSV path
/// (resolved against the config's folder).
std::vector<policies::EvalDataset> catalogue_from(const config::Config& config, const config::Node& node);
/// The datasets a config selects from `catalogue`: "all" (or absent), a catalogue path (all its rows),
/// or a list of names (each must be in the catalogue; unknown names fail with a did-you-mean).
std::vector<policies::EvalDataset> select_datasets(const config::Config& config, const config::Node& node,
                                                   const std::vector<policies::EvalDataset>& catalogue);

} // namespace acme::workloads::eval
