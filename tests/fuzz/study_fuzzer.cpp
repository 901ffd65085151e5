// Fuzzes the study reader of `acme-sim sweep` end to end: the study file, its points, the plan written to
// study.json and read back (by a resumed sweep and by `merge`), and the Slurm scripts its name goes into.
// Bad input must end in a ConfigError; a study that loads must round-trip through study.json unchanged.
// The same bytes are also read as a damaged study.json.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "sim/model/error.hpp"
#include "sim/study/plan.hpp"
#include "sim/study/point.hpp"
#include "sim/study/slurm_script.hpp"
#include "sim/study/study.hpp"
#include "tests/fuzz/fuzz_input.hpp"

namespace {

namespace fs = std::filesystem;

/// A folder of this process with base.yaml, the config the seed studies name (`config: base.yaml`).
const fs::path& work_dir() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("acme-fuzz-study-" + std::to_string(::getpid()));
    fs::create_directories(d / "plan");
    std::ofstream(d / "base.yaml") << "clusters: [{name: a, nodes: 2}]\n";
    return d;
  }();
  return dir;
}

/// study.json of the largest studies (100,000 points) takes ~10 s to write and read back (~0.1 ms a point,
/// linear): past this the round trip would only trip libFuzzer's time limit.
constexpr std::size_t ROUND_TRIP_MAX_POINTS = 10'000;

void load_plan_and_scripts(const std::string& text) {
  acme::study::Study study = acme::study::parse_study_text(text, "study.yaml", work_dir().string());
  std::vector<acme::study::Point> points = acme::study::expand_points(study);
  if (points.size() > ROUND_TRIP_MAX_POINTS) {
    return;
  }
  acme::study::Plan plan = acme::study::make_plan(study, points, "");
  acme::study::write_plan((work_dir() / "plan").string(), plan);
  if (!acme::study::same_study(plan, acme::study::read_plan((work_dir() / "plan").string()))) {
    std::abort(); // study.json lost or changed a point: a resumed sweep would redo or skip work
  }
  acme::study::SlurmOptions slurm{(work_dir() / "slurm").string(),
                                  "/usr/bin/acme-sim",
                                  "/s/study.yaml",
                                  "/s/out",
                                  study.name,
                                  points.size(),
                                  1,
                                  "01:00:00",
                                  ""};
  acme::study::check_slurm_options(slurm);
  acme::study::sweep_sbatch_text(slurm);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(acme::fuzz::as_text(data, size));
  try {
    load_plan_and_scripts(text);
  } catch (const acme::ConfigError&) {
  }
  try {
    std::ofstream(work_dir() / "plan" / "study.json", std::ios::binary | std::ios::trunc) << text;
    acme::study::read_plan((work_dir() / "plan").string());
  } catch (const acme::ConfigError&) {
  }
  return 0;
}
