#!/usr/bin/env python3
"""acme-sim report in a real browser: runs the CI scenario and a tiny study, writes their reports, opens
them in headless Chromium and checks what a reader sees: the plots (inline SVG) and table rows in the
DOM, no text of a figure overlapping another or leaving its figure, the config, seed and version named,
nothing fetched from outside, a screenshot that shows plots; then the command's one-line errors.

usage: report_browser_test.py ACME_SIM CI_CONFIG STUDY.yaml
"""
import html
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import browser  # noqa: E402  (after the path set-up above)

# Measures the text boxes of every figure after layout and writes what overlaps into the DOM. Only the
# copy the test opens has it: the report itself carries no script.
PROBE = """<script>
window.addEventListener('load', () => {
  const out = {figures: [], overlaps: [], outside: []};
  const area = (r) => Math.max(0, r.width) * Math.max(0, r.height);
  document.querySelectorAll('figure svg').forEach((svg) => {
    const id = svg.closest('figure').id;
    const box = svg.getBoundingClientRect();
    const texts = [...svg.querySelectorAll('text')]
      .map((t) => ({text: t.textContent.trim(), r: t.getBoundingClientRect()}))
      .filter((t) => t.text && area(t.r) > 0);
    texts.forEach((a, i) => {
      if (a.r.left < box.left - 1 || a.r.right > box.right + 1 || a.r.top < box.top - 1 || a.r.bottom > box.bottom + 1)
        out.outside.push([id, a.text]);
      texts.slice(i + 1).forEach((b) => {
        const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
        const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
        if (w > 0 && h > 0 && w * h > 0.15 * Math.min(area(a.r), area(b.r))) out.overlaps.push([id, a.text, b.text]);
      });
    });
    out.figures.push([id, texts.length, Math.round(box.width), Math.round(box.height)]);
  });
  const pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""
SCREEN = (1280, 2000)  # the first screens: title, provenance, the first cluster's overview and first figure
TAB_BLUE = (31, 119, 180)  # matplotlib's first colour: the first setting's curves
FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAIL:", message)
    return condition


def run(cmd, env=None):
    t0 = time.monotonic()
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=600, env=env)
    print(f"$ {' '.join(map(str, cmd))}  ({time.monotonic() - t0:.1f} s, exit {proc.returncode})")
    return proc


def probe(page, tmp):
    """The DOM of `page` in Chromium and the probe's measurements."""
    copy = tmp / f"probe_{page.stem}.html"
    copy.write_text(page.read_text().replace("</body>", PROBE + "</body>"))
    dom = browser.dump_dom(copy)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    if not check(found, f"{page.name}: the probe did not run in the browser"):
        return dom, {"figures": [], "overlaps": [], "outside": []}
    return dom, json.loads(html.unescape(found.group(1)))


def check_page(page, tmp, min_figures, required_ids, texts):
    """The plots and tables are in the browser's DOM and read cleanly."""
    source = page.read_text()
    check(not re.search(r"<script|<link|<img|<iframe|\bsrc=|url\(\s*['\"]?http|@import", source, re.I),
          f"{page.name}: refers to something outside the page (script, link, src or remote url)")
    dom, measured = probe(page, tmp)
    svgs = len(re.findall(r"<svg\b", dom))
    rows = len(re.findall(r"<tr\b", dom))
    figure_ids = [f[0] for f in measured["figures"]]
    print(f"{page.name}: {svgs} svg elements, {rows} table rows, figures {figure_ids}")
    check(svgs >= min_figures, f"{page.name}: {svgs} svg elements, expected at least {min_figures}")
    check(rows >= 20, f"{page.name}: {rows} table rows, expected the summary's tables (at least 20)")
    for wanted in required_ids:
        check(any(f.startswith(wanted) for f in figure_ids), f"{page.name}: no figure {wanted}*")
    for fid, n_texts, width, height in measured["figures"]:
        check(n_texts >= 8 and width > 300 and height > 150,
              f"{page.name}: figure {fid} has {n_texts} texts at {width}x{height} px; expected a drawn plot")
    check(not measured["overlaps"], f"{page.name}: overlapping text in figures: {measured['overlaps'][:8]}")
    check(not measured["outside"], f"{page.name}: text outside its figure: {measured['outside'][:8]}")
    for text in texts:
        check(text in dom, f"{page.name}: does not say {text!r}")


