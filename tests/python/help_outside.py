#!/usr/bin/env python3
"""acme_sim outside acme-sim: `import acme_sim` and `help(acme_sim)` work (the documentation of the API),
and a native type says clearly that it exists only inside the simulator.

usage: help_outside.py POLICIES_PYTHON_DIR
"""
import pydoc
import sys

sys.path.insert(0, sys.argv[1])
import acme_sim  # noqa: E402

text = pydoc.render_doc(acme_sim, renderer=pydoc.plaintext)
for wanted in ("on_events", "class Scheduler", "class PlacementPolicy", "WakeUp"):
    if wanted not in text:
        sys.exit(f"FAIL: help(acme_sim) lacks {wanted!r}")
try:
    acme_sim.Share(0, 8)
    sys.exit("FAIL: acme_sim.Share built a value outside acme-sim")
except RuntimeError as e:
    if "exists only inside acme-sim" not in str(e):
        sys.exit(f"FAIL: unclear error: {e}")
print("help(acme_sim) outside acme-sim:", len(text), "characters; native types refuse with a clear message")
