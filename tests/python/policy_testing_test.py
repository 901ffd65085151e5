#!/usr/bin/env python3
"""acme_sim.testing decides as acme-sim does: the examples fifo.py, las.py and first_fit.py on hand-computed
scenarios (which job starts, where, when it is preempted), invalid decisions refused with acme-sim's
messages (those tests/unit/policies/decision_check_test.cpp expects of the C++ check), and the tiny config
run both through acme-sim and through acme_sim.testing: the same starts, ends and errors.

usage: policy_testing_test.py POLICIES_PYTHON_DIR ACME_SIM CONFIG_DIR
"""
import csv
import json
import os
import random
import subprocess
import sys
import tempfile
import unittest
from datetime import datetime
from pathlib import Path

POLICIES, ACME_SIM, CONFIGS = (Path(a).resolve() for a in sys.argv[1:4])
sys.path.insert(0, str(POLICIES))
import acme_sim.testing as testing  # noqa: E402 (first: the examples use acme_sim's types)
from acme_sim import Share, StartJob  # noqa: E402

EXAMPLES = POLICIES / "examples"
HERE = Path(__file__).resolve().parent


def fifo():
    return testing.load_policy(EXAMPLES / "fifo.py", "Fifo")


def las(**params):
    return testing.load_policy(EXAMPLES / "las.py", "Las", params)


class Scripted:
    """A scheduler whose calls return what `script` (a list of functions of the view) gives, in turn."""

    def __init__(self, *script):
        self.script = list(script)
        self.views = []

    def on_events(self, events, view):
        self.views.append(view)
        return self.script.pop(0)(view) if self.script else []


