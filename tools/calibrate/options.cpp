#include "tools/calibrate/options.hpp"

#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <map>

#include "sim/config/units.hpp"
#include "sim/model/error.hpp"

namespace acme::tools::calibrate {
namespace {

const Location WHERE{"acme-calibrate", 0, 0};

[[noreturn]] void bad(const std::string& option, const std::string& what) {
  throw ConfigError(WHERE, option, what);
}

std::uint64_t parse_unsigned(const std::string& option, const std::string& text, std::uint64_t max) {
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value == 0 || value > max) {
    bad(option, "expected a positive integer, got \"" + text + "\"");
  }
  return value;
}

std::uint32_t parse_count(const std::string& option, const std::string& text) {
  return static_cast<std::uint32_t>(parse_unsigned(option, text, std::numeric_limits<std::uint32_t>::max()));
}

int parse_index(const std::string& option, const std::string& text) {
  int value = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) {
    bad(option, "expected a device index (0, 1, ...), got \"" + text + "\"");
  }
  return value;
}

double parse_positive(const std::string& option, const std::string& text) {
  double value = 0.0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value <= 0.0) {
    bad(option, "expected a positive number, got \"" + text + "\"");
  }
  return value;
}

/// "7e9", "7B", "123B", "350M": a parameter count.
double parse_params(const std::string& option, const std::string& text) {
  static const std::map<char, double> SUFFIX = {{'K', 1e3}, {'M', 1e6}, {'B', 1e9}, {'T', 1e12}};
  if (!text.empty()) {
    auto it = SUFFIX.find(text.back());
    if (it != SUFFIX.end()) {
      return parse_positive(option, text.substr(0, text.size() - 1)) * it->second;
    }
  }
  double value = 0.0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value <= 0.0) {
    bad(option, "expected a parameter count such as \"7e9\" or \"123B\", got \"" + text + "\"");
  }
  return value;
}

double parse_size(const std::string& option, const std::string& text) {
  config::ParsedQuantity q = config::parse_bytes(text);
  if (!q.error.empty()) {
    bad(option, q.error);
  }
  if (q.value < 1.0) {
    bad(option, "expected a positive size such as \"2GiB\", got \"" + text + "\"");
  }
  return q.value;
}

std::vector<std::uint32_t> parse_list(const std::string& option, const std::string& text) {
  std::vector<std::uint32_t> out;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t comma = text.find(',', begin);
    std::size_t end = comma == std::string::npos ? text.size() : comma;
    out.push_back(parse_count(option, text.substr(begin, end - begin)));
    begin = end + 1;
  }
  return out;
}

using Setter = std::function<void(Options&, const std::string& option, const std::string& value)>;

const std::map<std::string, Setter>& value_options() {
  static const std::map<std::string, Setter> table = {
      {"--model-params", [](Options& o, auto& n, auto& v) { o.model_params = parse_params(n, v); }},
      {"--bytes-per-param", [](Options& o, auto& n, auto& v) { o.bytes_per_param = parse_positive(n, v); }},
      {"--tp", [](Options& o, auto& n, auto& v) { o.tp = parse_count(n, v); }},
      {"--pp", [](Options& o, auto& n, auto& v) { o.pp = parse_count(n, v); }},
      {"--dp", [](Options& o, auto& n, auto& v) { o.dp = parse_count(n, v); }},
      {"--shard-bytes", [](Options& o, auto& n, auto& v) { o.shard_bytes_cap = parse_size(n, v); }},
      {"--repeats", [](Options& o, auto& n, auto& v) { o.repeats = parse_count(n, v); }},
      {"--path", [](Options& o, auto&, auto& v) { o.path = v; }},
      {"--out", [](Options& o, auto&, auto& v) { o.out = v; }},
      {"--raw", [](Options& o, auto&, auto& v) { o.raw = v; }},
      {"--batch-sizes", [](Options& o, auto& n, auto& v) { o.batch_sizes = parse_list(n, v); }},
      {"--prompt-tokens", [](Options& o, auto& n, auto& v) { o.prompt_tokens = parse_count(n, v); }},
      {"--train-tokens", [](Options& o, auto& n, auto& v) { o.train_tokens = parse_count(n, v); }},
      {"--gemm-hidden", [](Options& o, auto& n, auto& v) { o.gemm_hidden = parse_count(n, v); }},
      {"--sample-s", [](Options& o, auto& n, auto& v) { o.sample_s = parse_positive(n, v); }},
      {"--metric-samples", [](Options& o, auto& n, auto& v) { o.metric_samples = parse_count(n, v); }},
      {"--metric-sample-tokens", [](Options& o, auto& n, auto& v) { o.metric_sample_tokens = parse_count(n, v); }},
      {"--seed", [](Options& o, auto& n, auto& v) { o.seed = parse_unsigned(n, v, UINT64_MAX); }},
      {"--device", [](Options& o, auto& n, auto& v) { o.device = parse_index(n, v); }},
  };
  return table;
}

