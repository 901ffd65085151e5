import acme_sim


class Sched(acme_sim.Scheduler):
    def on_events(self, events, view):
        decisions = []
        for event in events:
            if isinstance(event, acme_sim.JobSubmitted) and view.job(event.job).gpus > 0:
                decisions.append(view.start(event.job, [(0, 16)]))
        return decisions
