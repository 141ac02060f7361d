"""Unicode clean-up shared by both ticket graders: a reply must read the same to the grader as to a customer.

A customer sees "ref\u2063und" (an invisible separator), "r\u0435fund" (Cyrillic е) or
"ref\u057dnd" (Armenian ս) as "refund"; a regex does not. Before any pattern is matched
the text goes through :func:`deconfuse`:

1. NFKC: compatibility forms become their plain letters (fullwidth, mathematical bold
   "𝐫𝐞𝐟𝐮𝐧𝐝", ligatures);
2. look-alike letters of other scripts become the Latin letter they imitate (a table of
   the Cyrillic, Greek, Armenian and Cherokee letters that TR39 lists as confusable with a
   Latin letter), and Latin letter variants NFKD leaves alone ("ᴜ" small capital U, "ı"
   dotless i, "ł" l with stroke) become their base letter, read off their Unicode name;
3. NFKD, then every format character (Cf: zero-width spaces and joiners, invisible
   separators, soft hyphens, bidi controls), non-spacing and enclosing mark (Mn/Me:
   accents, variation selectors such as U+FE0F, combining overlays) is dropped.

What no table covers is caught by :func:`mixed_script_words`: a word that still mixes
Latin letters with letters of another script is what a look-alike attack looks like, and
ticket-v1's extractor fails closed on it. No dependency: the table is small on purpose
and covers the letters an attacker needs to spell the English remedy words.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Letters of other scripts that render like a Latin letter (Unicode TR39 confusables, the
# lower- and upper-case Latin targets only). Keys are single code points.
_LOOKALIKE = {
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
    # Latin letters NFKD does not decompose and whose name does not name a plain letter
    "ɑ": "a", "ɒ": "a", "ʋ": "u", "ȷ": "j", "ı": "i", "ſ": "s",
}
#: "LATIN LETTER SMALL CAPITAL U", "LATIN SMALL LETTER DOTLESS J", "LATIN SMALL LETTER L WITH STROKE"
_LATIN_NAME = re.compile(r"^LATIN (?:(SMALL|CAPITAL) )?LETTER (?:SMALL CAPITAL |DOTLESS |SCRIPT )?([A-Z])(?: WITH .*)?$")
_DROP = ("Cf", "Mn", "Me")
_WORD = re.compile(r"\w+")


@lru_cache(maxsize=8192)
def _latin_of(ch: str) -> str:
    """The Latin letter ``ch`` imitates, or ``ch`` itself."""
    if ch < "\u0080":
        return ch
    if ch in _LOOKALIKE:
        return _LOOKALIKE[ch]
    m = _LATIN_NAME.match(unicodedata.name(ch, ""))
    if m:
        return m.group(2) if m.group(1) == "CAPITAL" else m.group(2).lower()
    return ch


def _map_word(m: re.Match[str]) -> str:
    w = m.group(0)
    if w.isascii():
        return w
    mapped = "".join(_latin_of(ch) for ch in w)
    # only words that are (or imitate) Latin words: a word with a Latin letter in it, or one made entirely of
    # look-alikes ("ѕеnd", "рау"); a Greek or Russian word with letters of its own stays as written
    if any(ch.isascii() and ch.isalpha() for ch in w) or mapped.isascii():
        return mapped
    return w


def deconfuse(text: str) -> str:
    """``text`` as a reader sees it: invisible characters and marks dropped, look-alikes mapped to Latin.

    Case and punctuation are kept (ticket-v0's checks read the original case)."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
    # dropped first, so that "ref\u2063und" is one word again before look-alikes are mapped word by word
    text = "".join(ch for ch in text if unicodedata.category(ch) not in _DROP)
    return _WORD.sub(_map_word, text)


@lru_cache(maxsize=8192)
def _is_latin_letter(ch: str) -> bool:
    return ch < "\u0080" or unicodedata.name(ch, "").startswith("LATIN")


def mixed_script_words(text: str) -> list[str]:
    """Words of ``text`` (already deconfused) that mix ASCII letters with letters of another script."""
    out = []
    for w in _WORD.findall(text):
        if w.isascii():
            continue
        letters = [ch for ch in w if ch.isalpha()]
        if any(ch.isascii() for ch in letters) and not all(_is_latin_letter(ch) for ch in letters):
            out.append(w)
    return out
