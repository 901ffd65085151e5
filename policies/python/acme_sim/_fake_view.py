"""acme_sim.ClusterView in pure Python, for acme_sim.testing (policies/python/python_view.cpp).

A view is bound around one call into a policy and unbound after it: one kept past its call raises, as the
native one does. A scheduler's view goes through the call's DecisionCheck (view.start, view.preempt,
view.reject check at once; a start's GPUs count as taken for the rest of the call) and asks the cluster's
placement policy in view.place; a placement policy's view is read-only over what the scheduler has left.
"""

from acme_sim._fake_check import OUT_OF_SERVICE, check_placement, describe, first_fit, may_fit_now
from acme_sim._fake_values import Job, PreemptJob, RejectJob, StartJob, job_id_from, placement_from

EXPIRED = ("this ClusterView is only valid during the call that received it; read what you need then, or keep job "
           "ids and look them up in the next call's view")


class PolicyError(Exception):
    """What acme-sim stops a run for (exit code 2) that is not an exception of the policy's own code: an invalid
    decision returned by on_events, a placement policy's invalid answer, a result that is no list of decisions.

    ``message`` is the text acme-sim prints after the config key ("Fifo.on_events returned an invalid decision:
    StartJob for job 3 ..."); ``file`` and ``line`` are where it prints it from (the line that built the
    decision, else the method's definition).
    """

    def __init__(self, message, file="", line=0):
        super().__init__(f"{file}:{line}: {message}" if file else message)
        self.message, self.file, self.line = message, file, line


def defined_at(method):
    """(file, line) of a method's definition, as acme-sim names it when no decision says where."""
    code = getattr(method, "__code__", None)
    return (code.co_filename, code.co_firstlineno) if code is not None else ("", 0)


class FirstFit:
    """The default placement of acme_sim.testing.Cluster: the C++ first_fit's choices."""

    def place(self, entry, free):
        return first_fit(entry.spec, free)


class PythonPlacement:
    """A user's placement policy as acme-sim calls it (python_placement.cpp): a Job copy and a read-only view."""

    def __init__(self, policy):
        self.policy = policy
        self.what = type(policy).__name__ + ".place"

    def place(self, entry, free):
        method = self.policy.place
        view = ClusterView._bind(free)
        try:
            result = method(Job._copy(entry.spec, entry), view)
            if result is None:
                return None
            try:
                placement = placement_from(result)
            except (TypeError, ValueError) as e:
                raise PolicyError(f"{self.what} returned {e}", *defined_at(method)) from None
        finally:
            view._unbind()
        error = check_placement(entry.spec, placement, free)
        if error:
            raise PolicyError(f"{self.what} returned {describe(placement)}: {error}", *defined_at(method))
        return placement


def _node_number(node):
    if not isinstance(node, int) or node < 0:
        raise TypeError(f"expected a node number (a non-negative int), got {node!r}")
    return node


