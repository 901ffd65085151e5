#include "sim/config/node.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "sim/config/units.hpp"

namespace acme::config {
namespace {

std::string child_path(const std::string& parent, std::string_view key) {
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

ConfigError yaml_error(const YAML::Exception& e, const std::string& file) {
  // yaml-cpp marks are 0-based; messages are 1-based (STYLE C4).
  Location where{file, e.mark.is_null() ? 0 : e.mark.line + 1, e.mark.is_null() ? 0 : e.mark.column + 1};
  return ConfigError(where, "", "malformed YAML: " + e.msg);
}

} // namespace

Node::Node(YAML::Node node, std::shared_ptr<const std::string> file, std::string path, Location parent_location)
    : node_(std::move(node))
    , file_(std::move(file))
    , path_(std::move(path))
    , parent_location_(std::move(parent_location)) {}

Node& Node::operator=(const Node& other) {
  if (this != &other) {
    node_.reset(other.node_);
    file_ = other.file_;
    path_ = other.path_;
    parent_location_ = other.parent_location_;
  }
  return *this;
}

Node& Node::operator=(Node&& other) {
  return *this = static_cast<const Node&>(other);
}

const std::string& Node::file() const {
  static const std::string none;
  return file_ ? *file_ : none;
}

Location Node::location() const {
  if (node_.IsDefined() && !node_.IsNull() && !node_.Mark().is_null()) {
    return Location{file(), node_.Mark().line + 1, node_.Mark().column + 1};
  }
  if (!parent_location_.file.empty()) {
    return parent_location_;
  }
  return Location{file(), 0, 0};
}

Node Node::operator[](std::string_view key) const {
  std::string k(key);
  // A missing key yields a yaml-cpp "zombie" that throws on most uses: replace it by an undefined node.
  YAML::Node child = is_map() ? node_[k] : YAML::Node(YAML::NodeType::Undefined);
  YAML::Node safe = child.IsDefined() ? child : YAML::Node(YAML::NodeType::Undefined);
  return Node(safe, file_, child_path(path_, key), location());
}

Node Node::at(std::size_t index) const {
  YAML::Node child = is_sequence() ? node_[index] : YAML::Node(YAML::NodeType::Undefined);
  YAML::Node safe = child.IsDefined() ? child : YAML::Node(YAML::NodeType::Undefined);
  return Node(safe, file_, path_ + "[" + std::to_string(index) + "]", location());
}

std::vector<std::string> Node::keys() const {
  std::vector<std::string> out;
  if (!is_map()) {
    return out;
  }
  for (const auto& kv : node_) {
    out.push_back(kv.first.as<std::string>());
  }
  return out;
}

void Node::expect_map() const {
  if (!is_map()) {
    fail("expected a mapping of keys to values");
  }
}

void Node::expect_keys(const std::vector<std::string>& accepted) const {
  expect_map();
  for (const auto& kv : node_) {
    auto key = kv.first.as<std::string>();
    bool known = false;
    for (const auto& a : accepted) {
      known = known || a == key;
    }
    if (known) {
      continue;
    }
    Location where{file(), kv.first.Mark().line + 1, kv.first.Mark().column + 1};
    std::string msg = "unknown key \"" + key + "\"; expected one of: " + join(accepted);
    if (auto hint = did_you_mean(key, accepted); !hint.empty()) {
      msg += " (did you mean \"" + hint + "\"?)";
    }
    throw ConfigError(where, child_path(path_, key), msg);
  }
}

void Node::fail(const std::string& what) const {
  throw ConfigError(location(), path_, what);
}

std::string Node::scalar_text() const {
  if (!is_defined()) {
    fail("missing value");
  }
  if (!is_scalar()) {
    fail("expected a single value, got a " + std::string(is_map() ? "mapping" : "list"));
  }
  return node_.Scalar();
}

std::string Node::as_string() const {
  return scalar_text();
}

bool Node::as_bool() const {
  std::string text = scalar_text();
  if (text == "true" || text == "yes" || text == "on") {
    return true;
  }
  if (text == "false" || text == "no" || text == "off") {
    return false;
  }
  fail("expected true or false, got \"" + text + "\"");
}

std::int64_t Node::as_int() const {
  std::string text = scalar_text();
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    fail("expected an integer, got \"" + text + "\"");
  }
  return value;
}

std::uint32_t Node::as_count() const {
  std::string text = scalar_text();
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value <= 0 ||
      value > std::numeric_limits<std::uint32_t>::max()) {
    fail("expected a positive integer, got \"" + text + "\"");
  }
  return static_cast<std::uint32_t>(value);
}

double Node::as_double() const {
  std::string text = scalar_text();
  double value = 0.0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    fail("expected a number, got \"" + text + "\"");
  }
  return value;
}

double Node::as_nonnegative() const {
  double value = as_double();
  if (value < 0.0) {
    fail("expected a number >= 0, got \"" + scalar_text() + "\"");
  }
  return value;
}

namespace {

template <class Parse>
double parse_positive_quantity(const Node& node, const std::string& text, Parse parse, bool allow_zero) {
  ParsedQuantity q = parse(text);
  if (!q.error.empty()) {
    node.fail(q.error);
  }
  if (q.value < 0.0 || (!allow_zero && q.value == 0.0)) {
    node.fail(std::string("expected a ") + (allow_zero ? "non-negative" : "positive") + " value, got \"" + text + "\"");
  }
  return q.value;
}

} // namespace

double Node::as_bytes() const {
  return parse_positive_quantity(*this, scalar_text(), parse_bytes, false);
}
double Node::as_bandwidth_Bps() const {
  return parse_positive_quantity(*this, scalar_text(), parse_bandwidth_Bps, false);
}
double Node::as_duration_s() const {
  return parse_positive_quantity(*this, scalar_text(), parse_duration_s, true);
}
double Node::as_power_W() const {
  return parse_positive_quantity(*this, scalar_text(), parse_power_W, true);
}

double Node::as_utc_offset_s() const {
  ParsedQuantity q = parse_utc_offset_s(scalar_text());
  if (!q.error.empty()) {
    fail(q.error);
  }
  return q.value;
}

Node load_yaml_text(const std::string& text, const std::string& name) {
  auto file = std::make_shared<const std::string>(name);
  try {
    return Node(YAML::Load(text), file, "");
  } catch (const YAML::Exception& e) {
    throw yaml_error(e, name);
  }
}

Node load_yaml_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw ConfigError(Location{path, 0, 0}, "", "cannot open file; expected a readable YAML file");
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  return load_yaml_text(buffer.str(), path);
}

} // namespace acme::config
