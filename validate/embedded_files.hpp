#pragma once

#include <string_view>
#include <vector>

namespace acme::validate {

/// A file compiled into the binary (validate/CMakeLists.txt lists them), so `acme-sim validate` runs
/// wherever the binary is, without the source tree.
struct EmbeddedFile {
  std::string_view name;
  std::string_view text;
};

/// The paper's data (data/acme/*.csv), by file name ("cluster_summary.csv").
const std::vector<EmbeddedFile>& embedded_paper_files();

/// The validation scenarios and reference numbers (validate/<subject>/*.yaml), by path under validate/
/// ("checkpoint/oracle.yaml").
const std::vector<EmbeddedFile>& embedded_validation_files();

/// The text of validate/<name>; a programmer error (assert) when it is not compiled in.
std::string_view validation_file(std::string_view name);

} // namespace acme::validate
