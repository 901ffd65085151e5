#include "sim/config/node.hpp"

#include <yaml-cpp/depthguard.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "sim/config/units.hpp"

namespace acme::config {
namespace {

std::string child_path(const std::string& parent, std::string_view key) {
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

ConfigError yaml_error(const YAML::Exception& e, const std::string& file) {
  // yaml-cpp marks are 0-based; messages are 1-based (STYLE C4).
  Location where{file, e.mark.is_null() ? 0 : e.mark.line + 1, e.mark.is_null() ? 0 : e.mark.column + 1};
  if (const auto* deep = dynamic_cast<const YAML::DeepRecursion*>(&e)) {
    // yaml-cpp's depth guard reports "bad file": say what it is.
    return ConfigError(where, "",
                       "malformed YAML: nested deeper than " + std::to_string(deep->depth()) +
                           " levels; expected a document nested a few dozen levels at most");
  }
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
    overrides_ = other.overrides_;
    origin_ = other.origin_;
  }
  return *this;
}

Node Node::with_overrides(std::shared_ptr<const OverrideRoots> overrides) const {
  Node out = *this;
  out.overrides_ = std::move(overrides);
  out.origin_ = out.override_location(out.node_);
  return out;
}

std::optional<Location> Node::override_location(const YAML::Node& yaml) const {
  if (!overrides_ || !yaml.IsDefined()) {
    return std::nullopt;
  }
  for (const auto& root : *overrides_) {
    if (root.value.is(yaml)) {
      return root.where;
    }
  }
  return std::nullopt;
}

namespace {
/// Whether `target` is `tree` or lies below it.
bool holds(const YAML::Node& tree, const YAML::Node& target) {
  if (tree.is(target)) {
    return true;
  }
  if (tree.IsMap()) {
    for (const auto& kv : tree) {
      if (holds(kv.second, target)) {
        return true;
      }
    }
  } else if (tree.IsSequence()) {
    for (const auto& item : tree) {
      if (holds(item, target)) {
        return true;
      }
    }
  }
  return false;
}
} // namespace

std::optional<Location> Node::override_within(const YAML::Node& yaml) const {
  if (!overrides_ || !yaml.IsDefined()) {
    return std::nullopt;
  }
  for (const auto& root : *overrides_) {
    if (holds(yaml, root.value)) {
      return root.where;
    }
  }
  return std::nullopt;
}

Node Node::child(const YAML::Node& yaml, std::string path) const {
  // A missing key yields a yaml-cpp "zombie" that throws on most uses: replace it by an undefined node.
  YAML::Node safe = yaml.IsDefined() ? yaml : YAML::Node(YAML::NodeType::Undefined);
  Node out(safe, file_, std::move(path), location());
  out.overrides_ = overrides_;
  out.origin_ = override_location(safe);
  if (!out.origin_) {
    out.origin_ = origin_;
  }
  return out;
}

Node& Node::operator=(Node&& other) {
  return *this = static_cast<const Node&>(other);
}

const std::string& Node::file() const {
  static const std::string none;
  return file_ ? *file_ : none;
}

Location Node::location() const {
  if (origin_) {
    return *origin_;
  }
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
  return child(is_map() ? node_[k] : YAML::Node(YAML::NodeType::Undefined), child_path(path_, key));
}

Node Node::at(std::size_t index) const {
  return child(is_sequence() && index < node_.size() ? node_[index] : YAML::Node(YAML::NodeType::Undefined),
               path_ + "[" + std::to_string(index) + "]");
}

std::vector<std::pair<std::string, Node>> Node::items() const {
  std::vector<std::pair<std::string, Node>> out;
  if (!is_map()) {
    return out;
  }
  for (const auto& kv : node_) {
    std::string key = kv.first.Scalar();
    out.emplace_back(key, child(kv.second, child_path(path_, key)));
  }
  return out;
}

std::vector<std::string> Node::keys() const {
  std::vector<std::string> out;
  if (!is_map()) {
    return out;
  }
  for (const auto& kv : node_) {
    out.push_back(kv.first.Scalar()); // keys are scalars: check_document refused others
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
    const std::string& key = kv.first.Scalar();
    bool known = false;
    for (const auto& a : accepted) {
      known = known || a == key;
    }
    if (known) {
      continue;
    }
    // A key an override created (--set foo.bar=1 makes "foo") has no mark: blame the override below it.
    Location where = origin_ ? *origin_
                             : override_within(kv.second).value_or(
                                   Location{file(), kv.first.Mark().line + 1, kv.first.Mark().column + 1});
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

std::uint64_t Node::as_u64() const {
  std::string text = scalar_text();
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    fail("expected an integer in [0, 18446744073709551615], got \"" + text + "\"");
  }
  return value;
}

std::uint32_t Node::as_count_upto(std::uint32_t max) const {
  std::string text = scalar_text();
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value <= 0 || value > std::int64_t{max}) {
    fail("expected a positive integer of at most " + std::to_string(max) + ", got \"" + text + "\"");
  }
  return static_cast<std::uint32_t>(value);
}

std::uint32_t Node::as_count_or_zero(std::uint32_t max) const {
  std::string text = scalar_text();
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0 || value > std::int64_t{max}) {
    fail("expected an integer in [0, " + std::to_string(max) + "], got \"" + text + "\"");
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

double Node::as_double_in(double lo, double hi, const std::string& what) const {
  double value = as_double();
  if (!(value >= lo && value <= hi)) {
    fail("expected " + what + ", got \"" + scalar_text() + "\"");
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
  double value = parse_positive_quantity(*this, scalar_text(), parse_bandwidth_Bps, false);
  if (value < model::limits::MIN_BANDWIDTH_BPS) {
    fail("expected a bandwidth of at least 1kBps, got \"" + scalar_text() + "\"");
  }
  return value;
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

namespace {

constexpr std::uintmax_t MAX_INPUT_BYTES = std::uintmax_t{64} << 20; // a config or JSON input: 64 MiB

/// Walks a freshly parsed document, each mapping and list once (an alias's target only the first time):
/// keys must be plain values and unique within their mapping; with `json`, aliases are errors.
class DocumentCheck {
public:
  DocumentCheck(std::string file, bool json) : file_(std::move(file)), json_(json) {}

  void walk(const YAML::Node& node) {
    if (!node.IsMap() && !node.IsSequence()) {
      return;
    }
    if (!seen_.insert(node.Mark().pos).second) {
      if (json_) {
        fail(node.Mark(), "an alias (*name) repeats an earlier value; expected plain JSON");
      }
      return;
    }
    if (node.IsSequence()) {
      for (const auto& item : node) {
        walk(item);
      }
      return;
    }
    std::unordered_map<std::string, int> keys;
    for (const auto& kv : node) {
      check_key(kv.first, keys);
      walk(kv.second);
    }
  }

private:
  void check_key(const YAML::Node& key, std::unordered_map<std::string, int>& keys) const {
    if (!key.IsScalar()) {
      fail(key.Mark(), std::string("expected a plain key, got ") + (key.IsMap()        ? "a mapping"
                                                                    : key.IsSequence() ? "a list"
                                                                                       : "an empty key"));
    }
    auto [it, fresh] = keys.emplace(key.Scalar(), key.Mark().line + 1);
    if (!fresh) {
      fail(key.Mark(), "key \"" + key.Scalar() + "\" is given twice in this mapping (first on line " +
                           std::to_string(it->second) + "); expected each key once");
    }
  }

  [[noreturn]] void fail(const YAML::Mark& mark, const std::string& what) const {
    throw ConfigError(Location{file_, mark.line + 1, mark.column + 1}, "", what);
  }

  std::string file_;
  bool json_;
  std::unordered_set<int> seen_;
};

Node parse_document(const std::string& text, const std::string& name, bool json) {
  auto file = std::make_shared<const std::string>(name);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw yaml_error(e, name);
  }
  DocumentCheck(name, json).walk(root);
  return Node(root, file, "");
}

} // namespace

Node load_yaml_text(const std::string& text, const std::string& name) {
  return parse_document(text, name, false);
}

Node load_json_text(const std::string& text, const std::string& name) {
  return parse_document(text, name, true);
}

std::string read_input_file(const std::string& path, const std::string& expected) {
  auto fail = [&](const std::string& why) {
    throw ConfigError(Location{path, 0, 0}, "", "cannot read: " + why + "; expected " + expected);
  };
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  if (ec) {
    fail(ec.message());
  }
  if (std::filesystem::is_directory(status)) {
    fail("it is a folder");
  }
  if (!std::filesystem::is_regular_file(status)) {
    fail("it is not a regular file");
  }
  if (std::filesystem::file_size(path, ec) > MAX_INPUT_BYTES) {
    fail("larger than 64 MiB");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    fail(std::strerror(errno));
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    fail(std::strerror(errno));
  }
  return buffer.str();
}

Node load_yaml_file(const std::string& path) {
  return load_yaml_text(read_input_file(path, "a readable YAML file"), path);
}

} // namespace acme::config
