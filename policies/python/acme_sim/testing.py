"""acme_sim.testing: unit-test a Python policy on a hand-built cluster, without acme-sim.

    import acme_sim.testing as testing          # first: it puts pure-Python types in acme_sim
    from my_scheduler import MyScheduler        # your module's `from acme_sim import StartJob` now works

    cluster = testing.Cluster(nodes=2, gpus_per_node=8)
    a = cluster.submit(gpus=8, duration_s=100)              # at now_s (0)
    b = cluster.submit(gpus=16, duration_s=50, at_s=10)
    scheduler = MyScheduler({}, testing.Context())           # or testing.load_policy("my_scheduler.py", ...)
    decisions = cluster.step(scheduler)                      # one instant: the call at 0
    assert cluster.record(a).placements == [[acme_sim.Share(0, 8)]]
    cluster.run(scheduler)                                   # every instant until nothing is left
    assert cluster.record(b).starts == [100.0]

Outside acme-sim, importing this module replaces acme_sim's stand-ins (which refuse to be built) with
pure-Python equivalents of the native types: same attribute and method names, same checks and messages.
Inside acme-sim it changes nothing (acme_sim is the simulator's module there, and this one is not loaded).

A Cluster plays the engine's part: jobs arrive at their submit time, run for their duration once started
and end (JobEnded with their final state); decisions are checked as acme-sim checks them (a PolicyError
with acme-sim's message when one is invalid) and applied as the engine applies them; PreemptJob stops a
job (after ``preempt_delay_s``, the time acme-sim's checkpoint save would take) and queues it again with
its remaining service; CallMeLater brings a WakeUp; ``node_down``/``node_up`` take nodes out and back.
What acme-sim models and this does not (launch latency, checkpoints, failures drawn at random, power
policies, several clusters): docs/python.md, "Testing a policy".
"""

import math
from collections import namedtuple

import acme_sim
from acme_sim import _fake_values as values
from acme_sim._fake_check import OUT_OF_SERVICE, ClusterState, DecisionCheck, FreeResources, make_spec
from acme_sim._fake_view import ClusterView, FirstFit, PolicyError, PythonPlacement, defined_at

__all__ = ["Call", "Cluster", "Context", "JobRecord", "PolicyError", "load_policy"]

Context = values.Context
NEVER = math.inf
MAX_CALLS_PER_INSTANT = 1000
FAILING = ("repair", "manual_repair", "quarantine", "switch")  # reasons that end the jobs on the node
REJECTED_TOO_WIDE = "more GPUs than the cluster has"  # sim/model/job.cpp, RejectReason
REJECTED_TOO_MANY_CPUS = "more CPU cores than the CPU pool has"
REJECTED_BY_POLICY = "rejected by the scheduling policy"
_FAKES = ("CallMeLater", "ClusterView", "Context", "Decision", "Job", "JobEnded", "JobSubmitted", "NodeDown",
          "NodeUp", "NoteWait", "PreemptJob", "RejectJob", "Share", "StartJob", "WakeUp")

Call = namedtuple("Call", "time_s events decisions")
Call.__doc__ = "One call of the scheduler: the simulated time, the events it was given, the decisions applied."


def _install():
    """Puts the pure-Python types in acme_sim where its stand-ins are (outside acme-sim only)."""
    if getattr(acme_sim, "_INSIDE_ACME_SIM", False):
        return
    for name in _FAKES:
        setattr(acme_sim, name, ClusterView if name == "ClusterView" else getattr(values, name))
    acme_sim.WAIT_REASONS = list(values.WAIT_REASONS)
    acme_sim._TESTING = True


_install()


class JobRecord:
    """What happened to one job: submit_s, starts (times), placements (one list of Share per start),
    end_s and state (None while active), preemptions, rejected (acme-sim's reject_reason text, or None) and
    wait_reason (the last NoteWait's reason, or None)."""

    def __init__(self, job_id, name, submit_s):
        self.id, self.name, self.submit_s = job_id, name, submit_s
        self.starts, self.placements = [], []
        self.end_s = self.state = self.rejected = self.wait_reason = None
        self.preemptions = 0
        self._first_start_order = None

    def __repr__(self):
        return (f"JobRecord(id={self.id}, submit_s={self.submit_s}, starts={self.starts}, end_s={self.end_s}, "
                f"state={self.state}, preemptions={self.preemptions}, rejected={self.rejected})")


def load_policy(path, class_name, params=None, seed=42, cluster="test"):
    """Imports your file as acme-sim does (its folder on sys.path) and builds ``Class(params, Context)``."""
    module = acme_sim._load_module(path)
    cls = getattr(module, class_name, None)
    if cls is None:
        names = sorted(n for n, v in vars(module).items()
                       if isinstance(v, type) and v.__module__ == module.__name__) or ["(none)"]
        raise AttributeError(f"\"{path}\" defines no \"{class_name}\"; expected one of its classes: "
                             f"{', '.join(names)}")
    return cls(dict(params or {}), values.Context(seed, cluster))


