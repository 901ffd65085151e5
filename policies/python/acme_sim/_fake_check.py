"""The cluster model and the decision checks of acme_sim.testing, in pure Python.

ClusterState holds what acme-sim's model::ClusterView holds (sim/model/cluster_view.cpp): free GPUs per node,
shared GPUs, the CPU pool, up nodes and the active jobs. FreeResources is policies::FreeResources (what a
scheduler's round has left), DecisionCheck and check_placement are policies/python/decision_check.cpp (same
order of checks, same messages), first_fit is the C++ first_fit placement (policies/placement/first_fit.cpp).
"""

import math

from acme_sim._fake_values import (JOB_STATES, JOB_TYPES, MILLI_PER_GPU, CallMeLater, NoteWait, PreemptJob, Share,
                                   StartJob, number_text)

OUT_OF_SERVICE = ("repair", "manual_repair", "quarantine", "switch", "spare", "power")
MAX_ECHO_CHARS, ECHO_HEAD_CHARS, ECHO_TAIL_CHARS = 120, 80, 20  # sim/model/error.cpp


class Entry:
    """One active job: its spec (a dict of Job's workload fields) and what the view shows now."""

    def __init__(self, spec, now_s):
        self.spec = spec
        self.phase = "queued"
        self.queued_since_s = now_s
        self.start_time_s = 0.0
        self.placement = []
        self.attained_gpu_s = 0.0
        self.preemptions = 0

    def gpu_share(self):
        gpus, milli = self.spec["gpus"], self.spec["gpu_milli"]
        return milli / MILLI_PER_GPU if 0 < gpus and milli < MILLI_PER_GPU else float(gpus)


def is_fractional(spec):
    return spec["gpus"] > 0 and spec["gpu_milli"] < MILLI_PER_GPU


class ClusterState:
    """One cluster's resources and active jobs, changed only by acme_sim.testing.Cluster (the engine's part)."""

    def __init__(self, name, gpus_of_node, cpu_cores, leaf_of_node):
        self.name = name
        self.gpus = list(gpus_of_node)
        self.nodes = len(self.gpus)
        self.gpus_per_node = max(self.gpus, default=0)
        self.leaf = list(leaf_of_node) if leaf_of_node else [0] * self.nodes
        self.leaves = max(self.leaf) + 1 if leaf_of_node else 1
        self.free_cpu_cores = cpu_cores
        self.cpu_pool_cores = cpu_cores
        self.now_s = 0.0
        self.free = list(self.gpus)
        self.up = [True] * self.nodes
        self.out = [set() for _ in range(self.nodes)]
        self.power = ["on"] * self.nodes
        self.slot = [[0] * g for g in self.gpus]  # milli in use per GPU as a shared GPU (0: not shared)
        self.jobs = {}  # id -> Entry

    def total_gpus(self):
        return sum(self.gpus)

    def free_gpus_total(self):
        return sum(f for f, up in zip(self.free, self.up) if up)

    def is_idle(self, node):
        return self.up[node] and self.gpus[node] > 0 and self.free[node] == self.gpus[node]

    def has_shared(self, node):
        return self.up[node] and any(self.slot[node])

    def entries(self, phase):
        return [self.jobs[i] for i in sorted(self.jobs) if self.jobs[i].phase == phase]

    def add_job(self, spec):
        self.jobs[spec["id"]] = Entry(spec, self.now_s)

    def start_job(self, job_id, placement):
        entry = self.jobs[job_id]
        for share in placement:
            if share.milli > 0:
                if self.slot[share.node][share.gpu] == 0:
                    self.free[share.node] -= 1  # a free GPU becomes a shared GPU
                self.slot[share.node][share.gpu] += share.milli
            else:
                self.free[share.node] -= share.gpus
        if entry.spec["gpus"] == 0:
            self.free_cpu_cores -= entry.spec["cpus"]
        entry.phase, entry.start_time_s, entry.placement = "running", self.now_s, list(placement)

    def release(self, entry, phase):
        """Frees a running job's resources; it becomes `phase` ("queued" or "held")."""
        for share in entry.placement:
            if share.milli > 0:
                self.slot[share.node][share.gpu] -= share.milli
                if self.slot[share.node][share.gpu] == 0:
                    self.free[share.node] += 1  # the last share ended: the GPU is free again
            else:
                self.free[share.node] += share.gpus
        if entry.spec["gpus"] == 0:
            self.free_cpu_cores += entry.spec["cpus"]
        entry.attained_gpu_s += (self.now_s - entry.start_time_s) * entry.gpu_share()
        entry.placement = []
        entry.phase = phase
        if phase == "queued":
            entry.queued_since_s = self.now_s


