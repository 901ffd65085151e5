"""First come, first served, in Python: the decisions of acme-sim's C++ `fifo`, byte for byte.

    policies:
      scheduler: {name: python, module: fifo.py, class: Fifo}

GPU jobs start in submission order on the placement policy's choice; when the oldest waiting job does not
fit, nothing behind it starts (no backfilling). CPU jobs are then served in submission order on the
cluster's CPU pool. The scheduler keeps its own queues from the events (the view is only read for the
jobs at their heads), so a call costs the same with ten or a million jobs waiting.
"""
import heapq

import acme_sim


class Fifo(acme_sim.Scheduler):
    def __init__(self, params, context):
        super().__init__(params, context)
        self.gpu_queue = []  # heap of (submit_time_s, job id): submission order, ids breaking ties
        self.cpu_queue = []
        self.waiting = set()  # ids in either heap (a job queued twice would start twice)
        self.blocked = None  # key of the job that stopped the last GPU pass, if any
        self.noted = set()  # ids noted as waiting for resources (a waiting job starts as "Priority")

    def on_events(self, events, view):
        arrivals_only = True
        first_arrival = None
        for event in events:
            if isinstance(event, acme_sim.JobSubmitted):
                key = self.enqueue(event.job, view)
                if key is not None and (first_arrival is None or key < first_arrival):
                    first_arrival = key
            elif isinstance(event, acme_sim.JobEnded):
                arrivals_only = False
                if event.cause == "PREEMPTED":  # queued again at once
                    self.enqueue(event.job, view)
            else:  # NodeUp, NodeDown
                arrivals_only = False
        decisions = []
        # Nothing was freed and every newcomer sorts behind the job that blocked: it still blocks.
        if not (arrivals_only and self.still_blocked(view, first_arrival)):
            self.gpu_pass(view, decisions)
        self.cpu_pass(view, decisions)
        return decisions

    def enqueue(self, job_id, view):
        """Queues a job the view shows waiting; returns its GPU-queue key (None for CPU jobs)."""
        if job_id in self.waiting or not view.is_queued(job_id):
            return None
        job = view.job(job_id)
        self.waiting.add(job_id)
        key = (job.submit_time_s, job_id)
        heapq.heappush(self.cpu_queue if job.is_cpu_job else self.gpu_queue, key)
        return None if job.is_cpu_job else key

    def still_blocked(self, view, first_arrival):
        if self.blocked is None or not view.is_queued(self.blocked[1]):
            return False
        return first_arrival is None or not first_arrival < self.blocked

    def gpu_pass(self, view, decisions):
        self.blocked = None
        queue = self.gpu_queue
        while queue:
            key = queue[0]
            if not view.is_queued(key[1]):  # held for recovery since: dropped, queued again on resubmission
                self.pop(queue)
                continue
            job = view.job(key[1])
            where = view.place(job) if job.gpus <= view.free_gpus_total else None
            if where is None:
                self.blocked = key
                if key[1] not in self.noted:
                    self.noted.add(key[1])
                    decisions.append(acme_sim.NoteWait(job, "Resources"))
                return
            decisions.append(view.start(job, where))
            self.pop(queue)

    def cpu_pass(self, view, decisions):
        queue = self.cpu_queue
        while queue:
            job_id = queue[0][1]
            if not view.is_queued(job_id):
                self.pop(queue)
                continue
            job = view.job(job_id)
            if job.cpus > view.free_cpu_cores:
                return
            decisions.append(view.start(job, []))
            self.pop(queue)

    def pop(self, queue):
        job_id = heapq.heappop(queue)[1]
        self.waiting.discard(job_id)
        self.noted.discard(job_id)
