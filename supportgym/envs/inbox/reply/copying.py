"""Copy checks: a reply made of the email's own text earns nothing (v0: k-gram shingles; v1: an order-free bag of
stems, and the body's long words hidden by separators)."""

from __future__ import annotations

from itertools import filterfalse

from .rules import ReplyScoring, reply_rules
from .scorer import STEM, EmailScorer, on_token_boundaries, token_bounds


def ramp(x: float, ok: float, zero: float) -> float:
    return 1.0 if x <= ok else max(0.0, 1.0 - (x - ok) / (zero - ok))


def copy_shingles(scorer: EmailScorer, toks: list[str]) -> float:
    """v0: 1 if <= copy_ok of the reply's non-overlapping k-grams appear in the body, 0 at copy_zero."""
    d = reply_rules().data
    k, n = d.shingle, len(toks)
    if n < k:
        return 1.0
    # non-overlapping k-grams: a copied passage of 2k tokens always contains one whole (zip over one iterator k times
    # cuts toks into its n // k whole k-grams, in C: this runs on every graded step)
    grams = map(" {} ".format, map(" ".join, zip(*[iter(toks)] * k)))
    copied = sum(map(scorer.body_joined.__contains__, grams)) / (n // k)
    return ramp(copied, d.copy_ok, d.copy_zero)


def quoted_tokens(body_joined: str, toks: list[str], k: int, words: set[str]) -> set[str]:
    """Those of ``words`` that the reply writes inside a run of ``k`` consecutive tokens found verbatim in the body
    (only the windows around each occurrence are looked up: this runs on every step that drafts a reply)."""
    out: set[str] = set()
    last = len(toks) - k
    for p, t in enumerate(toks):
        if t in words and t not in out:
            for i in range(max(0, p - k + 1), min(p, last) + 1):
                if " " + " ".join(toks[i:i + k]) + " " in body_joined:
                    out.add(t)
                    break
    return out


def _recall_ramp(d: ReplyScoring, echo: float) -> tuple[float, float]:
    """recall's (ok, zero) for a reply of this echo: (recall_ok, recall_zero) where the reply's content is mostly the
    email's, (recall_own_ok, recall_own_zero) where at least half of it is the reply's own (echo <= echo_own), linear
    in between. A restatement in the reply's own sentences ("To be sure I've understood: after the restore on Saturday,
    everything saved between 26 May and 2 June is missing") repeats most content words of a short email, as a copy
    does, but brings as many of its own; a copy padded with as many own words to pass the echo is no better for it
    than a template that names the email's facts (39th session, docs/inbox.md)."""
    if echo >= d.echo_ok:
        return d.recall_ok, d.recall_zero
    t = min(1.0, (d.echo_ok - echo) / max(1e-9, d.echo_ok - d.echo_own))
    return (d.recall_ok + t * (d.recall_own_ok - d.recall_ok), d.recall_zero + t * (d.recall_own_zero - d.recall_zero))


def copy_bag(scorer: EmailScorer, toks: list[str], compact: str | None = None) -> float:
    """v1: order-free copy check against the whole email (subject, body, quoted history).

    Over the reply's content words (not neutral, see EmailScorer.bag), compared as distinct stems
    (so neither repeating the email's words nor repeating one filler word moves them)::

        echo   = share of the reply's distinct content stems that occur in the email
        recall = distinct email stems the reply repeats / max(#email stems, recall_min_words)
                 (ramped more leniently where the reply's own words dominate: ``_recall_ramp``)
        spelled = the body's longest words (not in the subject) found in the reply's text with
                 separators removed / max(#those words, spelled_min_words)
        copy   = ramp(echo, echo_ok, echo_zero) * ramp(recall, recall_ok, recall_zero)
                 * ramp(spelled, spelled_ok, spelled_zero)

    Word order, inserted function words, repeated or shuffled words and inflections do not
    change either figure, so the email's own text in any order or with insertions is caught by
    echo, and the email padded with foreign words is caught by recall. Long words are also
    looked up in the reply's text with separators removed, so splitting words with inserted
    separators does not hide them (``compact``: "".join(toks), when the caller has it).
    """
    rr = reply_rules()
    d, static = rr.data, rr.neutral
    extra, content, long_words = scorer.bag
    k = d.stem
    # set algebra and map at C speed: this runs on every step
    stems = set(map(STEM[k], filterfalse(str.isdigit, set(toks) - static - extra)))
    echoed = len(stems & content)
    echo = echoed / len(stems) if stems else 0.0
    recall = echoed / max(len(content), d.recall_min_words)
    copy = ramp(echo, d.echo_ok, d.echo_zero) * ramp(recall, *_recall_ramp(d, echo))
    if long_words and copy:
        # the body's long words *hidden* in the reply by inserted separators ("inv-oi.ce"): found in the text with
        # separators removed, starting and ending on the reply's token boundaries ("television still" does not
        # contain "televisions"), and not written whole, or written whole inside a run of the email's own words
        # (a quotation). An honest reply names the customer's "firmware" and "warranty" in its own sentences:
        # those are the echo's business
        text = compact if compact is not None else "".join(toks)
        found = list(filter(text.__contains__, long_words))
        if found:
            whole = set(toks)
            written = [w for w in found if w in whole]
            found = [w for w in found if w not in whole]
            # (the quotation lookup only where it could matter: with every written word counted the figure
            # would still be within spelled_ok)
            if written and (len(found) + len(written)) / max(len(long_words), d.spelled_min_words) > d.spelled_ok:
                found += sorted(quoted_tokens(scorer.body_joined, toks, d.quote_run, set(written)))
        bounds = token_bounds(toks) if found else set()
        hits = sum(on_token_boundaries(text, w, bounds) for w in found)
        copy *= ramp(hits / max(len(long_words), d.spelled_min_words), d.spelled_ok, d.spelled_zero)
    return copy
