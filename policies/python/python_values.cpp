#include "policies/python/python_values.hpp"

#include <charconv>
#include <cstdint>
#include <string_view>

namespace acme::policies::python {
namespace {

std::uint32_t count_from(py::handle value, const char* what) {
  if (!py::isinstance<py::int_>(value)) {
    throw py::type_error(std::string("placement: ") + what + " must be an int, got " +
                         std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  }
  auto v = value.cast<long long>();
  if (v < 0 || v > static_cast<long long>(UINT32_MAX)) {
    throw py::value_error(std::string("placement: ") + what + " out of range: " + std::to_string(v));
  }
  return static_cast<std::uint32_t>(v);
}

model::NodeShare share_from(py::handle item) {
  if (py::isinstance<model::NodeShare>(item)) {
    return item.cast<model::NodeShare>();
  }
  if (py::isinstance<py::tuple>(item) || py::isinstance<py::list>(item)) {
    py::sequence seq = py::reinterpret_borrow<py::sequence>(item);
    constexpr std::size_t PAIR = 2;
    constexpr std::size_t FULL = 4;
    if (seq.size() == PAIR || seq.size() == FULL) {
      model::NodeShare share{model::NodeId{count_from(seq[0], "node")}, count_from(seq[1], "gpus")};
      if (seq.size() == FULL) {
        share.milli = count_from(seq[2], "milli");
        share.gpu = count_from(seq[3], "gpu");
      }
      return share;
    }
  }
  throw py::type_error("placement: expected acme_sim.Share items or (node, gpus) pairs, got " +
                       std::string(py::repr(item)));
}

/// A plain YAML scalar read as the YAML 1.2 core schema does (null, bool, int, float), else a str.
py::object scalar_from(const YAML::Node& node) {
  const std::string& text = node.Scalar();
  if (node.Tag() == "!") {
    return py::str(text); // quoted: always a string
  }
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") {
    return py::none();
  }
  if (text == "true" || text == "True" || text == "TRUE") {
    return py::bool_(true);
  }
  if (text == "false" || text == "False" || text == "FALSE") {
    return py::bool_(false);
  }
  long long as_int = 0;
  const char* end = text.data() + text.size();
  std::string_view digits = text.front() == '+' ? std::string_view(text).substr(1) : std::string_view(text);
  if (auto [p, ec] = std::from_chars(digits.data(), end, as_int); ec == std::errc() && p == end) {
    return py::int_(as_int);
  }
  double as_double = 0.0;
  if (auto [p, ec] = std::from_chars(digits.data(), end, as_double); ec == std::errc() && p == end) {
    return py::float_(as_double);
  }
  return py::str(text);
}

} // namespace

void mark_origin(PyDecision& decision) {
  PyFrameObject* frame = PyEval_GetFrame(); // borrowed; null when no Python code runs
  if (frame == nullptr) {
    return;
  }
  decision.line = PyFrame_GetLineNumber(frame);
  auto code = py::reinterpret_steal<py::object>(reinterpret_cast<PyObject*>(PyFrame_GetCode(frame)));
  decision.file = py::str(code.attr("co_filename"));
}

model::Placement placement_from(py::handle placement) {
  if (placement.is_none()) {
    throw py::type_error("placement: got None; expected a list of acme_sim.Share ([] for a CPU job)");
  }
  if (!py::isinstance<py::iterable>(placement)) {
    throw py::type_error("placement: expected a list of acme_sim.Share or (node, gpus) pairs, got " +
                         std::string(py::repr(placement)));
  }
  model::Placement out;
  for (py::handle item : placement) {
    out.push_back(share_from(item));
  }
  return out;
}

py::list placement_to(const model::Placement& placement) {
  py::list out(placement.size());
  for (std::size_t i = 0; i < placement.size(); ++i) {
    out[i] = py::cast(placement[i]);
  }
  return out;
}

model::JobId job_id_from(py::handle job) {
  if (py::isinstance<PyJob>(job)) {
    return job.cast<const PyJob&>().entry.spec.id;
  }
  if (py::isinstance<py::int_>(job)) {
    auto id = job.cast<long long>();
    if (id >= 0) {
      return model::JobId{static_cast<std::uint64_t>(id)};
    }
  }
  throw py::type_error("expected a job id (a non-negative int) or an acme_sim.Job, got " + std::string(py::repr(job)));
}

model::WaitReason wait_reason_from(const std::string& name) {
  std::string names;
  for (std::size_t r = 0; r < model::WAIT_REASON_COUNT; ++r) {
    auto reason = static_cast<model::WaitReason>(r);
    if (model::to_string(reason) == name) {
      return reason;
    }
    names += (names.empty() ? "" : ", ") + std::string(model::to_string(reason));
  }
  throw py::value_error("unknown wait reason \"" + name + "\"; expected one of: " + names);
}

py::object value_from(const config::Node& node) {
  const YAML::Node& yaml = node.yaml();
  if (!yaml.IsDefined() || yaml.IsNull()) {
    return py::none();
  }
  if (yaml.IsMap()) {
    py::dict out;
    for (const auto& [key, value] : node.items()) {
      out[py::str(key)] = value_from(value);
    }
    return out;
  }
  if (yaml.IsSequence()) {
    py::list out;
    for (std::size_t i = 0; i < node.size(); ++i) {
      out.append(value_from(node.at(i)));
    }
    return out;
  }
  return scalar_from(yaml);
}

} // namespace acme::policies::python