std::vector<std::string> option_names() {
  std::vector<std::string> names = {"--cpu", "--build-info", "--help"};
  for (const auto& [name, setter] : value_options()) {
    names.push_back(name);
  }
  return names;
}

} // namespace

Options parse_options(const std::vector<std::string>& args) {
  Options opts;
  opts.argv = args;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string name = args[i];
    std::optional<std::string> value;
    if (auto eq = name.find('='); name.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    if (name == "--cpu" || name == "--build-info" || name == "--help" || name == "-h") {
      bool& flag = name == "--cpu" ? opts.force_cpu : name == "--build-info" ? opts.build_info : opts.help;
      flag = true;
      continue;
    }
    auto it = value_options().find(name);
    if (it == value_options().end()) {
      std::string hint = did_you_mean(name, option_names());
      bad(name, "unknown option; expected one of: " + join(option_names()) +
                    (hint.empty() ? "" : " (did you mean \"" + hint + "\"?)"));
    }
    if (!value) {
      if (i + 1 >= args.size()) {
        bad(name, "missing value");
      }
      value = args[++i];
    }
    it->second(opts, name, *value);
  }
  return opts;
}

std::string usage_text(bool cuda_build) {
  std::string text = R"(acme-calibrate: checkpoint and evaluation-dispatch kernels that measure the costs acme-sim uses

usage: acme-calibrate [options]

sizes (a short run fits a few minutes; see tools/calibrate/README.md):
  --model-params N        model size: 7e9, 7B, 123B (default 7B)
  --bytes-per-param X     model state per parameter (default 14: bf16 weights + fp32 master + Adam m, v)
  --tp N --pp N --dp N    parallelism; the state shard per GPU = params * bytes / (tp * pp * dp)
                          (defaults 1, 1, 8)
  --shard-bytes SIZE      largest buffer actually moved (default 2GiB; cpu-fallback 256MiB)
  --batch-sizes A,B,...   inference batch sizes (default 1,8,32,128; cpu-fallback 1,8)
  --prompt-tokens N       prefill tokens per sequence (default 512; cpu-fallback 128)
  --train-tokens N        rows of the training loop's GEMM (default 4096; cpu-fallback 512)
  --gemm-hidden N         hidden size of the GEMMs (default: from --model-params; cpu-fallback <= 1024)
  --metric-samples N      generated sequences scored by the metric phase (default 2000)
  --metric-sample-tokens N  tokens per sequence (default 256)
  --repeats N             repeats of every measurement (default 5); the output gives median and spread
  --sample-s S            shortest timed sample of short kernels (default 0.1)
  --seed N                seed of the generated data (default 1)

where:
  --path DIR              folder for the checkpoint and model files (default .): local disk or shared FS
  --out FILE              calibration YAML, written atomically (default acme-calibration.yaml)
  --raw FILE              every sample as CSV (default: FILE of --out with .raw.csv)
  --device N              CUDA device index (default 0)
  --cpu                   force the CPU fallback (host buffers stand in for device memory)
  --build-info            print how this binary was built and exit (touches no device)

Exit codes: 0 ok, 1 a check failed (a checkpoint did not round-trip), 2 bad input, 3 device or I/O error.
)";
  text += cuda_build ? "This build: CUDA backend (falls back to the CPU with --cpu).\n"
                     : "This build: CPU fallback only (built without the CUDA compiler).\n";
  return text;
}

} // namespace acme::tools::calibrate
