import acme_sim


class OnArrival(acme_sim.Scheduler):
    def on_events(self, events, view):
        decisions = []
        for event in events:
            if isinstance(event, acme_sim.JobSubmitted):
                where = view.place(event.job)
                if where is not None:
                    decisions.append(view.start(event.job, where))
        return decisions
