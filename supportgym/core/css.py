"""CSS as a mail client applies it to a reply's text: whether the text can be read (colour blended by opacity against
its background, size, how far margins pull it), and whether a style hides it, moves it, clips it, reorders it or adds
text of its own.

A style the reading cannot work out (an escape, an unknown colour, a computed value) counts as hiding: the graders fail
closed on it (markup.py). Inline styles, presentational attributes and a document's style sheets are read. Sheets are
parsed by tinycss2 and their selectors by cssselect (both maintained libraries) and matched here against the element
and its ancestors, in cascade order: specificity, then document order ("@layer" fails closed), the inline style, the
sheets' "!important" declarations, the inline style's own. Rules of a moment (":hover", ":visited") and print media
never apply; rules under another media query, a dark scheme or "@supports", and selectors whose match is not worked out
(siblings, positions), apply in a second reading of the document (markup.py), and text either reading hides counts as
hidden. (Red teams of 5 Dec, 32nd session: only class and id rules had applied, to every element with a class; then
every rule by its subject alone, which both hid honest templates' text and let a more specific rule's white text read
black.)
"""

from __future__ import annotations

import colorsys
import json
import re
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

import cssselect
import tinycss2

#: valid display values: one but none overrides the [hidden] attribute's display:none ("display:hidden" does not)
_DISPLAYS = frozenset(("none", "block", "inline", "inline-block", "flex", "inline-flex", "grid", "inline-grid", "contents",
                       "table", "list-item", "flow-root", "inherit", "initial", "unset", "revert"))

_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)")
def _hex(h: str) -> tuple[int, int, int]:
    return int(h[1:3], 16), int(h[3:5], 16), int(h[5:7], 16)


#: the CSS named colours; "inherit" and "currentcolor" are the text's own, and a system colour other than Canvas and
#: CanvasText (Field, Window, ButtonFace ...) depends on the reader's system: unknowable (red team of 5 Dec, 32nd
#: session: "cyan", "khaki" and system colours read as the text's own)
_NAMED: dict[str, tuple[int, int, int] | None] = {
    **{k: _hex(v) for k, v in json.loads((Path(__file__).parent / "data" / "css_colours.json").read_text(
        encoding="utf-8"))["colours"].items()},
    "canvas": (255, 255, 255), "canvastext": (0, 0, 0), "initial": (0, 0, 0), "inherit": None, "currentcolor": None,
    "unset": None, "revert": None}
RGB = tuple[float, float, float]
#: default text colour and background of a mail client, and its font size (px)
INK, PAPER, FONT_PX = (0.0, 0.0, 0.0), (255.0, 255.0, 255.0), 16.0
#: what a reader cannot read: text under this size (px), under this opacity, under this contrast with its background
MIN_FONT_PX, MIN_OPACITY, MIN_CONTRAST = 6.0, 0.3, 1.5


class Unknowable(Exception):
    """A style the reader cannot work out (an escape, an unknown colour form): its text counts as hidden."""


def _colour(value: str) -> RGB | None | str:
    """An RGB colour, None for one that inherits, or "transparent" (alpha under MIN_OPACITY)."""
    v = value.strip().lower()
    if v in _NAMED:
        return _NAMED[v]
    if v == "transparent":
        return "transparent"
    if v.startswith("#") and len(v) in (4, 5, 7, 9) and all(c in "0123456789abcdef" for c in v[1:]):
        h = v[1:]
        digits = [h[i] * 2 for i in range(len(h))] if len(h) in (3, 4) else [h[i:i + 2] for i in range(0, len(h), 2)]
        if len(digits) == 4 and int(digits[3], 16) / 255 < MIN_OPACITY:
            return "transparent"
        return (float(int(digits[0], 16)), float(int(digits[1], 16)), float(int(digits[2], 16)))
    gradient = re.fullmatch(r"(?:repeating-)?(?:linear|radial|conic)-gradient\((.*)\)", v)
    if gradient:  # a gradient background: its last colour stop
        return _colour(re.split(r",(?![^(]*\))", gradient.group(1))[-1].split()[0])
    m = re.fullmatch(r"(rgba?|hsla?)\((.*)\)", v)
    if m is None:
        raise Unknowable(value)
    parts = [x for x in re.split(r"[\s,/]+", m.group(2).strip()) if x]
    if len(parts) not in (3, 4):
        raise Unknowable(value)

    def num(x: str, scale: float) -> float:
        return float(x[:-1]) * scale / 100 if x.endswith("%") else float(x.rstrip("deg"))
    try:
        if len(parts) == 4 and num(parts[3], 1.0) < MIN_OPACITY:
            return "transparent"
        if m.group(1).startswith("rgb"):
            return (num(parts[0], 255), num(parts[1], 255), num(parts[2], 255))
        h, sat, light = num(parts[0], 1) % 360 / 360, num(parts[1], 1), num(parts[2], 1)
    except ValueError as err:
        raise Unknowable(value) from err
    r, g, b = colorsys.hls_to_rgb(h, light, sat)
    return (r * 255, g * 255, b * 255)


