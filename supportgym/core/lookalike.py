"""Letters of other scripts that render like Latin letters, and text as a reader sees it.

Graders match words; a reader sees glyphs. "no\u200bt" (a zero-width space) and "nоt" (Cyrillic о) read as
"not" to a person and as something else to a pattern, and so do "no<b></b>t" and "no**t**" in a client that
renders HTML or markdown (:func:`rendered`). Both graders clean a reply before reading it: the
ticket graders with the full clean-up of ``envs/ticket/grading/textnorm.py`` (which also folds accents), the
inbox reply score with :func:`readable`, which keeps accents (its markers and language lists hold them).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

#: Unicode TR39 confusables of the Latin letters (lower- and upper-case targets), single code points
LOOKALIKE: dict[str, str] = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i", "ј": "j", "к": "k", "ӏ": "l", "м": "m",
    "о": "o", "р": "p", "ԛ": "q", "с": "c", "ѕ": "s", "т": "t", "у": "y", "ү": "y", "ѵ": "v", "ԝ": "w", "х": "x",
    "ԁ": "d", "ь": "b", "ɡ": "g", "п": "n", "г": "r",
    "А": "A", "В": "B", "Е": "E", "Ѕ": "S", "І": "I", "Ј": "J", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
    "Ԛ": "Q", "С": "C", "Т": "T", "У": "Y", "Ү": "Y", "Х": "X", "Ԝ": "W", "Ӏ": "l",
    # Greek
    "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "ϲ": "c",
    "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϳ": "j", "ɩ": "i",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P",
    "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C",
    # Armenian
    "ա": "w", "գ": "q", "զ": "q", "հ": "h", "ո": "n", "ռ": "n", "ս": "u", "ց": "g", "օ": "o", "լ": "l",
    "Ս": "U", "Օ": "O", "Լ": "L",
    # Cherokee (capitals that look like Latin capitals)
    "Ꭺ": "A", "Ᏼ": "B", "Ꮯ": "C", "Ꭰ": "D", "Ꭼ": "E", "Ꮐ": "G", "Ꮋ": "H", "Ꭵ": "i", "Ꭻ": "J", "Ꮶ": "K",
    "Ꮮ": "L", "Ꮇ": "M", "Ꮲ": "P", "Ꮪ": "S", "Ꭲ": "T", "Ꮩ": "V", "Ꮃ": "W", "Ꮓ": "Z",
}

#: digits written for the letters they look like ("n0t", "st0re", "r3funded"): both graders read them back
LEET_LETTERS = str.maketrans("013457", "oleast")

#: characters that render as nothing although their category is a letter or a symbol: the Hangul fillers,
#: the braille blank and the musical null notehead
BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\U0001d159")
_WORD = re.compile(r"\w+")


def _map_word(m: re.Match[str]) -> str:
    word = m.group(0)
    if word.isascii():
        return word
    # a word of another script ("Спасибо") is left as written; one that mixes in Latin letters, or is spelled with
    # look-alikes only ("оur", "по"), is Latin text in disguise
    word = "".join(_variant(c) for c in word)
    if any("a" <= c.lower() <= "z" for c in word) or all(c in _READS_AS or c.isdigit() for c in word):
        return "".join(_READS_AS.get(c, c) for c in word)
    return word


#: a span forced right-to-left: shown reversed, up to its pop, the end of the isolate it is in or the end of the line
#: ("\u2067\u202eton\u2069" shows "not": red team of 5 Dec, 32nd session)
_RLO_SPAN = re.compile("\u202e([^\u202c\u2069\n\u2029]*)[\u202c\u2069]?")
#: control characters, shown as nothing ("no\x7ft" reads "not"); a vertical tab and a form feed as a line end
_CONTROL = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f]")
_CONTROL_BREAK = re.compile("[\x0b\x0c]")
_ANY_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
#: letters drawn in a circle or a square, or raised or lowered ("ⓝⓞⓣ", "🅽🅾🆃", "ⁿᵒᵗ"): the letter they draw
_DRAWN = re.compile(r"^(?:NEGATIVE )?(?:CIRCLED|SQUARED|PARENTHESIZED) LATIN (SMALL|CAPITAL) LETTER ([A-Z])$"
                    r"|^MODIFIER LETTER (SMALL|CAPITAL) ([A-Z])$|^(?:LATIN )?(?:SUB|SUPER)SCRIPT (?:LATIN )?(SMALL) LETTER ([A-Z])$")
_DRAWN_AS = re.compile(r"^LATIN (SMALL|CAPITAL) LETTER (?:SIDEWAYS |BARRED |TURNED |REVERSED |CLOSED |OPEN |BROKEN )?"
                       r"([A-Z])(?: WITH (?:STROKE|BAR|HOOK|LONG RIGHT LEG|RETROFLEX HOOK|MIDDLE TILDE|TOPBAR|CURL|"
                       r"DESCENDER|PALATAL HOOK|DIAGONAL STROKE|LOW RIGHT RING|SWASH TAIL|TAIL|LEFT HOOK|DOUBLE BAR)"
                       r"(?: AND .+)?)?$"
                       # of other scripts only letters drawn as a Latin one: a Cyrillic "и" is no "i"
                       r"|^(?:CYRILLIC (SMALL|CAPITAL) LETTER BARRED|OSAGE (?:SMALL|CAPITAL) LETTER) (O)$")
_VARIANT_NAME = re.compile(r"^(?:LATIN LETTER SMALL CAPITAL|LATIN SMALL LETTER DOTLESS|(?:MATHEMATICAL )?(?:SCRIPT|"
                           r"DOUBLE-STRUCK|BLACK-LETTER) (SMALL|CAPITAL)) ([A-Z])$")
#: letters the reply reader also maps: Coptic and Lisu letters drawn like Latin ones (the ticket graders fail closed
#: on them instead: textnorm.unreadable_words)
_READS_AS = {**LOOKALIKE, "ɔ": "o", "ɛ": "e", "ʊ": "u", "ɑ": "a", "ⲟ": "o", "Ⲟ": "O", "ⲣ": "p", "Ⲣ": "P", "ⲥ": "c", "Ⲥ": "C", "ⲭ": "x", "Ⲭ": "X",
             **dict(zip("ꓮꓐꓚꓓꓰꓝꓖꓧꓲꓙꓗꓡꓟꓠꓳꓑꓣꓢꓔꓴꓦꓪꓫꓬꓜ", "ABCDEFGHIJKLMNOPRSTUVWXYZ"))}


@lru_cache(maxsize=4096)
def _variant(c: str) -> str:
    """The plain letter a small capital, script, double-struck or black-letter letter draws ("ᴏ", "ℯ"), a Roman
    numeral's letters ("ⅾ"); anything else as it is."""
    if c.isascii():
        return c
    if "\u2160" <= c <= "\u217f":
        return unicodedata.normalize("NFKC", c)
    name = unicodedata.name(c, "")
    m = _VARIANT_NAME.match(name)
    if m is not None:
        return m.group(2) if m.group(1) == "CAPITAL" else m.group(2).lower()
    # a letter drawn as another one with a stroke, a bar, a hook or turned ("ø", "ł", "ŧ", "ƞ", "ɳ", "ɵ", "ө", "ᴑ",
    # Osage "𐓪"; red team of 5 Dec, 32nd session: "nøt", "støp" read as other words). Not an accent of the five
    # languages: those decompose ("é" is "e" + U+0301) and stay as written
    m = _DRAWN_AS.match(name)
    if m is None or unicodedata.decomposition(c):
        return c
    if m.group(2):
        return m.group(2) if m.group(1) == "CAPITAL" else m.group(2).lower()
    return "O" if m.group(3) == "CAPITAL" or "CAPITAL" in name else "o"


