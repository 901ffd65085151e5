#pragma once

// Values that cross between C++ and the Python policies (acme_sim's Job, Share, decisions, params).
// Included only by the acme_python library: it brings in pybind11.

#include <string>

#include "sim/config/node.hpp"
#include "sim/model/cluster_view.hpp"
#include "sim/model/decision.hpp"
#include <pybind11/pybind11.h>

namespace acme::policies::python {

namespace py = pybind11;

/// acme_sim.Job: a copy of one job as the view showed it when it was asked (safe to keep).
struct PyJob {
  model::JobEntry entry;
};

/// A decision built in Python, with the file and line that built it (for messages about it).
struct PyDecision {
  model::Decision decision;
  std::string file;
  int line = 0;
};
/// acme_sim.StartJob, acme_sim.PreemptJob, acme_sim.RejectJob.
struct PyStartJob : PyDecision {};
struct PyPreemptJob : PyDecision {};
struct PyRejectJob : PyDecision {};
/// acme_sim.NoteWait, acme_sim.CallMeLater.
struct PyNoteWait : PyDecision {};
struct PyCallMeLater : PyDecision {};

/// Records the file and line of the Python code running now (the innermost frame) in `decision`.
void mark_origin(PyDecision& decision);

/// A placement from Python: an iterable of acme_sim.Share or of (node, gpus) pairs or (node, gpus,
/// milli, gpu) tuples. Raises TypeError (a Python exception) when it is none of these.
model::Placement placement_from(py::handle placement);
/// A placement as a list of acme_sim.Share.
py::list placement_to(const model::Placement& placement);
/// A job id from Python: an int or an acme_sim.Job. Raises TypeError otherwise.
model::JobId job_id_from(py::handle job);
/// A wait reason by its name ("Resources", "QOSGrpGRES", ...); a ValueError lists the names.
model::WaitReason wait_reason_from(const std::string& name);

/// A policy's `params:` as Python values: mappings become dicts, sequences lists, plain scalars bool,
/// int, float or None when they read as such (YAML 1.2 core schema), quoted scalars and the rest str.
py::object value_from(const config::Node& node);

} // namespace acme::policies::python