def _luminance(c: RGB) -> float:
    def lin(x: float) -> float:
        x = min(max(x / 255, 0.0), 1.0)
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio of two colours (1: the same, 21: black on white)."""
    la, lb = sorted((_luminance(a), _luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def _px(value: str, parent_px: float) -> float:
    """A CSS length as px, relative to the parent's font size; raises Unknowable for a form not worked out."""
    v = value.strip().lower()
    keywords = {"xx-small": 9, "x-small": 10, "small": 13, "medium": 16, "large": 18, "x-large": 24, "xx-large": 32,
                "smaller": parent_px * 0.8, "larger": parent_px * 1.2, "inherit": parent_px, "initial": 16}
    if v in keywords:
        return float(keywords[v])
    m = _NUMBER.match(v)
    if m is None:
        raise Unknowable(value)
    n, unit = float(m.group(0)), v[m.end():].strip()
    scale = {"px": 1, "": 1, "pt": 4 / 3, "pc": 16, "em": parent_px, "rem": 16, "%": parent_px / 100,
             "ex": parent_px / 2, "ch": parent_px / 2, "in": 96, "cm": 37.8, "mm": 3.78, "q": 0.945,
             "vw": 6.4, "vh": 4.8, "vmin": 4.8, "vmax": 6.4}
    if unit not in scale:
        raise Unknowable(value)
    return n * scale[unit]


#: a custom property's use, with its fallback: ``var(--ink, #222)``
_VAR = re.compile(r"var\(\s*(--[\w-]+)\s*(?:,\s*((?:[^()]|\([^()]*\))*))?\)")
#: a declaration of a custom property, in an inline style or a style sheet: ``--ink: #fff``
_CUSTOM_DECLARATION = re.compile(r"(--[\w-]+)\s*:\s*([^;{}\"'<>]*)")
#: the document's custom properties: name -> value, or None where it is declared more than once (which one applies
#: where is not worked out: unknowable)
Custom = Mapping[str, "str | None"]
NO_CUSTOM: Custom = MappingProxyType({})


def custom_properties(found: list[tuple[str, str, bool]]) -> dict[str, str | None]:
    """The custom properties a document declares, from (name, value, declared for the whole document: ``:root``,
    ``html``, ``body``, ``*`` or their inline style) in document order (``:root{--brand:#0b5cff}``: an honest template's;
    review of 5 Dec, 32nd session). A name declared on another element, or twice with two values, is not worked out
    (which declaration a ``var()`` sees depends on where it is: sixth red team, "<span style='--ink:#111'></span>"
    read a white fallback as dark)."""
    out: dict[str, str | None] = {}
    for name, value, whole in found:
        name, value = name.lower(), value.strip().lower()
        out[name] = value if whole and (name not in out or out[name] == value) else None
    return out


def declared(style: str) -> list[tuple[str, str]]:
    """The custom properties an inline style declares."""
    return [(m.group(1), m.group(2)) for m in _CUSTOM_DECLARATION.finditer(style)]


_WHOLE_DOCUMENT = frozenset((":root", "html", "body", "*"))


def sheet_custom_properties(css: str) -> list[tuple[str, str, bool]]:
    """The custom properties a style sheet declares, each with whether its rule is for the whole document."""
    out = []
    for node in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True):
        if type(node).__name__ == "QualifiedRule":
            whole = all(x.strip().lower() in _WHOLE_DOCUMENT for x in tinycss2.serialize(node.prelude).split(","))
            out += [(name, value, whole) for name, value in declared(tinycss2.serialize(node.content))]
        elif type(node).__name__ == "AtRule" and node.content is not None:
            out += [(name, value, False) for name, value in declared(tinycss2.serialize(node.content))]
    return out


def _var(m: re.Match[str], custom: Custom) -> str:
    name, fallback = m.group(1).lower(), m.group(2)
    if name in custom:
        value = custom[name]
        if value is None or "var(" in value:
            raise Unknowable(m.group(0))
        return value
    return fallback or "inherit"


def _declarations(style: str, custom: Custom = NO_CUSTOM) -> list[tuple[str, str]]:
    """An inline style's (name, value) pairs, lower-cased, each ``var()`` read as the document's one declaration of it
    (``custom``), else its fallback, else unset (inherited)."""
    if "\\" in style or "expression(" in style.lower() or re.search(r"(?:^|;)\s*all\s*:", style, re.IGNORECASE):
        # CSS escapes ("display:n\one"), computed values and "all" (which resets everything) are not worked out here
        raise Unknowable(style)
    out = []
    for part in _CSS_COMMENT.sub("", style).split(";"):
        name, _, value = part.partition(":")
        name, value = name.strip().lower(), value.lower().replace("!important", "").strip()
        if not name or name.startswith("--"):
            continue
        if "var(" in value:
            value = _VAR.sub(lambda m: _var(m, custom), value).strip()
        if "url(" in value:
            raise Unknowable(style)  # an image, which may show any text (and a background one is no exception)
        out.append((name, value))
    return out