class FreeResources:
    """What is free during one round: the state's free GPUs less the starts accepted so far in the round."""

    def __init__(self, state):
        self.state = state
        self.taken = [0] * state.nodes
        self.taken_total = 0
        self.cpus_taken = 0
        self.promises = []  # (node, gpu, milli) of shared-GPU shares promised this round

    def free_gpus(self, node):
        return self.state.free[node] - self.taken[node] if self.state.up[node] else 0

    def free_gpus_total(self):
        return self.state.free_gpus_total() - self.taken_total

    def free_cpu_cores(self):
        return self.state.free_cpu_cores - self.cpus_taken

    def is_touched(self, node):
        return self.taken[node] > 0

    def shared_gpu_milli(self, node, gpu):
        return self.state.slot[node][gpu] + sum(m for n, g, m in self.promises if n == node and g == gpu)

    def idle_nodes(self):
        return [n for n in range(self.state.nodes) if self.state.is_idle(n) and not self.is_touched(n)]

    def take(self, placement):
        for share in placement:
            whole = share.gpus
            if share.milli > 0:
                whole = 1 if self.shared_gpu_milli(share.node, share.gpu) == 0 else 0  # opening takes a free GPU
                self.promises.append((share.node, share.gpu, share.milli))
            self.taken[share.node] += whole
            self.taken_total += whole


def excerpt(text):
    if len(text) <= MAX_ECHO_CHARS:
        return text
    return f"{text[:ECHO_HEAD_CHARS]}...{text[-ECHO_TAIL_CHARS:]} ({len(text)} characters)"


def job_text(spec):
    """A job as a message names it: "job 0", or "job 0 (job_id 1)" when it has a name."""
    return f"job {spec['id']}" if not spec["name"] else f"job {spec['id']} (job_id {excerpt(spec['name'])})"


def describe(placement):
    """"[node 3: 8 GPUs]" style text of a placement, for messages."""
    parts = [f"node {s.node}: {s.milli}/1000 of GPU {s.gpu}" if s.milli > 0 else f"node {s.node}: {s.gpus} GPUs"
             for s in placement]
    return "[" + ", ".join(parts) + "]"


def _check_fraction(spec, placement, free):
    state = free.state
    milli = spec["gpu_milli"]
    if len(placement) != 1 or placement[0].gpus != 0 or placement[0].milli != milli:
        return (f"{job_text(spec)} asks for {milli} thousandths of one GPU and the placement is {describe(placement)}; "
                f"expected one share (node, gpus=0, milli={milli}, gpu)")
    share = placement[0]
    node = share.node
    if node >= state.nodes or share.gpu >= state.gpus[node]:
        return (f"shared GPU {share.gpu} of node {node} does not exist; expected a node below {state.nodes} and a GPU "
                "below its GPUs")
    if not state.up[node]:
        return f"node {node} is down; expected an up node"
    used = free.shared_gpu_milli(node, share.gpu)
    if used == 0 and free.free_gpus(node) == 0:
        return f"node {node} has no free GPU to open shared GPU {share.gpu} on; expected a node with a free GPU"
    if used + share.milli > MILLI_PER_GPU:
        return (f"shared GPU {share.gpu} of node {node} has {used} thousandths in use and {share.milli} more do not "
                f"fit; expected at most {MILLI_PER_GPU - used}")
    return ""