class Cluster:
    """One cluster and its jobs, driven through a Python scheduler as acme-sim drives it.

    ``nodes`` nodes of ``gpus_per_node`` GPUs (or ``gpus_of_node``, one count per node), a CPU pool of
    ``cpu_cores`` cores, ``nodes_per_leaf`` nodes under each leaf switch (0: one leaf). ``placement``: a
    placement policy object (``place(job, view)``) that ``view.place`` asks; None: acme-sim's first_fit.
    """

    def __init__(self, nodes=2, gpus_per_node=8, cpu_cores=64, name="test", nodes_per_leaf=0, gpus_of_node=None,
                 placement=None):
        gpus = list(gpus_of_node) if gpus_of_node is not None else [gpus_per_node] * nodes
        leaves = [n // nodes_per_leaf for n in range(len(gpus))] if nodes_per_leaf > 0 else None
        self._state = ClusterState(name, gpus, cpu_cores, leaves)
        self._placement = FirstFit() if placement is None else PythonPlacement(placement)
        self.preempt_delay_s = 0.0
        self.calls = []
        self.records = {}
        self._pending = []  # events for the next call
        self._arrivals = []  # (at_s, seq, spec)
        self._node_events = []  # (at_s, seq, function)
        self._ends, self._releases, self._requeues = {}, {}, {}  # job id -> time
        self._remaining = {}  # job id -> service left (s)
        self._wakeups = set()
        self._woken_at = None
        self._seq = 0
        self._view = None

    # ---- what tests read ----
    now_s = property(lambda self: self._state.now_s)

    def record(self, job_id):
        return self.records[job_id]

    def job(self, job_id):
        """A Job copy of an active job (None when it is not active)."""
        entry = self._state.jobs.get(job_id)
        return None if entry is None else values.Job._copy(entry.spec, entry)

    def view(self):
        """A read-only ClusterView of the cluster now (a placement policy's view), valid until the next step."""
        self._expire_view()
        self._view = ClusterView._bind(FreeResources(self._state))
        return self._view

    def start_order(self):
        """Ids of the jobs that started, by first start time (ties in decision order)."""
        started = sorted((r.starts[0], r._first_start_order, r.id) for r in self.records.values() if r.starts)
        return [job_id for _, _, job_id in started]

    # ---- what happens ----
    def submit(self, gpus, duration_s, at_s=None, **fields):
        """Submits a job at ``at_s`` (default: now); returns its id. ``fields``: any other Job attribute
        (gpu_milli, cpus, type, user, name, final_state, requested_time_s, ..., or id)."""
        at_s = self.now_s if at_s is None else float(at_s)
        if at_s < self.now_s:
            raise ValueError(f"submit: at_s {at_s} is in the past (now_s is {self.now_s})")
        spec = make_spec(self._next_id() if "id" not in fields else fields.pop("id"), gpus, duration_s, at_s, fields)
        if spec["id"] in self.records:
            raise ValueError(f"submit: job id {spec['id']} is taken")
        self.records[spec["id"]] = JobRecord(spec["id"], spec["name"], at_s)
        self._arrivals.append((at_s, self._tick(), spec))
        self._arrivals.sort(key=lambda a: a[:2])
        return spec["id"]

    def node_down(self, node, at_s=None, reason="repair", requeue_after_s=None):
        """Takes ``node`` out of service at ``at_s`` (default: now) for ``reason`` (a name of
        out_of_service). A failure (repair, manual_repair, quarantine, switch) first ends the jobs on it:
        JobEnded(NODE_FAIL, NODE_FAILURE) and they leave, or with ``requeue_after_s`` JobEnded(FAILED,
        NODE_FAILURE), held, and JobSubmitted again that much later (acme-sim's recovery by restart)."""
        if reason not in OUT_OF_SERVICE:
            raise ValueError(f"node_down: unknown reason {reason!r}; expected one of: {', '.join(OUT_OF_SERVICE)}")
        self._at(at_s, lambda: self._take_down(node, reason, requeue_after_s), node)

    def node_up(self, node, at_s=None, reason=None):
        """Clears ``reason`` (None: every reason) at ``at_s``; NodeUp when none is left."""
        self._at(at_s, lambda: self._bring_up(node, reason), node)

    def step(self, scheduler):
        """Plays the next instant at which something happens: every call of the scheduler at it, each
        decision checked and applied. Returns that instant's decisions; None when nothing is left."""
        t = self._next_instant()
        if t == NEVER:
            return None
        self._expire_view()
        self._state.now_s = t
        made = []
        for _ in range(MAX_CALLS_PER_INSTANT):
            self._collect_due(t)
            if not self._pending:
                return made
            events, self._pending = self._pending, []
            decisions = self._call(scheduler, events)
            self.calls.append(Call(t, events, decisions))
            for decision in decisions:
                self._apply(decision)
            made += decisions
        raise RuntimeError(f"the instant {t} never settles: the scheduler was called {MAX_CALLS_PER_INSTANT} times")

    def run(self, scheduler, until_s=NEVER):
        """Plays every instant up to ``until_s`` (default: until nothing is left); returns the decisions."""
        made = []
        while self._next_instant() <= until_s and self._next_instant() != NEVER:
            made += self.step(scheduler)
        waiting = self._state.entries("queued")
        if until_s == NEVER and waiting:
            first = waiting[0].spec
            raise PolicyError(f"the scheduler left {len(waiting)} jobs waiting when nothing else could happen (the "
                              f"first: job_id {first['name'] or first['id']}, {first['gpus']} GPUs); expected every "
                              "job to be started or rejected")
        return made

    # ---- the scheduler's call (policies/python/python_scheduler.cpp) ----
    def _call(self, scheduler, events):
        method = scheduler.on_events
        what = type(scheduler).__name__ + ".on_events"
        round_ = DecisionCheck(self._state)
        view = ClusterView._bind(round_.free, round_, self._placement)
        try:
            result = method(list(events), view)
        finally:
            view._unbind()
        if result is None:
            return []
        try:
            items = iter(result)
        except TypeError:
            raise PolicyError(f"{what} returned {type(result).__name__}; expected a list of decisions (or None)",
                              *defined_at(method)) from None
        return self._checked(items, what, method)

    def _checked(self, items, what, method):
        returned = DecisionCheck(self._state)
        out = []
        for item in items:
            if not isinstance(item, values.Decision):
                raise PolicyError(f"{what} returned a list holding {item!r}; expected StartJob, PreemptJob or "
                                  "RejectJob", *defined_at(method))
            error = returned.accept(item)
            if error:
                where = (item._file, item._line) if item._file else defined_at(method)
                raise PolicyError(f"{what} returned an invalid decision: {error}", *where)
            out.append(item)
        return out

    # ---- the engine's part ----
    def _apply(self, decision):
        entry = self._state.jobs.get(decision.job)
        if isinstance(decision, values.StartJob):
            self._start(entry, decision.placement)
        elif isinstance(decision, values.RejectJob):
            self._finish(entry, "CANCELLED", rejected=REJECTED_BY_POLICY)
        elif isinstance(decision, values.PreemptJob):
            self._preempt(entry)
        elif isinstance(decision, values.NoteWait):
            self.records[decision.job].wait_reason = decision.reason
        elif isinstance(decision, values.CallMeLater):
            at_s = max(decision.time_s, self.now_s)
            if at_s != self._woken_at:  # woken at this instant already: acme-sim ignores it
                self._wakeups.add(at_s)

    def _start(self, entry, placement):
        job_id = entry.spec["id"]
        self._state.start_job(job_id, placement)
        record = self.records[job_id]
        if not record.starts:
            record._first_start_order = self._tick()
        record.starts.append(self.now_s)
        record.placements.append(list(placement))
        self._ends[job_id] = self.now_s + self._remaining[job_id]

    def _preempt(self, entry):
        job_id = entry.spec["id"]
        if job_id in self._releases:
            return  # already saving: acme-sim ignores a second preemption
        entry.preemptions += 1
        self.records[job_id].preemptions += 1
        self._remaining[job_id] -= self.now_s - entry.start_time_s
        del self._ends[job_id]
        self._releases[job_id] = self.now_s + self.preempt_delay_s
        if self.preempt_delay_s <= 0:
            self._release_preempted(job_id)

    def _release_preempted(self, job_id):
        del self._releases[job_id]
        self._state.release(self._state.jobs[job_id], "queued")
        self._pending.append(values.JobEnded(job_id, "CANCELLED", "PREEMPTED"))

    def _finish(self, entry, state, cause="WORKLOAD", rejected=None):
        job_id = entry.spec["id"]
        if entry.phase == "running":
            self._state.release(entry, "queued")
            self._pending.append(values.JobEnded(job_id, state, cause))
        for agenda in (self._ends, self._releases, self._requeues):
            agenda.pop(job_id, None)
        del self._state.jobs[job_id]
        record = self.records[job_id]
        record.end_s, record.state, record.rejected = self.now_s, state, rejected

    def _end_service(self, job_id):
        del self._ends[job_id]
        self._finish(self._state.jobs[job_id], self._state.jobs[job_id].spec["final_state"])

    def _arrive(self, spec):
        self._remaining[spec["id"]] = spec["duration_s"]
        self._state.add_job(spec)
        entry = self._state.jobs[spec["id"]]
        if spec["gpus"] > self._state.total_gpus():
            self._finish(entry, "CANCELLED", rejected=REJECTED_TOO_WIDE)
        elif spec["gpus"] == 0 and spec["cpus"] > self._state.cpu_pool_cores:
            self._finish(entry, "CANCELLED", rejected=REJECTED_TOO_MANY_CPUS)
        else:
            self._pending.append(values.JobSubmitted(spec["id"]))

    def _take_down(self, node, reason, requeue_after_s):
        state = self._state
        on_node = [e for e in state.entries("running") if any(s.node == node for s in e.placement)]
        if on_node and reason not in FAILING:
            raise ValueError(f"node_down: node {node} runs jobs; acme-sim takes only idle nodes out for {reason!r}")
        was_up = not state.out[node]
        state.out[node].add(reason)
        if not was_up:
            return
        for entry in on_node if reason in FAILING else []:
            self._fail(entry, requeue_after_s)
        state.up[node] = False
        state.power[node] = "off" if reason == "power" else "on"
        self._pending.append(values.NodeDown(node))

    def _fail(self, entry, requeue_after_s):
        job_id = entry.spec["id"]
        if requeue_after_s is None:
            self._finish(entry, "NODE_FAIL", "NODE_FAILURE")
            return
        if job_id in self._ends:
            self._remaining[job_id] -= self.now_s - entry.start_time_s
        self._ends.pop(job_id, None)
        self._releases.pop(job_id, None)
        self._state.release(entry, "held")
        self._pending.append(values.JobEnded(job_id, "FAILED", "NODE_FAILURE"))
        self._requeues[job_id] = self.now_s + requeue_after_s

    def _requeue(self, job_id):
        del self._requeues[job_id]
        entry = self._state.jobs[job_id]
        entry.phase, entry.queued_since_s = "queued", self.now_s
        self._pending.append(values.JobSubmitted(job_id))

    def _bring_up(self, node, reason):
        state = self._state
        if not state.out[node]:
            return
        state.out[node] = set() if reason is None else state.out[node] - {reason}
        if not state.out[node]:
            state.up[node], state.power[node] = True, "on"
            self._pending.append(values.NodeUp(node))

    # ---- the clock ----
    def _active(self):
        return bool(self._state.jobs) or bool(self._arrivals)

    def _next_instant(self):
        if self._pending:
            return self.now_s
        if not self._active():
            return NEVER  # only wake-ups or node changes are left: acme-sim's run is over
        times = [a[0] for a in self._arrivals[:1]] + [e[0] for e in self._node_events[:1]]
        times += list(self._ends.values()) + list(self._releases.values()) + list(self._requeues.values())
        return min(times + list(self._wakeups), default=NEVER)

    def _collect_due(self, t):
        """Turns what is due at ``t`` into events, in this order: preemptions released, services ended, node
        changes, recovered jobs queued again, wake-ups, arrivals (acme-sim takes submissions last)."""
        for job_id in sorted(j for j, at in self._releases.items() if at <= t):
            self._release_preempted(job_id)
        for job_id in sorted(j for j, at in self._ends.items() if at <= t):
            self._end_service(job_id)
        while self._node_events and self._node_events[0][0] <= t:
            self._node_events.pop(0)[2]()
        for job_id in sorted(j for j, at in self._requeues.items() if at <= t):
            self._requeue(job_id)
        for at_s in sorted(w for w in self._wakeups if w <= t):
            self._wakeups.discard(at_s)
            self._woken_at = at_s
            self._pending.append(values.WakeUp(at_s))
        while self._arrivals and self._arrivals[0][0] <= t:
            self._arrive(self._arrivals.pop(0)[2])

    def _at(self, at_s, action, node):
        if not isinstance(node, int) or not 0 <= node < self._state.nodes:
            raise IndexError(f"node {node!r} does not exist; the cluster has nodes 0 to {self._state.nodes - 1}")
        at_s = self.now_s if at_s is None else float(at_s)
        if at_s < self.now_s:
            raise ValueError(f"at_s {at_s} is in the past (now_s is {self.now_s})")
        self._node_events.append((at_s, self._tick(), action))
        self._node_events.sort(key=lambda e: e[:2])

    def _tick(self):
        self._seq += 1
        return self._seq

    def _next_id(self):
        return max(self.records, default=-1) + 1

    def _expire_view(self):
        if self._view is not None:
            self._view._unbind()
            self._view = None