@dataclass(frozen=True)
class Look:
    """What an element's text looks like: its colour, the background under it, its font size and its opacity."""

    ink: RGB = INK
    paper: RGB = PAPER
    px: float = FONT_PX
    opacity: float = 1.0
    #: how far negative margins have pulled the text left, summed over its boxes (px): twelve boxes of -15px each
    #: moved it off the page, while each alone was layout (third red team of 5 Dec, 32nd session)
    drift: float = 0.0

    def readable(self) -> bool:
        # the ink as it shows: blended into the paper by the opacity ("#c0c0c0 at opacity 0.35" passed both tests apart)
        o = self.opacity
        shown = (self.ink[0] * o + self.paper[0] * (1 - o), self.ink[1] * o + self.paper[1] * (1 - o),
                 self.ink[2] * o + self.paper[2] * (1 - o))
        return (self.px >= MIN_FONT_PX and o >= MIN_OPACITY and contrast(shown, self.paper) >= MIN_CONTRAST
                and self.drift > -MAX_DRIFT_PX)


#: how far text may be pulled left by negative margins, summed, and still be read (px)
MAX_DRIFT_PX = 96.0


_LENGTH_KEYWORDS = frozenset(("auto", "inherit", "initial", "unset", "revert", "normal", "none", "each-line", "hanging"))


def _lengths(value: str, font_px: float) -> list[float]:
    """The lengths of a value of one or more ("0 0 0 -9999px"), in px, a percentage of a 600 px mail column;
    keywords ("auto") are none, and any other form ("calc(...)") is not worked out."""
    out = []
    for t in value.split():
        if t in _LENGTH_KEYWORDS:
            continue
        if not _NUMBER.match(t):
            raise Unknowable(value)
        out.append(float(t[:-1]) * 6 if t.endswith("%") else _px(t, font_px))
    return out


def _lengths_among(value: str, font_px: float) -> list[float]:
    """The lengths among a value's tokens, keywords and colours left out ("0.8em #fff", "ex-height 0.01")."""
    return _lengths(" ".join(t for t in re.sub(r"\([^)]*\)", " ", value).split() if _NUMBER.match(t)), font_px)


def _may_cover(decls: list[tuple[str, str]], font_px: float) -> bool:
    """Can the box be drawn over other text (an empty white box pulled up over a sentence hides it, text or not in the
    box)? Out of the flow, behind it, or moved further than a line: fail closed."""
    values = dict(decls)
    if values.get("position", "") in ("absolute", "fixed") or values.get("z-index", "").startswith("-"):
        return True
    # shadows and outlines drawn past the box ("box-shadow:-1em 0 0 1em #fff" over the word beside it; sixth red team)
    for name in ("box-shadow", "text-shadow", "outline", "outline-width", "outline-offset"):
        if name in values and values[name] not in ("none", "initial", "unset", "inherit", "0"):
            if any(abs(x) > font_px / 2 for x in _lengths_among(values[name], font_px)):
                return True
    # a box with a background moved at all, however little, may lie over the line beside it (fourth red team of
    # 5 Dec, 32nd session: "position:relative;left:-15px;background:#fff" over an 8px "not")
    painted = any(n.startswith("background") and v not in ("none", "transparent", "initial", "unset") for n, v in decls)
    if painted and (values.get("position", "") in ("relative", "sticky") and any(
            (n in ("left", "right", "top", "bottom") or n.startswith("inset")) and any(_lengths(v, font_px))
            for n, v in decls) or any(n.startswith("margin") and any(x < 0 for x in _lengths(v, font_px))
                                      for n, v in decls)):
        return True
    return any(name in ("transform", "translate", "-webkit-transform", "offset-path", "offset")
               and value not in ("none", "initial", "unset")
               or _moves_out_of_sight(name, value, font_px, values.get("position", "")) for name, value in decls)


def covers(style: str, custom: Custom) -> bool:
    """Does an element's style reach beyond its own text: a box drawn over others', or text of the writer's own
    ("quotes" on an empty <q>, generated content, a list marker)? Then every text of the document may read otherwise."""
    try:
        decls = _declarations(style, custom)
        return _may_cover(decls, FONT_PX) or _adds_text(decls) or any(
            name.startswith("list-style") and _marker_text(value) for name, value in decls)
    except Unknowable:
        return True  # not worked out: it may show or cover anything (an image in a background, a length in calc())


