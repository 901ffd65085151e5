// acme_sim's native types, bound with pybind11. The package acme_sim (acme_sim/__init__.py) re-exports
// them and documents them for users; the docstrings here are what help() shows.
#include <fmt/format.h>

#include "policies/python/python_view.hpp"
#include "policies/registry.hpp"
#include "sim/model/event.hpp"

namespace acme::policies::python {
namespace {

using model::JobEntry;
using model::JobSpec;

py::object known_time(double t_s) {
  return t_s == model::UNKNOWN_TIME_S ? py::none() : py::object(py::float_(t_s));
}

template <class Getter>
void spec_property(py::class_<PyJob>& cls, const char* name, Getter get, const char* doc) {
  cls.def_property_readonly(
      name, [get](const PyJob& j) { return get(j.entry.spec); }, doc);
}

/// The job's spec: what the workload says about it.
void bind_job_spec(py::class_<PyJob>& cls) {
  spec_property(
      cls, "id", [](const JobSpec& s) { return model::to_index(s.id); }, "job id (int), dense in submission order");
  spec_property(
      cls, "user", [](const JobSpec& s) { return model::to_index(s.user); }, "interned user id (int)");
  spec_property(
      cls, "type", [](const JobSpec& s) { return std::string(model::to_string(s.type)); },
      "workload type: Pretrain, SFT, MLLM, Evaluation, Debug or Other");
  spec_property(
      cls, "gpus", [](const JobSpec& s) { return s.gpus; }, "GPUs requested (0: a CPU job)");
  spec_property(
      cls, "gpu_milli", [](const JobSpec& s) { return s.gpu_milli; },
      "thousandths of each GPU (< 1000: a fractional job on a shared GPU)");
  spec_property(
      cls, "nodes", [](const JobSpec& s) { return s.nodes; }, "nodes requested (0: derived from gpus)");
  spec_property(
      cls, "cpus", [](const JobSpec& s) { return s.cpus; }, "CPU cores requested");
  spec_property(
      cls, "submit_time_s", [](const JobSpec& s) { return s.submit_time_s; }, "first submission (s)");
  spec_property(
      cls, "duration_s", [](const JobSpec& s) { return s.duration_s; },
      "service time from the workload (what C++ policies see; an oracle, not an estimate)");
  spec_property(
      cls, "requested_time_s", [](const JobSpec& s) { return known_time(s.requested_time_s); },
      "wall-time limit requested, or None");
  spec_property(
      cls, "recorded_start_s", [](const JobSpec& s) { return known_time(s.recorded_start_s); },
      "start time the trace recorded, or None");
  spec_property(
      cls, "run", [](const JobSpec& s) { return model::to_index(s.run); }, "logical run (0: its own)");
  spec_property(
      cls, "attempt", [](const JobSpec& s) { return s.attempt; }, "attempt number within its run");
  spec_property(
      cls, "model_params", [](const JobSpec& s) { return s.model_params; }, "model parameters (0: unknown)");
  spec_property(
      cls, "name", [](const JobSpec& s) { return s.name; }, "job id as written in the trace");
  spec_property(
      cls, "final_state", [](const JobSpec& s) { return std::string(model::to_string(s.final_state)); },
      "how the workload says it ends: COMPLETED, CANCELLED, FAILED, TIMEOUT, NODE_FAIL");
  spec_property(
      cls, "eval_batch", [](const JobSpec& s) { return s.eval_batch; }, "evaluation request (0: none)");
  spec_property(
      cls, "is_cpu_job", [](const JobSpec& s) { return s.is_cpu_job(); }, "runs on the CPU pool");
  spec_property(
      cls, "is_fractional", [](const JobSpec& s) { return s.is_fractional(); }, "takes part of a GPU");
  spec_property(
      cls, "gpu_share", [](const JobSpec& s) { return s.gpu_share(); }, "GPUs held (fractional: milli/1000)");
}

/// The job as the view shows it now (phase, service, placement).
void bind_job(py::module_& m) {
  py::class_<PyJob> cls(m, "Job", "A copy of one job as the view showed it when asked (safe to keep).");
  bind_job_spec(cls);
  cls.def_property_readonly(
         "phase", [](const PyJob& j) { return model::to_string(j.entry.phase); },
         "queued, running or held (recovering)")
      .def_property_readonly(
          "queued_since_s", [](const PyJob& j) { return j.entry.queued_since_s; }, "last (re)submission (s)")
      .def_property_readonly(
          "start_time_s", [](const PyJob& j) { return j.entry.start_time_s; }, "start of the current attempt (s)")
      .def_property_readonly(
          "placement", [](const PyJob& j) { return placement_to(j.entry.placement); }, "where it runs (running)")
      .def_property_readonly(
          "attained_gpu_s", [](const PyJob& j) { return j.entry.attained_gpu_s; }, "GPU-seconds of service so far")
      .def_property_readonly(
          "preemptions", [](const PyJob& j) { return j.entry.preemptions; }, "times it was preempted")
      .def("__repr__", [](const PyJob& j) {
        return fmt::format("Job(id={}, gpus={}, phase={})", model::to_index(j.entry.spec.id), j.entry.spec.gpus,
                           model::to_string(j.entry.phase));
      });
}

void bind_share(py::module_& m) {
  py::class_<model::NodeShare>(m, "Share", "GPUs taken on one node: whole GPUs, or a fraction of one shared GPU.")
      .def(py::init([](std::uint32_t node, std::uint32_t gpus, std::uint32_t milli, std::uint32_t gpu) {
             return model::NodeShare{model::NodeId{node}, gpus, milli, gpu};
           }),
           py::arg("node"), py::arg("gpus"), py::arg("milli") = 0, py::arg("gpu") = 0)
      .def_property_readonly("node", [](const model::NodeShare& s) { return model::to_index(s.node); })
      .def_readonly("gpus", &model::NodeShare::gpus, "whole GPUs (0 for a fractional share)")
      .def_readonly("milli", &model::NodeShare::milli, "thousandths of shared GPU `gpu` (0: whole GPUs)")
      .def_readonly("gpu", &model::NodeShare::gpu, "which shared GPU of the node (with milli > 0)")
      .def("__eq__", [](const model::NodeShare& a, const model::NodeShare& b) { return a == b; })
      .def("__repr__", [](const model::NodeShare& s) {
        return s.milli > 0
                   ? fmt::format("Share(node={}, gpus=0, milli={}, gpu={})", model::to_index(s.node), s.milli, s.gpu)
                   : fmt::format("Share(node={}, gpus={})", model::to_index(s.node), s.gpus);
      });
}

template <class D>
D made_here(model::Decision decision) {
  D out;
  out.decision = std::move(decision);
  mark_origin(out);
  return out;
}

void bind_decisions(py::module_& m) {
  auto job_of = [](const PyDecision& d) {
    return std::visit(
        [](const auto& x) -> std::int64_t {
          if constexpr (std::is_same_v<std::decay_t<decltype(x)>, model::CallMeLater>) {
            return -1;
          } else {
            return static_cast<std::int64_t>(model::to_index(x.job));
          }
        },
        d.decision);
  };
  py::class_<PyDecision>(m, "Decision", "Base of StartJob, PreemptJob, RejectJob, NoteWait and CallMeLater.")
      .def_property_readonly("job", job_of, "the job it is about (int; -1 for CallMeLater)");
  py::class_<PyStartJob, PyDecision>(m, "StartJob",
                                     "Start a queued job on a placement (a list of Share; [] for a CPU job).")
      .def(py::init([](py::handle job, py::handle placement) {
             return made_here<PyStartJob>(model::StartJob{job_id_from(job), placement_from(placement)});
           }),
           py::arg("job"), py::arg("placement"))
      .def_property_readonly(
          "placement",
          [](const PyStartJob& d) { return placement_to(std::get<model::StartJob>(d.decision).placement); })
      .def("__repr__", [job_of](const PyStartJob& d) { return fmt::format("StartJob(job={})", job_of(d)); });
  py::class_<PyPreemptJob, PyDecision>(m, "PreemptJob", "Stop a running job and queue it again (checkpoint, restore).")
      .def(py::init([](py::handle job) { return made_here<PyPreemptJob>(model::PreemptJob{job_id_from(job)}); }),
           py::arg("job"))
      .def("__repr__", [job_of](const PyPreemptJob& d) { return fmt::format("PreemptJob(job={})", job_of(d)); });
  py::class_<PyRejectJob, PyDecision>(m, "RejectJob", "Refuse a queued job for good.")
      .def(py::init([](py::handle job) {
             return made_here<PyRejectJob>(model::RejectJob{job_id_from(job), model::RejectReason::BY_POLICY});
           }),
           py::arg("job"))
      .def("__repr__", [job_of](const PyRejectJob& d) { return fmt::format("RejectJob(job={})", job_of(d)); });
  py::class_<PyNoteWait, PyDecision>(m, "NoteWait",
                                     "A queued job keeps waiting for `reason` (a name of WAIT_REASONS, e.g. "
                                     "\"Resources\"): what jobs.csv and summary.json attribute its wait to.")
      .def(py::init([](py::handle job, const std::string& reason) {
             return made_here<PyNoteWait>(model::NoteWait{job_id_from(job), wait_reason_from(reason)});
           }),
           py::arg("job"), py::arg("reason"))
      .def("__repr__", [job_of](const PyNoteWait& d) { return fmt::format("NoteWait(job={})", job_of(d)); });
  py::class_<PyCallMeLater, PyDecision>(m, "CallMeLater",
                                        "Call the scheduler again at time_s (simulated seconds): it then receives a "
                                        "WakeUp event.")
      .def(py::init([](double time_s) { return made_here<PyCallMeLater>(model::CallMeLater{time_s}); }),
           py::arg("time_s"))
      .def("__repr__", [](const PyCallMeLater& d) {
        return fmt::format("CallMeLater(time_s={})", std::get<model::CallMeLater>(d.decision).time_s);
      });
  py::list reasons;
  for (std::size_t r = 0; r < model::WAIT_REASON_COUNT; ++r) {
    reasons.append(std::string(model::to_string(static_cast<model::WaitReason>(r))));
  }
  m.attr("WAIT_REASONS") = reasons;
}

void bind_events(py::module_& m) {
  py::class_<model::JobSubmitted>(m, "JobSubmitted", "A job entered the queue (first submission or resubmission).")
      .def(py::init([](std::uint64_t job) { return model::JobSubmitted{model::JobId{job}}; }), py::arg("job"))
      .def_property_readonly("job", [](const model::JobSubmitted& e) { return model::to_index(e.job); })
      .def("__repr__",
           [](const model::JobSubmitted& e) { return fmt::format("JobSubmitted(job={})", model::to_index(e.job)); });
  py::class_<model::JobEnded>(m, "JobEnded",
                              "A job released its resources; cause PREEMPTED: it is queued again at once.")
      .def_property_readonly("job", [](const model::JobEnded& e) { return model::to_index(e.job); })
      .def_property_readonly(
          "state", [](const model::JobEnded& e) { return std::string(model::to_string(e.state)); },
          "COMPLETED, CANCELLED, FAILED, TIMEOUT or NODE_FAIL")
      .def_property_readonly(
          "cause",
          [](const model::JobEnded& e) {
            constexpr const char* NAMES[] = {"WORKLOAD", "NODE_FAILURE", "PREEMPTED"};
            return NAMES[static_cast<std::size_t>(e.cause)];
          },
          "WORKLOAD (as the workload says), NODE_FAILURE or PREEMPTED")
      .def("__repr__",
           [](const model::JobEnded& e) { return fmt::format("JobEnded(job={})", model::to_index(e.job)); });
  py::class_<model::NodeDown>(m, "NodeDown", "A node failed or was isolated: it takes no new jobs.")
      .def_property_readonly("node", [](const model::NodeDown& e) { return model::to_index(e.node); });
  py::class_<model::NodeUp>(m, "NodeUp", "A node is back in service.")
      .def_property_readonly("node", [](const model::NodeUp& e) { return model::to_index(e.node); });
  py::class_<model::WakeUp>(m, "WakeUp", "A time the scheduler asked for with CallMeLater has come.")
      .def_readonly("time_s", &model::WakeUp::time_s);
}

void bind_view(py::module_& m) {
  using V = PyView;
  py::class_<V>(m, "ClusterView", "One cluster as a policy may read it during one call (see acme_sim).")
      .def_property_readonly(
          "now_s", [](const V& v) { return v.view().now_s(); }, "simulated time (s)")
      .def_property_readonly("cluster", [](const V& v) { return v.view().shape().name; })
      .def_property_readonly("nodes", [](const V& v) { return v.view().shape().nodes; })
      .def_property_readonly("gpus_per_node", [](const V& v) { return v.view().shape().gpus_per_node; })
      .def_property_readonly("leaves", [](const V& v) { return v.view().shape().leaves; })
      .def_property_readonly("total_gpus", [](const V& v) { return v.view().total_gpus(); })
      .def_property_readonly(
          "free_gpus_total", [](const V& v) { return v.free().free_gpus_total(); },
          "free GPUs on up nodes, less this call's starts")
      .def_property_readonly("free_cpu_cores", [](const V& v) { return v.free().free_cpu_cores(); })
      .def_property_readonly("up_nodes", [](const V& v) { return v.view().up_nodes(); })
      .def_property_readonly("queued_count", [](const V& v) { return v.view().queued_jobs(); })
      .def_property_readonly("running_count", [](const V& v) { return v.view().running_jobs(); })
      .def_property_readonly("queued_gpus", [](const V& v) { return v.view().queued_gpus(); })
      .def("job", &V::job, py::arg("job"), "Job (a copy) of an active job, None when it is not active")
      .def("is_queued", &V::is_queued, py::arg("job"), "whether the job waits in the queue (no copy)")
      .def(
          "queued_jobs", [](const V& v) { return v.jobs_in(model::JobPhase::QUEUED); },
          "queued Jobs by id; O(active jobs)")
      .def(
          "running_jobs", [](const V& v) { return v.jobs_in(model::JobPhase::RUNNING); }, "running Jobs by id")
      .def("free_gpus", &V::free_gpus, py::arg("node"), "free GPUs of a node (0 when down), less this call's starts")
      .def("is_up", &V::is_up, py::arg("node"))
      .def("out_of_service", &V::out_of_service, py::arg("node"),
           "why the node is out of service: a list of \"repair\", \"manual_repair\", \"quarantine\", \"switch\", "
           "\"spare\", \"power\" ([] while in service)")
      .def("power_state", &V::power_state, py::arg("node"),
           "\"on\", \"off\" (switched off by the power policy: not up) or \"booting\"")
      .def_property_readonly("nodes_off", [](const V& v) { return v.view().powered_off_nodes(); })
      .def_property_readonly("nodes_booting", [](const V& v) { return v.view().booting_nodes(); })
      .def("gpus_of", &V::gpus_of, py::arg("node"))
      .def("leaf_of", &V::leaf_of, py::arg("node"))
      .def("shared_gpu_milli", &V::shared_gpu_milli, py::arg("node"), py::arg("gpu"))
      .def("free_gpus_by_node", &V::free_gpus_by_node, "free GPUs of every node, as free_gpus(n)")
      .def("idle_nodes", &V::idle_nodes, "up nodes with all GPUs free, lowest first")
      .def("place", &V::place, py::arg("job"), "the placement policy's choice for the job, or None")
      .def("start", &V::start, py::arg("job"), py::arg("placement"), "a checked StartJob; its GPUs count as taken")
      .def("preempt", &V::preempt, py::arg("job"), "a checked PreemptJob")
      .def("reject", &V::reject, py::arg("job"), "a checked RejectJob");
}

} // namespace

void bind_types(py::module_& module) {
  bind_share(module);
  bind_job(module);
  bind_decisions(module);
  bind_events(module);
  bind_view(module);
  py::class_<PolicyContext>(module, "Context", "What a policy knows about its run: seed and cluster.")
      .def_readonly("seed", &PolicyContext::seed, "the run seed (use random.Random(seed) for randomness)")
      .def_readonly("cluster", &PolicyContext::cluster, "the cluster the policy serves");
}

} // namespace acme::policies::python
