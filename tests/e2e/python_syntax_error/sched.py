import acme_sim


class Sched(acme_sim.Scheduler):
    def on_events(self, events, view)
        return []