def _moves_out_of_sight(name: str, value: str, font_px: float, position: str) -> bool:
    """Does a declaration move or squeeze the text away? Small values are layout ("letter-spacing:-0.01em",
    "text-indent:1.5em", "position:relative;top:0", "margin:0 -2px": an honest HTML mail has them, review of 5 Dec,
    32nd session); large ones, and any offset of an element taken out of the flow, are how text is hidden."""
    if name == "text-indent":
        return any(abs(x) >= 6 * font_px for x in _lengths(value, font_px))
    if name == "letter-spacing":
        return any(x < -0.2 * font_px for x in _lengths(value, font_px))
    if name == "vertical-align":  # "vertical-align:-3000px" moves the word off the page
        return any(abs(x) > font_px for x in _lengths_among(value, font_px))
    if name.startswith("margin"):
        return any(x <= -font_px for x in _lengths(value, font_px))
    if (name in ("left", "right", "top", "bottom") or name.startswith("inset")) and position not in ("", "static"):
        if value in ("auto", "initial", "unset", "inherit"):
            return False
        lengths = _lengths(value, font_px)
        # an element taken out of the flow may be put anywhere, over other text too
        limit = 0.0 if position in ("absolute", "fixed") else font_px
        return any(abs(x) > limit for x in lengths)
    return False


def _clipped(decls: list[tuple[str, str]], font_px: float) -> bool:
    """A box that clips what overflows it, and is too low for its text ("max-height:1.3em;overflow:hidden" shows one
    line), or a line clamp; a width clips only unwrapped text ("white-space:nowrap")."""
    values = dict(decls)
    if any(n.endswith("line-clamp") for n in values):
        return True
    if values.get("contain", "").split(" ")[0] in ("size", "strict") or "size" in values.get("contain", "").split():
        return True  # a box sized as if empty
    if not any(values.get(n, "") in ("hidden", "clip") or values.get(n, "").startswith(("hidden ", "clip "))
               for n in ("overflow", "overflow-x", "overflow-y", "overflow-block", "overflow-inline")):
        return False
    if "text-indent" in values and values["text-indent"].startswith("-"):
        return True  # text pushed out of a box that clips it
    lh = values.get("line-height", "")
    if lh and _NUMBER.fullmatch(lh) and float(lh) < 0.4 or lh and not _NUMBER.fullmatch(lh) and lh not in _FREE_SIZES \
            and lh != "normal" and not lh.endswith("%") and _px(lh, font_px) < MIN_FONT_PX:
        return True  # lines too low for their text, in a box that clips them
    if any(n in values and values[n] not in _FREE_SIZES and not values[n].endswith("%")
           for n in ("height", "max-height", "block-size", "max-block-size")):
        return True
    # a box narrower than a word clips every line (third red team: "display:inline-block;width:6px;overflow:hidden")
    return any(n in values and values[n] not in _FREE_SIZES and not values[n].endswith("%")
               and _px(values[n], font_px) < 3 * font_px for n in ("width", "max-width", "inline-size", "max-inline-size"))


_FREE_SIZES = ("auto", "none", "initial", "unset", "inherit", "fit-content", "max-content")


def unwrapped_width(style: str, custom: Custom) -> float | None:
    """The width (px) of a box that clips a line it does not wrap ("white-space:nowrap;overflow:hidden;width:200px"):
    how much of its text shows depends on the text's length (markup.py measures it); None for any other box, and
    +inf for such a box whose width is not worked out (a percentage of a column: the line may be cut anywhere)."""
    try:
        values = dict(_declarations(style, custom))
    except Unknowable:
        return None
    if not (values.get("white-space", "").startswith(("nowrap", "pre")) or values.get("text-wrap", "") == "nowrap"):
        return None
    if not any(values.get(n, "").split(" ")[0] in ("hidden", "clip")
               for n in ("overflow", "overflow-x", "overflow-inline")):
        return None
    widths = [values[n] for n in ("width", "max-width", "inline-size", "max-inline-size")
              if n in values and values[n] not in _FREE_SIZES]
    if not widths:
        return float("inf") if "display" in values and "inline" not in values["display"] else None
    try:
        return min(float(w[:-1]) * 6 if w.endswith("%") else _px(w, FONT_PX) for w in widths)
    except Unknowable:
        return 0.0


#: fonts that draw pictures for letters
_SYMBOL_FONTS = re.compile(r"\b(?:webdings|wingdings\w*|symbol|zapf\s*dingbats|dingbats|marlett)\b")


