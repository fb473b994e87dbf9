"""The gettext catalogues as JSON for the page: the same ``.po`` files the window reads.

The page renders the host's messages (``lanplay``), the content's words
(``lanplay-content``, keyed ``context\\x04msgid`` as gettext does) and its own words
(``lanplay-web``, extracted from the page's modules by ``lanplay.tools.web_pot``)
in the browser's language. Only translated, non-fuzzy entries travel: a missing
one falls back to the English key, as in the window.
"""

from __future__ import annotations

import functools
import json

from lanplay.locale import CONTENT_DOMAIN, CORE_DOMAIN, LANGUAGES, catalogue_path, po

WEB_DOMAIN = "lanplay-web"
DOMAINS = (CORE_DOMAIN, CONTENT_DOMAIN, WEB_DOMAIN)


def entries(lang: str, domain: str) -> dict[str, str | list[str]]:
    """One catalogue as ``{key: translation}`` (a list of forms for a plural)."""
    path = catalogue_path(lang, domain)
    if lang == "en" or not path.is_file():
        return {}
    out: dict[str, str | list[str]] = {}
    for entry in po.parse(path.read_text(encoding="utf-8"), str(path)):
        if not entry.msgid or entry.fuzzy or not entry.translated:
            continue
        key = entry.msgid if entry.context is None else f"{entry.context}\x04{entry.msgid}"
        out[key] = list(entry.msgstr) if entry.plural is not None else entry.msgstr[0]
    return out


@functools.lru_cache(maxsize=len(LANGUAGES))
def as_json(lang: str) -> bytes | None:
    """The catalogues of ``lang`` for the page (None: not a language lanplay speaks)."""
    if lang not in LANGUAGES:
        return None
    body = {"lang": lang, "domains": {d: entries(lang, d) for d in DOMAINS}}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
