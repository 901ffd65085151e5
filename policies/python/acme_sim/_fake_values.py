"""Pure-Python equivalents of acme_sim's native values, for acme_sim.testing.

Share, Job, the decisions (StartJob, PreemptJob, RejectJob, NoteWait, CallMeLater), the events (JobSubmitted,
JobEnded, NodeDown, NodeUp, WakeUp) and Context, with the attribute names, argument checks and messages of
the binding (policies/python/python_module.cpp, python_values.cpp). acme_sim.testing puts them in the acme_sim
namespace outside acme-sim; inside it the native types are used and this module is not loaded.

What differs from the native types (docs/python.md, "Testing a policy"): the events can be built by hand
(``JobEnded(job, state, cause)``, ``NodeDown(node)``, ...); ``CallMeLater`` has ``time_s`` and ``NoteWait``
``reason``, to read in tests; ``Context(seed, cluster)`` can be built.
"""

import os
import sys

MILLI_PER_GPU = 1000
UINT32_MAX = 2**32 - 1
# sim/model/wait_reason.cpp, in WaitReason order.
WAIT_REASONS = ["None", "Priority", "Resources", "QOSMaxJobsPerUserLimit", "QOSMaxGRESPerUser", "QOSGrpGRES",
                "PartitionConfig", "Quota", "Preemption", "SchedulerQueue", "ImagePull", "PodStart", "AssocGrpGRES",
                "AssocMaxJobsLimit"]
JOB_TYPES = ("Pretrain", "SFT", "MLLM", "Evaluation", "Debug", "Other")
JOB_STATES = ("COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL")
END_CAUSES = ("WORKLOAD", "NODE_FAILURE", "PREEMPTED")
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def number_text(value):
    """A double as fmt's ``{}`` writes it in the binding's messages (100.0 -> "100", 1.5 -> "1.5")."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def origin():
    """(file, line) of the innermost frame outside this package: the user's line that built a decision."""
    frame = sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR):
        frame = frame.f_back
    return ("", 0) if frame is None else (frame.f_code.co_filename, frame.f_lineno)


def _count(value, what, prefix):
    if not isinstance(value, int):
        raise TypeError(f"{prefix}{what} must be an int, got {type(value).__name__}")
    if value < 0 or value > UINT32_MAX:
        raise ValueError(f"{prefix}{what} out of range: {value}")
    return value


class Share:
    """GPUs taken on one node: whole GPUs, or a fraction of one shared GPU."""

    __slots__ = ("_node", "_gpus", "_milli", "_gpu")
    __hash__ = None  # as the binding: it compares by value and is not hashable

    def __init__(self, node, gpus, milli=0, gpu=0):
        self._node = _count(node, "node", "Share: ")
        self._gpus = _count(gpus, "gpus", "Share: ")
        self._milli = _count(milli, "milli", "Share: ")
        self._gpu = _count(gpu, "gpu", "Share: ")

    node = property(lambda self: self._node, doc="the node's number")
    gpus = property(lambda self: self._gpus, doc="whole GPUs (0 for a fractional share)")
    milli = property(lambda self: self._milli, doc="thousandths of shared GPU `gpu` (0: whole GPUs)")
    gpu = property(lambda self: self._gpu, doc="which shared GPU of the node (with milli > 0)")

    def __eq__(self, other):
        if not isinstance(other, Share):
            return NotImplemented
        return (self._node, self._gpus, self._milli, self._gpu) == (other._node, other._gpus, other._milli, other._gpu)

    def __repr__(self):
        if self._milli > 0:
            return f"Share(node={self._node}, gpus=0, milli={self._milli}, gpu={self._gpu})"
        return f"Share(node={self._node}, gpus={self._gpus})"


def _share_from(item):
    if isinstance(item, Share):
        return item
    if isinstance(item, (tuple, list)) and len(item) in (2, 4):
        share = Share.__new__(Share)
        share._node = _count(item[0], "node", "placement: ")
        share._gpus = _count(item[1], "gpus", "placement: ")
        share._milli = _count(item[2], "milli", "placement: ") if len(item) == 4 else 0
        share._gpu = _count(item[3], "gpu", "placement: ") if len(item) == 4 else 0
        return share
    raise TypeError(f"placement: expected acme_sim.Share items or (node, gpus) pairs, got {item!r}")


