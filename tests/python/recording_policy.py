"""A scheduler that runs another Python scheduler and writes down every call: the time, the events in order
and the decisions with their placements, one line per call. policy_testing_test.py runs it inside acme-sim
and under acme_sim.testing and compares the two logs line by line.

    params: {scheduler: PATH.py, class: NAME, params: {...}, log: PATH}
"""
import acme_sim


def describe(item):
    """An event or a decision as one word-like text (the same inside acme-sim and under acme_sim.testing)."""
    if isinstance(item, acme_sim.JobEnded):
        return f"JobEnded({item.job},{item.state},{item.cause})"
    if isinstance(item, (acme_sim.NodeDown, acme_sim.NodeUp)):
        return f"{type(item).__name__}({item.node})"
    if isinstance(item, acme_sim.WakeUp):
        return f"WakeUp({item.time_s})"
    if isinstance(item, acme_sim.StartJob):
        return f"StartJob({item.job},{item.placement})"
    return repr(item)


class Recording(acme_sim.Scheduler):
    def __init__(self, params, context):
        super().__init__(params, context)
        inner = acme_sim._load_module(params["scheduler"])
        self.inner = getattr(inner, params["class"])(params.get("params") or {}, context)
        self.log = params["log"]
        open(self.log, "w").close()

    def on_events(self, events, view):
        decisions = self.inner.on_events(events, view) or []
        line = " ".join([repr(view.now_s), "|"] + [describe(e) for e in events] + ["|"] +
                        [describe(d) for d in decisions])
        with open(self.log, "a") as f:
            f.write(line + "\n")
        return decisions
