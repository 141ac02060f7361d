"""HTML mail to readable plain text with the stdlib parser.

Why not a library: html2text/BeautifulSoup are not core dependencies, and mail HTML needs
only this much: drop scripts, styles and the head, turn block elements into line breaks,
unescape entities, keep link targets (a phishing link's real domain matters to a triager).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_SKIP = {"script", "style", "head", "title", "noscript", "template", "svg", "object", "applet"}
_VOID = {"br", "hr", "img", "meta", "link", "input", "area", "base", "col", "embed", "param", "source", "wbr"}
_BLOCK = {
    "p", "div", "br", "hr", "tr", "table", "tbody", "thead", "ul", "ol", "li", "dl", "dt", "dd",
    "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "section", "article", "header",
    "footer", "form", "center", "address", "html", "body",
}
_PARAGRAPH = {"p", "table", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "ul", "ol", "hr"}
_LOOKS_HTML = re.compile(r"<\s*(!doctype\s+html|html|body|head|table|font|div|p|br|a\s+href)\b", re.I)
_TAG_LIKE = re.compile(r"</?[a-zA-Z][^<>]{0,300}>")
#: what may stand in a document's <head>; any other tag there starts the body (as browsers parse an unclosed <head>)
_HEAD_TAGS = {"head", "title", "meta", "link", "style", "script", "base", "noscript", "template", "object"}
#: an element no reader sees, styled away (spam hides "hash buster" words there, for filters to read and people not to).
#: A tiny or zero font size is not read as hidden: layout templates set ``font-size:0`` on wrappers whose children
#: set their own size, and white text is kept too: the background is not known
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
#: a start tag of one of these closes an open <p> (HTML's parsing rules), and so ends a hidden one
_CLOSES_P = {"p", "div", "table", "ul", "ol", "dl", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "form",
             "center", "hr", "address", "section", "article", "header", "footer"}
_INLINE = {"a", "b", "i", "u", "s", "em", "strong", "span", "font", "small", "big", "sup", "sub", "code", "abbr"}
#: start tag -> (the open elements it closes, the containers it does not close them across): a cell, a row, an item
_CLOSES_SIBLING = {
    "td": ({"td", "th"}, {"tr", "table"}), "th": ({"td", "th"}, {"tr", "table"}), "tr": ({"tr", "td", "th"}, {"table"}),
    "li": ({"li"}, {"ul", "ol"}), "option": ({"option"}, {"select"}), "dt": ({"dt", "dd"}, {"dl"}),
    "dd": ({"dt", "dd"}, {"dl"}),
}
#: how deep the open elements are followed; deeper nesting is hostile input, read as flat
_MAX_OPEN = 512


def _hidden(attrs: list[tuple[str, str | None]]) -> bool:
    return any(k == "hidden" and (v or "").strip().lower() in ("", "hidden")
               or k == "style" and v is not None and _HIDDEN_STYLE.search(v) is not None for k, v in attrs)


class _Visibility:
    """Which text a browser hides: the open elements, nested as a browser nests them (a start tag closes an open
    paragraph, cell, row or item as HTML's rules say; an end tag closes what its element holds), and the depth of
    the outermost hidden one. An unclosed hidden element ends where a browser ends it, not at the document's end."""

    def __init__(self) -> None:
        self.open: list[str] = []
        self.hidden_at: int | None = None

    @property
    def hides(self) -> bool:
        return self.hidden_at is not None

    def start(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._implied_ends(tag)
        if tag in _VOID or len(self.open) >= _MAX_OPEN:
            return
        if self.hidden_at is None and _hidden(attrs):
            self.hidden_at = len(self.open)
        self.open.append(tag)

    def end(self, tag: str) -> bool:
        """Close ``tag``; whether it was hidden (inside, or itself, the hidden element)."""
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i] == tag:
                was = self.hidden_at is not None and i >= self.hidden_at
                self._close_from(i)
                return was
        return self.hides  # an end tag with nothing to close

    def _close_from(self, i: int) -> None:
        del self.open[i:]
        if self.hidden_at is not None and len(self.open) <= self.hidden_at:
            self.hidden_at = None

    def _implied_ends(self, tag: str) -> None:
        if tag in _CLOSES_P:
            for i in range(len(self.open) - 1, -1, -1):
                if self.open[i] == "p":
                    self._close_from(i)
                    break
                if self.open[i] not in _INLINE:
                    break
        elif tag in _CLOSES_SIBLING:
            closes, bounds = _CLOSES_SIBLING[tag]
            for i in range(len(self.open) - 1, -1, -1):
                if self.open[i] in closes:
                    self._close_from(i)
                    break
                if self.open[i] in bounds:
                    break


class _TextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip_depth = 0
        self.pre_depth = 0
        self.after_html = False
        self.links: list[tuple[str, int]] = []
        self.in_head = False
        self.visibility = _Visibility()

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
            if tag not in _VOID:
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
        if tag not in _VOID:
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
        # outside <pre>, HTML whitespace (including source line breaks) is a single space
        self.out.append(data if self.pre_depth or self.after_html else re.sub(r"\s+", " ", data))


def tidy(text: str) -> str:
    """Trim each line, drop trailing spaces, and keep at most one blank line in a row."""
    text = text.replace("\xa0", " ")
    lines = [line.strip() for line in text.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def html_to_text(html: str) -> str:
    """Readable text of an HTML document or fragment; never raises on malformed markup."""
    parser = _TextExtractor()
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
