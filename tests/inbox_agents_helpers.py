"""Shared by the inbox agents' real-mail tests (tests/test_inbox_agents_*.py): a labelled email made from a subject, a
body and a sender."""

from __future__ import annotations

from supportgym.envs.inbox.models import LabelledEmail


def _mail(subject: str, body: str, sender: str = "") -> LabelledEmail:
    return LabelledEmail.model_validate({"email": {"header": {"id": "x1", "sender": sender, "subject": subject,
                                                              "timestamp": "2002-08-01T10:00:00Z"}, "body": body}})