class Examples(unittest.TestCase):
    def test_fifo_starts_in_order_without_backfilling(self):
        cluster = testing.Cluster(nodes=2, gpus_per_node=8)
        a, b = cluster.submit(8, 100), cluster.submit(4, 50)
        c = cluster.submit(8, 10, at_s=1)
        d = cluster.submit(2, 10, at_s=2)  # fits node 1 at 2, but waits behind c (no backfilling)
        scheduler = fifo()
        self.assertEqual([repr(x) for x in cluster.step(scheduler)], ["StartJob(job=0)", "StartJob(job=1)"])
        self.assertEqual([repr(x) for x in cluster.step(scheduler)], ["NoteWait(job=2)"])
        cluster.run(scheduler)
        self.assertEqual(cluster.record(a).placements, [[Share(0, 8)]])
        self.assertEqual(cluster.record(b).placements, [[Share(1, 4)]])
        self.assertEqual((cluster.record(c).starts, cluster.record(c).placements), ([50.0], [[Share(1, 8)]]))
        self.assertEqual((cluster.record(d).starts, cluster.record(d).placements), ([60.0], [[Share(1, 2)]]))
        self.assertEqual((cluster.record(c).wait_reason, cluster.record(d).wait_reason), ("Resources", "Resources"))
        self.assertEqual(cluster.start_order(), [a, b, c, d])
        self.assertEqual([r.end_s for r in cluster.records.values()], [100.0, 50.0, 60.0, 70.0])

    def test_fifo_rejects_nothing_and_serves_the_cpu_pool(self):
        cluster = testing.Cluster(nodes=1, gpus_per_node=8, cpu_cores=4)
        wide = cluster.submit(16, 10)  # wider than the cluster: acme-sim rejects it at submission
        cpu = [cluster.submit(0, 30, cpus=3), cluster.submit(0, 30, cpus=2)]
        cluster.run(fifo())
        self.assertEqual(cluster.record(wide).rejected, "more GPUs than the cluster has")
        self.assertEqual([cluster.record(j).starts for j in cpu], [[0.0], [30.0]])
        self.assertEqual(cluster.record(cpu[0]).placements, [[]])

    def test_las_preempts_the_lower_queue_and_restarts_it(self):
        cluster = testing.Cluster(nodes=2, gpus_per_node=8)
        big = cluster.submit(16, 1000)  # 160 GPU-s at 10: past the 100 GPU-s threshold, queue 1
        small = cluster.submit(8, 50, at_s=10)
        scheduler = las(queue_thresholds=[100], starvation_knob=0)
        cluster.run(scheduler, until_s=10)
        self.assertEqual([(c.time_s, [repr(d) for d in c.decisions]) for c in cluster.calls[1:]],
                         [(10.0, ["PreemptJob(job=0)"]), (10.0, ["StartJob(job=1)"])])
        self.assertEqual(repr(cluster.calls[2].events), "[JobEnded(job=0)]")
        self.assertEqual((cluster.calls[2].events[0].state, cluster.calls[2].events[0].cause),
                         ("CANCELLED", "PREEMPTED"))
        waiting = cluster.job(big)
        self.assertEqual((waiting.phase, waiting.attained_gpu_s, waiting.preemptions, waiting.queued_since_s),
                         ("queued", 160.0, 1, 10.0))
        cluster.run(scheduler)
        self.assertEqual(cluster.record(small).placements, [[Share(0, 8)]])
        self.assertEqual(cluster.record(big).starts, [0.0, 60.0])  # when the small job ends
        self.assertEqual(cluster.record(big).end_s, 1050.0)  # 990 s of service left

    def test_las_victims_save_before_the_claimant_starts(self):
        cluster = testing.Cluster(nodes=2, gpus_per_node=8)
        cluster.preempt_delay_s = 5.0
        big = cluster.submit(16, 1000)
        small = cluster.submit(8, 50, at_s=10)
        cluster.run(las(queue_thresholds=[100], starvation_knob=0))
        self.assertEqual(cluster.record(small).starts, [15.0])
        self.assertEqual(cluster.record(big).starts, [0.0, 65.0])
        self.assertEqual(cluster.record(big).end_s, 1055.0)  # it stopped computing at 10

    def test_fifo_around_a_failed_node(self):
        cluster = testing.Cluster(nodes=2, gpus_per_node=8)
        a, b = cluster.submit(8, 100), cluster.submit(8, 100)
        cluster.node_down(0, at_s=10)
        late = cluster.submit(4, 10, at_s=20)
        cluster.node_up(0, at_s=30)
        seen = []

        class Watching(type(fifo())):
            def on_events(self, events, view):
                seen.append((view.now_s, [repr(e) for e in events], view.is_up(0), view.out_of_service(0),
                             view.free_gpus(0), view.free_gpus_total))
                return super().on_events(events, view)
        cluster.run(Watching({}, testing.Context()))
        self.assertEqual(seen[1], (10.0, ["JobEnded(job=0)", "NodeDown(node=0)"], False, ["repair"], 0, 0))
        self.assertEqual(cluster.record(a).state, "NODE_FAIL")
        self.assertEqual(cluster.record(a).end_s, 10.0)
        self.assertEqual(cluster.record(late).starts, [30.0])  # node 1 is busy, node 0 down until 30
        self.assertEqual(cluster.record(late).placements, [[Share(0, 4)]])
        self.assertEqual(seen[3][:4], (30.0, ["NodeUp(node=0)"], True, []))
        self.assertEqual(cluster.record(b).end_s, 100.0)

    def test_a_failed_job_restarts_after_its_recovery(self):
        cluster = testing.Cluster(nodes=1, gpus_per_node=8)
        job = cluster.submit(8, 100)
        cluster.node_down(0, at_s=10, requeue_after_s=5)
        cluster.node_up(0, at_s=40)
        scheduler = fifo()
        cluster.run(scheduler, until_s=15)
        self.assertEqual(repr(cluster.calls[1].events), "[JobEnded(job=0), NodeDown(node=0)]")
        self.assertEqual((cluster.calls[1].events[0].state, cluster.calls[1].events[0].cause),
                         ("FAILED", "NODE_FAILURE"))
        self.assertEqual(repr(cluster.calls[2].events), "[JobSubmitted(job=0)]")
        self.assertEqual(cluster.job(job).attained_gpu_s, 80.0)
        cluster.run(scheduler)
        self.assertEqual((cluster.record(job).starts, cluster.record(job).end_s), ([0.0, 40.0], 130.0))

    def test_first_fit_shares_gpus_then_opens_one(self):
        cluster = testing.Cluster(nodes=2, gpus_per_node=8,
                                  placement=testing.load_policy(EXAMPLES / "first_fit.py", "FirstFit"))
        jobs = [cluster.submit(1, 100, gpu_milli=m) for m in (500, 300, 400)]
        whole = [cluster.submit(8, 100), cluster.submit(7, 100)]
        cluster.step(fifo())
        self.assertEqual([cluster.record(j).placements[0] for j in jobs],
                         [[Share(0, 0, 500, 0)], [Share(0, 0, 300, 0)], [Share(0, 0, 400, 1)]])
        self.assertEqual(cluster.record(whole[0]).placements, [[Share(1, 8)]])
        self.assertEqual(cluster.record(whole[1]).starts, [])  # node 0 has 6 whole GPUs left

    def test_first_fit_py_places_as_the_builtin_first_fit(self):
        for seed in range(1, 6):
            runs = []
            for placement in (None, testing.load_policy(EXAMPLES / "first_fit.py", "FirstFit")):
                cluster = testing.Cluster(nodes=4, gpus_per_node=8, placement=placement)
                rng = random.Random(seed)
                for t in range(120):
                    gpus = rng.choice([1, 1, 2, 4, 8, 16, 24])
                    milli = rng.choice([250, 500, 1000, 1000]) if gpus == 1 else 1000
                    cluster.submit(gpus, rng.randint(1, 300), at_s=t * 3, gpu_milli=milli)
                cluster.node_down(2, at_s=100, requeue_after_s=20)
                cluster.node_up(2, at_s=400)
                cluster.run(fifo())
                runs.append({j: (r.starts, r.placements, r.end_s) for j, r in cluster.records.items()})
            self.assertEqual(runs[0], runs[1], f"seed {seed}")


