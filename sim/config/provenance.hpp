#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sim/config/config.hpp"

namespace acme::config {

/// Version of config.resolved.yaml's layout (its header lines); raised when they change.
constexpr int RESOLVED_CONFIG_SCHEMA = 1;
constexpr const char* RESOLVED_CONFIG_FILE = "config.resolved.yaml";

/// A file a run read: the config itself, a trace, a failure trace, a calibration file, a node list, a
/// dataset catalogue, a Python policy module and the Python files beside it (which it may import).
struct InputFile {
  std::string key;  ///< where the config names it ("workload.path", "clusters[0].policies.scheduler.module"),
                    ///< "config" for the config's own text, KEY/NAME for a Python file beside a module
  std::string path; ///< as the run resolved it
  std::string hash; ///< content_hash() of its bytes
};

/// FNV-1a 64 of `bytes` as 16 hex digits: an input's identity (not a security digest).
std::string content_hash(std::string_view bytes);
/// content_hash() of a file's bytes; "" when it cannot be read.
std::string file_hash(const std::string& path);

/// Content hashes by path, kept while files do not change (a sweep hashes each trace once, not per point).
using FileHashCache = std::map<std::string, std::string>;

/// Every file the config names (keys path, module, nodes_from, catalogue, calibration, anywhere in the
/// resolved tree) that exists, in the config's order, after the config's own text (key "config").
std::vector<InputFile> input_files(const Config& cfg, FileHashCache* cache = nullptr);

/// config.resolved.yaml: the config after its overrides (the seed always stated), under a header giving
/// the schema, the source file, the overrides and the absolute folder that its relative paths resolve
/// from (`base_dir:`), so that the run can be repeated from its folder alone.
/// `defaults` ("path.key: value", run::unwritten_defaults) close it as comments: the values the run used
/// for keys the config leaves out (comments, so that a rerun reads the same config).
std::string resolved_config_text(const Config& cfg, const std::vector<std::string>& defaults = {});

/// The `# base_dir:` line of a config.resolved.yaml text ("" when it has none).
std::string resolved_base_dir(std::string_view text);

} // namespace acme::config
