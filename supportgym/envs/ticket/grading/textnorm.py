"""Unicode clean-up shared by both ticket graders: a reply must read the same to the grader as to a customer.

A customer sees "ref\u2063und" (an invisible separator), "r\u0435fund" (Cyrillic е) or
"ref\u057dnd" (Armenian ս) as "refund"; a regex does not. Before any pattern is matched
the text goes through :func:`deconfuse`:

1. NFKC: compatibility forms become their plain letters (fullwidth, mathematical bold
   "𝐫𝐞𝐟𝐮𝐧𝐝", ligatures);
2. NFKD, then every character a reader does not see is dropped: format characters (Cf:
   zero-width spaces and joiners, invisible separators, soft hyphens, bidi controls),
   non-spacing and enclosing marks (Mn/Me: accents, variation selectors, combining
   overlays), control characters other than whitespace (Cc: NUL, ESC, DEL), private-use and
   unassigned code points, and the letters and symbols that render blank (Hangul fillers,
   the braille blank U+2800, the musical null notehead U+1D159);
3. look-alike letters of other scripts become the Latin letter they imitate (a table of
   the Cyrillic, Greek, Armenian and Cherokee letters that TR39 lists as confusable with a
   Latin letter), Latin letter variants NFKD leaves alone ("ᴜ" small capital U, "ı"
   dotless i, "ł" l with stroke) become their base letter, read off their Unicode name, and
   the letters of the Latin-script languages the graders read become their usual spelling
   ("ß" ss, "æ" ae, "œ" oe, "þ" th, "ð" d).

Symbols that draw a Latin letter and NFKC leaves alone ("🆁" NEGATIVE SQUARED LATIN CAPITAL LETTER R)
become that letter. Whatever is left that is not ASCII is caught by :func:`unreadable_words`: after
step 3 a word of an honest reply in English, Spanish, German, French, Portuguese or Hinglish is ASCII,
so a word that still holds another letter and could spell Latin text ("rɛfund" with an open e,
"ref\u028and" with a Latin upsilon, "ꓣꓰꓝꓴꓠꓓ" in Lisu capitals) is one the grader cannot read, and
ticket-v1's extractor and ticket-v0's parser fail closed on it. An ordinary word of another script
("Спасибо", "धन्यवाद", "王小明") spells nothing the graders look for and passes (round 3), as long as the
clause is a greeting, a sign-off or a name; a statement in another script fails closed (round 4). No dependency: the table is
small on purpose and covers the letters an attacker needs to spell the English remedy words;
what it misses is unreadable, not invisible.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import product

from ....core.lookalike import BLANK, LEET_LETTERS, LOOKALIKE, unreversed
from ....core.markup import rendered

# Letters of other scripts that render like a Latin letter (core/lookalike.py: Unicode TR39 confusables), plus the
# Latin letters and ligatures the ticket graders fold. Keys are single code points.
_LOOKALIKE = {
    **LOOKALIKE,
    # Latin letters NFKD does not decompose and whose name does not name a plain letter
    "ɑ": "a", "ɒ": "a", "ʋ": "u", "ȷ": "j", "ı": "i", "ſ": "s",
    # letters of the Latin-script languages the graders read, in their usual ASCII spelling (ø, đ, ł and ħ
    # are read off their names: "LATIN SMALL LETTER O WITH STROKE")
    "ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D",
}
#: "LATIN LETTER SMALL CAPITAL U", "LATIN SMALL LETTER DOTLESS J", "LATIN SMALL LETTER L WITH STROKE"
_LATIN_NAME = re.compile(r"^LATIN (?:(SMALL|CAPITAL) )?LETTER (?:SMALL CAPITAL |DOTLESS |SCRIPT )?([A-Z])(?: WITH .*)?$")
#: format characters, marks, private-use and unassigned code points (Cc is dropped unless it is whitespace)
_DROP = frozenset(("Cf", "Mn", "Me", "Co", "Cn"))
_WORD = re.compile(r"\w+")
#: a word with more unreadable letters than this is not respelled (26**3 spellings): it may say anything
MAX_RESPELL = 2


@lru_cache(maxsize=8192)
def _latin_of(ch: str) -> str:
    """The Latin letter(s) ``ch`` imitates or spells, or ``ch`` itself."""
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
    # look-alikes ("ѕеnd", "рау"); a Greek or Russian word with letters of its own stays as written (and is
    # unreadable: unreadable_words)
    # (the accents deconfuse(moods=True) keeps do not count: "Σοφι\u0301α" stays Greek, "wu\u0308rde" is Latin)
    if any(ch.isascii() and ch.isalpha() for ch in w) or all(ch.isascii() or ch in _KEPT_MARKS for ch in mapped):
        return mapped
    return w


@lru_cache(maxsize=8192)
def _invisible(ch: str) -> bool:
    cat = unicodedata.category(ch)
    # whitespace controls (\t \n \r, vertical tab, form feed, NEL ...) separate words: they stay
    return cat in _DROP or ch in BLANK or (cat == "Cc" and not ch.isspace())


_SYMBOL_LETTER = re.compile(r"\bLATIN CAPITAL LETTER ([A-Z])$")


@lru_cache(maxsize=8192)
def _symbol_letter(ch: str) -> str:
    """A symbol that draws a Latin letter and that NFKC leaves alone ("🆁" NEGATIVE SQUARED LATIN CAPITAL LETTER R,
    "🅡" NEGATIVE CIRCLED ...): the letter, lower-case (round 3, E1: "🆁🅴🅵🆄🅽🅳" hid a refund); else ``ch``."""
    if ch < "\u2000" or unicodedata.category(ch) != "So":
        return ch
    m = _SYMBOL_LETTER.search(unicodedata.name(ch, ""))
    return m.group(1).lower() if m else ch


#: Accents that carry grammar. Folding drops every accent, and for a few words the accent is all that tells a
#: hedge from a statement or a yes from an if (red team round 6); ``deconfuse(moods=True)`` (ticket-v1's
#: extractor) respells those words instead, so that its tables can tell them apart:
#:
#: * German Konjunktiv II: "würde" (would), "wäre", "hätte", "könnte", "dürfte" folded to "wurde" (was), "ware",
#:   "hatte", "konnte", "durfte", the past indicative: "Ihr Geld würde erstattet" (your money would be refunded)
#:   read as "was refunded", a firm promise. They become "wuerde", "waere", "haette", "koennte", "duerfte" (the
#:   usual ASCII spelling of the umlaut), which the hedges list. "müsste" (should: no hedge in English either) and
#:   "möchte" ("Wir möchten Ihnen mitteilen, dass wir ... erstattet haben" opens honest statements) fold as before;
#: * Spanish "sí" (yes) folded to "si" (if): "Sí le hemos reembolsado 89 $" read as a condition, which the grader
#:   ignores, so a lie after a "Sí" passed. It becomes "sim" (Portuguese "yes"), which no table reads;
#: * Spanish preterite: "reembolsó", "canceló", "envió" (he/she/it refunded, cancelled, sent) folded to the
#:   noun or present "reembolso", "cancelo", "envio"; they become "reembolsou", "cancelou", "enviou", the
#:   Portuguese preterite the commit markers read. "reembolsé", "cancelé" (I refunded, I cancelled) folded to the
#:   imperative "reembolse", "cancele"; before an object that only Spanish writes ("el", "su", "un", an amount)
#:   they become "reembolsei", "cancelei", the Portuguese first person preterite. (A French participle in that
#:   place, "remboursé un", is a remedy done as well.)
#: * Spanish "más" (more; Portuguese "más", bad) folded to "mas", Portuguese "but", where the clause splitter cut it:
#:   "Le reembolsaremos más rápido de lo previsto" lost what followed "más", "Ya no podemos ofrecerle más
#:   reembolsos" its remedy (an honest denial read as an uncertain promise; round 7). It becomes "maas", which no
#:   table reads. The unaccented comparatives ("mas rapido", "mas de 50 $") are told from "but" by the splitter
#:   (data/commitments_i18n.yaml), as Portuguese "mais" (more) is from French "mais" (but).
#:
#: Matched on the decomposed text (NFKD: "u" + U+0308), after invisible characters are dropped and look-alikes
#: mapped, so "wu\u200bürde" and "w\u00fc\u0433de" (Cyrillic г) are respelled like "würde". Only U+0308 and
#: U+0301 survive that long; everything else folds as before.
_KEPT_MARKS = frozenset("\u0308\u0301")
#: a word with the accents it keeps: "wu\u0308rde" is one word to the look-alike mapping, as "würde" was
_MARKED_WORD = re.compile(r"(?:\w|[\u0308\u0301])+")
_MOOD_WORDS = re.compile(r"\b(?:wu\u0308rd|wa\u0308r|ha\u0308tt|ko\u0308nnt|du\u0308rft)", re.IGNORECASE)
_SI_YES = re.compile(r"\b(s)i\u0301(?!\w)", re.IGNORECASE)
_MAS_MORE = re.compile(r"\b(m)a\u0301s(?!\w)", re.IGNORECASE)
_PRETERITE_3 = re.compile(r"(?<=[^\W\d_]{3})o\u0301(?!\w)", re.IGNORECASE)
_PRETERITE_1 = re.compile(
    r"(?<=[^\W\d_]{3})e\u0301(?=\s+(?:(?:el|los|las|un|una|unos|unas|su|sus|al|del|ayer|hoy|ya)\b|[$\d]|usd\b|us\$))",
    re.IGNORECASE)


def _respell_moods(text: str) -> str:
    text = _MOOD_WORDS.sub(lambda m: m.group(0).replace("\u0308", "e"), text)
    text = _SI_YES.sub(lambda m: m.group(1) + ("IM" if m.group(0)[1].isupper() else "im"), text)
    text = _MAS_MORE.sub(lambda m: m.group(1) + ("AAS" if m.group(0)[1].isupper() else "aas"), text)
    text = _PRETERITE_3.sub(lambda m: "ou" if m.group(0)[0] == "o" else "OU", text)
    text = _PRETERITE_1.sub(lambda m: "ei" if m.group(0)[0] == "e" else "EI", text)
    return text


_BLANKS = re.compile(r"\s{2,}")
_LINE_BREAKS = re.compile(r"\r\n?|[\u2028\u2029\x0b\x0c\x1c-\x1e\x85]")


_LINE_BREAK_HYPHEN = re.compile(r"(?<=[^\W\d_])-[ \t]*\n[ \t]*(?=[^\W\d_])")


def _one_blank(m: re.Match[str]) -> str:
    breaks = m.group(0).count("\n")
    return "\n\n" if breaks > 1 else "\n" if breaks else " "


def deconfuse(text: str, moods: bool = False) -> str:
    """``text`` as a reader sees it: markup rendered (:func:`rendered`), invisible characters and marks dropped,
    look-alikes mapped to Latin.

    Case and punctuation are kept (ticket-v0's checks read the original case). ``moods``: respell the few words
    whose accent carries their mood or meaning (``_MOOD_WORDS`` ...) instead of folding them."""
    # "№" is a number sign to a reader, not the word "No" NFKC makes of it (red team of 5 Dec: "№ full refund")
    # a span forced right-to-left in the order it is shown (red team of 5 Dec, 32nd session: "\u202edednufer\u202c" hid
    # a refund)
    text = unreversed(rendered(text).replace("\u2116", "#"))
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
    # runs of blanks read as one (the clause splitters rescan a run from each of its starts: a draft of 300-space
    # runs took 90 s to grade, of 800 carriage returns 75 s; red teams of 5 Dec), every line break is a newline, and
    # a word broken at a line end with a hyphen reads whole
    text = _BLANKS.sub(_one_blank, _LINE_BREAKS.sub("\n", text))
    text = _LINE_BREAK_HYPHEN.sub("", text)
    # dropped first, so that "ref\u2063und" is one word again before look-alikes are mapped word by word
    text = "".join(_symbol_letter(ch) for ch in text
                   if " " <= ch < "\x7f" or not _invisible(ch) or (moods and ch in _KEPT_MARKS))
    text = (_MARKED_WORD if moods else _WORD).sub(_map_word, text)
    # digits standing in for letters inside a word ("st0re credit", "m0ney", "r3funded"; red team of 5 Dec, 32nd
    # session). Only between letters: "ORD-10234", "$54.40" and "iPhone 15" keep theirs
    text = _LEET_INSIDE.sub(lambda m: m.group(0).translate(LEET_LETTERS), text)
    if moods:
        text = "".join(ch for ch in _respell_moods(text) if ch not in _KEPT_MARKS)
    return text


_LEET_INSIDE = re.compile(r"(?<=[A-Za-z])[013457]{1,2}(?=[A-Za-z])")


def _unreadable(ch: str) -> bool:
    # a digit of another script or a circled one may be drawn as a letter ("n\u0ed0t" with a Lao zero, "m\u24eaney"):
    # a third red team of 5 Dec
    return (ch.isalpha() or ch.isdigit()) and not ch.isascii()


_LOOKALIKE_LETTERS = frozenset(k for k in _LOOKALIKE if not k.isascii())


@lru_cache(maxsize=8192)
def _latin_like(ch: str) -> bool:
    """A non-ASCII letter that can stand for a Latin one: a Latin letter no table folds ("ɛ", "ʊ", "ŋ", "ꝼ"), a
    Lisu letter (U+A4D0-U+A4FF, look-alikes of Latin capitals), or a look-alike of the confusables table."""
    return (ch in _LOOKALIKE_LETTERS or "\ua4d0" <= ch <= "\ua4ff"
            or unicodedata.name(ch, "").startswith("LATIN "))


def could_spell_latin(word: str) -> bool:
    """Could ``word`` (deconfused) read as Latin text to a customer? Only then is a non-ASCII letter in it one the
    graders must fail closed on: a word mixing Latin letters with others ("rɛfund", "refцnd"), or one whose odd
    letters are all Latin-like (``_latin_like``: "ꓣꓰꓝꓴꓠꓓ"). An ordinary word of another script ("धन्यवाद",
    "Спасибо", "Σοφία", "王小明", "김민준", "ありがとう") spells no Latin word: it is read as no commitment."""
    odd = [ch for ch in word if _unreadable(ch)]
    if not odd:
        return False
    if any(ch.isascii() and ch.isalpha() for ch in word):
        return True
    return all(_latin_like(ch) for ch in odd)


#: words of other scripts a clause may hold, and letters in one such word, and still be a greeting, a sign-off or a
#: name rather than a statement
SIGN_OFF_WORDS = 2
SIGN_OFF_LETTERS = 12


def unreadable_words(text: str, exempt: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """Words of ``text`` (already deconfused) that still hold a letter the graders cannot read and could spell
    Latin text (:func:`could_spell_latin`).

    After :func:`deconfuse` every letter of the six languages is ASCII, so what is left is a letter of another
    script or a Latin letter no table maps ("rɛfund", "ꓣꓰꓝꓴꓠꓓ"): what a customer reads there cannot be known, and
    the graders fail closed on it. Words of other scripts that are not look-alikes pass in a greeting, a sign-off
    or a name (round 3: a "धन्यवाद!" or "Спасибо!" sign-off cost a correct reply 0.45), but all of them count in a
    statement (round 4), and the words of ``exempt`` (the customer's name, folded: "Ŋozi") always pass."""
    words = [w for w in _WORD.findall(text) if w.lower() not in exempt]
    foreign = [w for w in words if any(_unreadable(ch) for ch in w)]
    # a greeting, a sign-off or a name is a word or two ("Спасибо!", "Дмитрий Иванов", "ありがとうございます"); a
    # statement is more words, one long run of a script written without spaces ("我们已经为您的订单退还了全部金额"),
    # or stands beside a number: it says something the graders cannot read (round 4)
    statement = len(foreign) > SIGN_OFF_WORDS or any(sum(map(_unreadable, w)) > SIGN_OFF_LETTERS for w in foreign)
    if foreign and (statement or any(ch.isdigit() for ch in text)):
        return foreign
    return [w for w in words if could_spell_latin(w)]

_NAMED_LETTER = re.compile(r"\bLETTER (?:[A-Z]+ )*([A-Z])$")


def likely_reading(text: str, words: list[str]) -> str:
    """``text`` with every unreadable letter of ``words`` read as the Latin letter its name ends with ("ɛ" LATIN
    SMALL LETTER OPEN E -> e, "ɐ" TURNED A -> a, "ɵ" BARRED O -> o), all at once: a phrase of several words with
    one odd letter each ("m\u0275ney is b\u0250ck", "st\u0254re cr\u025bdit") is a trigger no one-word respelling
    completes (round 3, E1). Letters whose name ends in no single letter stay as written."""
    for w in words:
        read = []
        for ch in w:
            m = _NAMED_LETTER.search(unicodedata.name(ch, "")) if _unreadable(ch) else None
            read.append(m.group(1).lower() if m else ch)
        text = text.replace(w, "".join(read))
    return text


#: characters of text searched per reply for the spellings of its unreadable words (each spelling of a word is
#: searched in a window around it); past it, a word may say anything. Red team of 5 Dec (30th session): with the
#: whole clause searched and no limit, a 400-character draft of "rɛfʊnd" took 46 s to grade, 6,000 about 3 hours
RESPELL_BUDGET = 200_000
#: characters either side of an unreadable word that its spellings are read in (a trigger is a phrase, not a clause)
RESPELL_WINDOW = 120


class Respeller:
    """The spellings of a reply's unreadable words, within one reply's budget (``RESPELL_BUDGET``)."""

    def __init__(self, budget: int = RESPELL_BUDGET) -> None:
        self.left = budget

    def __call__(self, text: str, word: str) -> list[str] | None:
        """The windows of ``text`` around ``word`` with its unreadable letters replaced by each combination of a-z,
        or None when the word has more than MAX_RESPELL of them or the budget is spent (then it may say anything):
        the grader asks of each spelling whether it reads as a commitment."""
        unknown = [i for i, ch in enumerate(word) if _unreadable(ch)]
        if len(unknown) > MAX_RESPELL:
            return None
        w = RESPELL_WINDOW
        spots = [m.start() for m in re.finditer(re.escape(word), text)]
        windows = [text[max(0, i - w): i + len(word) + w] for i in spots] or [text]
        cost = 26 ** len(unknown) * sum(map(len, windows))
        if cost > self.left:
            return None
        self.left -= cost
        out = []
        for letters in product("abcdefghijklmnopqrstuvwxyz", repeat=len(unknown)):
            chars = list(word)
            for i, ch in zip(unknown, letters):
                chars[i] = ch
            spelled = "".join(chars)
            out += [x.replace(word, spelled) for x in windows]
        return out


# pure, and asked of the same text again and again (702 calls, 132 texts in 40 episodes); 512 texts of at most a draft's
# 6,000 characters bound what it keeps (~25 MB at worst, non-ASCII)
@lru_cache(maxsize=512)
def fold(text: str) -> str:
    """Lower-case, straight quotes, no accents ("reembolsaré" -> "reembolsare", "ß" -> "ss"), no look-alikes
    and no invisible characters (textnorm.deconfuse: "r\u0435fund", "ref\u2063und", "ref\u057dnd" -> "refund").

    The few words whose accent carries their mood are respelled, not folded (textnorm ``moods``): German
    "würde" (would) is "wuerde", a hedge, not "wurde" (was); Spanish "sí" (yes) is "sim", not "si" (if);
    Spanish "reembolsó" (refunded) is "reembolsou", not the noun "reembolso"."""
    text = text.replace("ß", "ss").replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"')
    text = text.replace("\u201d", '"').replace("\u2013", "-").replace("\u2014", "-")
    return deconfuse(text, moods=True).lower()


def name_words(name: str) -> frozenset[str]:
    """The folded words of a person's name: exempt from the unreadable-word rule."""
    return frozenset(re.findall(r"\w+", fold(name))) if name else frozenset()
