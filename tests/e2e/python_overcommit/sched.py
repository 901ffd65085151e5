import acme_sim


class Sched(acme_sim.Scheduler):
    def on_events(self, events, view):
        jobs = [view.job(e.job) for e in events if isinstance(e, acme_sim.JobSubmitted)]
        # every GPU job on node 0, whatever is free there
        return [acme_sim.StartJob(j.id, [(0, j.gpus)]) for j in jobs if 0 < j.gpus <= 8]
