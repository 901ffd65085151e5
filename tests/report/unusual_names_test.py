#!/usr/bin/env python3
"""`acme-sim report` on a run whose cluster name holds matplotlib's mathtext markers ('$', '^', '{'), a name
the config accepts and matplotlib cannot parse as mathtext: the page is written (exit 0), the name drawn as text.

usage: unusual_names_test.py ACME_SIM REPO
"""
import subprocess
import sys
import tempfile
from pathlib import Path

NAME = "$x^{$ c"


def main():
    acme, repo = sys.argv[1], Path(sys.argv[2])
    with tempfile.TemporaryDirectory(prefix="acme-report-names-") as tmp:
        run = Path(tmp) / "run"
        proc = subprocess.run([acme, "run", str(repo / "configs/test/tiny.yaml"), "-o", str(run), "--quiet",
                               "--set", f"clusters[0].name={NAME!r}"], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, f"run exited {proc.returncode}: {proc.stderr}"
        page = run / "report.html"
        proc = subprocess.run([acme, "report", str(run), "-o", str(page)], capture_output=True, text=True,
                              timeout=300)
        assert proc.returncode == 0, f"report exited {proc.returncode}: {proc.stderr[-3000:]}"
        assert page.is_file() and page.stat().st_size > 0, "no page written"
    print("report: a cluster named with mathtext markers draws as written")


if __name__ == "__main__":
    main()
