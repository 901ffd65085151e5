#!/usr/bin/env python3
"""acme-sim report in a real browser: runs the CI scenario and a tiny study, writes their reports, opens
them in headless Chromium and checks what a reader sees: the plots (inline SVG) and table rows in the
DOM, no text of a figure overlapping another or leaving its figure, no table wider than its box (and, in a
narrow window, none reaching past its section), the config, seed and version named, the run's wait
reasons, fairness and the paper's Table 2 sections, no raw dump of a CDF, no flat time series drawn,
nothing fetched from outside, a screenshot that shows plots; then the command's one-line errors.

usage: report_browser_test.py ACME_SIM CI_CONFIG STUDY.yaml
"""
import csv
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
  document.querySelectorAll('details').forEach((d) => { d.open = true; });  // as a reader who opens them
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
  // Each table and its box: [name, box scrollWidth, box clientWidth, box overflow-x, px the box reaches past
  // its section, px the table reaches past its box, rows].
  out.tables = [...document.querySelectorAll('table')].map((table) => {
    const box = table.parentElement;
    const section = table.closest('section, details') || document.body;
    const label = table.querySelector('caption') || table.querySelector('th');
    return [label ? label.textContent.trim().slice(0, 70) : '?', box.scrollWidth, box.clientWidth,
            getComputedStyle(box).overflowX,
            Math.round(box.getBoundingClientRect().right - section.getBoundingClientRect().right),
            Math.round(table.getBoundingClientRect().right - box.getBoundingClientRect().right),
            table.querySelectorAll('tr').length];
  });
  out.page = [document.documentElement.scrollWidth, document.documentElement.clientWidth];
  const pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""
SCREEN = (1280, 2000)  # the first screens: title, provenance, the first cluster's overview and first figure
NARROW_WINDOW = "720,1000"  # a phone held sideways: wide tables must scroll inside their boxes
MAX_TABLE_ROWS = 30  # more is a dump of summary.json (the 41-point gpu_W.cdf had 77 rows), not a table to read
REPO = Path(__file__).resolve().parents[2]
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


def probe(page, tmp, window="1280,1000"):
    """The DOM of `page` in Chromium and the probe's measurements."""
    copy = tmp / f"probe_{page.stem}.html"
    copy.write_text(page.read_text().replace("</body>", PROBE + "</body>"))
    dom = browser.dump_dom(copy, window)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    if not check(found, f"{page.name}: the probe did not run in the browser"):
        return dom, {"figures": [], "overlaps": [], "outside": [], "tables": [], "page": [0, 0]}
    return dom, json.loads(html.unescape(found.group(1)))


def overflowing_tables(measured):
    """Tables wider than their box (the box would need its scroll bar) or whose box leaves its section."""
    return [t for t in measured["tables"] if t[1] > t[2] + 1 or t[4] > 1]


def tables_past_their_section(measured):
    """Tables a reader would see cut or sticking out: a box past its section, or a table past a box that
    does not scroll."""
    return [t for t in measured["tables"] if t[4] > 1 or (t[3] == "visible" and t[5] > 1)]


def check_tables(page, tmp, measured):
    """At the desktop width every table fits its box; in a narrow window wide ones scroll inside theirs."""
    print(f"{page.name}: {len(measured['tables'])} tables, page {measured['page'][0]} px wide in "
          f"{measured['page'][1]} px")
    check(measured["tables"], f"{page.name}: the probe found no table")
    check(not overflowing_tables(measured), f"{page.name}: tables wider than their box: {overflowing_tables(measured)}")
    check(measured["page"][0] <= measured["page"][1] + 1, f"{page.name}: the page scrolls sideways: {measured['page']}")
    long = [t[0] for t in measured["tables"] if t[6] > MAX_TABLE_ROWS]
    check(not long, f"{page.name}: tables of more than {MAX_TABLE_ROWS} rows: {long}")
    _, narrow = probe(page, tmp, NARROW_WINDOW)
    check(not tables_past_their_section(narrow),
          f"{page.name}: in a {NARROW_WINDOW} window, tables past their section: {tables_past_their_section(narrow)}")


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
        # An answer figure may have one row (a title, ticks, a label): smaller than a matplotlib panel.
        texts_min, height_min = (5, 60) if fid.startswith("answer-") else (8, 150)
        check(n_texts >= texts_min and width > 300 and height > height_min,
              f"{page.name}: figure {fid} has {n_texts} texts at {width}x{height} px; expected a drawn plot")
    check(not measured["overlaps"], f"{page.name}: overlapping text in figures: {measured['overlaps'][:8]}")
    check(not measured["outside"], f"{page.name}: text outside its figure: {measured['outside'][:8]}")
    check_tables(page, tmp, measured)
    check(not re.search(r"<t[dh][^>]*>[\w.]*cdf\.\d", dom), f"{page.name}: a CDF dumped point by point in a table")
    for text in texts:
        check(text in dom, f"{page.name}: does not say {text!r}")
    return dom


