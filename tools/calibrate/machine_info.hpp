#pragma once

#include <string>

namespace acme::tools::calibrate {

/// The host a calibration ran on.
struct MachineInfo {
  std::string host;
  std::string cpu_model;
  std::string date_utc; ///< ISO 8601, e.g. 2025-01-31T12:00:00Z
};

MachineInfo describe_machine();

/// The file system type of `path` ("ext4", "xfs", "nfs", "lustre", "tmpfs", ... or "0x<magic>").
std::string file_system_type(const std::string& path);

} // namespace acme::tools::calibrate
