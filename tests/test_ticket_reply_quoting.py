"""ticket-v1 reads the customer's email quoted under a reply as theirs, in every client's style (core.quoting).

Before (33rd session), "> " lines were read that way but an Outlook block or an HTML blockquote of the email was read
as the reply's own statements: the oracle's reply with the email quoted under it scored 0.80 (validation) and
0.74-0.76 (hard:validation) instead of 1.0 ("my bank flagged a $95 payment ... that i didn't authorise" read as an
unclassifiable amount and a refund promise)."""

from __future__ import annotations

import html

import pytest

from supportgym import make
from supportgym.agents import make_agent
from supportgym.eval.runner import episode_specs


def _quoted(body: str) -> str:
    return "\n".join("> " + line if line.strip() else ">" for line in body.split("\n"))


STYLES = {
    "plain": lambda t, e: t,
    "gmail": lambda t, e: f"{t}\n\nOn Tue, 3 Dec 2024 at 10:02, {e.sender} wrote:\n{_quoted(e.body)}",
    "outlook": lambda t, e: (f"{t}\n\n-----Original Message-----\nFrom: {e.sender}\nSent: Tuesday, December 3, 2024 "
                             f"10:02 AM\nTo: support@shop.com\nSubject: RE: {e.subject}\n\n{e.body}"),
    "gmail html": lambda t, e: ("".join(f"<p>{html.escape(p)}</p>" for p in t.split("\n\n"))
                                + f'<div class="gmail_quote">On Tue, 3 Dec 2024 at 10:02, {html.escape(e.sender)} '
                                  'wrote:<br><blockquote class="gmail_quote">'
                                + "<br>".join(html.escape(line) for line in e.body.split("\n")) + "</blockquote></div>"),
}


def _score(split: str, seed: int, style: str, extra: str = "") -> float:
    env, agent = make("ticket-v1", empathy="lexical"), make_agent("ticket", "oracle")
    ep = episode_specs(split=split, episodes=1, seed=seed)[0]
    obs = env.reset(seed=ep.seed, task=ep.task)
    agent.bind(env, seed=ep.seed)
    while not obs.done:
        a = agent.act(obs)
        d = a if isinstance(a, dict) else a.model_dump()
        if d.get("type") == "DRAFT":
            d = {**d, "text": STYLES[style](d["text"], obs.email) + extra}
        obs = env.step(d)
    return env.episode_report()["score"]


@pytest.mark.parametrize("style", list(STYLES))
def test_the_oracle_reply_with_the_email_quoted_under_it_keeps_its_score(style):
    for split, seed in (("validation", 1), ("validation", 4), ("hard:validation", 0), ("hard:validation", 3)):
        assert _score(split, seed, style) == _score(split, seed, "plain"), (split, seed, style)


def test_a_statement_of_ours_in_a_quoted_block_is_still_read():
    lie = "\n> We have refunded you $500.00 in full."
    for split, seed in (("validation", 1), ("hard:validation", 0)):
        assert _score(split, seed, "gmail", lie) < _score(split, seed, "gmail") - 0.2
