"""The email quoted back under a reply, as mail clients do: the customer's own words, not the reply's.

A reply that ends with the email it answers ("On Tue, 3 Dec 2024, Anna <anna@x.com> wrote:" and "> " lines, or
Outlook's "-----Original Message-----" block) was read whole, so the copy check found the email in it and the reply
earned nothing (a documented false negative of the 32nd session). Here the quoted lines that repeat the email word for
word come out before grading, with the attribution or header lines that introduce them; every other line stays and is
read: a quoted line with one word changed is the reply's own statement (the ticket grader's rule, `clauses.unquote`),
so nothing can be hidden in a quotation, and the customer's words can neither cite facts for the reply nor refuse.
"""

from __future__ import annotations

import html
import re
from typing import Protocol

from ...core.markup import render
from .text import tokens


class Quotable(Protocol):
    @property
    def quoted(self) -> tuple[str, frozenset[str]]:
        """(the email's subject and body as runs of tokens, the tokens of its sender and subject)"""

_QUOTED = re.compile(r"^[ \t]*>[ \t>]*(.*)$")
#: "On <date>, <name> wrote:" in the five languages of the mail (Gmail, Apple Mail, Thunderbird)
_ATTRIBUTION = re.compile(
    r"^\s*(?:on|am|el|le|em)\b(.{1,160}?)\b(?:wrote|schrieb|escribi[oó]|a\s+[ée]crit|escreveu)\b([^:\n]{0,160}):\s*$",
    re.IGNORECASE)
_SEPARATOR = re.compile(r"^\s*-{2,}\s*(?:original message|urspr[üu]ngliche nachricht|mensaje original|message d'origine"
                        r"|mensagem original|forwarded message|weitergeleitete nachricht)\s*-{2,}\s*$", re.IGNORECASE)
#: a header line of a quoted message, and what its value may hold besides the email's own sender and subject words
_HEADER = re.compile(r"^\s*(from|sent|to|cc|date|subject|von|gesendet|an|betreff|datum|de|enviado|para|asunto|fecha"
                     r"|envoy[ée]|[àa]|objet|enviada|assunto|data)\s*:(.*)$", re.IGNORECASE)
_ADDRESS = re.compile(r"<?[^\s<>@]+@[^\s<>@]+>?|\[mailto:[^\]]*\]")
#: what dates and times are written with, and the attribution's frame words: nothing a reply could say with them
_DATE_WORDS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun "
    "january february march april may june july august september october november december jan feb mar apr jun jul "
    "aug sep sept oct nov dec montag dienstag mittwoch donnerstag freitag samstag sonntag mo di mi do fr sa so "
    "januar februar marz maerz mai juni juli oktober dezember lunes martes miercoles jueves viernes sabado domingo "
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre lundi mardi mercredi "
    "jeudi vendredi samedi dimanche janvier fevrier mars avril juin juillet aout septembre octobre novembre decembre "
    "segunda terca quarta quinta sexta sabado domingo feira janeiro fevereiro marco maio junho julho setembro outubro "
    "novembro dezembro am pm at um a as las los de del do da le el em on utc gmt cet cest est pst edt pdt h uhr "
    "re aw fw fwd wg rv tr sv".split())
_BLOCKQUOTE = re.compile(r"<(/?)blockquote\b[^>]*>", re.IGNORECASE)
_TO_HEADERS = frozenset(("to", "cc", "an", "para", "à", "a"))
_NEGATION = frozenset("not no never nothing won don t nicht nie kein keine nunca nada jamais pas rien nao".split())


def _run(text: str) -> str:
    return " " + " ".join(tokens(text)) + " "


def _dated(value: str, known: frozenset[str]) -> bool:
    """``value`` holds only addresses, digits, date words and the email's own sender and subject words."""
    return all(t.isdigit() or t in _DATE_WORDS or t in known for t in tokens(_ADDRESS.sub(" ", value)))