@lru_cache(maxsize=4096)
def _plain(ch: str) -> str:
    # fullwidth forms, mathematical letters and digits, and letters drawn circled, squared, raised or lowered only:
    # NFKC on all text would also turn the "º" of "nº" into "o" (a negation), "m²" into "m2" and "½" into "1⁄2", which
    # the email's own facts do not do (review of 4 Dec)
    o = ord(ch)
    if 0xFF01 <= o <= 0xFF5E or 0x1D400 <= o <= 0x1D7FF:
        return unicodedata.normalize("NFKC", ch)
    if ch in BLANK:
        return " "  # a blank letter shows as a space: "not\u2800our" reads "not our", not "notour"
    m = _DRAWN.match(unicodedata.name(ch, "")) if o >= 0x2B0 else None
    if m is None:
        return ch
    case, letter = next((g, m.group(i + 2)) for i, g in enumerate(m.groups()) if g in ("SMALL", "CAPITAL"))
    return letter.lower() if case == "SMALL" else letter


def _latin(ch: str) -> bool:
    return ch.isascii() or ch in LOOKALIKE or unicodedata.name(ch, "").startswith("LATIN ")


def _unmarked(text: str) -> str:
    """``text`` without the combining marks on Latin letters that do not compose with them (an accent of the five
    languages does, and stays as written, composed or not: "e" + U+0301 reads "é", and the email's own facts may
    be written that way)."""
    out: list[str] = []
    base = ""  # the letter the next mark sits on, with the marks kept on it
    for c in text:
        if unicodedata.category(c) in ("Mn", "Me"):
            if base and _latin(base[0]):
                if len(unicodedata.normalize("NFC", base + c)) > 1:
                    continue  # "no\u034ft", "re\ufe0ffunded": invisible or stacked marks a reader reads past
            base += c
        else:
            base = c
        out.append(c)
    return "".join(out)


