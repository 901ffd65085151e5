import acme_sim


class Sched(acme_sim.Scheduler):
    def on_events(self, events, view):
        return [self.decide(e, view) for e in events]

    def decide(self, event, view):
        return {}[event.job]
