#pragma once

#include "policies/placement/placement_policy.hpp"
#include "policies/python/decision_check.hpp"
#include "policies/python/python_values.hpp"

namespace acme::policies::python {

/// acme_sim.ClusterView: what a Python policy may read about its cluster during one call, and the
/// round's bookkeeping. Bound by the C++ policy around each call into Python and unbound after it, so a
/// view kept past its call raises instead of reading freed memory. Free-resource queries count the
/// GPUs of the starts made through start() earlier in the same call as taken.
class PyView {
public:
  /// For a scheduler's call: starts, preemptions and rejections go through `round`; place() asks
  /// `placement` (the cluster's placement policy).
  void bind(DecisionCheck& round, PlacementPolicy& placement);
  /// For a placement policy's call: read-only over what the calling scheduler still has free.
  void bind(const FreeResources& free);
  void unbind();

  const model::ClusterView& view() const { return free().view(); }
  const FreeResources& free() const;

  py::object job(py::handle id) const;
  bool is_queued(py::handle id) const;
  py::list jobs_in(model::JobPhase phase) const;
  std::uint32_t free_gpus(std::uint32_t node) const;
  bool is_up(std::uint32_t node) const;
  /// Why the node is out of service, as names (model::OutOfService); empty while in service.
  std::vector<std::string> out_of_service(std::uint32_t node) const;
  /// "on", "off" or "booting" (the cluster's power policy).
  const char* power_state(std::uint32_t node) const;
  std::uint32_t gpus_of(std::uint32_t node) const;
  std::uint32_t leaf_of(std::uint32_t node) const;
  std::uint32_t shared_gpu_milli(std::uint32_t node, std::uint32_t gpu) const;
  py::list free_gpus_by_node() const;
  py::list idle_nodes() const;

  /// The cluster's placement policy's answer for `job` over what is still free; None when it does not fit.
  py::object place(py::handle job) const;
  /// A checked StartJob whose GPUs count as taken for the rest of the call; ValueError when invalid.
  py::object start(py::handle job, py::handle placement);
  py::object preempt(py::handle job);
  py::object reject(py::handle job);

private:
  DecisionCheck& round(const char* what) const;
  model::NodeId node_id(std::uint32_t node) const;

  const FreeResources* free_ = nullptr;
  DecisionCheck* round_ = nullptr;
  PlacementPolicy* placement_ = nullptr;
};

/// Binds a view for the time of one call into Python (unbinds on every exit path).
class ViewBinding {
public:
  ViewBinding(PyView& view, DecisionCheck& round, PlacementPolicy& placement) : view_(view) {
    view_.bind(round, placement);
  }
  ViewBinding(PyView& view, const FreeResources& free) : view_(view) { view_.bind(free); }
  ~ViewBinding() { view_.unbind(); }
  ViewBinding(const ViewBinding&) = delete;
  ViewBinding& operator=(const ViewBinding&) = delete;

private:
  PyView& view_;
};

/// Adds acme_sim's native types (ClusterView, Job, Share, decisions, events, Context) to `module`.
void bind_types(py::module_& module);

} // namespace acme::policies::python
