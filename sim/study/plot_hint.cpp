#include "sim/study/plot_hint.hpp"

#include <filesystem>

#include "sim/study/slurm_script.hpp"

namespace acme::study {

std::string plot_command(const std::string& dir) {
  std::filesystem::path tool = std::filesystem::path(ACME_SOURCE_DIR) / "tools" / "plot";
  std::error_code ec;
  std::string program = std::filesystem::is_regular_file(tool, ec) ? tool.string() : "tools/plot";
  std::string out = (std::filesystem::path(dir) / "plots").string();
  return shell_quote(program) + " " + shell_quote(dir) + " -o " + shell_quote(out);
}

} // namespace acme::study
