"""Check every local link of a built documentation site: `python scripts/check_site_links.py site`.

MkDocs (strict, with the link validation of mkdocs.yml) checks the links written in the markdown;
this checks the built HTML as a browser would follow it, which also covers what the theme and
mkdocstrings add: every `href` and `src` that is not a web address must name a file of the site,
and every `#fragment` an element id of the page it points to. Web addresses are listed but not
fetched (the build runs without a network). Exit status 1 and one line per broken link.
"""

from __future__ import annotations

import argparse
import posixpath
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Page(HTMLParser):
    """The ids and the link targets (href, src) of one HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name"):
                self.ids.add(value)
            elif name in ("href", "src") and not (tag == "link" and ("rel", "canonical") in attrs):
                self.links.append(value)


def parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def broken_links(site: Path) -> tuple[list[str], int]:
    """(one message per broken local link, number of web links not checked) for a built site."""
    pages = {p.relative_to(site).as_posix(): parse(p) for p in sorted(site.rglob("*.html"))}
    problems: list[str] = []
    external = 0
    for uri, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                external += parts.scheme in ("http", "https")
                continue
            if parts.path:
                # a path from the root (the 404 page's) is read as the site served at its root
                base = "" if parts.path.startswith("/") else posixpath.dirname(uri)
                target = posixpath.normpath(posixpath.join(base, unquote(parts.path).lstrip("/")))
                if target.startswith("../"):
                    problems.append(f"{uri}: {link!r} leaves the site")
                    continue
                if (site / target).is_dir():
                    target = posixpath.join(target, "index.html")
                if not (site / target).is_file():
                    problems.append(f"{uri}: {link!r} names no file of the site")
                    continue
            else:
                target = uri
            fragment = unquote(parts.fragment)
            if fragment and target in pages and fragment not in pages[target].ids:
                problems.append(f"{uri}: {link!r} names no element of {target}")
    return problems, external


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("site", type=Path, help="the built site's folder (site/)")
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        print(f"{args.site}: no built site here (index.html is missing); run make docs")
        return 1
    problems, external = broken_links(args.site)
    for line in problems:
        print(line)
    pages = sum(1 for _ in args.site.rglob("*.html"))
    print(f"{pages} pages, {len(problems)} broken local links "
          f"({external} web links not fetched: no network)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
