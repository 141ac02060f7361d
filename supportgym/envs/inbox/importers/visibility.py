"""Which text of an HTML message a reader does not see, for ``html_text``: spam hides "hash buster" words (random
dictionary words that filters read and people do not) in elements styled away and in white text on the white page.

Hidden: an element styled ``display:none`` or ``visibility:hidden``, or marked ``hidden``, with all it holds. Blank:
the letters of text coloured white (or near white) where nothing paints a background behind it (no ``bgcolor``,
``background`` or background style on it or an element around it, and no style sheet that sets a background, nor a
linked one, as those can paint through class names this reader does not follow); only the letters vanish, as on screen: spaces, line breaks,
images and links inside stay, and an element inside that sets its own colour or background shows. A tiny or zero
font size is not read as hidden: layout templates set ``font-size:0`` on wrappers whose children set their own size.

The open elements are nested as a browser nests them (a start tag closes an open paragraph, cell, row or item as
HTML's parsing rules say; an end tag closes what its element holds, but not across a table cell), so an unclosed
hidden element ends where a browser ends it, not at the document's end.
"""

from __future__ import annotations

import re

#: elements that hold nothing and have no end tag (html_text reads them too)
VOID = {"br", "hr", "img", "meta", "link", "input", "area", "base", "col", "embed", "param", "source", "wbr"}
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
#: how far back a tag looks for what it closes: a constant bound, so hostile nesting costs no more per tag than mail does
_LOOK_BACK = 32
_STYLE_COLOR = re.compile(r"(?:^|;)\s*color\s*:\s*([^;!]{1,40})", re.I)
#: end tags of these close elements opened inside a cell; any other end tag stops at the cell (a browser ignores it)
_TABLE_SCOPE = {"td", "th", "table", "caption"}
_CLOSES_ACROSS_CELLS = {"td", "th", "tr", "table", "tbody", "thead", "tfoot", "caption", "body", "html"}
_STYLE_BACKGROUND = re.compile(r"background(?:-color|-image)?\s*:\s*([^;!]{1,200})", re.I)
_NO_PAINT = {"", "none", "transparent", "inherit", "initial", "unset", "white"}


def _white(value: str) -> bool:
    """A colour a reader cannot tell from a white page: white, or each channel at least 240 (#fefefe, #fff)."""
    v = value.strip().strip("\"'").lower()
    if v == "white":
        return True
    if v.startswith("#") and len(v) in (4, 7) and all(c in "0123456789abcdef" for c in v[1:]):
        channels = [v[1:][i] * 2 for i in range(3)] if len(v) == 4 else [v[1:][i:i + 2] for i in (0, 2, 4)]
        return all(int(c, 16) >= 240 for c in channels)
    if v.startswith("rgb(") and v.endswith(")"):
        parts = [p.strip() for p in v[4:-1].split(",")]
        return len(parts) == 3 and all(p.isascii() and p.isdigit() and int(p) >= 240 for p in parts)
    return False


def _paints(value: str) -> bool:
    """Does a ``bgcolor`` or background value paint something a white text could stand out on?"""
    v = value.strip().strip("\"'").lower()
    return "url(" in v or (v not in _NO_PAINT and not _white(v))


def _looks(tag: str, attrs: list[tuple[str, str | None]]) -> tuple[bool, bool, bool | None]:
    """(hidden by style or attribute, paints a background, its text colour is white: None where it sets none)."""
    hidden = paints = False
    white: bool | None = None
    for key, value in attrs:
        if value is None:
            hidden |= key == "hidden"
            continue
        if key == "hidden":
            hidden |= value.strip().lower() in ("", "hidden")  # not "until-found": a search shows it
        elif key == "style":
            hidden |= _HIDDEN_STYLE.search(value) is not None
            paints |= any(_paints(m.group(1)) for m in _STYLE_BACKGROUND.finditer(value))
            colours = _STYLE_COLOR.findall(value)
            white = _white(colours[-1]) if colours else white  # the last declaration wins
        elif key == "bgcolor":
            paints |= _paints(value)
        elif key == "background":
            paints |= bool(value.strip())  # an image behind the element
        elif key == "color" and tag == "font" and white is None:  # browsers read the attribute on <font> only
            white = _white(value)
    return hidden, paints, white


class Visibility:
    """The open elements of a document being read, and whether the text at this point is hidden (module docstring).
    ``sheet``: the document's style sheet may paint backgrounds (white text is then never blanked)."""

    def __init__(self, sheet: bool = False) -> None:
        self.open: list[str] = []
        #: per open element: (it or an element around it paints a background, its text is white)
        self.looks: list[tuple[bool, bool]] = []
        self.hidden_at: int | None = None
        self.sheet = sheet

    @property
    def hides(self) -> bool:
        return self.hidden_at is not None

    @property
    def blank(self) -> bool:
        """Is text here white on the white page (its letters not shown)?"""
        if self.sheet or not self.looks:
            return False
        painted, white = self.looks[-1]
        return white and not painted

    def start(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._implied_ends(tag)
        if tag in VOID or len(self.open) >= _MAX_OPEN:
            return
        hidden, paints, white = _looks(tag, attrs) if attrs else (False, False, None)
        painted_around, white_around = self.looks[-1] if self.looks else (False, False)
        if self.hidden_at is None and hidden:
            self.hidden_at = len(self.open)
        self.open.append(tag)
        self.looks.append((paints or painted_around, white_around if white is None else white))

    def end(self, tag: str) -> bool:
        """Close ``tag``; whether it was hidden (inside, or itself, the hidden element)."""
        for i in range(len(self.open) - 1, max(-1, len(self.open) - 1 - _LOOK_BACK), -1):
            if self.open[i] == tag:
                was = self.hidden_at is not None and i >= self.hidden_at
                self._close_from(i)
                return was
            if self.open[i] in _TABLE_SCOPE and tag not in _CLOSES_ACROSS_CELLS:
                break  # a stray </font> inside a cell closes nothing outside it
        return self.hides  # an end tag with nothing to close

    def _close_from(self, i: int) -> None:
        del self.open[i:], self.looks[i:]
        if self.hidden_at is not None and len(self.open) <= self.hidden_at:
            self.hidden_at = None

    def _implied_ends(self, tag: str) -> None:
        last = max(-1, len(self.open) - 1 - _LOOK_BACK)
        if tag in _CLOSES_P:
            for i in range(len(self.open) - 1, last, -1):
                if self.open[i] == "p":
                    self._close_from(i)
                    break
                if self.open[i] not in _INLINE:
                    break
        elif tag in _CLOSES_SIBLING:
            closes, bounds = _CLOSES_SIBLING[tag]
            for i in range(len(self.open) - 1, last, -1):
                if self.open[i] in closes:
                    self._close_from(i)
                    break
                if self.open[i] in bounds:
                    break
