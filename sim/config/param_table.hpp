#pragma once

// Parameters declared once, as a table of (key, documentation, reader, shown default): parsing, the
// unknown-key check, `acme-sim list` and the generated config reference all come from it, so they cannot
// disagree. Policies and the config's own sections use it alike.
//
//   const ParamTable<LasParams>& LasParams::table() {
//     static const ParamTable<LasParams> t{
//         count_param("queue_depth", &LasParams::queue_depth, "queued jobs examined per pass"),
//         flag_param("preemption", &LasParams::preemption, "a job that does not fit preempts lower queues")};
//     return t;
//   }
//   LasParams p = LasParams::table().parse(node);      // unknown keys, bounds and types checked
//   std::vector<ParamDoc> d = LasParams::table().docs(); // defaults shown from LasParams{}

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "sim/config/distribution_parse.hpp"
#include "sim/config/node.hpp"
#include "sim/config/units.hpp"
#include "sim/model/limits.hpp"

namespace acme::config {

/// One documented parameter (what `acme-sim list` and the config reference print).
struct ParamDoc {
  std::string name;
  std::string default_value;
  std::string description;
};

/// One parameter of the parameter struct P.
template <class P>
struct Param {
  std::string key;
  std::string doc;
  /// Reads a present value into `params`; fails on `value` (located) when it is out of bounds.
  std::function<void(const Node& value, P& params)> read;
  /// P's value of the parameter as a user would write it (the documented default, from P{}).
  std::function<std::string(const P& params)> show;
};

/// The parameters of P: reads a policy's YAML mapping into P and documents P's defaults.
template <class P>
class ParamTable {
public:
  ParamTable() = default;
  ParamTable(std::initializer_list<Param<P>> params) : params_(params) {}

  ParamTable& add(Param<P> param) {
    params_.push_back(std::move(param));
    return *this;
  }

  /// Adds the parameters of the part `member` of P, declared by the part's own table (shared keys
  /// such as a runtime estimator's), with their checks.
  template <class Part>
  ParamTable& include(Part P::*member, const ParamTable<Part>& part) {
    for (const Param<Part>& p : part.params()) {
      params_.push_back(Param<P>{p.key, p.doc, [member, read = p.read](const Node& v, P& to) { read(v, to.*member); },
                                 [member, show = p.show](const P& from) { return show(from.*member); }});
    }
    for (const auto& c : part.checks()) {
      checks_.push_back([member, c](const Node& node, const P& params) { c(node, params.*member); });
    }
    return *this;
  }

  /// A rule across parameters, run after they are read (e.g. work_start < work_end); it fails on the
  /// node of the key at fault.
  ParamTable& check(std::function<void(const Node& node, const P& params)> rule) {
    checks_.push_back(std::move(rule));
    return *this;
  }

  /// Reads a policy's mapping: rejects keys it does not declare (besides "name" when `named`), reads
  /// every declared key present over `params` (P's defaults), then runs the checks (also for a bare
  /// name or an absent mapping, which otherwise give the defaults).
  P parse(const Node& node, P params = P{}, bool named = true) const {
    if (node.is_map()) {
      std::vector<std::string> accepted = keys();
      if (named) {
        accepted.insert(accepted.begin(), "name");
      }
      node.expect_keys(accepted);
      for (const Param<P>& p : params_) {
        if (Node value = node[p.key]; value.is_defined()) {
          p.read(value, params);
        }
      }
    }
    for (const auto& rule : checks_) {
      rule(node, params);
    }
    return params;
  }

  /// Reads an optional config section (a mapping, no "name" key) over `params`; absent: `params`.
  P parse_section(const Node& node, P params = P{}) const {
    if (!node.is_defined()) {
      return params;
    }
    node.expect_map();
    return parse(node, std::move(params), false);
  }

  /// Every parameter with the value `defaults` gives it, as `acme-sim list` prints them.
  std::vector<ParamDoc> docs(const P& defaults = P{}) const {
    std::vector<ParamDoc> out;
    for (const Param<P>& p : params_) {
      out.push_back({p.key, p.show(defaults), p.doc});
    }
    return out;
  }

  std::vector<std::string> keys() const {
    std::vector<std::string> out;
    for (const Param<P>& p : params_) {
      out.push_back(p.key);
    }
    return out;
  }

  const std::vector<Param<P>>& params() const { return params_; }
  const std::vector<std::function<void(const Node&, const P&)>>& checks() const { return checks_; }

private:
  std::vector<Param<P>> params_;
  std::vector<std::function<void(const Node&, const P&)>> checks_;
};

/// Bounds of a number, inclusive unless `low_open` (a share in (0, 1], a positive duration).
struct Bounds {
  double low = 0.0;
  double high = std::numeric_limits<double>::max();
  bool low_open = false;

