"""The README's Python examples run as written, and every link in it resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MAX_LINES = 250  # a front door (issue 35): the manual lives in docs/

# markdown links and pictures, and the src/href of the HTML pictures in the games table
MARKDOWN_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HTML_LINK = re.compile(r"""\b(?:src|href)="([^"]+)\"""")


def test_readme_python_blocks_run():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert len(blocks) >= 3
    namespace: dict = {}
    exec(compile("\n".join(blocks), str(README), "exec"), namespace)
    assert namespace["state"].steps == 1


def test_readme_names_the_two_commands():
    text = README.read_text()
    assert "make run" in text and "make test" in text


def test_the_readme_is_a_front_door():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= MAX_LINES


def heading_anchors(markdown: str) -> set[str]:
    """The anchors of a markdown file's headings, as the site (mkdocs' toc) and GitHub make
    them: lower case, punctuation dropped, spaces as hyphens (headings in code blocks skipped)."""
    anchors = set()
    fenced = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        heading = None if fenced else re.match(r"#+ (.*)", line)
        if heading:
            title = re.sub(r"[^\w\s-]", "", heading.group(1).strip().lower())
            anchors.add(re.sub(r"\s+", "-", title))
    return anchors


def local_links(text: str) -> list[str]:
    """Every link of a markdown text that is not a web address or mail."""
    links = MARKDOWN_LINK.findall(text) + HTML_LINK.findall(text)
    return [link for link in links if not re.match(r"[a-z]+://|mailto:", link)]


def broken_links(text: str, base: Path) -> list[str]:
    """The local links of `text` (a file in folder `base`) that name no file or folder, or no
    heading of the markdown file they point into."""
    broken = []
    for link in local_links(text):
        path, _, anchor = link.partition("#")
        target = (base / path).resolve() if path else README
        if not target.exists():
            broken.append(f"{link}: no such file")
        elif anchor and target.suffix == ".md" and anchor not in heading_anchors(
                target.read_text(encoding="utf-8")):
            broken.append(f"{link}: no heading #{anchor} in {target.relative_to(ROOT)}")
    return broken


def test_every_readme_link_resolves():
    text = README.read_text(encoding="utf-8")
    assert len(local_links(text)) >= 10  # the pictures, the specifications, the docs pages
    assert broken_links(text, ROOT) == []


@pytest.mark.parametrize("text, problem", [
    ("[a](docs/nowhere.md)", "no such file"),
    ('<img src="docs/nowhere.png">', "no such file"),
    ("[a](docs/usage.md#nowhere)", "no heading #nowhere"),
])
def test_the_link_check_finds_a_missing_file_or_heading(text, problem):
    assert problem in broken_links(text, ROOT)[0]
    assert broken_links("[a](docs/usage.md#the-engine) [b](https://x.org/y)", ROOT) == []
