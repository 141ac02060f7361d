"""How a finished email reaches the agent: as plain text, as multipart mail (the importer
shows the text/plain part) or as HTML-only mail, which is turned into text by the SAME
``importers/html_text.html_to_text`` that imported mail goes through, so generated and
imported HTML mail look alike to an agent (link targets in brackets, tables as lines).
"""

from __future__ import annotations

import random
import re
from html import escape

from ..importers.html_text import html_to_text

_URL = re.compile(r"(?:https?://|www\.)[^\s<>()\"']+[^\s<>()\"'.,;:!?]")
# Anchor texts for links in HTML mail; the href is what html_to_text prints in brackets.
_ANCHORS = ("click here", "Click Here", "CLICK HERE", "here", "this link", "Read more", "more", "visit us", "link")
_FONTS = ("Arial", "Verdana", "Times New Roman", "Tahoma", "Georgia", "Helvetica")
_COLORS = ("#000000", "#FF0000", "#0000FF", "#333333", "#990000", "#006600", "navy", "red")


def _link(url: str, rng: random.Random, bulk: bool) -> str:
    href = url if url.startswith("http") else "http://" + url
    text = rng.choice(_ANCHORS) if bulk and rng.random() < 0.6 else url
    return f'<a href="{escape(href)}">{escape(text)}</a>'


def _text(text: str, nbsp: bool) -> str:
    # mailers that paste from word processors pad with &nbsp;; html_to_text turns them back into spaces
    text = escape(text, quote=False)
    return text.replace("  ", " &nbsp;").replace(". ", ".&nbsp; ") if nbsp else text


def _inline(line: str, rng: random.Random, bulk: bool) -> str:
    nbsp = bulk and rng.random() < 0.2
    out, last = [], 0
    for m in _URL.finditer(line):
        out.append(_text(line[last:m.start()], nbsp))
        out.append(_link(m.group(0), rng, bulk))
        last = m.end()
    out.append(_text(line[last:], nbsp))
    return "".join(out)


def _block(block: str, rng: random.Random, bulk: bool) -> str:
    lines = [_inline(x, rng, bulk) for x in block.split("\n")]
    inner = "<br>\n".join(lines)
    r = rng.random()
    if bulk and r < 0.25:
        size = rng.choice(("2", "3", "4", "+1", "-1"))
        return f'<font face="{rng.choice(_FONTS)}" size="{size}" color="{rng.choice(_COLORS)}">{inner}</font><br><br>'
    if bulk and r < 0.4:
        return f'<table width="{rng.choice((500, 600, "100%"))}" border="0"><tr><td>{inner}</td></tr></table>'
    if r < 0.7:
        return f"<p>{inner}</p>"
    return f"<div>{inner}</div><br>"


def to_html(blocks: list[str], rng: random.Random, bulk: bool) -> str:
    """An HTML document of the email's blocks: newsletter/marketing skins for bulk mail."""
    body = "\n".join(_block(b, rng, bulk) for b in blocks if b)
    if bulk and rng.random() < 0.5:
        body = f"<center>{body}</center>"
    head = ""
    if rng.random() < 0.5:
        head = "<head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\">" \
               "<style>td { font-family: Arial; }</style></head>"
    if rng.random() < 0.4:
        body = f'<font face="{rng.choice(_FONTS)}" size="2">{body}</font>'
    return f"<html>{head}<body bgcolor=\"#FFFFFF\">{body}</body></html>"


def render_html_only(blocks: list[str], rng: random.Random, bulk: bool) -> str:
    """The text an importer shows for an HTML-only message made of ``blocks``."""
    return html_to_text(to_html(blocks, rng, bulk))
