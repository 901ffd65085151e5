#include "policies/python/python_placement.hpp"

#include "policies/python/interpreter.hpp"
#include "policies/python/python_view.hpp"
#include "policies/python/user_class.hpp"

namespace acme::policies::python {

struct PythonPlacement::State {
  PythonPolicySpec spec;
  py::object instance;
  py::object place;

  ~State() {
    py::gil_scoped_acquire gil;
    place = py::object();
    instance = py::object();
  }
};

PythonPlacement::PythonPlacement(PythonPolicySpec spec, const PolicyContext& context) {
  ensure_interpreter();
  py::gil_scoped_acquire gil;
  state_ = std::make_unique<State>();
  state_->spec = std::move(spec);
  state_->instance = make_instance(state_->spec, context);
  state_->place = user_method(state_->instance, state_->spec, "place");
}

PythonPlacement::~PythonPlacement() = default;

std::optional<model::Placement> PythonPlacement::place(const model::JobSpec& job, const FreeResources& free) {
  py::gil_scoped_acquire gil;
  State& s = *state_;
  const std::string what = s.spec.class_name + ".place";
  const model::JobEntry* entry = free.view().find_job(job.id);
  PyJob arg;
  if (entry != nullptr) {
    arg.entry = *entry;
  } else {
    arg.entry.spec = job; // a job the view does not know (placement asked about a hypothetical job)
  }
  py::object result;
  model::Placement placement;
  {
    py::object view = py::cast(PyView()); // a fresh view per call: one kept past its call raises
    ViewBinding bound(*view.cast<PyView*>(), free);
    try {
      result = s.place(py::cast(std::move(arg)), view);
      if (result.is_none()) {
        return std::nullopt;
      }
      placement = placement_from(result);
    } catch (py::error_already_set& e) {
      throw_user_error(e, s.spec, what, s.place);
    } catch (const py::builtin_exception& e) { // placement_from: not a placement at all
      throw_result_error(s.spec, "", 0, s.place, what + " returned " + e.what());
    }
  }
  if (std::string error = check_placement(job, placement, free); !error.empty()) {
    throw_result_error(s.spec, "", 0, s.place, what + " returned " + describe(placement) + ": " + error);
  }
  return placement;
}

} // namespace acme::policies::python