class Checks(unittest.TestCase):
    def two_nodes_with_jobs(self, *script):
        """tests/unit/policies/decision_check_test.cpp's view: job 0 (8 GPUs) runs on node 0; job 1 (4 GPUs),
        job 2 (a CPU job) and job 3 (16 GPUs) wait. `script` then runs at time 1 (a WakeUp)."""
        cluster = testing.Cluster(nodes=2, gpus_per_node=8)
        for gpus in (8, 4, 0, 16):
            cluster.submit(gpus, 10)
        scheduler = Scripted(lambda view: [StartJob(0, [Share(0, 8)]), testing.acme_sim.CallMeLater(1)], *script)
        cluster.step(scheduler)
        return cluster, scheduler

    def refused(self, decisions, message, down=None):
        cluster, scheduler = self.two_nodes_with_jobs(lambda view: decisions)
        if down is not None:
            cluster.node_down(down, at_s=1)
        with self.assertRaises(testing.PolicyError) as caught:
            cluster.step(scheduler)
        self.assertEqual(caught.exception.message, "Scripted.on_events returned an invalid decision: " + message)
        return caught.exception

    def test_what_is_wrong_with_an_invalid_decision(self):
        acme_sim = testing.acme_sim
        decision = StartJob(0, [Share(1, 8)])  # the line the error names
        line = sys._getframe().f_lineno - 1
        error = self.refused([decision], "StartJob for job 0, which is running; expected a queued job")
        self.assertEqual((error.file, error.line), (__file__, line))
        self.refused([StartJob(9, [Share(1, 8)])], "StartJob for job 9, which is not in this cluster (never submitted "
                     "here, or already ended); expected a queued job")
        self.refused([StartJob(1, [Share(0, 4)])], "StartJob for job 1 on [node 0: 4 GPUs]: 4 GPUs on node 0, which "
                     "has 0 free; expected at most the free GPUs")
        self.refused([StartJob(1, [(1, 2)])], "StartJob for job 1 on [node 1: 2 GPUs]: the placement holds 2 GPUs and "
                     "job 1 asks for 4; expected its GPUs, with no share to spare")
        self.refused([StartJob(1, [Share(7, 4)])], "StartJob for job 1 on [node 7: 4 GPUs]: node 7 does not exist; "
                     "expected a node from 0 to 1")
        self.refused([StartJob(3, [Share(1, 4), Share(1, 4)])], "StartJob for job 3 on [node 1: 4 GPUs, node 1: 4 "
                     "GPUs]: node 1 appears twice; expected each node once")
        self.refused([StartJob(2, [Share(1, 1)])], "StartJob for job 2 on [node 1: 1 GPUs]: job 2 is a CPU job and the "
                     "placement is [node 1: 1 GPUs]; expected an empty placement (the CPU pool)")
        self.refused([acme_sim.PreemptJob(1)], "PreemptJob for job 1, which is queued; expected a running job")
        self.refused([acme_sim.RejectJob(0)], "RejectJob for job 0, which is running; expected a queued job")
        self.refused([StartJob(1, [Share(1, 4)]), acme_sim.RejectJob(1)], "RejectJob for job 1, which already has a "
                     "decision in this call; expected one decision per job")
        self.refused([StartJob(1, [Share(1, 4)])], "StartJob for job 1 on [node 1: 4 GPUs]: node 1 is down; expected "
                     "an up node", down=1)
        self.refused([acme_sim.CallMeLater(float("inf"))], "CallMeLater at inf; expected a finite time in seconds")

    def test_no_share_to_spare(self):
        cluster = testing.Cluster(nodes=3, gpus_per_node=8)
        cluster.submit(4, 10)
        with self.assertRaises(testing.PolicyError) as caught:
            cluster.step(Scripted(lambda view: [StartJob(0, [Share(0, 4), Share(1, 4)])]))
        self.assertEqual(caught.exception.message, "Scripted.on_events returned an invalid decision: StartJob for "
                         "job 0 on [node 0: 4 GPUs, node 1: 4 GPUs]: the placement holds 8 GPUs and job 0 asks for "
                         "4; expected its GPUs, with no share to spare")

    def test_view_start_checks_at_once_and_counts_the_gpus(self):
        def two_starts(view):
            first = view.start(1, [Share(1, 4)])
            self.assertEqual((view.free_gpus(1), view.free_gpus_total, view.idle_nodes()), (4, 4, []))
            with self.assertRaises(ValueError) as caught:
                view.start(3, [Share(1, 8)])
            self.assertIn("8 GPUs on node 1, which has 4 free", str(caught.exception))
            return [first]
        cluster, _ = self.two_nodes_with_jobs(two_starts)
        self.assertEqual(cluster.step(_)[0].placement, [Share(1, 4)])
        self.assertEqual(cluster.job(1).phase, "running")

    def test_results_that_are_no_decisions(self):
        for result, message in ((3, "Scripted.on_events returned int; expected a list of decisions (or None)"),
                                ([3], "Scripted.on_events returned a list holding 3; expected StartJob, PreemptJob "
                                      "or RejectJob")):
            cluster, scheduler = self.two_nodes_with_jobs(lambda view, r=result: r)
            with self.assertRaises(testing.PolicyError) as caught:
                cluster.step(scheduler)
            self.assertEqual(caught.exception.message, message)
            self.assertEqual(caught.exception.line, Scripted.on_events.__code__.co_firstlineno)

    def test_a_view_kept_past_its_call_and_a_placement_view(self):
        cluster, scheduler = self.two_nodes_with_jobs()
        with self.assertRaises(ValueError) as caught:
            scheduler.views[0].free_gpus(0)
        self.assertIn("only valid during the call that received it", str(caught.exception))
        with self.assertRaises(ValueError) as caught:
            cluster.view().start(1, [Share(1, 4)])
        self.assertEqual(str(caught.exception), "start() is for schedulers; a placement policy returns a placement")
        with self.assertRaises(IndexError):
            cluster.view().free_gpus(2)

    def test_an_invalid_placement(self):
        class Short:
            def place(self, job, view):
                return [(0, 2)]
        cluster = testing.Cluster(nodes=2, gpus_per_node=8, placement=Short())
        cluster.submit(4, 10)
        with self.assertRaises(testing.PolicyError) as caught:
            cluster.step(fifo())
        self.assertEqual(caught.exception.message, "Short.place returned [node 0: 2 GPUs]: the placement holds 2 GPUs "
                         "and job 0 asks for 4; expected its GPUs, with no share to spare")

    def test_a_module_that_imports_names_at_import_time(self):
        with tempfile.TemporaryDirectory(prefix="acme-testing-") as folder:
            module = Path(folder) / "eager.py"
            module.write_text("from acme_sim import JobSubmitted, Scheduler, Share, StartJob\n\n\n"
                              "class Eager(Scheduler):\n    def on_events(self, events, view):\n"
                              "        return [StartJob(e.job, [Share(0, 1)]) for e in events "
                              "if isinstance(e, JobSubmitted)]\n")
            cluster = testing.Cluster()
            cluster.submit(1, 10)
            cluster.run(testing.load_policy(module, "Eager"))
            self.assertEqual(cluster.record(0).placements, [[Share(0, 1)]])
        taken_early = subprocess.run(
            [sys.executable, "-c", "import acme_sim\nfrom acme_sim import Share\nimport acme_sim.testing\nShare(0, 1)"],
            env=dict(os.environ, PYTHONPATH=str(POLICIES)), capture_output=True, text=True)
        self.assertIn("import acme_sim.testing before your policy's module", taken_early.stderr)