def styled(style: str, parent: Look, custom: Custom = NO_CUSTOM) -> tuple[Look, bool]:
    """The element's look under its inline style, and whether the style hides its text outright (any hiding
    declaration counts, whatever comes after it: "display:none!important;display:inline" shows nothing).
    ``custom``: the document's custom properties (:func:`custom_properties`)."""
    ink, paper, px, opacity, drift = parent.ink, parent.paper, parent.px, parent.opacity, parent.drift
    current_background = False
    try:
        decls = _declarations(style, custom)
        position = dict(decls).get("position", "")
        if _clipped(decls, max(px, FONT_PX)):
            return parent, True
        for name, value in decls:
            if ((name == "display" and value == "none") or (name == "visibility" and value in ("hidden", "collapse"))
                    or (name == "content-visibility" and value == "hidden")
                    or (name == "text-decoration" or name == "text-decoration-line") and "line-through" in value
                    or (name in ("clip", "clip-path", "filter", "transform", "scale", "translate", "rotate", "zoom",
                                 "perspective", "-webkit-transform") or name.startswith(("mask", "-webkit-mask")))
                    and value not in ("none", "initial", "unset", "auto", "normal", "1")
                    # "0" is no change of place or angle, but a scale or zoom of 0 draws nothing (34th session)
                    and not (value == "0" and name not in ("scale", "zoom"))
                    # text of the writer's own that is no text of the element: generated content, quotation marks
                    # ("quotes" on a <q>), a list marker ("list-style-type:'We refunded you'"; a "✓ " is none)
                    or name in ("content", "quotes") and _shows_text(value)
                    or name.startswith("list-style") and _marker_text(value)
                    # text drawn in another order than written: "<span style='unicode-bidi:bidi-override;
                    # direction:rtl'>ton</span>" shows "not", and so do reordered boxes ("order", "row-reverse",
                    # floats, grid placement) of words
                    or name == "unicode-bidi" and "override" in value
                    or name == "direction" and value == "rtl"
                    or name == "order" and value not in ("0", "initial", "unset", "inherit")
                    or name in ("flex-direction", "flex-flow") and "reverse" in value
                    # (a floated column of a set width is layout: a two-column signature, review of 5 Dec)
                    or name == "float" and value not in ("none", "initial", "unset", "inherit") and not any(
                        n in ("width", "max-width", "inline-size", "max-inline-size") for n, _ in decls)
                    or name.startswith("grid-") and name not in ("grid-gap", "grid-column-gap", "grid-row-gap")
                    and value not in ("auto", "initial", "unset", "inherit", "none")
                    # fonts that draw symbols for letters, and a size adjusted out of sight
                    or name in ("font-family", "font") and _SYMBOL_FONTS.search(value) is not None
                    or name == "font-size-adjust" and any(float(x) < 0.3 for x in _NUMBER.findall(value))
                    or name in ("-webkit-text-stroke", "-webkit-text-stroke-width")
                    and any(_lengths_among(value, max(px, FONT_PX)))
                    # text painted with its background, or drawn as dots
                    or name in ("background-clip", "-webkit-background-clip") and "text" in value
                    or name == "-webkit-text-security" and value not in ("none", "initial", "unset")
                    or name == "mso-hide" and value == "all"
                    or _moves_out_of_sight(name, value, max(px, FONT_PX), position)
                    or name in ("height", "max-height", "width", "max-width", "line-height", "inline-size",
                                "max-inline-size", "block-size", "max-block-size")
                    and not any(w in value for w in ("%", "auto", "none", "normal"))
                    and not (name == "line-height" and re.fullmatch(r"[\d.]+", value))  # a multiple of the font
                    and _px(value, max(px, FONT_PX)) < MIN_FONT_PX):
                return parent, True
            if name in ("margin", "margin-left", "margin-inline-start", "margin-inline"):
                lengths = _lengths(value, max(px, FONT_PX))
                left = lengths[3 if len(lengths) == 4 else 1 if len(lengths) in (2, 3) else 0] if name == "margin" and \
                    lengths else (lengths[0] if lengths else 0.0)
                drift += min(left, 0.0)
            if name == "opacity":
                opacity *= float(value[:-1]) / 100 if value.endswith("%") else float(value)
            elif name in ("color", "-webkit-text-fill-color"):
                c = _colour(value)
                if c == "transparent":
                    return parent, True
                if c is not None:
                    ink = c  # type: ignore[assignment]
            elif name in ("background-color", "background", "background-image") and "currentcolor" in value.split():
                current_background = True  # a bar of the text's own colour under it
            elif name in ("background-color", "background", "background-image"):
                c = _background(value)
                if c not in (None, "transparent"):
                    paper = c  # type: ignore[assignment]
            elif name == "font-size":
                px = _px(value, parent.px)
            elif name == "font":
                sizes = [t.split("/")[0] for t in value.split() if _NUMBER.match(t.split("/")[0] or "x")]
                if sizes:
                    px = _px(sizes[0], parent.px)
    except (Unknowable, ValueError):
        return parent, True
    return Look(ink, ink if current_background else paper, px, opacity, drift), False


def _background(value: str) -> RGB | None | str:
    """The colour of a ``background`` shorthand: its colour token, wherever it stands ("no-repeat center #fff"); None
    where it names none."""
    if value.startswith(("linear-", "radial-", "conic-", "repeating-")):
        return _colour(value)
    for token in re.split(r"\s+(?![^(]*\))", value):
        if token.startswith(("#", "rgb", "hsl")) or token in _NAMED or token == "transparent" or "gradient(" in token:
            return _colour(token)
    return None