def placement_from(placement):
    """A list of Share from an iterable of Share, (node, gpus) pairs or (node, gpus, milli, gpu) tuples."""
    if placement is None:
        raise TypeError("placement: got None; expected a list of acme_sim.Share ([] for a CPU job)")
    try:
        items = iter(placement)
    except TypeError:
        raise TypeError(f"placement: expected a list of acme_sim.Share or (node, gpus) pairs, got {placement!r}") \
            from None
    return [_share_from(item) for item in items]


def job_id_from(job):
    """A job id from an int or a Job, as the binding takes them."""
    if isinstance(job, Job):
        return job.id
    if isinstance(job, int) and job >= 0:
        return int(job)
    raise TypeError(f"expected a job id (a non-negative int) or an acme_sim.Job, got {job!r}")


def wait_reason_from(name):
    if not isinstance(name, str):
        raise TypeError(f"NoteWait: reason must be a str (a name of WAIT_REASONS), got {type(name).__name__}")
    if name not in WAIT_REASONS:
        raise ValueError(f"unknown wait reason \"{name}\"; expected one of: {', '.join(WAIT_REASONS)}")
    return name


# (name, doc) of a Job's attributes: what the workload says, then what the view shows now.
SPEC_FIELDS = (
    ("id", "job id (int), dense in submission order"), ("user", "interned user id (int)"),
    ("type", "workload type: Pretrain, SFT, MLLM, Evaluation, Debug or Other"),
    ("gpus", "GPUs requested (0: a CPU job)"),
    ("gpu_milli", "thousandths of each GPU (< 1000: a fractional job on a shared GPU)"),
    ("nodes", "nodes requested (0: derived from gpus)"), ("cpus", "CPU cores requested"),
    ("submit_time_s", "first submission (s)"),
    ("duration_s", "service time from the workload (what C++ policies see; an oracle, not an estimate)"),
    ("requested_time_s", "wall-time limit requested, or None"),
    ("recorded_start_s", "start time the trace recorded, or None"), ("run", "logical run (0: its own)"),
    ("attempt", "attempt number within its run"), ("model_params", "model parameters (0: unknown)"),
    ("name", "job id as written in the trace"),
    ("final_state", "how the workload says it ends: COMPLETED, CANCELLED, FAILED, TIMEOUT, NODE_FAIL"),
    ("eval_batch", "evaluation request (0: none)"))
ENTRY_FIELDS = (
    ("phase", "queued, running or held (recovering)"), ("queued_since_s", "last (re)submission (s)"),
    ("start_time_s", "start of the current attempt (s)"), ("attained_gpu_s", "GPU-seconds of service so far"),
    ("preemptions", "times it was preempted"))


class Job:
    """A copy of one job as the view showed it when asked (safe to keep)."""

    __slots__ = ("_values", "_placement")

    def __init__(self, *_args, **_kwargs):
        raise TypeError("acme_sim.Job: no constructor; jobs come from the view (view.job(id)) or "
                        "acme_sim.testing.Cluster.job(id)")

    @classmethod
    def _copy(cls, spec, entry):
        job = object.__new__(cls)
        values = dict(spec)
        for name, _ in ENTRY_FIELDS:
            values[name] = getattr(entry, name)
        object.__setattr__(job, "_values", values)
        object.__setattr__(job, "_placement", tuple(entry.placement))
        return job

    def __setattr__(self, name, value):
        raise AttributeError(f"can't set attribute '{name}': a Job is a read-only copy")

    placement = property(lambda self: list(self._placement), doc="where it runs (running)")
    is_cpu_job = property(lambda self: self._values["gpus"] == 0, doc="runs on the CPU pool")
    is_fractional = property(lambda self: self._values["gpus"] > 0 and self._values["gpu_milli"] < MILLI_PER_GPU,
                             doc="takes part of a GPU")

    @property
    def gpu_share(self):
        """GPUs held (fractional: milli/1000)."""
        v = self._values
        return v["gpu_milli"] / MILLI_PER_GPU if self.is_fractional else float(v["gpus"])

    def __repr__(self):
        return f"Job(id={self._values['id']}, gpus={self._values['gpus']}, phase={self._values['phase']})"


for _name, _doc in SPEC_FIELDS + ENTRY_FIELDS:
    setattr(Job, _name, property(lambda self, key=_name: self._values[key], doc=_doc))


