#include "sim/config/distribution_parse.hpp"

#include "sim/config/units.hpp"

namespace acme::config {
namespace {

using Kind = model::Distribution::Kind;

double required(const Node& node, const char* key) {
  Node child = node[key];
  if (!child.is_defined()) {
    node.fail(std::string("missing key \"") + key + "\" for a " + node["dist"].as_string() + " distribution");
  }
  return child.as_duration_s();
}

double positive_number(const Node& node, const char* key) {
  Node child = node[key];
  if (!child.is_defined()) {
    node.fail(std::string("missing key \"") + key + "\"");
  }
  double v = child.as_double();
  if (v <= 0.0) {
    child.fail("expected a positive number, got \"" + child.as_string() + "\"");
  }
  return v;
}

} // namespace

model::Distribution parse_duration_distribution(const Node& node) {
  if (node.is_scalar()) {
    return model::Distribution::fixed(node.as_duration_s());
  }
  node.expect_map();
  Node dist = node["dist"];
  if (!dist.is_defined()) {
    node.fail("missing key \"dist\"; expected one of: fixed, uniform, exponential, lognormal, weibull");
  }
  std::string kind = dist.as_string();
  model::Distribution d;
  const std::vector<std::string> bounds = {"dist", "min", "max"};
  auto keys = [&](std::vector<std::string> own) {
    own.insert(own.end(), bounds.begin(), bounds.end());
    node.expect_keys(own);
  };
  if (kind == "fixed") {
    keys({"value"});
    d = model::Distribution{Kind::FIXED, required(node, "value"), 0.0};
  } else if (kind == "uniform") {
    keys({"low", "high"});
    d = model::Distribution{Kind::UNIFORM, required(node, "low"), required(node, "high")};
    if (d.b < d.a) {
      node["high"].fail("expected high >= low");
    }
  } else if (kind == "exponential") {
    keys({"mean"});
    d = model::Distribution{Kind::EXPONENTIAL, required(node, "mean"), 0.0};
  } else if (kind == "lognormal") {
    keys({"median", "sigma"});
    d = model::Distribution{Kind::LOGNORMAL, required(node, "median"), positive_number(node, "sigma")};
  } else if (kind == "weibull") {
    keys({"scale", "shape"});
    d = model::Distribution{Kind::WEIBULL, required(node, "scale"), positive_number(node, "shape")};
  } else {
    dist.fail("unknown distribution \"" + kind +
              "\"; expected one of: fixed, uniform, exponential, lognormal, weibull");
  }
  d.min = node.get_or("min", 0.0, &Node::as_duration_s);
  d.max = node.get_or("max", 1e300, &Node::as_duration_s);
  if (d.max < d.min) {
    node["max"].fail("expected max >= min");
  }
  return d;
}

std::string describe_duration_distribution(const model::Distribution& d) {
  const model::Distribution plain{};
  bool clamped = d.min != plain.min || d.max != plain.max;
  if (d.kind == Kind::FIXED && !clamped) {
    return format_duration(d.a);
  }
  std::string text;
  switch (d.kind) {
  case Kind::FIXED:
    text = "{dist: fixed, value: " + format_duration(d.a);
    break;
  case Kind::UNIFORM:
    text = "{dist: uniform, low: " + format_duration(d.a) + ", high: " + format_duration(d.b);
    break;
  case Kind::EXPONENTIAL:
    text = "{dist: exponential, mean: " + format_duration(d.a);
    break;
  case Kind::LOGNORMAL:
    text = "{dist: lognormal, median: " + format_duration(d.a) + ", sigma: " + format_number(d.b);
    break;
  case Kind::WEIBULL:
    text = "{dist: weibull, scale: " + format_duration(d.a) + ", shape: " + format_number(d.b);
    break;
  }
  if (d.min != plain.min) {
    text += ", min: " + format_duration(d.min);
  }
  if (d.max != plain.max) {
    text += ", max: " + format_duration(d.max);
  }
  return text + "}";
}

} // namespace acme::config