#: presentational attributes read as the style they are: <font color>, a table's bgcolor, the colour <body text=...>
#: gives all the text
_ATTRIBUTE_STYLE = (("color", "color"), ("bgcolor", "background-color"), ("text", "color"))


def attribute_look(tag: str, a: dict[str, str], look: Look) -> tuple[Look, bool]:
    """The look of presentational attributes, on the elements a browser reads them on (a "color" on a <span> is
    nothing: fifth red team of 5 Dec)."""
    css = ";".join(f"{prop}:{a[attr]}" for attr, prop in _ATTRIBUTE_STYLE
                   if a.get(attr) and tag in _TAKES[attr])
    return styled(css, look) if css else (look, False)


_TAKES = {"color": frozenset(("font", "basefont")), "text": frozenset(("body",)),
          "bgcolor": frozenset(("body", "table", "tr", "td", "th", "thead", "tbody", "tfoot"))}


def displayed(style: str) -> bool:
    """Does an inline style show what the hidden attribute hides? Its last valid display value does, unless it is
    none ("--display:block" is a custom property and "display:hidden" an invalid value: neither shows it)."""
    try:
        values = [v for n, v in _declarations(style) if n == "display" and v in _DISPLAYS]
    except Unknowable:
        return False
    return bool(values) and values[-1] != "none"




#: pseudo-classes of a moment (a pointer over the text, a link once visited) and print media: not what a reader
#: sees reading the mail, so never applied (a red team of 5 Dec, 32nd session hid a "not" with ".n{color:#fff}
#: .n:hover{color:#000}"; an honest template's "a:hover{color:#fff}" wiped the reply when applied)
_MOMENTARY = frozenset(("hover", "focus", "focus-within", "focus-visible", "active", "visited", "target", "checked",
                        "indeterminate", "default", "placeholder-shown", "autofill"))


class Node(NamedTuple):
    """An element as a selector sees it."""

    tag: str
    classes: frozenset[str]
    id: str | None
    attrs: Mapping[str, str]


#: attributes HTML compares without case in selectors ("[lang=EN]" matches lang="en")
_CASELESS_ATTRIBUTES = frozenset(("lang", "type", "dir", "align", "valign", "charset", "method", "target", "rel", "rev",
                                  "media", "scope", "shape", "nowrap", "checked", "disabled", "selected", "face",
                                  "color", "bgcolor", "text", "link", "vlink", "alink", "clear", "frame", "rules"))


def _attrib(op: str, have: str, want: str) -> bool:
    return {"=": have == want, "~=": want in have.split(), "|=": have == want or have.startswith(want + "-"),
            "^=": bool(want) and have.startswith(want), "$=": bool(want) and have.endswith(want),
            "*=": bool(want) and want in have, "!=": have != want}.get(op, False)


def _both(a: bool | None, b: bool | None) -> bool | None:
    """Three-valued "and": None where it is not worked out (a sibling, a child's position)."""
    if a is False or b is False:
        return False
    return None if a is None or b is None else True


#: an element's ancestors, nearest first, as linked pairs (node, its own ancestors): a tree thousands deep shares them
Path = tuple[Node, "Path"] | None


class TooCostly(Exception):
    """Matching the sheets' selectors went past :data:`MATCH_BUDGET` steps: the reading fails closed (markup.py)."""


#: selector steps one reading of a document may take ("<style>.z i i{...}</style>" over 900 nested <i> took 62 s an
#: inbox step, each compound re-walking every ancestor: fifth red team of 5 Dec, 32nd session); twenty honest mail
#: templates (Outlook, Gmail, MJML, Mailchimp, Zendesk ...) took at most 384
MATCH_BUDGET = 20_000


class Matcher:
    """Matches selectors for one reading of a document: each (selector part, element) is worked out once, and the
    steps are bounded."""

    def __init__(self) -> None:
        self.steps = 0
        self._seen: dict[tuple[int, int, int], bool | None] = {}
        self._kept: list[Any] = []  # what the keys' ids name, alive while they are keys (ids are reused once freed)

    def __call__(self, tree: Any, node: Node, path: Path) -> bool | None:
        key = (id(tree), id(path), id(node))
        if key in self._seen:
            return self._seen[key]
        self.steps += 1
        if self.steps > MATCH_BUDGET:
            raise TooCostly
        self._kept.append((path, node))
        out = self._seen[key] = _match(tree, node, path, self)
        return out

    def ancestor(self, tree: Any, path: Path) -> bool | None:
        """Does an element of ``path`` match ``tree``: the nearest, else one of its own ancestors (worked out once per
        element of the path, so that a descendant selector costs the tree's depth once, not at every element)."""
        found: bool | None = False
        pending: list[Path] = []
        up = path
        while up is not None:  # the nearest ancestors not yet worked out, then the answer of the first that was
            key = (id(tree), id(up), -1)
            if key in self._seen:
                found = self._seen[key]
                break
            pending.append(up)
            up = up[1]
        for cell in reversed(pending):
            assert cell is not None
            here = self(tree, cell[0], cell[1])
            found = True if here or found is True else None if here is None or found is None else False
            self._seen[(id(tree), id(cell), -1)] = found
        return found