def check_probe_sees_overlaps(tmp):
    """The overlap measurement itself: two labels drawn over each other and one outside its figure are found."""
    page = tmp / "overlap.html"
    page.write_text('<!DOCTYPE html><html><body><figure id="fig-bad"><svg width="400" height="200">'
                    '<text x="20" y="50">queueing delay</text><text x="24" y="54">queueing delay</text>'
                    '<text x="380" y="100">cut off at the edge</text></svg></figure></body></html>')
    _, measured = probe(page, tmp)
    check(measured["overlaps"] and measured["outside"], f"the probe misses overlapping text: {measured}")


def check_screenshot(page, tmp):
    png = tmp / f"{page.stem}.png"
    browser.screenshot(page, png, window=f"{SCREEN[0]},{SCREEN[1]}")
    width, height, rows = browser.read_png(png)
    pixels = [p for row in rows[::3] for p in row[::3]]
    non_white = sum(1 for p in pixels if min(p) < 235) / len(pixels)
    colours = len({(r // 8, g // 8, b // 8) for r, g, b in pixels})
    blue = sum(1 for p in pixels if all(abs(a - b) <= 30 for a, b in zip(p, TAB_BLUE)))
    print(f"{png.name}: {width}x{height}, {non_white:.1%} non-white, {colours} colours, {blue} plot-blue pixels")
    check((width, height) == SCREEN, f"{png.name}: {width}x{height}, expected the {SCREEN} window")
    check(non_white > 0.03 and colours > 30, f"{png.name}: looks blank ({non_white:.1%} non-white, {colours} colours)")
    check(blue > 50, f"{png.name}: no plot line visible in the first screen ({blue} pixels of the first curve's blue)")


def main():
    binary, ci_config, study = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    if not browser.chromium():
        print("FAIL: chromium not found; expected Debian's chromium (tools/install_deps.sh installs it)")
        return 1
    with tempfile.TemporaryDirectory(prefix="acme-report-") as tmp_text:
        tmp = Path(tmp_text)
        check_probe_sees_overlaps(tmp)
        proc = run([binary, "run", ci_config, "-o", tmp / "ci", "--quiet"])
        check(proc.returncode == 0, f"acme-sim run {ci_config}: {proc.stderr}")
        summary = json.loads((tmp / "ci" / "summary.json").read_text())
        page = tmp / "ci.html"
        proc = run([binary, "report", tmp / "ci", "-o", page])
        check(proc.returncode == 0 and page.is_file(), f"acme-sim report: exit {proc.returncode}: {proc.stderr}")
        cluster_figures = ["queue_delay_cdf", "duration_cdf", "jct_cdf", "gpu_demand", "timeseries"]
        check_page(page, tmp, 2 * len(cluster_figures) + 1,
                   [f"fig-{f}_{c}" for f in cluster_figures for c in ("seren", "kalos")] + ["fig-failures"],
                   [str(summary["config"]), str(summary["version"]), "Cluster seren", "Cluster kalos",
                    "paper (Acme Seren"])
        check(re.search(r"<th[^>]*>seed</th><td[^>]*>7</td>", page.read_text()), "the seed 7 is not named")
        check_screenshot(page, tmp)

        proc = run([binary, "sweep", study, "-o", tmp / "study", "-j", "2"])
        check(proc.returncode == 0 and "report: acme-sim report" in proc.stdout, f"sweep: {proc.stdout}{proc.stderr}")
        study_page = tmp / "study.html"
        proc = run([binary, "report", tmp / "study", "-o", study_page])
        check(proc.returncode == 0, f"acme-sim report on a study: {proc.stderr}")
        again = run([binary, "report", tmp / "study", "-o", tmp / "study_again.html"])
        check(again.returncode == 0 and (tmp / "study_again.html").read_bytes() == study_page.read_bytes(),
              "the same study gives a different report")
        check_page(study_page, tmp, 6, ["fig-metrics_by_placement", "fig-queue_delay_cdf_seren"],
                   ["packed", "random_nodes", "95%", "acme-sim 0."])

        env = dict(os.environ, ACME_PYTHON=str(tmp / "no-python3"))
        proc = run([binary, "report", tmp / "ci", "-o", tmp / "x.html"], env=env)
        check(proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1 and "no-python3" in proc.stderr,
              f"a missing Python: exit {proc.returncode}, stderr {proc.stderr!r}; expected one line, exit 2")
        check(not (tmp / "x.html").exists(), "a failed report left a file")
    if FAILURES:
        return 1
    print("report: run and study pages render in Chromium with their plots and tables")
    return 0


if __name__ == "__main__":
    sys.exit(main())
