#pragma once

#include <string>

#include "tools/calibrate/backend.hpp"
#include "tools/calibrate/checkpoint_kernel.hpp"
#include "tools/calibrate/eval_kernel.hpp"
#include "tools/calibrate/machine_info.hpp"
#include "tools/calibrate/options.hpp"
#include "tools/calibrate/plan.hpp"

namespace acme::tools::calibrate {

/// Everything one run measured, with where and how.
struct RunReport {
  MachineInfo machine;
  DeviceInfo device;
  Options opts;
  Plan plan;
  std::string path_fs_type;
  CheckpointResults checkpoint;
  EvalResults evaluation;
};

/// The calibration file (schema in tools/calibrate/README.md; read by acme::config::load_calibration).
std::string calibration_yaml(const RunReport& report);

/// Every sample of every quantity: `section,key,repeat,value`.
std::string raw_csv(const RunReport& report);

/// Writes `text` to a temporary file in the same folder, then renames it over `path`.
void write_file_atomically(const std::string& path, const std::string& text);

} // namespace acme::tools::calibrate