def _match(tree: Any, node: Node, path: Path, m: Matcher) -> bool | None:
    """Does a parsed selector (cssselect's tree) match ``node`` (with its ancestors ``path``)? None where the reading
    does not work it out: siblings and positions (":first-child", "+", "~"), ":has()"."""
    kind = type(tree).__name__
    if kind == "Element":
        if tree.namespace not in (None, "*"):
            return False  # a namespaced selector ("x|span", "|span") matches no element of a mail's HTML
        return tree.element in (None, "*") or tree.element.lower() == node.tag
    if kind == "Class":
        return _both(m(tree.selector, node, path), tree.class_name in node.classes)
    if kind == "Hash":
        return _both(m(tree.selector, node, path), tree.id == node.id)
    if kind == "Attrib":
        name = tree.attrib.lower()
        have = node.attrs.get(name)
        want = tree.value.value if tree.value is not None else ""
        if have is not None and (tree.flag == "i" or name in _CASELESS_ATTRIBUTES and tree.flag != "s"):
            have, want = have.casefold(), want.casefold()
        ok = have is not None and (tree.operator == "exists" or _attrib(tree.operator, have, want))
        return _both(m(tree.selector, node, path), ok)
    if kind == "Pseudo":
        ident = tree.ident.lower()
        here = m(tree.selector, node, path)
        if ident in _MOMENTARY:
            return False
        if ident == "root":
            return _both(here, node.tag == "html")
        if ident in ("link", "any-link"):
            return _both(here, node.tag in ("a", "area") and "href" in node.attrs)
        return _both(here, None)
    if kind == "Negation":
        inner = m(tree.subselector, node, path)
        return _both(m(tree.selector, node, path), None if inner is None else not inner)
    if kind in ("Matching", "SpecificityAdjustment"):
        each = [m(s, node, path) for s in tree.selector_list]
        any_of = True if True in each else None if None in each else False
        return _both(m(tree.selector, node, path), any_of)
    if kind == "CombinedSelector":
        here = m(tree.subselector, node, path)
        if here is False:
            return False
        if tree.combinator == ">":
            return _both(here, m(tree.selector, path[0], path[1]) if path else False)
        if tree.combinator == " ":
            return _both(here, m.ancestor(tree.selector, path))
        return _both(here, None)  # "+" and "~": siblings are not worked out
    return _both(m(getattr(tree, "selector", None), node, path), None) if hasattr(tree, "selector") else None


class _Rule(NamedTuple):
    selector: Any
    #: (ids, classes, types), then the document order
    rank: tuple[int, int, int, int]
    decls: str
    #: its "!important" declarations: after the inline style (third red team of 5 Dec, 32nd session)
    important: str
    #: it applies only under a condition the reading does not know (a media query other than screen, a dark scheme,
    #: "@supports"): weighed in the second reading of the document (markup.py), not the first
    conditional: bool


@dataclass(frozen=True)
class Sheet:
    """A document's style sheets as the reading applies them (:func:`parse_sheet`). ``anything``: a rule whose effect is
    not worked out here hides or adds text (generated content, a pseudo-element that hides, a box that may cover
    others, "@counter-style"): every text of the document counts as hidden."""

    rules: tuple[_Rule, ...] = ()
    anything: bool = False

    def matching(self, node: Node, path: Path, conditions: bool, matcher: Matcher) -> list[_Rule]:
        """The rules that apply to an element, in cascade order: those that surely match; with ``conditions``, also
        those that match under a condition or may match (a sibling, a position)."""
        out = []
        for rule in self.rules:
            if rule.conditional and not conditions:
                continue
            hit = matcher(rule.selector, node, path)
            if hit or (hit is None and conditions):
                out.append(rule)
        return sorted(out, key=lambda r: r.rank)


