"""How spam disguises itself from keyword filters, read by the rules (``inbox_heuristics.analyse``) and the
classifier's features: hash-buster word salad, words written with digits, symbols or a letter at a time, and links
that show one address and go to another. The forms of the spam that came after the 2002 corpus (``era:*`` mail); each
scan is linear in the text and bounded."""

from __future__ import annotations

import re
from collections.abc import Collection

from ..envs.inbox.house import registrable

#: a word with digits or symbols among its letters ("V1AGRA", "Xan@x", "C-i-a-l-i-s"): a run without spaces and
#: common punctuation; or a word a letter at a time ("r e f i n a n c e"). Neither nests a quantifier: linear
_DISGUISED_RE = re.compile(r"(?<![\w-])(?:[A-Za-z][ .\-_*]){3,18}[A-Za-z](?![\w-])|[^\s,;:()<>\"'\[\]/=?&#%+]+")
_V_STROKES = "\ue000"
_UNDISGUISE = str.maketrans({"1": "i", "0": "o", "3": "e", "4": "a", "@": "a", "$": "s", "|": "i", "!": "i", "5": "s",
                             "7": "t", _V_STROKES: "v", " ": None, ".": None, "-": None, "_": None, "*": None})
#: "1" and "|" stand for "l" as often as for "i" ("rep1ica", "Va|ium")
_UNDISGUISE_L = str.maketrans({"1": "l", "|": "l"})
#: characters that show nothing inside a word ("Via\u00adgra", "Cia\u200blis"), and Cyrillic letters that look Latin
#: ("Viаgra" with a Cyrillic "а"), read only in a word that also has Latin letters: Russian text stays Russian
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))
_CYRILLIC_LOOKS_LATIN = str.maketrans("аеорсхуіАВЕКМНОРСТХ", "aeopcxyiABEKMHOPCTX")
_CYRILLIC_RE = re.compile("[\u0400-\u04ff]")
_LATIN_RE = re.compile("[A-Za-z]")
#: a dose or a count after the name ("V1agra100mg", "Cialis20"): not part of the word
_DOSE_RE = re.compile(r"\d+(?:mg|pills?|tabs?)?$", re.I)


def _latin(raw: str) -> str:
    """``raw`` with invisible characters dropped and, beside Latin letters, Cyrillic look-alikes read as Latin."""
    raw = raw.translate(_INVISIBLE)
    if _CYRILLIC_RE.search(raw) and _LATIN_RE.search(raw):
        raw = raw.translate(_CYRILLIC_LOOKS_LATIN)
    return raw


def obfuscated(text: str, targets: list[str], limit: int = 20_000) -> list[str]:
    """The ``targets`` that ``text`` writes disguised: with digits or symbols among the letters, or a letter at a
    time, in the first ``limit`` characters (distinct, in order of appearance)."""
    found: list[str] = []
    if not targets:
        return found
    # "\/" is a V drawn with two strokes ("\/iagra"): one symbol that reads as "v"
    for m in _DISGUISED_RE.finditer(text[:limit].replace("\\/", _V_STROKES)):
        written = m.group(0)
        if len(written) > 40:
            continue
        latin = _latin(written)
        raw = _DOSE_RE.sub("", latin) if latin != written or not latin.isalpha() else latin
        if not raw or (latin == written and raw.isalpha()):
            continue  # an ordinary word
        plain = raw.lower().translate(_UNDISGUISE)
        if sum(c.isalpha() for c in raw) < 3 or not plain.isalpha():
            continue  # a number, or symbols that spell no word
        plain_l = raw.lower().translate(_UNDISGUISE_L).translate(_UNDISGUISE)
        # "Viagra!" and "Viagra100mg" name the word as it is; "V|@gr@" and "Viаgra" (Cyrillic а) only undisguised
        for t in targets:
            if ((t in plain or t in plain_l) and len(plain) <= len(t) + 3 and t not in written.lower()
                    and t not in found):
                found.append(t)
    return found


#: a link as the importers write an HTML anchor whose text is an address: "shown (target)"
_SHOWN_LINK_RE = re.compile(r"((?:https?://|www\.)[^\s()<>]{1,300}) \((https?://[^\s()<>]{1,300})\)", re.I)
_IP_HOST_RE = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")


def _host(url: str) -> str:
    return re.sub(r"^https?://", "", url, flags=re.I).split("/")[0].split("?")[0].split(":")[0].lower().rstrip(".")


def shown_elsewhere(body: str, brands: Collection[str], own: Collection[str], own_domains: Collection[str] = (),
                    passes: Collection[str] = (), limit: int = 50_000) -> str | None:
    """Why a link in ``body`` shows one address and goes to another: the shown host is one of ``brands``' or ``own``
    (registrable labels: "paypal", "brightdesk"), and the target is a bare IP address or elsewhere; else None. Not
    elsewhere: the shown brand under another suffix ("www.amazon.de" to amazon.com), our own domains (``own_domains``)
    from ours, and the link-protection and short-link services that rewrite every link of a mail (``passes``: host
    suffixes such as "safelinks.protection.outlook.com", "urldefense.proofpoint.com"; review of the 51st session)."""
    for m in _SHOWN_LINK_RE.finditer(body[:limit]):
        shown, target = _host(m.group(1)), _host(m.group(2))
        label, reg = registrable(shown)
        if not (label in brands or label in own) or _IP_HOST_RE.fullmatch(shown):
            continue
        if not _IP_HOST_RE.fullmatch(target):
            t_label, t_reg = registrable(target)
            if (t_reg == reg or t_label == label or (label in own and t_reg in own_domains)
                    or any(target == x or target.endswith("." + x) for x in passes)):
                continue
        return f"a link shows {shown} and goes to {target}"
    return None


#: an underscore ends a word as punctuation does ("order_number\tcustomer_email" is a table's header, not a salad)
_SALAD_TOKEN_RE = re.compile(r"[^\W\d_]+|[^\w\s]+|_+|\d+|\n")
#: a line break inside a paragraph: plain-text salad of 2004 is wrapped at 72 columns; a blank line ends a run
_WRAP_RE = re.compile(r"(?<!\n)\n(?![ \t]*\n)")


def salad_run(text: str, function_words: Collection[str], limit: int = 20_000) -> int:
    """The longest run of lowercase words of three letters or more, none in ``function_words``, with nothing but
    spaces or a single line break between them (punctuation, an underscore, a digit, a capital or a blank line ends a
    run), in the first ``limit`` characters."""
    function_words = frozenset(function_words)
    best = run = 0
    for t in _SALAD_TOKEN_RE.findall(_WRAP_RE.sub(" ", text[:limit])):
        if len(t) >= 3 and t.isalpha() and t.islower() and t not in function_words:
            run += 1
            best = max(best, run)
        else:
            run = 0
    return best