def _check_share(spec, share, free, seen):
    state, node = free.state, share.node
    if node >= state.nodes:
        return f"node {node} does not exist; expected a node from 0 to {state.nodes - 1}"
    if share.milli != 0 or share.gpus == 0:
        return (f"the share on node {node} is {describe([share])}; expected whole GPUs (gpus > 0, milli 0) for "
                f"{job_text(spec)}")
    if not state.up[node]:
        return f"node {node} is down; expected an up node"
    if node in seen:
        return f"node {node} appears twice; expected each node once"
    seen.add(node)
    if share.gpus > free.free_gpus(node):
        return (f"{share.gpus} GPUs on node {node}, which has {free.free_gpus(node)} free; expected at most the free "
                "GPUs")
    return ""


def _check_whole_gpus(spec, placement, free):
    seen = set()
    for share in placement:
        error = _check_share(spec, share, free, seen)
        if error:
            return error
    # A gang job may take whole nodes beyond its GPUs (12 GPUs on two 8-GPU nodes), never a spare share.
    total = sum(s.gpus for s in placement)
    smallest = min(s.gpus for s in placement)
    if total < spec["gpus"] or total - smallest >= spec["gpus"]:
        return (f"the placement holds {total} GPUs and {job_text(spec)} asks for {spec['gpus']}; expected its GPUs, "
                "with no share to spare")
    return ""


def check_placement(spec, placement, free):
    """What is wrong with running the job on `placement` given `free` ("" when it fits)."""
    if spec["gpus"] == 0:
        if placement:
            return (f"{job_text(spec)} is a CPU job and the placement is {describe(placement)}; expected an empty "
                    "placement (the CPU pool)")
        if spec["cpus"] > free.free_cpu_cores():
            return (f"{job_text(spec)} asks for {spec['cpus']} CPU cores and {free.free_cpu_cores()} are free; "
                    "expected at most the free cores")
        return ""
    if not placement:
        return (f"{job_text(spec)} asks for {spec['gpus']} GPUs and the placement is empty; expected shares that "
                "cover them")
    return _check_fraction(spec, placement, free) if is_fractional(spec) else _check_whole_gpus(spec, placement, free)


class DecisionCheck:
    """Checks one call's decisions in order, as the engine would apply them (decision_check.cpp)."""

    def __init__(self, state):
        self.free = FreeResources(state)
        self.decided = set()

    def _phase_error(self, job_id, wanted, decision):
        entry = self.free.state.jobs.get(job_id)
        if entry is None:
            return (f"{decision} for job {job_id}, which is not in this cluster (never submitted here, or already "
                    f"ended); expected a {_phase_name(wanted)} job")
        if entry.phase != wanted:
            return (f"{decision} for {job_text(entry.spec)}, which is {_phase_name(entry.phase)}; expected a "
                    f"{_phase_name(wanted)} job")
        if job_id in self.decided:
            return (f"{decision} for {job_text(entry.spec)}, which already has a decision in this call; expected one "
                    "decision per job")
        return ""

    def _accept_start(self, start):
        error = self._phase_error(start.job, "queued", "StartJob")
        if error:
            return error
        spec = self.free.state.jobs[start.job].spec
        placement = start.placement
        error = check_placement(spec, placement, self.free)
        if error:
            return f"StartJob for {job_text(spec)} on {describe(placement)}: {error}"
        if spec["gpus"] == 0:
            self.free.cpus_taken += spec["cpus"]
        else:
            self.free.take(placement)
        self.decided.add(start.job)
        return ""

    def accept(self, decision):
        """"" when `decision` can be applied after those accepted so far (it then counts as applied); else why not."""
        if isinstance(decision, StartJob):
            return self._accept_start(decision)
        if isinstance(decision, NoteWait):
            return self._phase_error(decision.job, "queued", "NoteWait")
        if isinstance(decision, CallMeLater):
            t = decision.time_s
            return "" if math.isfinite(t) else f"CallMeLater at {number_text(t)}; expected a finite time in seconds"
        preempt = isinstance(decision, PreemptJob)
        error = self._phase_error(decision.job, "running" if preempt else "queued",
                                  "PreemptJob" if preempt else "RejectJob")
        if not error:
            self.decided.add(decision.job)
        return error