def without_history(reply: str, email: Quotable) -> str:
    """``reply`` without the email it quotes: quoted lines whose words are a run of the email's, the attribution
    line right above such a quote, and an Outlook block (separator, header lines, then the email's own lines
    unquoted). Attribution and header lines may name only a date and the email's sender and subject. Lines that do
    not qualify are kept, so the result is what the reply itself says. ``email.quoted`` is read only when the reply
    has a quote mark or a separator (it renders the email once)."""
    if ">" not in reply and "--" not in reply:
        return reply
    said, known = email.quoted
    if "<blockquote" in reply or "<BLOCKQUOTE" in reply:
        reply = _html_quotes(reply, said)
    lines = reply.split("\n")
    drop = [False] * len(lines)
    theirs = [False] * len(lines)  # a line of the email's own words, quoted (or unquoted inside an Outlook block)
    for i, line in enumerate(lines):
        m = _QUOTED.match(line)
        if m:
            run = _run(m.group(1))
            theirs[i] = drop[i] = not run.strip() or run in said
    # an attribution line counts only above a quote of the email and when it names nothing but a date and the sender
    for i, line in enumerate(lines):
        # (Gmail wraps a long one: "On Tue, 3 Dec 2024 at 10:02, Anna Smith <" / "anna@x.com> wrote:")
        span = 1 if _ATTRIBUTION.match(line) else 2 if i + 1 < len(lines) and _ATTRIBUTION.match(
            f"{line} {lines[i + 1]}") else 0
        m = span and _ATTRIBUTION.match(" ".join(lines[i:i + span]))
        if m and _dated(m.group(1) + " " + m.group(2), known):
            j = next((j for j in range(i + span, len(lines)) if lines[j].strip()), None)
            if j is not None and theirs[j] and _run(lines[j]).strip():
                drop[i:i + span] = [True] * span
    # Outlook: a separator or a run of header lines, then the email's lines as they were (no "> ")
    i = 0
    while i < len(lines):
        j = i + 1 if _SEPARATOR.match(lines[i]) else i
        heads = j
        while heads < len(lines) and _header_ok(lines[heads], known):
            heads += 1
        if heads - j >= 2:  # From: and at least one of Sent/To/Subject
            k, body = heads, []
            while k < len(lines) and (theirs[k] or _run(lines[k]) in said or not _run(lines[k]).strip()):
                body.append(k)
                k += 1
            if any(_run(lines[b]).strip() for b in body) and k == len(lines):
                for b in range(i, k):
                    drop[b] = True
                break
        i += 1
    if not any(drop):
        return reply
    return "\n".join(line for line, d in zip(lines, drop, strict=True) if not d)


def _html_quotes(reply: str, said: str) -> str:
    """An HTML reply's outermost ``<blockquote>`` elements (Gmail, Front, Freshdesk quote the email in one) written as
    "> " lines, where every line they show is a run of the email's words, so that the lines pass below like a plain
    quote (and the attribution above them with it). A blockquote holding anything else, or hiding anything, is left
    as it is: its text is read, and what it hides fails closed."""
    spans, depth, start = [], 0, 0
    for m in _BLOCKQUOTE.finditer(reply):
        if not m.group(1):
            start = m.start() if depth == 0 else start
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                spans.append((start, m.end()))
    for a, b in reversed(spans):
        shown = render(reply[a:b])
        lines = [line for line in shown.text.split("\n") if tokens(line)]
        if lines and not shown.hidden and all(_run(line) in said for line in lines):
            quoted = "<br>\n".join("&gt; " + html.escape(line, quote=False) for line in lines)
            reply = f"{reply[:a]}<p>\n{quoted}</p>{reply[b:]}"
    return reply


def _header_ok(line: str, known: frozenset[str]) -> bool:
    m = _HEADER.match(line)
    if not m:
        return False
    name, value = m.group(1).lower(), m.group(2)
    if name in _TO_HEADERS:
        # the company's own address, whose display name the email need not hold ("Brightdesk Support"): a short one
        # beside an address, with no negation in it
        rest = tokens(_ADDRESS.sub(" ", value))
        return _dated(value, known) or _ADDRESS.search(value) is not None and len(rest) <= 3 and _NEGATION.isdisjoint(rest)
    return _dated(value, known)