class ClusterView:
    """One cluster as a policy may read it during one call (see acme_sim)."""

    __slots__ = ("_free", "_round", "_placement")

    def __init__(self, *_args, **_kwargs):
        raise TypeError("acme_sim.ClusterView: no constructor; acme_sim.testing.Cluster hands views to policies "
                        "(cluster.view() for a read-only one)")

    @classmethod
    def _bind(cls, free, round_=None, placement=None):
        view = object.__new__(cls)
        view._free, view._round, view._placement = free, round_, placement
        return view

    def _unbind(self):
        self._free = self._round = self._placement = None

    def _get(self):
        if self._free is None:
            raise ValueError(EXPIRED)
        return self._free

    def _state(self):
        return self._get().state

    def _scheduler_round(self, what):
        self._get()
        if self._round is None:
            raise ValueError(f"{what}() is for schedulers; a placement policy returns a placement")
        return self._round

    def _node(self, node):
        state = self._state()
        if _node_number(node) >= state.nodes:
            raise IndexError(f"node {node} does not exist; the cluster has nodes 0 to {state.nodes - 1}")
        return node

    now_s = property(lambda self: self._state().now_s, doc="simulated time (s)")
    cluster = property(lambda self: self._state().name)
    nodes = property(lambda self: self._state().nodes)
    gpus_per_node = property(lambda self: self._state().gpus_per_node)
    leaves = property(lambda self: self._state().leaves)
    total_gpus = property(lambda self: self._state().total_gpus())
    free_gpus_total = property(lambda self: self._get().free_gpus_total(),
                               doc="free GPUs on up nodes, less this call's starts")
    free_cpu_cores = property(lambda self: self._get().free_cpu_cores())
    up_nodes = property(lambda self: sum(self._state().up))
    queued_count = property(lambda self: len(self._state().entries("queued")))
    running_count = property(lambda self: len(self._state().entries("running")))
    queued_gpus = property(lambda self: sum(e.spec["gpus"] for e in self._state().entries("queued")))
    nodes_off = property(lambda self: self._state().power.count("off"))
    nodes_booting = property(lambda self: self._state().power.count("booting"))

    def job(self, job):
        """Job (a copy) of an active job, None when it is not active."""
        entry = self._state().jobs.get(job_id_from(job))
        return None if entry is None else Job._copy(entry.spec, entry)

    def is_queued(self, job):
        """whether the job waits in the queue (no copy)"""
        entry = self._state().jobs.get(job_id_from(job))
        return entry is not None and entry.phase == "queued"

    def queued_jobs(self):
        """queued Jobs by id; O(active jobs)"""
        return [Job._copy(e.spec, e) for e in self._state().entries("queued")]

    def running_jobs(self):
        """running Jobs by id"""
        return [Job._copy(e.spec, e) for e in self._state().entries("running")]

    def free_gpus(self, node):
        """free GPUs of a node (0 when down), less this call's starts"""
        return self._get().free_gpus(self._node(node))

    def is_up(self, node):
        return self._state().up[self._node(node)]

    def out_of_service(self, node):
        """why the node is out of service: a list of "repair", "manual_repair", "quarantine", "switch", "spare",
        "power" ([] while in service)"""
        reasons = self._state().out[self._node(node)]
        return [name for name in OUT_OF_SERVICE if name in reasons]

    def power_state(self, node):
        """"on", "off" (switched off by the power policy: not up) or "booting\""""
        return self._state().power[self._node(node)]

    def gpus_of(self, node):
        return self._state().gpus[self._node(node)]

    def leaf_of(self, node):
        return self._state().leaf[self._node(node)]

    def shared_gpu_milli(self, node, gpu):
        state = self._state()
        self._node(node)
        if _node_number(gpu) >= state.gpus[node]:
            raise IndexError(f"GPU {gpu} of node {node} does not exist")
        return self._get().shared_gpu_milli(node, gpu)

    def free_gpus_by_node(self):
        """free GPUs of every node, as free_gpus(n)"""
        free = self._get()
        return [free.free_gpus(n) for n in range(free.state.nodes)]

    def idle_nodes(self):
        """up nodes with all GPUs free, lowest first"""
        return self._get().idle_nodes()

    def place(self, job):
        """the placement policy's choice for the job, or None"""
        self._scheduler_round("place")
        job_id = job_id_from(job)
        entry = self._state().jobs.get(job_id)
        if entry is None:
            raise KeyError(f"place(): job {job_id} is not in this cluster")
        if entry.spec["gpus"] == 0:
            return []  # CPU jobs run on the cluster's CPU pool
        if not may_fit_now(entry.spec, self._free):
            return None
        return self._placement.place(entry, self._free)

    def _checked(self, decision, what):
        error = self._scheduler_round(what).accept(decision)
        if error:
            raise ValueError(error)
        return decision

    def start(self, job, placement):
        """a checked StartJob; its GPUs count as taken"""
        return self._checked(StartJob(job, placement), "start")

    def preempt(self, job):
        """a checked PreemptJob"""
        return self._checked(PreemptJob(job), "preempt")

    def reject(self, job):
        """a checked RejectJob"""
        return self._checked(RejectJob(job), "reject")
