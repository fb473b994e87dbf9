"""The command every catalogue's template tool is: print, ``--write``, ``--check`` or
``--sync`` its template (``lanplay.tools.content_pot``, ``lanplay.tools.core_pot``,
``ui.locale_pot`` differ only in how they find their messages)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from lanplay.locale import catalogue_path, catalogued, po, template_path

Problems = tuple[type[Exception], ...]


def main(argv: list[str] | None, *, module: str, domain: str, doc: str | None,
         entries: Callable[[], list[po.Entry]], header: Callable[[str], po.Entry],
         problems: Problems = ()) -> int:
    """Run the template tool of ``domain`` (``python -m module``); a problem in the
    sources (``problems``) is one line on stderr and exit 1."""
    name = module.rsplit(".", 1)[-1]
    parser = argparse.ArgumentParser(prog=f"python -m {module}",
                                     description=doc.split("\n")[0] if doc else None)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="rewrite the committed template")
    group.add_argument("--check", action="store_true",
                       help="exit 1 if the committed template is not what the sources give")
    group.add_argument("--sync", nargs="*", metavar="LANG",
                       help="carry the template into these languages' catalogues "
                            "(none named: every existing one)")
    args = parser.parse_args(argv)
    try:
        template = entries()
    except problems as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 1
    if args.sync is not None:
        for lang in args.sync or catalogued(domain):
            added, dropped = sync(domain, lang, template, header(lang))
            print(f"{name}: {catalogue_path(lang, domain)}: {added} new (untranslated), "
                  f"{dropped} dropped")
        return 0
    text = po.render(template)
    path = template_path(domain)
    if args.write:
        path.write_text(text, encoding="utf-8")
        print(f"{name}: wrote {path} ({len(template) - 1} messages)")
        return 0
    if args.check:
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            print(f"{name}: {path} is out of date; run `python -m {module} --write`",
                  file=sys.stderr)
            return 1
        return 0
    sys.stdout.write(text)
    return 0


def sync(domain: str, lang: str, template: Sequence[po.Entry], head: po.Entry
         ) -> tuple[int, int]:
    """``lang``'s catalogue of ``domain`` in line with ``template``: (added, dropped)."""
    return po.sync_catalogue(catalogue_path(lang, domain), template, head)