def trace_jobs(trace):
    """(name, at_s, fields) of each job of an AcmeTrace file, by submit time from the first."""
    with open(trace, newline="") as f:
        rows = list(csv.DictReader(f))
    times = [datetime.fromisoformat(r["submit_time"]).timestamp() for r in rows]
    first = min(times)
    return [(r["job_id"], t - first, {"gpus": int(r["gpu_num"]), "duration_s": float(r["duration"]),
                                      "cpus": int(r["cpu_num"]), "type": r["type"], "final_state": r["state"]})
            for r, t in sorted(zip(rows, times), key=lambda rt: rt[1])]


def tiny_cluster():
    """configs/test/tiny.yaml's cluster (2 nodes x 8 GPUs, 4 CPU-job cores per node) with its trace."""
    cluster = testing.Cluster(nodes=2, gpus_per_node=8, cpu_cores=8, name="seren")
    for name, at_s, fields in trace_jobs(CONFIGS / "test" / "tiny_trace.csv"):
        cluster.submit(fields.pop("gpus"), fields.pop("duration_s"), at_s=at_s, name=name, **fields)
    return cluster


def acme_sim_run(out, *sets):
    args = [str(ACME_SIM), "run", str(CONFIGS / "test" / "tiny.yaml"), "-o", out, "--quiet"]
    for s in ("policies.placement.name=first_fit",) + sets:
        args += ["--set", s]
    return subprocess.run(args, capture_output=True, text=True, timeout=300)


