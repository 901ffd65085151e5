"""acme_sim: write acme-sim scheduling and placement policies in Python.

A Python policy is a class in a file of yours, named in the config:

    policies:
      scheduler: {name: python, module: my_scheduler.py, class: MyScheduler, params: {depth: 100}}
      placement: {name: python, module: my_placement.py, class: MyPlacement}

(`module` is relative to the config file.) acme-sim builds one instance per cluster as
``MyScheduler(params, context)`` -- ``params`` is the ``params:`` mapping as a dict, ``context`` an
``acme_sim.Context`` (``seed``, ``cluster``) -- and then calls it as it calls its C++ policies: events in,
decisions out, over a read-only view of the cluster.

Scheduler (see ``Scheduler``)
    ``on_events(events, view) -> list of decisions``: called once per simulated instant at which something
    happened in the cluster, with every event of that instant in order (``JobSubmitted``, ``JobEnded``,
    ``NodeDown``, ``NodeUp``, and ``WakeUp`` at a time asked for with ``CallMeLater(time_s)``). The view
    already reflects them. Return ``StartJob``, ``PreemptJob``, ``RejectJob``, ``NoteWait(job, reason)``
    (why a queued job still waits: a name of ``WAIT_REASONS``, shown in jobs.csv's ``wait_reason``; a job
    nobody explains waits for "Priority") and ``CallMeLater`` decisions; build them with ``view.start(job, placement)``, ``view.preempt(job)`` and
    ``view.reject(job)``, which check them at once and count a start's GPUs as taken for the rest of the
    call (so the next ``view.place`` sees them gone). Decisions built directly (``StartJob(job,
    placement)``) are checked when ``on_events`` returns.

Placement (see ``PlacementPolicy``)
    ``place(job, view) -> placement or None``: where ``job`` runs on what is still free (``view``, read only).

Values
    ``Job``: a copy of a job (id, gpus, gpu_milli, cpus, type, user, submit_time_s, duration_s,
    requested_time_s, phase, queued_since_s, start_time_s, attained_gpu_s, preemptions, placement, ...).
    ``Share(node, gpus, milli=0, gpu=0)``: GPUs on one node; a placement is a list of Share (or of
    ``(node, gpus)`` pairs); whole-GPU jobs take their GPUs on distinct up nodes (a gang job may take whole nodes, no share to spare), a fractional job
    (``gpu_milli < 1000``) one ``Share(node, 0, milli, gpu)``, a CPU job ``[]``.

ClusterView (valid only during the call that received it)
    ``now_s``, ``cluster``, ``nodes``, ``gpus_per_node``, ``leaves``, ``total_gpus``, ``free_gpus_total``,
    ``free_cpu_cores``, ``up_nodes``, ``nodes_off``, ``nodes_booting``, ``queued_count``, ``running_count``,
    ``queued_gpus``;
    ``job(id)`` (a Job or None), ``is_queued(id)``, ``queued_jobs()``, ``running_jobs()`` (copies: O(active
    jobs), keep your own queue from the events instead on large workloads), ``free_gpus(node)``,
    ``free_gpus_by_node()``, ``idle_nodes()``, ``is_up(node)``, ``out_of_service(node)`` (why a node is
    out: a list of "repair", "manual_repair", "quarantine", "switch", "spare", "power"),
    ``power_state(node)`` ("on", "off" or "booting": nodes the power policy switched off are not up),
    ``gpus_of(node)``, ``leaf_of(node)``,
    ``shared_gpu_milli(node, gpu)``; ``place(job)`` (the configured placement policy's answer, or None),
    ``start(job, placement)``, ``preempt(job)``, ``reject(job)``.

Rules: be deterministic (randomness from ``random.Random(context.seed)``; string hashing is seeded, so set
orders repeat); do not block. An exception in your code, or an invalid decision (a job that is not queued,
more GPUs than are free), stops the run with exit code 2 and one line naming your file and line.

Outside acme-sim (docs/python.md)
    ``acme_sim.testing``: unit-test a policy without acme-sim. ``import acme_sim.testing`` (before your
    policy's module) puts pure-Python equivalents of the native types in acme_sim; ``testing.Cluster(nodes=2,
    gpus_per_node=8)`` takes jobs (``submit(gpus, duration_s, at_s)``), node failures (``node_down``,
    ``node_up``) and drives your scheduler through them (``step(scheduler)``, ``run(scheduler)``), checking
    and applying its decisions as acme-sim does; ``record(job)`` says when it started, where, and how it ended.
    ``acme_sim.load(folder)``: a run folder's outputs as pandas DataFrames (``.jobs``, ``.timeseries``,
    ``.nodes``, ``.runs``; ``.summary``, ``.config``), or a study folder's (``.results``, ``.runs``).
"""

import importlib.util
import os
import sys
import traceback

try:
    from _acme_sim import (WAIT_REASONS, CallMeLater, ClusterView, Context, Decision, Job, JobEnded, JobSubmitted,
                           NodeDown, NodeUp, NoteWait, PreemptJob, RejectJob, Share, StartJob, WakeUp)
    _INSIDE_ACME_SIM = True
