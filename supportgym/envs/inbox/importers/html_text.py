"""HTML mail to readable plain text with the stdlib parser.

Why not a library: html2text/BeautifulSoup are not core dependencies, and mail HTML needs
only this much: drop scripts, styles and the head, turn block elements into line breaks,
unescape entities, keep link targets (a phishing link's real domain matters to a triager),
and leave out what a reader does not see: hidden elements and white letters on the white
page (``visibility.py``).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from .visibility import VOID, Visibility

_SKIP = {"script", "style", "head", "title", "noscript", "template", "svg", "object", "applet"}
_BLOCK = {
    "p", "div", "br", "hr", "tr", "table", "tbody", "thead", "ul", "ol", "li", "dl", "dt", "dd",
    "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "section", "article", "header",
    "footer", "form", "center", "address", "html", "body",
}
_PARAGRAPH = {"p", "table", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "ul", "ol", "hr"}
_LOOKS_HTML = re.compile(r"<\s*(!doctype\s+html|html|body|head|table|font|div|p|br|a\s+href)\b", re.I)
_TAG_LIKE = re.compile(r"</?[a-zA-Z][^<>]{0,300}>")
_LINKED_SHEET = re.compile(r"<link\b[^>]{0,300}stylesheet", re.I)


def _sheet_paints(html: str) -> bool:
    """Does a style sheet of the document set a background (or is one linked, unseen)? It may paint what white text
    stands on through class names (visibility.py). One pass: an unclosed <style> runs to the end, as parsers read it."""
    if _LINKED_SHEET.search(html):
        return True
    low = html.lower()
    start = low.find("<style")
    while start != -1:
        stop = low.find("</style", start)
        if "background" in low[start: stop if stop != -1 else len(low)]:
            return True
        start = low.find("<style", stop) if stop != -1 else -1
    return False


#: what may stand in a document's <head>; any other tag there starts the body (as browsers parse an unclosed <head>)
_HEAD_TAGS = {"head", "title", "meta", "link", "style", "script", "base", "noscript", "template", "object"}


class _TextExtractor(HTMLParser):
    def __init__(self, sheet: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip_depth = 0
        self.pre_depth = 0
        self.after_html = False
        self.links: list[tuple[str, int]] = []
        self.in_head = False
        self.visibility = Visibility(sheet)

    def _end_head(self) -> None:
        self.skip_depth = 0  # an unclosed <head> must not hide the whole body
        self.in_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body" or self.in_head and self.skip_depth == 1 and tag not in _HEAD_TAGS:
            self._end_head()
        if tag == "head":
            self.in_head = True
        self.visibility.start(tag, attrs)
        if self.visibility.hides:
            return
        if tag in _SKIP:
            if tag not in VOID:
                self.skip_depth += 1
            return
        if tag == "br":
            self.out.append("\n")  # <br><br> is how much mail HTML separates paragraphs
        elif tag in _BLOCK:
            self._break(2 if tag in _PARAGRAPH else 1)
        if tag == "li":
            self.out.append("- ")
        elif tag in ("td", "th", "option"):
            self.out.append(" ")
        elif tag == "pre":
            self.pre_depth += 1
        elif tag == "img":
            alt = (dict(attrs).get("alt") or "").strip()
            if alt:
                self.out.append(f"[{alt}]")
        elif tag == "a":
            self.links.append(((dict(attrs).get("href") or "").strip(), len(self.out)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.visibility.end(tag):
            return
        if tag == "head":
            self.in_head = False
        if tag in _SKIP:
            self.skip_depth = max(0, self.skip_depth - 1)
            return
        if tag == "pre":
            self.pre_depth = max(0, self.pre_depth - 1)
        elif tag == "html":
            self.after_html = True  # what follows </html> is plain text a list server appended
        if tag == "a" and self.links:
            href, start = self.links.pop()
            shown = "".join(self.out[start:])
            if href.lower().startswith(("http://", "https://")) and href.rstrip("/") not in shown:
                self.out.append(f" ({href})")
        if tag in _BLOCK and tag != "br":
            self._break(2 if tag in _PARAGRAPH else 1)

    def _break(self, lines: int) -> None:
        """End the current line; ``lines=2`` leaves a blank line. Never stacks breaks (``</li><li>``)."""
        tail = "".join(self.out[-3:]).rstrip(" \t")
        have = len(tail) - len(tail.rstrip("\n"))
        if self.out and have < lines:
            self.out.append("\n" * (lines - have))

    def handle_data(self, data: str) -> None:
        if self.in_head and self.skip_depth == 1 and data.strip():
            self._end_head()  # text in an unclosed <head> after its title: a browser starts the body there
        if self.skip_depth or self.visibility.hides:
            return
        if self.visibility.blank:  # white letters on the white page: the spaces between them still separate words
            data = " " if any(c.isspace() for c in data) else ""
        # outside <pre>, HTML whitespace (including source line breaks) is a single space
        self.out.append(data if self.pre_depth or self.after_html else re.sub(r"\s+", " ", data))


def tidy(text: str) -> str:
    """Trim each line, drop trailing spaces, and keep at most one blank line in a row."""
    text = text.replace("\xa0", " ")
    lines = [line.strip() for line in text.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def html_to_text(html: str) -> str:
    """Readable text of an HTML document or fragment; never raises on malformed markup."""
    parser = _TextExtractor(sheet=_sheet_paints(html))
    try:
        parser.feed(html)
        parser.close()
        text = "".join(parser.out)
    except Exception:  # noqa: BLE001 - HTMLParser can assert on pathological input; fall back to stripping
        text = _TAG_LIKE.sub(" ", html)
    return tidy(text)


def looks_like_html(text: str) -> bool:
    """True for text/plain parts that are really HTML (common in spam)."""
    head = text[:4000]
    return bool(_LOOKS_HTML.search(head)) and len(_TAG_LIKE.findall(head)) >= 3
