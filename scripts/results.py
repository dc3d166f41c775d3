"""Regenerate a results page of docs/results/ from the commands that measure its figures.

    .venv/bin/python scripts/results.py agents                 # run the page's measurements
    .venv/bin/python scripts/results.py all --only solo-learned  # one measurement again
    .venv/bin/python scripts/results.py training --dear        # the dear ones too (hours)
    .venv/bin/python scripts/results.py all --render           # markdown from the JSON alone
    .venv/bin/python scripts/results.py all --mark-stale       # mark what the code outdated

Each measurement (scripts/results_pages/<page>.py) is a `huerta` command or a script of the
repository, run as a subprocess in a fresh folder with its output streamed; its output is
parsed into figures and kept in docs/results/<page>.json with the commands, the commit, the
machine's cores and load, the date, the wall seconds and the versions of the code it measures.
The page's markdown, and the blocks the README and docs pages embed, are then written from the
JSON. Measurements marked dear (training runs, hours of games) run only with --dear or --only.
"""

from __future__ import annotations

import argparse
import sys
import time

from results_pages import BLOCKS, PAGES
from results_pages.model import ROOT, Page, Records
from results_pages.provenance import load_records, save_records
from results_pages.render import duration, page_markdown, rendered_file
from results_pages.runner import MeasurementFailed, measure
from results_pages.stale import mark

# what this script rewrites: the pages, their JSON and the files with blocks (their edits do not
# make a measured checkout dirty)
WRITTEN = ("docs/results", *dict.fromkeys(block.file for block in BLOCKS))


def write_pages(pages: list[Page]) -> None:
    """Write the markdown of `pages` and every embedded block from the JSON as it stands."""
    all_records = {name: load_records(page) for name, page in PAGES.items()}
    for page in pages:
        page.markdown_path.write_text(page_markdown(page, all_records[page.name]),
                                      encoding="utf-8")
        print(f"written: {page.markdown_path.relative_to(ROOT)}")
    for file in dict.fromkeys(block.file for block in BLOCKS):
        blocks = [block for block in BLOCKS if block.file == file]
        text = rendered_file(file, blocks, all_records)
        if text != (ROOT / file).read_text(encoding="utf-8"):
            (ROOT / file).write_text(text, encoding="utf-8")
            print(f"written: {file} ({', '.join(b.name for b in blocks)})")


def run_page(page: Page, only: list[str], dear: bool) -> list[str]:
    """Run the measurements of `page` (those of `only` if given), saving and rendering after
    each; returns the ids that failed."""
    chosen = [page.measurement(m) for m in only] if only else list(page.measurements)
    records: Records = load_records(page)
    failed = []
    for i, measurement in enumerate(chosen, 1):
        head = f"[{page.name} {i}/{len(chosen)}] {measurement.id}"
        if measurement.dear and not (dear or only):
            print(f"{head}: skipped, dear ({measurement.dear}); --dear or --only runs it")
            continue
        print(f"{head}: {measurement.what}", flush=True)
        start = time.perf_counter()
        try:
            records[measurement.id] = measure(measurement, written=WRITTEN)
        except MeasurementFailed as error:
            print(f"{head}: FAILED, nothing recorded: {error}", flush=True)
            failed.append(f"{page.name}/{measurement.id}")
            continue
        save_records(page, records)
        write_pages([page])
        print(f"{head}: done in {duration(time.perf_counter() - start)}", flush=True)
    return failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("page", choices=[*PAGES, "all"], help="the page, or all of them")
    parser.add_argument("--only", nargs="+", default=[], metavar="ID",
                        help="run only these measurements (ids as the page lists them)")
    parser.add_argument("--dear", action="store_true",
                        help="run the dear measurements too (training runs, hours of games)")
    parser.add_argument("--render", action="store_true",
                        help="run nothing: write the markdown from the JSON")
    parser.add_argument("--mark-stale", action="store_true",
                        help="run nothing: mark every figure whose code changed since it was "
                        "measured as stale (clearing marks that no longer hold), then render")
    args = parser.parse_args(argv)
    pages = list(PAGES.values()) if args.page == "all" else [PAGES[args.page]]
    if args.render or args.mark_stale:
        if args.mark_stale:
            for page in pages:
                records = load_records(page)
                report = mark(page, records)
                save_records(page, records)
                print("\n".join(report) or f"{page.name}: every figure is current")
        write_pages(pages)
        return 0
    if args.only and args.page == "all":
        known = {m.id: page for page in pages for m in page.measurements}
        unknown = [m for m in args.only if m not in known]
        if unknown:
            parser.error(f"no measurement {', '.join(unknown)} on any page")
        pages = [p for p in pages if any(known[m] is p for m in args.only)]
    failed = []
    for page in pages:
        only = [m for m in args.only if any(x.id == m for x in page.measurements)]
        if args.only and not only:
            parser.error(f"the {page.name} page has no measurement {', '.join(args.only)}")
        failed += run_page(page, only, args.dear)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
