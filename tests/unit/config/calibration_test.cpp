#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "sim/config/calibration.hpp"
#include "sim/model/error.hpp"
#include "tests/unit/test_paths.hpp"

using acme::ConfigError;
using acme::config::Calibration;
using acme::config::load_calibration;
using acme::config::load_yaml_text;

namespace {

const std::string SPEC = "configs/calibration/a100-spec.yaml";
const std::string HALF = "configs/calibration/test/half-pcie.yaml";

std::string read_text(const std::string& relative) {
  std::ifstream in(acme::test::source_path(relative));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The spec file's text with one piece replaced (the piece must be there).
std::string spec_with(const std::string& from, const std::string& to) {
  std::string text = read_text(SPEC);
  auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

/// 1-based line of the first occurrence of `needle` in `text`.
int line_of(const std::string& text, const std::string& needle) {
  auto at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

Calibration load_text(const std::string& text) {
  return acme::config::parse_calibration(load_yaml_text(text, "cal.yaml"), "cal.yaml");
}

Calibration load_path(const std::string& path, const std::string& base_dir) {
  return load_calibration(load_yaml_text("{path: \"" + path + "\"}", "run.yaml"), base_dir);
}

} // namespace

TEST_CASE("config::calibration: the A100 spec file loads with its published values", "[config][calibration]") {
  Calibration cal = load_path(acme::test::source_path(SPEC), "");
  CHECK(cal.source == "spec");
  CHECK(cal.backend == "spec");
  CHECK(cal.d2h_pinned_bw_Bps == Approx(25e9));
  CHECK(cal.h2d_pinned_bw_Bps == Approx(25e9));
  CHECK(cal.d2h_pageable_bw_Bps == Approx(12.5e9));
  CHECK(cal.async_snapshot_bw_Bps == Approx(25e9));
  CHECK(cal.async_stall_fraction == Approx(0.0123));
  CHECK(cal.storage_write_bw_Bps == Approx(25e9));
  CHECK(cal.restore_bw_Bps == Approx(12.5e9));
  CHECK(cal.model_load_bw_Bps == Approx(12.5e9));
  CHECK(cal.prefill_flops_per_s == Approx(312e12 * 0.8));
  CHECK(cal.trial_start_s == Approx(0.5));
  REQUIRE(cal.inference_by_batch.size() == 4);
  CHECK(cal.inference_by_batch.back().batch == 128);
  // The headline decode figure is the largest batch's; decode is memory-bound below it (roofline).
  CHECK(cal.decode_flops_per_s == Approx(cal.inference_by_batch.back().decode_flops_per_s));
  CHECK(cal.inference_by_batch.front().decode_flops_per_s == Approx(2039e9 * 0.85).epsilon(1e-3));
}

TEST_CASE("config::calibration: no section gives the embedded spec, equal to the file", "[config][calibration]") {
  Calibration file = load_path(acme::test::source_path(SPEC), "");
  Calibration defaults = load_calibration(acme::config::Node(), "");
  CHECK(defaults.origin.find("embedded") != std::string::npos);
  CHECK(acme::config::embedded_a100_spec_text() == read_text(SPEC));
  file.origin = defaults.origin;
  CHECK(defaults == file);
  CHECK(defaults == acme::config::default_calibration());
}

TEST_CASE("config::calibration: another file gives its own values, relative paths start at the config folder",
          "[config][calibration]") {
  Calibration spec = acme::config::default_calibration();
  Calibration half = load_path("test/half-pcie.yaml", acme::test::source_path("configs/calibration"));
  CHECK(half.origin == acme::test::source_path(HALF));
  CHECK(half.source == "measured");
  CHECK(half.device_name == "test device (half PCIe)");
  CHECK(half.d2h_pinned_bw_Bps == Approx(spec.d2h_pinned_bw_Bps / 2));
  CHECK(half.h2d_pinned_bw_Bps == Approx(spec.h2d_pinned_bw_Bps / 2));
  CHECK(half.storage_write_bw_Bps == Approx(spec.storage_write_bw_Bps / 2));
  CHECK(half.restore_bw_Bps == Approx(spec.restore_bw_Bps / 2));
  CHECK(half.async_snapshot_bw_Bps == Approx(10e9));
  CHECK(half.async_stall_fraction == Approx(0.04));
  CHECK(half.trial_start_s == Approx(1.0));
  REQUIRE(half.inference_by_batch.size() == 2);
  CHECK(half.inference_by_batch[1].batch == 64);
  CHECK(half.inference_by_batch[1].decode_flops_per_s == Approx(110.9e12));
}

TEST_CASE("config::calibration: an inline section reads like a file", "[config][calibration]") {
  std::string indented = "calibration:\n";
  std::istringstream lines(read_text(SPEC));
  for (std::string line; std::getline(lines, line);) {
    indented += "  " + line + "\n";
  }
  acme::config::Node root = load_yaml_text(indented, "run.yaml");
  Calibration inline_cal = load_calibration(root["calibration"], "");
  CHECK(inline_cal.origin == "inline");
  inline_cal.origin = acme::config::default_calibration().origin;
  CHECK(inline_cal == acme::config::default_calibration());
}

TEST_CASE("config::calibration: bad values give located errors", "[config][calibration]") {
  SECTION("a missing quantity names its key") {
    std::string text = spec_with("  h2d_pinned_bw_GBps: 25 ", "  # removed ");
    REQUIRE_THROWS_WITH(load_text(text), Catch::Contains("checkpoint.h2d_pinned_bw_GBps: missing; expected a "
                                                         "positive number (GB/s)"));
  }
  SECTION("a negative bandwidth points at its line") {
    std::string text = spec_with("d2h_pinned_bw_GBps: 25 ", "d2h_pinned_bw_GBps: -25 ");
    try {
      load_text(text);
      FAIL("expected a ConfigError");
    } catch (const ConfigError& e) {
      CHECK(e.get_location().file == "cal.yaml");
      CHECK(e.get_location().line == line_of(text, "d2h_pinned_bw_GBps: -25"));
      CHECK(e.get_key_path() == "checkpoint.d2h_pinned_bw_GBps");
      CHECK(std::string(e.what()).find("expected a positive number (GB/s), got -25") != std::string::npos);
    }
  }
  SECTION("a zero throughput is rejected") {
    REQUIRE_THROWS_WITH(load_text(spec_with("prefill_TFLOPs: 249.6 ", "prefill_TFLOPs: 0 ")),
                        Catch::Contains("evaluation.prefill_TFLOPs: expected a positive number (TFLOP/s), got 0"));
  }
  SECTION("a negative fraction is rejected, zero is fine") {
    REQUIRE_THROWS_WITH(load_text(spec_with("async_stall_fraction: 0.0123", "async_stall_fraction: -0.1")),
                        Catch::Contains("checkpoint.async_stall_fraction: expected a number >= 0"));
    CHECK(load_text(spec_with("async_stall_fraction: 0.0123", "async_stall_fraction: 0")).async_stall_fraction == 0.0);
  }
  SECTION("an unknown key is named with a suggestion") {
    std::string text = spec_with("  restore_bw_GBps:", "  restore_bw_GBs: 3\n  restore_bw_GBps:");
    REQUIRE_THROWS_WITH(load_text(text), Catch::Contains("cal.yaml:" + std::to_string(line_of(text, "restore_bw_GBs")) +
                                                         ":3: checkpoint.restore_bw_GBs: unknown key") &&
                                             Catch::Contains("did you mean \"restore_bw_GBps\""));
  }
  SECTION("a summary whose min exceeds its median") {
    std::string text = spec_with("serialise_bw_GBps: 5.4", "serialise_bw_GBps: {median: 5.4, min: 6, max: 7}");
    REQUIRE_THROWS_WITH(load_text(text), Catch::Contains("checkpoint.serialise_bw_GBps.min: expected min <= median"));
  }
  SECTION("a summary without a median") {
    std::string text = spec_with("serialise_bw_GBps: 5.4", "serialise_bw_GBps: {min: 5, max: 7}");
    REQUIRE_THROWS_WITH(load_text(text), Catch::Contains("checkpoint.serialise_bw_GBps.median: missing"));
  }
  SECTION("a text value where a number belongs") {
    REQUIRE_THROWS_WITH(load_text(spec_with("trial_start_s: 0.5", "trial_start_s: fast")),
                        Catch::Contains("evaluation.trial_start_s: expected a number, got \"fast\""));
  }
  SECTION("batch sizes out of order") {
    std::string text = spec_with("{batch: 8,", "{batch: 1,");
    REQUIRE_THROWS_WITH(load_text(text), Catch::Contains("evaluation.inference_by_batch[1].batch: expected batch "
                                                         "sizes in ascending order"));
  }
  SECTION("a missing section") {
    std::string text = read_text(SPEC);
    text = text.substr(0, text.find("evaluation:"));
    REQUIRE_THROWS_WITH(load_text(text), Catch::Contains("evaluation: missing section"));
  }
  SECTION("an unsupported schema version") {
    REQUIRE_THROWS_WITH(load_text(spec_with("schema_version: 1", "schema_version: 2")),
                        Catch::Contains("schema_version: unsupported schema version 2; expected 1"));
  }
}

TEST_CASE("config::calibration: bad sections of a run config", "[config][calibration]") {
  SECTION("path and inline values together") {
    auto root = load_yaml_text("calibration: {path: a.yaml, checkpoint: {}}", "run.yaml");
    REQUIRE_THROWS_WITH(load_calibration(root["calibration"], ""),
                        Catch::Contains("run.yaml:1:14: calibration: expected either {path: FILE} or an inline"));
  }
  SECTION("a missing file is reported at the path") {
    auto root = load_yaml_text("calibration:\n  path: nowhere.yaml\n", "run.yaml");
    REQUIRE_THROWS_WITH(load_calibration(root["calibration"], "/configs"),
                        Catch::Contains("run.yaml:2:9: calibration.path: cannot read calibration file "
                                        "\"/configs/nowhere.yaml\""));
  }
  SECTION("a scalar is the path of a calibration file (`calibration: PATH`)") {
    auto root = load_yaml_text("calibration: fast\n", "run.yaml");
    REQUIRE_THROWS_WITH(load_calibration(root["calibration"], ""),
                        Catch::Contains("run.yaml:1:14: calibration: cannot read calibration file \"fast\""));
    auto spec =
        load_yaml_text("calibration: " + acme::test::source_path("configs/calibration/a100-spec.yaml"), "run.yaml");
    REQUIRE(load_calibration(spec["calibration"], "").origin.ends_with("a100-spec.yaml"));
  }
  SECTION("errors inside the file point into the file") {
    const std::string file = acme::test::source_path("configs/calibration/test/negative-read-bw.yaml");
    auto root = load_yaml_text("calibration: {path: test/negative-read-bw.yaml}", "run.yaml");
    int line = line_of(read_text("configs/calibration/test/negative-read-bw.yaml"), "storage_read_bw_GBps");
    REQUIRE_THROWS_WITH(load_calibration(root["calibration"], acme::test::source_path("configs/calibration")),
                        Catch::StartsWith(file + ":" + std::to_string(line) +
                                          ":25: checkpoint.storage_read_bw_GBps: "
                                          "expected a positive number (GB/s), got -12.5"));
  }
}