def check_probe_sees_overlaps(tmp):
    """The overlap measurement itself: two labels drawn over each other and one outside its figure are found."""
    page = tmp / "overlap.html"
    page.write_text('<!DOCTYPE html><html><body><figure id="fig-bad"><svg width="400" height="200">'
                    '<text x="20" y="50">queueing delay</text><text x="24" y="54">queueing delay</text>'
                    '<text x="380" y="100">cut off at the edge</text></svg></figure></body></html>')
    _, measured = probe(page, tmp)
    check(measured["overlaps"] and measured["outside"], f"the probe misses overlapping text: {measured}")


def check_probe_sees_wide_tables(tmp):
    """The table measurement itself: a wide table in a narrow box is found, in a box that does not scroll
    also in the narrow window; one in a scrolling box only at the desktop check."""
    cells = "".join(f"<td>column_{i}_of_a_wide_table</td>" for i in range(12))
    page = tmp / "wide.html"
    page.write_text('<!DOCTYPE html><html><body><section style="width:300px">'
                    f'<div><table><tr>{cells}</tr></table></div>'
                    f'<div style="overflow-x:auto"><table><tr>{cells}</tr></table></div></section></body></html>')
    _, measured = probe(page, tmp)
    check(len(overflowing_tables(measured)) == 2, f"the probe misses tables wider than their box: {measured['tables']}")
    check(len(tables_past_their_section(measured)) == 1,
          f"the probe does not tell a scrolling box from one that lets its table out: {measured['tables']}")


def section_of(dom, start_id):
    """The markup from the element with id `start_id` to the next <h3> or the section's end."""
    found = re.search(rf'id="{start_id}"(.*?)(?=<h3\b|</section>)', dom, re.S)
    return found.group(1) if found else ""


def paper_table2(cluster):
    with (REPO / "data" / "acme" / "cluster_summary.csv").open(newline="") as f:
        return next((r for r in csv.DictReader(f) if r["id"].lower() == cluster), None)


def check_run_sections(dom, run_dir, summary, cluster):
    """A run's cluster has its wait reasons, fairness and paper Table 2 sections, with summary.json's and
    the paper's figures in them, and no flat time series drawn."""
    c = summary["clusters"][cluster]
    waits = section_of(dom, f"waits-{cluster}")
    reasons = {r for t in c["by_type"].values() for r in t.get("wait_reasons", {})}
    check(reasons and all(f"{r} (%)" in waits for r in reasons), f"{cluster}: wait reasons {reasons} not all shown")
    fairness = section_of(dom, f"fairness-{cluster}")
    worst = c["fairness"]["worst_served"]
    check("Jain index of mean waits" in fairness and worst and all(u["user"] in fairness for u in worst),
          f"{cluster}: the fairness section lacks the Jain indexes or the worst-served users {worst}")
    table2 = section_of(dom, f"paper-{cluster}")
    reference = paper_table2(cluster)
    check("data/acme/cluster_summary.csv" in table2 and f"{int(float(reference['gpu_job_num'])):,}" in table2
          and f"{c['by_type']['all_gpu']['jobs']:,}" in table2,
          f"{cluster}: the paper's Table 2 section does not show the paper's and the run's GPU job counts")
    figure = re.search(rf'<figure id="fig-timeseries_{cluster}">(.*?)</figure>', dom, re.S)
    drawn = figure.group(1) if figure else ""
    note = html.unescape(section_of(dom, f"constant-{cluster}"))
    for column, value in constant_columns(run_dir / "timeseries.csv", cluster).items():
        titled = re.search(rf"[:;] ([^:;]*?) \({re.escape(column)}\) constant at", note)  # "TITLE (column) ..."
        named = titled or re.search(rf"[:;] {re.escape(column)} constant at", note)
        title = titled.group(1) if titled else column
        print(f"{cluster}: timeseries.csv column {column} is constant at {value}; its panel title {title!r}")
        check(named and f">{title}<" not in drawn,
              f"{cluster}: {column} never changes, yet it is drawn or not named as constant: {note[:300]!r}")