class Decision:
    """Base of StartJob, PreemptJob, RejectJob, NoteWait and CallMeLater."""

    __slots__ = ("_job", "_file", "_line")

    def __init__(self, *_args, **_kwargs):
        raise TypeError("acme_sim.Decision: no constructor; build a StartJob, PreemptJob, RejectJob, NoteWait "
                        "or CallMeLater")

    def _made_here(self, job):
        self._job = job
        self._file, self._line = origin()

    job = property(lambda self: self._job, doc="the job it is about (int; -1 for CallMeLater)")

    def __repr__(self):
        return f"{type(self).__name__}(job={self._job})"


class StartJob(Decision):
    """Start a queued job on a placement (a list of Share; [] for a CPU job)."""

    __slots__ = ("_placement",)

    def __init__(self, job, placement):
        job_id = job_id_from(job)
        self._placement = tuple(placement_from(placement))
        self._made_here(job_id)

    placement = property(lambda self: list(self._placement))


class PreemptJob(Decision):
    """Stop a running job and queue it again (checkpoint, restore)."""

    __slots__ = ()

    def __init__(self, job):
        self._made_here(job_id_from(job))


class RejectJob(Decision):
    """Refuse a queued job for good."""

    __slots__ = ()

    def __init__(self, job):
        self._made_here(job_id_from(job))


class NoteWait(Decision):
    """A queued job keeps waiting for `reason` (a name of WAIT_REASONS, e.g. "Resources"): what jobs.csv and
    summary.json attribute its wait to."""

    __slots__ = ("_reason",)

    def __init__(self, job, reason):
        job_id = job_id_from(job)
        self._reason = wait_reason_from(reason)
        self._made_here(job_id)

    reason = property(lambda self: self._reason, doc="the wait reason (acme_sim.testing only)")


class CallMeLater(Decision):
    """Call the scheduler again at time_s (simulated seconds): it then receives a WakeUp event."""

    __slots__ = ("_time_s",)

    def __init__(self, time_s):
        if not isinstance(time_s, (int, float)):
            raise TypeError(f"CallMeLater: time_s must be a number of seconds, got {type(time_s).__name__}")
        self._time_s = float(time_s)
        self._made_here(-1)

    time_s = property(lambda self: self._time_s, doc="when to call (s; acme_sim.testing only)")

    def __repr__(self):
        return f"CallMeLater(time_s={number_text(self._time_s)})"


class _Event:
    __slots__ = ()

    def __repr__(self):
        first = self.__slots__[0]
        return f"{type(self).__name__}({first.lstrip('_')}={getattr(self, first)})"


class JobSubmitted(_Event):
    """A job entered the queue (first submission or resubmission)."""

    __slots__ = ("_job",)

    def __init__(self, job):
        self._job = job_id_from(job)

    job = property(lambda self: self._job)


class JobEnded(_Event):
    """A job released its resources; cause PREEMPTED: it is queued again at once."""

    __slots__ = ("_job", "_state", "_cause")

    def __init__(self, job, state="COMPLETED", cause="WORKLOAD"):
        if state not in JOB_STATES or cause not in END_CAUSES:
            raise ValueError(f"JobEnded: state {state!r}, cause {cause!r}; expected a state of {JOB_STATES} "
                             f"and a cause of {END_CAUSES}")
        self._job, self._state, self._cause = job_id_from(job), state, cause

    job = property(lambda self: self._job)
    state = property(lambda self: self._state, doc="COMPLETED, CANCELLED, FAILED, TIMEOUT or NODE_FAIL")
    cause = property(lambda self: self._cause, doc="WORKLOAD (as the workload says), NODE_FAILURE or PREEMPTED")


class NodeDown(_Event):
    """A node failed or was isolated: it takes no new jobs."""

    __slots__ = ("_node",)

    def __init__(self, node):
        self._node = _count(node, "node", "NodeDown: ")

    node = property(lambda self: self._node)


class NodeUp(_Event):
    """A node is back in service."""

    __slots__ = ("_node",)

    def __init__(self, node):
        self._node = _count(node, "node", "NodeUp: ")

    node = property(lambda self: self._node)


class WakeUp(_Event):
    """A time the scheduler asked for with CallMeLater has come."""

    __slots__ = ("_time_s",)

    def __init__(self, time_s):
        self._time_s = float(time_s)

    time_s = property(lambda self: self._time_s)


class Context:
    """What a policy knows about its run: seed and cluster."""

    __slots__ = ("_seed", "_cluster")

    def __init__(self, seed=42, cluster="test"):
        self._seed, self._cluster = int(seed), str(cluster)

    seed = property(lambda self: self._seed, doc="the run seed (use random.Random(seed) for randomness)")
    cluster = property(lambda self: self._cluster, doc="the cluster the policy serves")
