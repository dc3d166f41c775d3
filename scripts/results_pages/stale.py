"""Which figures are stale: a record keeps the versions of the code it measured, and a figure is
stale when today's versions differ (a rule, an agent, a model file, the measuring code changed
since). Versions are digests of content, so this holds in a clean clone or an sdist alike."""

from __future__ import annotations

from .model import Measurement, Page, Record, Records
from .provenance import now

UNRECORDED = "unrecorded"  # the version of a figure measured before versions were recorded


def regenerate_command(page: Page, measurement_id: str) -> str:
    """The command that measures one figure of `page` again."""
    return f"python scripts/results.py {page.name} --only {measurement_id}"


def changes(measurement: Measurement, record: Record) -> list[str]:
    """What changed since `record` was measured, one line per piece of code whose version
    differs from today's (none: the figure is current)."""
    today = measurement.versions()
    recorded = record.get("versions", {})
    lines = []
    for name in sorted(set(today) | set(recorded)):
        old, new = recorded.get(name), today.get(name)
        if old != new:
            lines.append(f"{name}: {old or 'not measured then'} → {new or 'not measured now'}")
    return lines


def mark(page: Page, records: Records) -> list[str]:
    """Mark every record of `page` whose versions differ from today's as stale (what changed,
    and when it was marked; a mark whose changes are unchanged keeps its date) and clear the
    mark of every record that is current again. Returns a line per stale record."""
    report = []
    for measurement in page.measurements:
        record = records.get(measurement.id)
        if record is None:
            continue
        changed = changes(measurement, record)
        if not changed:
            record.pop("stale", None)
            continue
        old = record.get("stale") or {}
        record["stale"] = {"changed": changed,
                           "marked": old["marked"] if old.get("changed") == changed
                           else now()}
        report.append(f"{page.name}/{measurement.id}: stale ({len(changed)} change(s)); "
                      f"regenerate: {regenerate_command(page, measurement.id)}")
    return report


def unmarked(page: Page, records: Records) -> list[str]:
    """A line per record of `page` whose versions differ from today's but that the page does
    not mark stale: the page, the measurement, what changed and the commands that fix it."""
    problems = []
    for measurement in page.measurements:
        record = records.get(measurement.id)
        if record is None or record.get("stale"):
            continue
        changed = changes(measurement, record)
        if changed:
            problems.append(
                f"docs/results/{page.name}.md: measurement {measurement.id!r} was measured on "
                f"other code than today's ({'; '.join(changed)}); measure it again with "
                f"`{regenerate_command(page, measurement.id)}`, or mark it stale with "
                f"`python scripts/results.py {page.name} --mark-stale`")
    return problems
