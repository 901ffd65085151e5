import acme_sim


class Sched(acme_sim.Scheduler):
    def on_events(self, events, view):
        # job 0 asks for 8 GPUs: it starts at the first call and is still running at the second
        return [acme_sim.StartJob(0, [acme_sim.Share(node=0, gpus=8)])]
