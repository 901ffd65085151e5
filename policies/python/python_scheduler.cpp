#include "policies/python/python_scheduler.hpp"

#include "policies/python/interpreter.hpp"
#include "policies/python/python_view.hpp"
#include "policies/python/user_class.hpp"

namespace acme::policies::python {

struct PythonScheduler::State {
  PythonPolicySpec spec;
  py::object instance;
  py::object on_events;   ///< the bound method, looked up once
  DecisionCheck round;    ///< what view.place / view.start see during a call
  DecisionCheck returned; ///< checks the returned decisions from scratch

  /// Drops the Python objects with the GIL held (they must not outlive the interpreter either).
  ~State() {
    py::gil_scoped_acquire gil;
    on_events = py::object();
    instance = py::object();
  }
};

namespace {

py::list events_to_python(std::span<const model::Event> events) {
  py::list out(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    py::object event = std::visit([](const auto& e) { return py::cast(e); }, events[i]);
    PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), event.release().ptr());
  }
  return out;
}

std::string type_name(py::handle value) {
  return py::str(py::type::handle_of(value).attr("__name__"));
}

} // namespace

PythonScheduler::PythonScheduler(PythonPolicySpec spec, const PolicyContext& context) {
  ensure_interpreter();
  py::gil_scoped_acquire gil;
  state_ = std::make_unique<State>();
  state_->spec = std::move(spec);
  state_->instance = make_instance(state_->spec, context);
  state_->on_events = user_method(state_->instance, state_->spec, "on_events");
}

PythonScheduler::~PythonScheduler() = default;

std::vector<model::Decision> PythonScheduler::on_events(std::span<const model::Event> events,
                                                        const model::ClusterView& cluster) {
  py::gil_scoped_acquire gil;
  State& s = *state_;
  const std::string what = s.spec.class_name + ".on_events";
  s.round.begin_round(cluster);
  py::object result;
  {
    py::object view = py::cast(PyView()); // a fresh view per call: one kept past its call raises
    ViewBinding bound(*view.cast<PyView*>(), s.round, placement());
    try {
      result = s.on_events(events_to_python(events), view);
    } catch (py::error_already_set& e) {
      throw_user_error(e, s.spec, what, s.on_events);
    }
  }
  std::vector<model::Decision> out;
  if (result.is_none()) {
    return out;
  }
  if (!py::isinstance<py::iterable>(result)) {
    throw_result_error(s.spec, "", 0, s.on_events,
                       what + " returned " + type_name(result) + "; expected a list of decisions (or None)");
  }
  s.returned.begin_round(cluster);
  for (py::handle item : result) {
    if (!py::isinstance<PyDecision>(item)) {
      throw_result_error(s.spec, "", 0, s.on_events,
                         what + " returned a list holding " + std::string(py::repr(item)) +
                             "; expected StartJob, PreemptJob or RejectJob");
    }
    const auto& decision = item.cast<const PyDecision&>();
    if (std::string error = s.returned.accept(decision.decision); !error.empty()) {
      throw_result_error(s.spec, decision.file, decision.line, s.on_events,
                         what + " returned an invalid decision: " + error);
    }
    out.push_back(decision.decision);
  }
  return out;
}

} // namespace acme::policies::python
