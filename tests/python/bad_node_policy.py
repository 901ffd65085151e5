"""A scheduler that starts every job on a node the cluster does not have: acme-sim refuses its first decision
(policy_testing_test.py compares acme-sim's error line with acme_sim.testing's)."""
import acme_sim


class BadNode(acme_sim.Scheduler):
    def on_events(self, events, view):
        return [acme_sim.StartJob(e.job, [acme_sim.Share(7, 8)]) for e in events
                if isinstance(e, acme_sim.JobSubmitted)]