def _phase_name(phase):
    return "held (recovering from a failure)" if phase == "held" else phase


def may_fit_now(spec, free):
    """Cheap necessary condition for the job to start now (policies::may_fit_now)."""
    if is_fractional(spec):
        state = free.state
        return free.free_gpus_total() > 0 or any(state.has_shared(n) for n in range(state.nodes)) or \
            bool(free.promises)
    return spec["gpus"] <= free.free_gpus_total()


def _lowest_node_with(free, gpus):
    return next((n for n in range(free.state.nodes) if free.free_gpus(n) >= gpus), None)


def first_fit(spec, free):
    """The C++ first_fit's placement of the job on `free`, or None (policies/placement/first_fit.cpp)."""
    state = free.state
    if is_fractional(spec):
        milli = spec["gpu_milli"]
        for node in range(state.nodes):  # the first shared GPU with room, lowest node then GPU
            for gpu in range(state.gpus[node] if state.up[node] else 0):
                used = free.shared_gpu_milli(node, gpu)
                if 0 < used and used + milli <= MILLI_PER_GPU:
                    return [Share(node, 0, milli, gpu)]
        node = _lowest_node_with(free, 1)
        if node is None:
            return None
        gpu = next(g for g in range(state.gpus[node]) if free.shared_gpu_milli(node, g) == 0)
        return [Share(node, 0, milli, gpu)]
    if spec["gpus"] <= state.gpus_per_node:
        node = _lowest_node_with(free, spec["gpus"])
        return None if node is None else [Share(node, spec["gpus"])]
    placement, held = [], 0
    for node in free.idle_nodes():  # gang: whole idle nodes, lowest first
        if held >= spec["gpus"]:
            break
        placement.append(Share(node, state.gpus[node]))
        held += state.gpus[node]
    return placement if held >= spec["gpus"] else None


def make_spec(job_id, gpus, duration_s, at_s, fields):
    """A job's workload fields (Job's names) from submit's arguments, checked as acme-sim's inputs are."""
    spec = {"id": job_id, "user": 0, "type": "Other", "gpus": gpus, "gpu_milli": MILLI_PER_GPU, "nodes": 0,
            "cpus": 0, "submit_time_s": at_s, "duration_s": float(duration_s), "requested_time_s": None,
            "recorded_start_s": None, "run": 0, "attempt": 1, "model_params": 0.0, "name": "",
            "final_state": "COMPLETED", "eval_batch": 0}
    unknown = sorted(set(fields) - set(spec))
    if unknown:
        raise TypeError(f"submit: unknown field {unknown[0]!r}; expected one of: {', '.join(sorted(spec))}")
    spec.update(fields)
    if spec["type"] not in JOB_TYPES or spec["final_state"] not in JOB_STATES:
        raise ValueError(f"submit: type {spec['type']!r}, final_state {spec['final_state']!r}; expected a type of "
                         f"{JOB_TYPES} and a state of {JOB_STATES}")
    if spec["gpu_milli"] < MILLI_PER_GPU and spec["gpus"] > 1:
        raise ValueError("submit: a fractional job (gpu_milli < 1000) takes one GPU; expected gpus 1")
    if spec["gpus"] == 0 and spec["cpus"] == 0:
        spec["cpus"] = 1  # a CPU job holds at least one core, as acme-sim submits it
    return spec