def readable(text: str) -> str:
    """``text`` as a reader sees it, accents kept: fullwidth and mathematical letters become plain ones, format
    characters (zero-width spaces and joiners, soft hyphens, bidi controls) and blank letters are dropped, as are
    combining marks on a Latin letter that do not compose with it (the combining grapheme joiner, variation
    selectors, Mongolian and Khmer marks that render as nothing; red team of 5 Dec), and look-alike letters are
    mapped to the Latin letter they imitate inside a word that also has Latin letters, or that is spelled with
    look-alikes only ("по" reads "no"). Marks on letters of other scripts (Devanagari vowel signs) stay. A span
    forced right-to-left (U+202E ... U+202C) is read in the order it is shown ("\u202eton\u202c" shows "not"), and
    small capitals, script, double-struck and black-letter letters and Roman numerals read as the letter they draw
    ("ɴᴏᴛ", "ℴ"). Markup is not rendered here: see ``core.markup.render`` (red team of 5 Dec, 30th session)."""
    if _ANY_CONTROL.search(text) is not None:
        text = _CONTROL_BREAK.sub("\n", _CONTROL.sub("", text))
    if text.isascii():
        return text
    text = unreversed(text)
    text = "".join(_plain(c) for c in text if unicodedata.category(c) != "Cf")
    return _WORD.sub(_map_word, _unmarked(text))


#: bidi controls; a span forced right-to-left alone (U+202E to its end) is read in shown order (unreversed), a
#: left-to-right mark changes nothing in Latin text, and any other makes the order shown unknowable here
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_PLAIN_RLO = re.compile("\u202e[^\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\n\u2029]*[\u202c\u2069]?|\u200e")


def reordered(text: str) -> bool:
    """Does ``text`` hold bidi controls that may lay it out in another order than written, other than a plain span
    forced right-to-left (an LRO inside an RLO, an RLM between words in a right-to-left isolate: red team of 5 Dec,
    32nd session)? Marks beside letters of a right-to-left script are that script's own ("Yasmin (\u200fياسمين\u200f)").
    The graders fail closed on it (markup.render)."""
    return _BIDI.search(text) is not None and _BIDI.search(_RTL_MARKS.sub("", _PLAIN_RLO.sub("", text))) is not None


#: a right-to-left or Arabic letter mark beside a letter of Hebrew, Arabic, Syriac, Thaana or N'Ko
_RTL_MARKS = re.compile("(?<=[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff])[\u200f\u061c]|[\u200f\u061c](?=[\u0590-\u08ff"
                        "\ufb1d-\ufdff\ufe70-\ufeff])")


def unreversed(text: str) -> str:
    """``text`` with each span forced right-to-left (U+202E up to U+202C, U+2069 or the line's end) in the order it is
    shown: "\u202eton\u202c" shows "not". The ticket graders' clean-up reads it too (textnorm.fold)."""
    return _RLO_SPAN.sub(lambda m: m.group(1)[::-1], text) if "\u202e" in text else text