  bool contains(double v) const { return (low_open ? v > low : v >= low) && v <= high; }
  static Bounds positive(double high = std::numeric_limits<double>::max()) { return {0.0, high, true}; }
  static Bounds share() { return {0.0, 1.0, false}; }
};

/// "a number in [0, 1]", "a duration > 0s": what Bounds accept, for error messages.
std::string describe_bounds(const Bounds& bounds, bool duration);

/// "a positive integer", "an integer >= 0", "an integer in [1, 64]".
std::string describe_count_bounds(std::uint32_t low, std::uint32_t high);

/// Fails on `value` unless `bounds` contain `v`: "expected <what> in ..., got "text"".
void expect_within(const Node& value, double v, const Bounds& bounds, bool duration);

/// A count in [low, high] (default: 1 to limits::MAX_COUNT, the bound of every count README "Bounds" names).
template <class P>
Param<P> count_param(std::string key, std::uint32_t P::*field, std::string doc, std::uint32_t low = 1,
                     std::uint32_t high = model::limits::MAX_COUNT) {
  return {std::move(key), std::move(doc),
          [field, low, high](const Node& v, P& p) {
            std::int64_t n = v.as_int();
            if (n < low || n > high) {
              v.fail("expected " + describe_count_bounds(low, high) + ", got \"" + v.as_string() + "\"");
            }
            p.*field = static_cast<std::uint32_t>(n);
          },
          [field](const P& p) { return std::to_string(p.*field); }};
}

/// A plain number within `bounds` (default: >= 0).
template <class P>
Param<P> number_param(std::string key, double P::*field, std::string doc, Bounds bounds = {}) {
  return {std::move(key), std::move(doc),
          [field, bounds](const Node& v, P& p) {
            double x = v.as_double();
            expect_within(v, x, bounds, false);
            p.*field = x;
          },
          [field](const P& p) { return format_number(p.*field); }};
}

/// A duration ("30s", "5min") within `bounds` (default: >= 0).
template <class P>
Param<P> duration_param(std::string key, double P::*field, std::string doc, Bounds bounds = {}) {
  return {std::move(key), std::move(doc),
          [field, bounds](const Node& v, P& p) {
            double s = v.as_duration_s();
            expect_within(v, s, bounds, true);
            p.*field = s;
          },
          [field](const P& p) { return format_duration(p.*field); }};
}

/// true or false.
template <class P>
Param<P> flag_param(std::string key, bool P::*field, std::string doc) {
  return {std::move(key), std::move(doc), [field](const Node& v, P& p) { p.*field = v.as_bool(); },
          [field](const P& p) { return p.*field ? std::string("true") : std::string("false"); }};
}

/// One of named values; anything else fails with the accepted names. The documentation lists them.
template <class P, class E>
Param<P> choice_param(std::string key, E P::*field, std::vector<std::pair<std::string, E>> choices, std::string doc) {
  std::string names;
  for (const auto& [name, value] : choices) {
    names += (names.empty() ? "" : ", ") + name;
  }
  return {key, std::move(doc),
          [field, choices, names, key](const Node& v, P& p) {
            std::string text = v.as_string();
            for (const auto& [name, value] : choices) {
              if (name == text) {
                p.*field = value;
                return;
              }
            }
            v.fail("unknown " + key + " \"" + text + "\"; expected one of: " + names);
          },
          [field, choices](const P& p) {
            for (const auto& [name, value] : choices) {
              if (value == p.*field) {
                return name;
              }
            }
            return std::string("?");
          }};
}

/// Reads a duration distribution ("30s", {dist: lognormal, median: 20min, sigma: 0.8}).
void read_distribution(const Node& value, model::Distribution& to);

/// A distribution of durations, shown as it would be written.
template <class P>
Param<P> distribution_param(std::string key, model::Distribution P::*field, std::string doc) {
  return {std::move(key), std::move(doc), [field](const Node& v, P& p) { read_distribution(v, p.*field); },
          [field](const P& p) { return describe_duration_distribution(p.*field); }};
}

/// A part of P read from a nested mapping under `key` with the part's own table (no "name" key).
template <class P, class Part>
Param<P> nested_param(std::string key, Part P::*field, const ParamTable<Part>& part, std::string doc) {
  return {std::move(key), std::move(doc),
          [field, &part](const Node& v, P& p) {
            v.expect_map();
            p.*field = part.parse(v, p.*field, false);
          },
          [](const P&) { return std::string("(its own keys, see their defaults)"); }};
}

} // namespace acme::config
