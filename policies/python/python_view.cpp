#include "policies/python/python_view.hpp"

namespace acme::policies::python {

void PyView::bind(DecisionCheck& round, PlacementPolicy& placement) {
  free_ = &round.free();
  round_ = &round;
  placement_ = &placement;
}

void PyView::bind(const FreeResources& free) {
  free_ = &free;
  round_ = nullptr;
  placement_ = nullptr;
}

void PyView::unbind() {
  free_ = nullptr;
  round_ = nullptr;
  placement_ = nullptr;
}

const FreeResources& PyView::free() const {
  if (free_ == nullptr) {
    throw py::value_error("this ClusterView is only valid during the call that received it; read what you need "
                          "then, or keep job ids and look them up in the next call's view");
  }
  return *free_;
}

DecisionCheck& PyView::round(const char* what) const {
  free();
  if (round_ == nullptr) {
    throw py::value_error(std::string(what) + "() is for schedulers; a placement policy returns a placement");
  }
  return *round_;
}

model::NodeId PyView::node_id(std::uint32_t node) const {
  if (node >= view().shape().nodes) {
    throw py::index_error("node " + std::to_string(node) + " does not exist; the cluster has nodes 0 to " +
                          std::to_string(view().shape().nodes - 1));
  }
  return model::NodeId{node};
}

py::object PyView::job(py::handle id) const {
  const model::JobEntry* entry = view().find_job(job_id_from(id));
  return entry == nullptr ? py::none() : py::cast(PyJob{*entry});
}

bool PyView::is_queued(py::handle id) const {
  const model::JobEntry* entry = view().find_job(job_id_from(id));
  return entry != nullptr && entry->phase == model::JobPhase::QUEUED;
}

py::list PyView::jobs_in(model::JobPhase phase) const {
  py::list out;
  for (const auto& [id, entry] : view().jobs()) {
    if (entry.phase == phase) {
      out.append(py::cast(PyJob{entry}));
    }
  }
  return out;
}

std::uint32_t PyView::free_gpus(std::uint32_t node) const {
  return free().free_gpus(node_id(node));
}

bool PyView::is_up(std::uint32_t node) const {
  return view().is_up(node_id(node));
}

std::vector<std::string> PyView::out_of_service(std::uint32_t node) const {
  static const std::pair<std::uint8_t, const char*> NAMES[] = {
      {model::OutOfService::REPAIR, "repair"},         {model::OutOfService::MANUAL_REPAIR, "manual_repair"},
      {model::OutOfService::QUARANTINE, "quarantine"}, {model::OutOfService::SWITCH, "switch"},
      {model::OutOfService::SPARE, "spare"},           {model::OutOfService::POWER, "power"}};
  std::uint8_t bits = view().out_of_service(node_id(node));
  std::vector<std::string> out;
  for (const auto& [bit, name] : NAMES) {
    if ((bits & bit) != 0) {
      out.emplace_back(name);
    }
  }
  return out;
}

const char* PyView::power_state(std::uint32_t node) const {
  switch (view().power_of(node_id(node))) {
  case model::NodePower::OFF:
    return "off";
  case model::NodePower::BOOTING:
    return "booting";
  case model::NodePower::ON:
    break;
  }
  return "on";
}

std::uint32_t PyView::gpus_of(std::uint32_t node) const {
  return view().gpus_of(node_id(node));
}

std::uint32_t PyView::leaf_of(std::uint32_t node) const {
  return view().leaf_of(node_id(node));
}

std::uint32_t PyView::shared_gpu_milli(std::uint32_t node, std::uint32_t gpu) const {
  model::NodeId id = node_id(node);
  if (gpu >= view().gpus_of(id)) {
    throw py::index_error("GPU " + std::to_string(gpu) + " of node " + std::to_string(node) + " does not exist");
  }
  return free().shared_gpu_milli(id, gpu);
}

py::list PyView::free_gpus_by_node() const {
  const std::uint32_t nodes = view().shape().nodes;
  py::list out(nodes);
  for (std::uint32_t n = 0; n < nodes; ++n) {
    out[n] = py::int_(free().free_gpus(model::NodeId{n}));
  }
  return out;
}

py::list PyView::idle_nodes() const {
  py::list out;
  for (model::NodeId node : policies::idle_nodes(free())) {
    out.append(py::int_(model::to_index(node)));
  }
  return out;
}

py::object PyView::place(py::handle job) const {
  round("place");
  const model::JobEntry* entry = view().find_job(job_id_from(job));
  if (entry == nullptr) {
    throw py::key_error("place(): job " + std::to_string(model::to_index(job_id_from(job))) +
                        " is not in this cluster");
  }
  if (entry->spec.is_cpu_job()) {
    return py::list(); // CPU jobs run on the cluster's CPU pool
  }
  if (!may_fit_now(entry->spec, free())) {
    return py::none();
  }
  std::optional<model::Placement> where = placement_->place(entry->spec, free());
  return where ? py::object(placement_to(*where)) : py::none();
}

py::object PyView::start(py::handle job, py::handle placement) {
  PyStartJob out;
  out.decision = model::StartJob{job_id_from(job), placement_from(placement)};
  if (std::string error = round("start").accept(out.decision); !error.empty()) {
    throw py::value_error(error);
  }
  mark_origin(out);
  return py::cast(std::move(out));
}

py::object PyView::preempt(py::handle job) {
  PyPreemptJob out;
  out.decision = model::PreemptJob{job_id_from(job)};
  if (std::string error = round("preempt").accept(out.decision); !error.empty()) {
    throw py::value_error(error);
  }
  mark_origin(out);
  return py::cast(std::move(out));
}

py::object PyView::reject(py::handle job) {
  PyRejectJob out;
  out.decision = model::RejectJob{job_id_from(job), model::RejectReason::BY_POLICY};
  if (std::string error = round("reject").accept(out.decision); !error.empty()) {
    throw py::value_error(error);
  }
  mark_origin(out);
  return py::cast(std::move(out));
}

} // namespace acme::policies::python
