"""inbox-v1: a reply that passes on an event's cancellation is no remedy claimed.

Before (37th session's red team, left open), "The event has been cancelled" or "Tomorrow's meeting has been cancelled"
in an honest reply read as a remedy nobody performed (the passive "has been cancelled" of ``false_claims``) and zeroed
the reply. An event named as the passive's whole subject (a determiner other than "your", at most two words before
it, at most a short time or place after it, nothing joined to it, no remedy claimed after it in the sentence) is now
news; the customer's account, order, subscription or booking, and their own booked event, stay claims (the first
version's regression check joined claims to an event: "Your meeting on Friday and your account have been cancelled")."""

from __future__ import annotations

import pytest

from supportgym.envs.inbox.reply import reply_quality
from supportgym.envs.inbox.reply.quality import _refuses_or_claims
from supportgym.envs.inbox.tasks import load_task


@pytest.mark.parametrize("sentence", [
    "The event has been cancelled, so there is nothing to book.",
    "Tomorrow's meeting has been cancelled.",
    "The team offsite on Friday has been cancelled.",
    "The webinar has been cancelled and will be rescheduled.",
    "Friday's training session has been canceled.",
    "Unfortunately the conference in Lisbon has been cancelled this year.",
])
def test_an_event_cancelled_is_news(sentence):
    assert not _refuses_or_claims(sentence)


@pytest.mark.parametrize("sentence", [
    "Your account has been cancelled.",
    "Your order has been cancelled.",
    "Your subscription has been cancelled.",
    "Your webinar subscription has been cancelled.",
    "Your subscription to the webinar series has been cancelled.",
    "Your flight booking has been cancelled and refunded.",
    "The meeting room booking has been cancelled and your account has been cancelled.",
    "Your order has been refunded.",
    "The event ticket has been refunded.",
    # its regression check: a claim joined to the event, the customer's own booking, a login session
    "Your meeting on Friday and your account have been cancelled.",
    "The call today and your subscription have been cancelled.",
    "Your account and meeting have been cancelled.",
    "Your invoice for training has been cancelled.",
    "The call for your subscription has been cancelled.",
    "The call has been cancelled and the duplicate charge refunded.",
    "The meeting on Monday and your account and all of your data have been cancelled and permanently erased.",
    "All active sessions on your account have been cancelled.",
    "Your demo call has been cancelled as requested.",
    "Your training session has been cancelled.",
])
def test_the_customers_things_stay_claims(sentence):
    assert _refuses_or_claims(sentence)


def test_the_honest_reply_keeps_its_credit():
    task = load_task("hard")
    le, sc = next((le, sc) for le, sc in zip(task.emails, task.scorers, strict=True)
                  if le.gold.wants_reply() and sc.facts)
    reply = (f"Hello, thank you for your message about {', '.join(sc.facts[:2])}. Our team will look into it and get "
             "back to you within one business day. Kind regards")
    plain = reply_quality(sc, le.gold.category, reply, "bag", True)
    assert plain > 0
    with_news = reply.replace("Kind regards", "Tomorrow's meeting has been cancelled, so we will call you instead. "
                                              "Kind regards")
    assert reply_quality(sc, le.gold.category, with_news, "bag", True) > 0
