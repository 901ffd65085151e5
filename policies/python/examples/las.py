"""Tiresias-like discretised two-dimensional least-attained-service (Gu et al., NSDI'19), in Python.

    policies:
      scheduler: {name: python, module: las.py, class: Las,
                  params: {queue_thresholds: [3250], starvation_knob: 8, preemption: true, queue_depth: 100}}

A job's service is the GPU time it has attained (GPUs x seconds, all attempts); the thresholds cut it into
queues, queue 0 first, first come first served within a queue. Running jobs move down a queue when their
service crosses a threshold. Every job that fits starts, in queue order (at most queue_depth jobs are
examined per call). A job that does not fit preempts running jobs of strictly lower queues (the lowest
queue and the latest started first) when their GPUs, with the free ones, cover it; the pass then stops,
and until the job starts it is served first while the jobs behind it wait. A job that waited
starvation_knob times its counted run time goes back to queue 0 with its count reset.

It follows acme-sim's C++ `las` (same parameters and defaults) but is simpler; docs/python.md
lists the differences and what they change on the CI scenario.
"""
import bisect

import acme_sim

TIRESIAS_THRESHOLD_GPU_S = 3250.0  # SymbioticLab/Tiresias simulator, jobs.py queue_limit (dlas-gpu)
NEVER = float("inf")


class Las(acme_sim.Scheduler):
    def __init__(self, params, context):
        super().__init__(params, context)
        self.thresholds = [float(t) for t in params.get("queue_thresholds", [TIRESIAS_THRESHOLD_GPU_S])]
        self.knob = float(params.get("starvation_knob", 8.0))
        self.preemption = bool(params.get("preemption", True))
        self.depth = int(params.get("queue_depth", 100))
        if not self.thresholds or self.thresholds != sorted(set(self.thresholds)) or self.thresholds[0] <= 0:
            raise ValueError("queue_thresholds: expected positive GPU-second thresholds in increasing order")
        self.queue = []  # sorted keys (level, submit_time_s, id)
        self.key_of = {}  # id -> its key in self.queue
        self.offset = {}  # id -> service no longer counted (reset by a promotion)
        self.promote_at = {}  # queued id -> when it goes back to queue 0
        self.running = {}  # id -> [level, counted at start, GPUs held, start time, demotion time]
        self.claimant = None  # a job that preemptions were asked for; served first until it starts
        self.cpu_queue = []  # sorted (submit_time_s, id) of CPU jobs, served first come first served

    # ---- queue ----
    def level_of(self, service_gpu_s):
        return bisect.bisect_right(self.thresholds, service_gpu_s)

    def counted(self, job):
        return max(0.0, job.attained_gpu_s - self.offset.get(job.id, 0.0))

    def enqueue(self, job, level, now_s):
        self.drop(job.id)
        key = (level, job.submit_time_s, job.id)
        bisect.insort(self.queue, key)
        self.key_of[job.id] = key
        if level > 0 and self.knob > 0 and job.gpu_share > 0:
            self.promote_at[job.id] = now_s + self.knob * self.counted(job) / job.gpu_share

    def drop(self, job_id):
        key = self.key_of.pop(job_id, None)
        if key is not None:
            del self.queue[bisect.bisect_left(self.queue, key)]
        self.promote_at.pop(job_id, None)

    # ---- events ----
    def on_events(self, events, view):
        now_s = view.now_s
        for event in events:
            if isinstance(event, acme_sim.JobSubmitted):
                self.queue_again(event.job, view)
            elif isinstance(event, acme_sim.JobEnded):
                self.stopped(event.job, event.cause)
                if event.cause == "PREEMPTED":
                    self.queue_again(event.job, view)
        self.demote_and_promote(view, now_s)
        decisions = []
        self.gpu_pass(view, decisions)
        self.cpu_pass(view, decisions)
        return decisions

    def queue_again(self, job_id, view):
        job = view.job(job_id)
        if job is None or job.phase != "queued":
            return
        if job.is_cpu_job:
            bisect.insort(self.cpu_queue, (job.submit_time_s, job.id))
        else:
            self.enqueue(job, self.level_of(self.counted(job)), view.now_s)

    def started(self, job, now_s):
        self.drop(job.id)
        counted = max(0.0, job.attained_gpu_s - self.offset.get(job.id, 0.0))
        info = [self.level_of(counted), counted, job.gpu_share, now_s, NEVER]
        self.schedule_demotion(info)
        self.running[job.id] = info
        if self.claimant == job.id:
            self.claimant = None

    def stopped(self, job_id, cause):
        if self.running.pop(job_id, None) is not None and cause != "PREEMPTED":
            self.offset.pop(job_id, None)

    def schedule_demotion(self, info):
        level, counted, share, start_s = info[0], info[1], info[2], info[3]
        info[4] = NEVER
        if level < len(self.thresholds) and share > 0:
            info[4] = start_s + (self.thresholds[level] - counted) / share

    def demote_and_promote(self, view, now_s):
        for info in self.running.values():
            while info[4] <= now_s:
                info[0] += 1
                self.schedule_demotion(info)
        due = sorted((at, job_id) for job_id, at in self.promote_at.items() if at <= now_s)
        for _, job_id in due:
            job = view.job(job_id)
            self.promote_at.pop(job_id, None)
            if job is not None and job.phase == "queued":
                self.offset[job_id] = job.attained_gpu_s
                self.enqueue(job, 0, now_s)

    # ---- passes ----
    def gpu_pass(self, view, decisions):
        if self.claimant is not None and not view.is_queued(self.claimant):
            self.claimant = None
        examined = 0
        smallest_unfit = NEVER  # a whole-GPU job at least this large did not fit in this pass
        for key in list(self.queue):
            if examined == self.depth or (view.free_gpus_total == 0 and not self.can_preempt()):
                return
            job = view.job(key[2])
            if job is None or job.phase != "queued":
                self.drop(key[2])
                continue
            examined += 1
            where = None
            if job.is_fractional or job.gpus < smallest_unfit:
                where = view.place(job)
            if where is not None:
                decisions.append(view.start(job, where))
                self.started(job, view.now_s)
                continue
            if not job.is_fractional:
                smallest_unfit = min(smallest_unfit, job.gpus)
            if self.claimant == job.id:
                return  # its victims are still saving: the jobs behind it wait for it
            if self.claimant is None and self.preempt_for(job, key[0], view, decisions):
                return

    def can_preempt(self):
        return self.preemption and self.claimant is None and bool(self.running)

    def preempt_for(self, job, level, view, decisions):
        """Preempts running jobs of lower queues (lowest, latest started first) whose GPUs cover `job`."""
        if not self.preemption:
            return False
        candidates = sorted(((info[0], info[3], job_id) for job_id, info in self.running.items() if info[0] > level),
                            reverse=True)
        victims, gpus = [], view.free_gpus_total
        for _, _, victim in candidates:
            if gpus >= job.gpus:
                break
            victims.append(victim)
            gpus += self.running[victim][2]
        if not victims or gpus < job.gpus:
            return False
        for victim in victims:
            decisions.append(view.preempt(victim))
        self.claimant = job.id
        return True

    def cpu_pass(self, view, decisions):
        while self.cpu_queue:
            job_id = self.cpu_queue[0][1]
            if view.is_queued(job_id):
                job = view.job(job_id)
                if job.cpus > view.free_cpu_cores:
                    return
                decisions.append(view.start(job, []))
            del self.cpu_queue[0]