class SameAsAcmeSim(unittest.TestCase):
    def compare(self, file, cls, params=None):
        params = params or {}
        policy = f"{{name: python, module: {file}, class: {cls}, params: {json.dumps(params)}}}"
        with tempfile.TemporaryDirectory(prefix="acme-testing-") as out:
            run = acme_sim_run(out, "policies.scheduler=" + policy)
            self.assertEqual(run.returncode, 0, run.stderr)
            with open(Path(out) / "jobs.csv", newline="") as f:
                rows = {r["job_id"]: r for r in csv.DictReader(f)}
        epoch = min(int(r["submit_unix_s"]) for r in rows.values())
        cluster = tiny_cluster()
        cluster.run(testing.load_policy(file, cls, params))
        mine = {r.name: r for r in cluster.records.values()}
        self.assertEqual(sorted(mine), sorted(rows))
        for name, row in rows.items():
            record = mine[name]
            start = float(row["start_unix_s"]) - epoch if row["start_unix_s"] else None
            with self.subTest(job=name):
                self.assertEqual(record.starts[0] if record.starts else None, start)
                self.assertEqual(record.end_s, float(row["end_unix_s"]) - epoch)
                self.assertEqual(record.state, row["state"])
                self.assertEqual(len(record.placements[0]) if record.starts else 0, int(row["node_num"]))
        by_start = sorted((r for r in rows.values() if r["start_unix_s"]), key=lambda r: int(r["start_unix_s"]))
        self.assertEqual([mine[r["job_id"]].starts[0] for r in by_start],
                         sorted(r.starts[0] for r in mine.values() if r.starts))
        return cluster

    def test_fifo_on_the_tiny_config(self):
        cluster = self.compare(EXAMPLES / "fifo.py", "Fifo")
        self.assertEqual([cluster.record(j).name for j in cluster.start_order()][:6], ["1", "2", "3", "4", "6", "5"])

    def test_las_without_preemption_on_the_tiny_config(self):
        self.compare(EXAMPLES / "las.py", "Las", {"preemption": False})

    def same_calls(self, file, cls, params, sets=(), preempt_delay_s=0.0, only_acme_sim=False):
        """The recording scheduler's log of `cls` on the tiny config: acme-sim's and acme_sim.testing's
        (`only_acme_sim`: acme-sim's alone, where the harness does not model what the run does)."""
        recorder = HERE / "recording_policy.py"
        with tempfile.TemporaryDirectory(prefix="acme-testing-") as out:
            wanted = {"scheduler": str(file), "class": cls, "params": params, "log": f"{out}/calls.txt"}
            run = acme_sim_run(f"{out}/run", f"policies.scheduler={{name: python, module: {recorder}, class: "
                               f"Recording, params: {json.dumps(wanted)}}}", *sets)
            self.assertEqual(run.returncode, 0, run.stderr)
            theirs = Path(wanted["log"]).read_text().splitlines()
            if only_acme_sim:
                return theirs
            cluster = tiny_cluster()
            cluster.preempt_delay_s = preempt_delay_s
            cluster.run(testing.load_policy(recorder, "Recording", wanted))
            mine = Path(wanted["log"]).read_text().splitlines()
        self.assertEqual(mine, theirs)
        return mine

    def test_the_same_calls_fifo(self):
        calls = self.same_calls(EXAMPLES / "fifo.py", "Fifo", {})
        self.assertGreater(len(calls), 10)

    def test_the_same_calls_las(self):
        """With preemptions: victims release their GPUs at once (no checkpoint model, free saves and restores)."""
        free = ("checkpoint.applies_to=[]", "preemption.fallback_save=0s", "preemption.fallback_restore=0s")
        calls = self.same_calls(EXAMPLES / "las.py", "Las", {}, free)
        self.assertIn("480.0 | JobEnded(0,CANCELLED,PREEMPTED) | StartJob(9,[Share(node=0, gpus=8)])", calls)

    def test_the_same_calls_las_without_saves(self):
        """save_on_preempt false: the victim's JobEnded(PREEMPTED) reaches the scheduler in the same instant
        (it once waited for the next instant at which anything else happened). acme-sim alone: the victim
        loses its work since its last checkpoint, which the harness does not model."""
        unsaved = ("checkpoint.applies_to=[]", "preemption.save_on_preempt=false", "preemption.fallback_restore=0s")
        calls = self.same_calls(EXAMPLES / "las.py", "Las", {}, unsaved, only_acme_sim=True)
        self.assertIn("480.0 | JobEnded(0,CANCELLED,PREEMPTED) | StartJob(9,[Share(node=0, gpus=8)])", calls)

    def test_the_same_calls_las_with_saves(self):
        """Victims keep their GPUs for a 60 s save (preempt_delay_s), then release them."""
        saves = ("checkpoint.applies_to=[]", "preemption.fallback_save=60s", "preemption.fallback_restore=0s")
        calls = self.same_calls(EXAMPLES / "las.py", "Las", {}, saves, preempt_delay_s=60.0)
        self.assertEqual(sum(c.count("PREEMPTED") for c in calls), 4, calls)
        self.assertIn("540.0 | JobEnded(0,CANCELLED,PREEMPTED) JobSubmitted(job=10) | StartJob(9,[Share(node=0, "
                      "gpus=8)])", calls)

    def test_the_same_error_line(self):
        bad = HERE / "bad_node_policy.py"
        with tempfile.TemporaryDirectory(prefix="acme-testing-") as out:
            run = acme_sim_run(out, f"policies.scheduler={{name: python, module: {bad}, class: BadNode}}")
        self.assertEqual(run.returncode, 2, run.stderr)
        with self.assertRaises(testing.PolicyError) as caught:
            tiny_cluster().run(testing.load_policy(bad, "BadNode"))
        e = caught.exception
        self.assertEqual(f"{e.file}:{e.line}: policies.scheduler: {e.message}", run.stderr.strip())


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