except ImportError:  # outside acme-sim (an editor, help(acme_sim)): the native types exist only inside it
    _INSIDE_ACME_SIM = False
    _TESTING = False  # set by acme_sim.testing when it puts its pure-Python types here
    _NATIVE = ("CallMeLater", "ClusterView", "Context", "Decision", "Job", "JobEnded", "JobSubmitted", "NodeDown",
               "NodeUp", "NoteWait", "PreemptJob", "RejectJob", "Share", "StartJob", "WakeUp")

    def _outside(name):
        def refuse(*_args, **_kwargs):
            if _TESTING:
                raise RuntimeError(f"acme_sim.{name} was taken from acme_sim before acme_sim.testing replaced it: "
                                   "import acme_sim.testing before your policy's module")
            raise RuntimeError(f"acme_sim.{name} exists only inside acme-sim: run your policy with "
                               "`acme-sim run CONFIG` (its class is named under policies: {name: python, ...}), "
                               "or import acme_sim.testing first to test it without acme-sim")
        return type(name, (), {"__new__": lambda cls, *a, **k: refuse(), "__doc__": f"acme-sim's native {name} "
                               "(available while acme-sim runs the policy)."})

    for _name in _NATIVE:
        globals()[_name] = _outside(_name)
    WAIT_REASONS = ()

__all__ = ["CallMeLater", "ClusterView", "Context", "Decision", "Job", "JobEnded", "JobSubmitted", "NodeDown",
           "NodeUp", "NoteWait", "PlacementPolicy", "PreemptJob", "RejectJob", "Scheduler", "Share", "StartJob",
           "WAIT_REASONS", "WakeUp", "load"]


def load(folder):
    """The outputs of an acme-sim run folder as pandas DataFrames, or those of a study folder (acme-sim sweep).

    A run folder (summary.json) gives a Run: ``.jobs`` (jobs.csv; numbers as numbers, and each ``X_unix_s``
    column also as ``X_utc``, a ``datetime64[ns, UTC]`` column), ``.timeseries`` (with ``time_utc``),
    ``.nodes``, ``.runs`` (None when the run did not write the file), ``.summary`` (summary.json as a dict)
    and ``.config`` (config.resolved.yaml's text). A study folder (study.json) gives a Study: ``.results``
    (results.csv, one row per point with its ``label``), ``.plan`` (study.json), ``.runs`` (point id -> Run of
    each finished point). Needs pandas (Debian: python3-pandas); for use outside acme-sim, not in a policy.
    """
    try:
        from acme_sim import _runs
    except ImportError as e:
        raise ImportError("acme_sim.load reads run folders outside acme-sim: import acme_sim from "
                          f"policies/python (PYTHONPATH) in a python3 of yours ({e})") from None
    return _runs.load(folder)


class Scheduler:
    """Base class of Python schedulers (optional: any class with ``on_events`` will do).

    acme-sim builds one instance per cluster as ``Class(params, context)`` and calls ``on_events`` after
    every simulated instant at which something happened in the cluster. The instance may keep any state
    (its queues); it must be deterministic.
    """

    def __init__(self, params, context):
        """``params``: the ``params:`` mapping of the config (a dict); ``context``: an acme_sim.Context."""
        self.params = params
        self.context = context

    def on_events(self, events, view):
        """Returns the decisions (a list; None for none) after ``events`` (all of one instant, in order).

        ``view`` is the cluster's ClusterView, valid during this call only. Keep job ids, not the view.
        """
        raise NotImplementedError("a Scheduler defines on_events(events, view)")


class PlacementPolicy:
    """Base class of Python placement policies (optional: any class with ``place`` will do).

    Schedulers (C++ or Python, through ``view.place``) ask it where a job runs.
    """

    def __init__(self, params, context):
        """``params``: the ``params:`` mapping of the config (a dict); ``context``: an acme_sim.Context."""
        self.params = params
        self.context = context

    def place(self, job, view):
        """Returns a placement for ``job`` (an acme_sim.Job) on what ``view`` shows free, or None.

        A placement is a list of Share (or (node, gpus) pairs) covering ``job.gpus`` whole GPUs (no share to spare) on
        distinct up nodes with that many free, or one ``Share(node, 0, job.gpu_milli, gpu)`` for a
        fractional job. ``view`` is read-only: ``view.start`` and ``view.place`` are not available here.
        """
        raise NotImplementedError("a PlacementPolicy defines place(job, view)")


_user_modules = {}


def _load_module(path):
    """Imports the user's file once per process (the policies of several clusters share its module).

    Its folder goes on sys.path so it can import its neighbours. It is registered under its file name
    (``my_scheduler``) unless another module already has that name.
    """
    key = os.path.abspath(path)
    if key in _user_modules:
        return _user_modules[key]
    name = os.path.splitext(os.path.basename(path))[0]
    if name in sys.modules:
        name = "acme_sim_user_%d_%s" % (len(_user_modules), name)
    folder = os.path.dirname(key)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    _user_modules[key] = module
    return module


def _locate(exc, tb, user_folder):
    """(file, line, "Type: message", full traceback) of an exception raised by a user's policy.

    The line is the innermost traceback frame in the user's folder, else the innermost frame; ("", 0)
    when there is none (the error arose before any Python code ran).
    """
    tb = tb if tb is not None else exc.__traceback__
    text = " ".join(" ".join(traceback.format_exception_only(type(exc), exc)).split())
    full = "".join(traceback.format_exception(type(exc), exc, tb))
    if isinstance(exc, SyntaxError) and exc.filename:
        return exc.filename, exc.lineno or 0, "%s: %s" % (type(exc).__name__, exc.msg), full
    frames = traceback.extract_tb(tb)
    folder = os.path.abspath(user_folder) + os.sep
    # Absolute paths only: the package's own frames carry a relative name ("policies/python/...", "<string>")
    # that would resolve under the working folder, which may be the user's.
    mine = [f for f in frames if os.path.isabs(f.filename) and os.path.abspath(f.filename).startswith(folder)]
    where = mine[-1] if mine else (frames[-1] if frames else None)
    if where is None:
        return "", 0, text, full
    return where.filename, where.lineno or 0, text, full
