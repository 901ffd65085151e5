"""The scheduler of README.md's "Write your scheduler in Python": first come first served with
backfilling (every waiting job that fits starts, oldest first), on the configured placement policy."""
import itertools

import acme_sim


class Backfill(acme_sim.Scheduler):
    def __init__(self, params, context):
        super().__init__(params, context)
        self.depth = params.get("depth", 1000)  # jobs examined per call at most
        self.waiting = {}  # job ids, oldest first (a dict keeps insertion order and has no duplicates)

    def on_events(self, events, view):
        for event in events:
            if isinstance(event, acme_sim.JobSubmitted) or (
                    isinstance(event, acme_sim.JobEnded) and event.cause == "PREEMPTED"):
                self.waiting[event.job] = True
        decisions = []
        for job_id in list(itertools.islice(self.waiting, self.depth)):
            job = view.job(job_id)
            if job is None or job.phase != "queued":  # ended, or held while it recovers
                del self.waiting[job_id]
                continue
            where = view.place(job)  # the placement policy's choice, or None
            if where is not None:
                decisions.append(view.start(job, where))
                del self.waiting[job_id]
        return decisions