def constant_columns(path, cluster):
    """{column: value} of the cluster's timeseries.csv columns that hold one value in every row."""
    values = {}
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            if row["cluster"] == cluster:
                for column, value in row.items():
                    if column not in ("time", "cluster"):
                        values.setdefault(column, set()).add(float(value) if value else None)
    return {c: v.pop() for c, v in values.items() if len(v) == 1 and None not in v}


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


def check_answer(dom):
    """The study page opens with its question and the paired differences (with intervals) of its answer
    metrics per job type; everything else comes after it, folded."""
    first = re.search(r'<body>.*?<(section|details)\b[^>]*id="([^"]+)"', dom, re.S)
    check(first and first.group(1) == "section" and first.group(2) == "question",
          f"the study page does not open with its question: {first.group(0)[-80:] if first else None}")
    answer = re.search(r'id="question"(.*?)</section>', dom, re.S)
    body = answer.group(1) if answer else ""
    check(re.search(r'<td class="num [a-z]+">[+-]?[\d,.]+ \[-[\d,.]+, [\d,.]+\]</td>', body),
          "the answer table shows no paired interval")
    for row in ("by_type.Pretrain.queue_s.mean", "by_type.all_gpu.queue_s.mean", "gpu_utilisation",
                "by_type.all_gpu.jct_s.mean"):
        check(f">{row}<" in body, f"the answer table has no row {row}")
    check("not in paired.csv" in body and "no_such.metric" in body, "an answer metric no run has is not named")
    folded = re.findall(r'<details\b[^>]*id="([^"]+)"', dom)
    check("provenance" in folded and "cluster-seren" in folded, f"the rest is not folded: {folded}")


def main():
    binary, ci_config, study = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    if not browser.chromium():
        print("FAIL: chromium not found; expected Debian's chromium (tools/install_deps.sh installs it)")
        return 1
    with tempfile.TemporaryDirectory(prefix="acme-report-") as tmp_text:
        tmp = Path(tmp_text)
        check_probe_sees_overlaps(tmp)
        check_probe_sees_wide_tables(tmp)
        proc = run([binary, "run", ci_config, "-o", tmp / "ci", "--quiet"])
        check(proc.returncode == 0, f"acme-sim run {ci_config}: {proc.stderr}")
        summary = json.loads((tmp / "ci" / "summary.json").read_text())
        page = tmp / "ci.html"
        proc = run([binary, "report", tmp / "ci", "-o", page])
        check(proc.returncode == 0 and page.is_file(), f"acme-sim report: exit {proc.returncode}: {proc.stderr}")
        cluster_figures = ["queue_delay_cdf", "duration_cdf", "jct_cdf", "gpu_demand", "timeseries"]
        dom = check_page(page, tmp, 2 * len(cluster_figures) + 1,
                         [f"fig-{f}_{c}" for f in cluster_figures for c in ("seren", "kalos")] + ["fig-failures"],
                         [str(summary["config"]), str(summary["version"]), "Cluster seren", "Cluster kalos",
                          "paper (Acme Seren"])
        check(re.search(r"<th[^>]*>seed</th><td[^>]*>7</td>", page.read_text()), "the seed 7 is not named")
        for cluster in ("seren", "kalos"):
            check_run_sections(dom, tmp / "ci", summary, cluster)
        check_screenshot(page, tmp)

        proc = run([binary, "sweep", study, "-o", tmp / "study", "-j", "2"])
        check(proc.returncode == 0 and "report: acme-sim report" in proc.stdout, f"sweep: {proc.stdout}{proc.stderr}")
        study_page = tmp / "study.html"
        proc = run([binary, "report", tmp / "study", "-o", study_page])
        check(proc.returncode == 0, f"acme-sim report on a study: {proc.stderr}")
        again = run([binary, "report", tmp / "study", "-o", tmp / "study_again.html"])
        check(again.returncode == 0 and (tmp / "study_again.html").read_bytes() == study_page.read_bytes(),
              "the same study gives a different report")
        dom = check_page(study_page, tmp, 6, ["answer-by_type---queue_s-mean", "answer-gpu_utilisation",
                                               "fig-queue_delay_cdf_seren"],
                         ["packed", "random_nodes", "95%", "acme-sim 0.",
                          "Does random placement change queueing delay", "Baseline: <b>packed</b>"])
        check_answer(dom)

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