def parse_sheet(css: str, custom: Custom, start: int = 0) -> Sheet:
    """A ``<style>`` element's rules (``start``: the document order of its first rule), parsed by tinycss2 and their
    selectors by cssselect."""
    rules: list[_Rule] = []
    anything = False

    def walk(nodes: list[Any], conditional: bool) -> None:
        nonlocal anything
        for node in nodes:
            kind = type(node).__name__
            if kind == "AtRule":
                keyword, prelude = node.lower_at_keyword, tinycss2.serialize(node.prelude).strip().lower()
                if keyword in ("counter-style", "property", "layer"):
                    # list markers of its own; a property's initial value; layers, whose order (and reversed order for
                    # "!important") is not worked out here (fifth red team of 5 Dec, 32nd session)
                    anything = True
                elif keyword == "import" and not FONT_SHEET.search(prelude):
                    anything = True  # a sheet not read here ("@import url(data:...)"); a web font's sheet holds no rule
                elif keyword == "font-face" and node.content is not None and re.search(
                        r"size-adjust|-override", tinycss2.serialize(node.content), re.IGNORECASE):
                    anything = True  # a font drawn at 1% ("size-adjust:1%"; sixth red team of 5 Dec, 32nd session)
                elif node.content is not None and keyword in ("media", "supports", "container", "scope", "document",
                                                               "starting-style"):
                    if keyword == "media" and media_never(prelude):
                        continue
                    inner = tinycss2.parse_rule_list(node.content, skip_comments=True, skip_whitespace=True)
                    walk(inner, conditional or not (keyword == "media" and media_always(prelude)))
                continue  # "@import", "@font-face", "@keyframes", "@page", "@charset": nothing of the text's
            if kind != "QualifiedRule":
                continue
            if any(type(t).__name__ == "CurlyBracketsBlock" for t in node.content):
                anything = True  # CSS nesting (".a { & .b {...} }"): not worked out here
                continue
            decls = [d for d in tinycss2.parse_declaration_list(node.content, skip_comments=True, skip_whitespace=True)
                     if type(d).__name__ == "Declaration"]
            normal = ";".join(f"{d.lower_name}:{tinycss2.serialize(d.value)}" for d in decls if not d.important)
            important = ";".join(f"{d.lower_name}:{tinycss2.serialize(d.value)}" for d in decls if d.important)
            both = ";".join(x for x in (normal, important) if x)
            look, hides = styled(both, Look(), custom)
            try:
                parsed = _declarations(both, custom)
                moves = _may_cover(parsed, FONT_PX)
            except Unknowable:
                parsed, moves = [], True
            if moves:
                anything = True
                continue
            try:
                selectors = cssselect.parse(tinycss2.serialize(node.prelude))
            except cssselect.SelectorError:
                anything = anything or _restyles(parsed)  # a selector not read: fail closed where it may matter
                continue
            for sel in selectors:
                if sel.pseudo_element is not None:
                    # a box of its own (::before, ::after, ::marker): fail closed where it shows text; a part of the
                    # element's text (::first-line, ::first-letter ...): where it may hide or colour it
                    # ("div::first-line{color:#000}" on a black box; fifth red team of 5 Dec, 32nd session)
                    own_box = sel.pseudo_element.lower() in ("before", "after", "marker")
                    anything = anything or _adds_text(parsed) or (not own_box and _restyles(parsed))
                    continue
                order = len(rules) + start
                rules.append(_Rule(sel.parsed_tree, (*sel.specificity(), order), normal, important, conditional))

    walk(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True), False)
    return Sheet(tuple(rules), anything)


#: a web font's style sheet (it declares fonts, not rules for the mail's elements)
FONT_SHEET = re.compile(r"fonts\.googleapis\.com|fonts\.bunny\.net|use\.typekit\.net|fonts\.cdnfonts\.com")
#: declarations that change how text looks or whether it shows (the rest is layout: margins, padding, borders,
#: alignment, font families)
_LOOK_PROPERTIES = re.compile(r"^(?:color|-webkit-text-fill-color|background|opacity|font|visibility|display|content|"
                              r"quotes|filter|clip|mask|transform|translate|scale|rotate|text-indent|letter-spacing|"
                              r"all|position|z-index|height|max-height|width|max-width|overflow|line-height|"
                              r"-webkit-text-security|mix-blend-mode|text-shadow|-webkit-background-clip|-webkit-mask|zoom)")


def _restyles(decls: list[tuple[str, str]]) -> bool:
    return any(_LOOK_PROPERTIES.match(name) for name, _ in decls)


def media_never(query: str) -> bool:
    """A media query no mail reader's screen matches: print only."""
    return bool(re.fullmatch(r"(?:only\s+)?print", query.strip()))


def media_always(query: str) -> bool:
    """A media query every screen matches: none, "all", "screen" (with nothing after them)."""
    return bool(re.fullmatch(r"(?:only\s+)?(?:all|screen)?", query.strip()))


def _adds_text(decls: list[tuple[str, str]]) -> bool:
    """Does a pseudo-element's ``content`` (or a ``quotes`` value) show text ("" and none show nothing)?"""
    return any(name in ("content", "quotes") and _shows_text(value) for name, value in decls)


def _marker_text(value: str) -> bool:
    """A list marker of the writer's own words ("list-style-type:'We refunded you '"; a "✓ " shows none)."""
    strings = re.findall(r"\"([^\"]*)\"|'([^']*)'", value)
    return any(_shows_text(a or b) for a, b in strings)


def _shows_text(value: str) -> bool:
    return value not in ("none", "normal", "initial", "unset", "inherit", "auto", "") and (
        any(c.isalnum() for c in re.sub(r"^(?:open|close|no-open|no-close)-quote$", "", value))
        or "attr(" in value or "counter" in value or "url(" in value)


def merge(sheets: list[Sheet]) -> Sheet:
    return Sheet(tuple(r for s in sheets for r in s.rules), any(s.anything for s in sheets))
