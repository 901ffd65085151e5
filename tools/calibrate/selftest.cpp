// acme-calibrate-selftest TOOL WORKDIR: runs an acme-calibrate binary's CPU fallback with tiny sizes
// (about a second) and checks its output: every field present and positive (fractions >= 0), the file
// loads with acme::config::load_calibration, the raw CSV has every sample, no scratch file is left, and
// bad options stop with exit code 2 and a message naming the option. Exit 0 when all checks pass, 1 otherwise.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/config/calibration.hpp"
#include "sim/config/node.hpp"
#include "sim/model/error.hpp"
#include <sys/wait.h>

namespace fs = std::filesystem;
using acme::config::Node;

namespace {

constexpr int REPEATS = 3;
constexpr double SHARD_MIB = 8.0;
constexpr double BYTES_PER_MIB = 1024.0 * 1024.0;
constexpr int EXIT_BAD_INPUT = 2;

/// Prints each check and counts the failures.
class Tally {
public:
  void check(bool ok, const std::string& what) {
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
    failures_ += ok ? 0 : 1;
  }
  int get_failures() const { return failures_; }

private:
  int failures_ = 0;
};

std::string slurp(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Runs the tool with `args` (a shell-quoted string); stdout and stderr go to files in `dir`.
int run_tool(const std::string& tool, const std::string& args, const fs::path& dir, const std::string& tag) {
  std::string command = "'" + tool + "' " + args + " > '" + (dir / (tag + ".stdout")).string() + "' 2> '" +
                        (dir / (tag + ".stderr")).string() + "'";
  int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool is_fraction(const std::string& key) {
  return key.find("fraction") != std::string::npos;
}

/// A {median, min, max, q1, q3, repeats} mapping with ordered, positive (fractions: >= 0) values.
void check_summary(Tally& t, const Node& q) {
  const std::string& key = q.path();
  bool complete = q.is_map();
  for (const char* field : {"median", "min", "max", "q1", "q3", "repeats"}) {
    complete = complete && q[field].is_defined();
  }
  t.check(complete, key + " has median, min, max, q1, q3, repeats");
  if (!complete) {
    return;
  }
  double lo = q["min"].as_double();
  bool sign_ok = is_fraction(key) ? lo >= 0.0 : lo > 0.0;
  bool ordered = lo <= q["q1"].as_double() && q["q1"].as_double() <= q["median"].as_double() &&
                 q["median"].as_double() <= q["q3"].as_double() && q["q3"].as_double() <= q["max"].as_double();
  t.check(sign_ok && ordered,
          key + (is_fraction(key) ? " >= 0" : " > 0") + " and ordered (median " + q["median"].as_string() + ")");
  t.check(q["repeats"].as_int() == REPEATS, key + " has " + std::to_string(REPEATS) + " repeats");
}

void check_section(Tally& t, const Node& doc, const std::string& name, const std::vector<std::string>& keys) {
  Node section = doc[name];
  t.check(section.is_map(), "section " + name + " present");
  for (const auto& key : keys) {
    t.check(section[key].is_defined(), name + "." + key + " present");
    if (section[key].is_defined()) {
      check_summary(t, section[key]);
    }
  }
}

void check_inference(Tally& t, const Node& doc) {
  Node list = doc["evaluation"]["inference_by_batch"];
  t.check(list.is_sequence() && list.size() == 2, "evaluation.inference_by_batch has the 2 batch sizes asked for");
  for (std::size_t i = 0; i < list.size(); ++i) {
    check_summary(t, list.at(i)["prefill_TFLOPs"]);
    check_summary(t, list.at(i)["decode_TFLOPs"]);
  }
}

void check_machine(Tally& t, const Node& doc) {
  Node machine = doc["machine"];
  for (const char* key : {"host", "cpu_model", "date_utc", "backend", "device_name", "driver_version",
                          "cuda_runtime_version", "gemm_library", "gemm_dtype"}) {
    t.check(machine[key].is_scalar() && !machine[key].as_string().empty(), std::string("machine.") + key + " set");
  }
  t.check(machine["backend"].is_scalar() && machine["backend"].as_string() == "cpu-fallback",
          "machine.backend is cpu-fallback");
  t.check(machine["device_memory_GiB"].is_scalar() && machine["device_memory_GiB"].as_double() > 0.0,
          "machine.device_memory_GiB > 0");
  t.check(doc["options"]["measured_bytes"].is_scalar() &&
              doc["options"]["measured_bytes"].as_double() == SHARD_MIB * BYTES_PER_MIB,
          "options.measured_bytes is the --shard-bytes cap");
}

void check_output(Tally& t, const fs::path& dir) {
  const fs::path yaml = dir / "cpu.yaml";
  Node doc = acme::config::load_yaml_file(yaml.string());
  check_machine(t, doc);
  check_section(t, doc, "checkpoint",
                {"d2h_pageable_bw_GBps", "d2h_pinned_bw_GBps", "h2d_pinned_bw_GBps", "async_snapshot_bw_GBps",
                 "async_compute_slowdown_fraction", "async_stall_fraction", "serialise_bw_GBps",
                 "storage_write_bw_GBps", "storage_read_bw_GBps", "restore_bw_GBps"});
  check_section(t, doc, "evaluation",
                {"model_load_bw_GBps", "prefill_TFLOPs", "decode_TFLOPs", "metric_tokens_per_s", "metric_samples_per_s",
                 "trial_start_s"});
  check_section(t, doc, "timings",
                {"sync_snapshot_s", "async_snapshot_s", "compute_loop_s", "compute_loop_with_snapshot_s",
                 "checkpoint_persist_s", "restore_s", "model_load_s", "metric_phase_s"});
  check_inference(t, doc);
  Node section = acme::config::load_yaml_text("{path: " + yaml.string() + "}", "selftest");
  acme::config::Calibration cal = acme::config::load_calibration(section, "");
  t.check(cal.backend == "cpu-fallback" && cal.d2h_pinned_bw_Bps > 0.0 && cal.trial_start_s > 0.0,
          "load_calibration reads the output");
  std::string raw = slurp(dir / "cpu.raw.csv");
  auto rows = static_cast<int>(std::count(raw.begin(), raw.end(), '\n'));
  // 10 checkpoint + 6 evaluation + 2 x 2 inference + 8 timings quantities, REPEATS samples each, + header.
  constexpr int QUANTITIES = 10 + 6 + 4 + 8;
  t.check(rows == QUANTITIES * REPEATS + 1, "raw CSV has every sample (" + std::to_string(rows) + " lines)");
  t.check(slurp(dir / "ok.stdout").find("backend: cpu-fallback") != std::string::npos,
          "stdout says backend: cpu-fallback");
}

void check_bad_input(Tally& t, const std::string& tool, const fs::path& dir) {
  struct Case {
    std::string args;
    std::string message;
  };
  for (const Case& c : {Case{"--cpu --tp 0", "acme-calibrate: --tp: expected a positive integer, got \"0\""},
                        Case{"--cpu --path '" + (dir / "missing").string() + "'", "acme-calibrate: --path: cannot"},
                        Case{"--cpu --shard-bytes 8GBs", "acme-calibrate: --shard-bytes: unknown unit \"GBs\""},
                        Case{"--cpu --repeat 3", "unknown option; expected one of"}}) {
    int rc = run_tool(tool, c.args, dir, "bad");
    std::string err = slurp(dir / "bad.stderr");
    bool ok = rc == EXIT_BAD_INPUT && err.find(c.message) != std::string::npos;
    t.check(ok, "`" + c.args + "` exits 2 with \"" + c.message + "\"");
    if (!ok) {
      std::printf("got exit code %d and stderr:\n%s\n", rc, err.c_str());
    }
  }
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: acme-calibrate-selftest TOOL WORKDIR\n");
    return EXIT_BAD_INPUT;
  }
  const std::string tool = argv[1];
  const fs::path dir = argv[2];
  fs::remove_all(dir);
  fs::create_directories(dir);
  Tally t;
  const std::string args = "--cpu --model-params 2e7 --dp 1 --shard-bytes 8MiB --repeats 3 --batch-sizes 1,4 "
                           "--prompt-tokens 32 --train-tokens 64 --sample-s 0.002 --metric-samples 50 "
                           "--metric-sample-tokens 64 --path '" +
                           dir.string() + "' --out '" + (dir / "cpu.yaml").string() + "'";
  int rc = run_tool(tool, args, dir, "ok");
  t.check(rc == 0, "acme-calibrate " + args + " exits 0 (got " + std::to_string(rc) + ")");
  if (rc != 0) {
    std::printf("its stderr:\n%s\n", slurp(dir / "ok.stderr").c_str());
  }
  if (rc == 0) {
    try {
      check_output(t, dir);
    } catch (const acme::ConfigError& e) {
      t.check(false, std::string("output is a valid calibration file: ") + e.what());
    }
  }
  bool leftovers = false;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    leftovers = leftovers || name.rfind("acme-calibrate-", 0) == 0 || name.find(".tmp.") != std::string::npos;
  }
  t.check(!leftovers, "no scratch or temporary file left in " + dir.string());
  check_bad_input(t, tool, dir);
  std::printf("%d check(s) failed\n", t.get_failures());
  return t.get_failures() == 0 ? 0 : 1;
}
