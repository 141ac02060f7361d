"""SLA clocks, the escalation budget and team queues of one inbox episode.

Time: every step (valid or not) advances the clock by one. Email ``i`` arrives at
step ``i`` (the inbox is a stream handled at one email per step), so its deadline is
``i + sla[true priority].steps``; low and spam mail have none. An email meets its SLA
when a valid action handles it by its deadline *and* the handling really reaches a
team: not trashed/archived, not dropped by a full queue, and not deprioritised by more
than ``sla_tolerance`` levels (v0: 1, so two levels below breaches; v1: 0, the label's lane
is the one that works the email, and a lower lane is too slow for its deadline; v1 also needs the gold
route or an acceptable one: a team that does not work such mail is not working it).
Mishandled mail stays on the clock ("parked") and breaches at its deadline (or when the
episode ends, whichever is first). Warnings list every handled email on the clock with at
most ``sla_warn_within`` steps left.

Deadlines follow the *gold* priority, so nothing the agent observes may depend on the
deadline of an email it has not handled yet: a warning or a breach (and its penalty, whose
size depends on the priority) for the current or a later email would tell its true urgency
(stall one step with an invalid action and the current email shows up in the warnings
exactly when it is urgent). An unhandled email whose deadline passes is therefore only
noted ("late"); its breach is announced and charged when it is handled, or at the end.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from .config import InboxConfig
from .models import PRIORITY_RANK, UNLIMITED_ROUTES, Gold, SlaWarning, construct


@dataclass(frozen=True)
class SlaPlan:
    """Deadlines of one episode's emails: fixed by the gold priorities, so shared across resets."""

    deadlines: tuple[int | None, ...]
    by_deadline: dict[int, tuple[int, ...]]
    clocked: frozenset[int]

    @classmethod
    def build(cls, cfg: InboxConfig, golds: list[Gold | None]) -> SlaPlan:
        deadlines: list[int | None] = []
        by: dict[int, list[int]] = {}
        for i, g in enumerate(golds):
            rule = cfg.sla.get(g.priority) if g is not None else None
            d = i + rule.steps if rule is not None else None
            deadlines.append(d)
            if d is not None:
                by.setdefault(d, []).append(i)
        return cls(tuple(deadlines), {d: tuple(v) for d, v in by.items()},
                   frozenset(i for i, d in enumerate(deadlines) if d is not None))


class Dynamics:
    """Mutable clock, budget and queue state of one episode."""

    __slots__ = ("cfg", "golds", "budget", "queues", "t", "on_clock", "late", "announce", "breached", "by_deadline",
                 "over_prioritised")

    def __init__(self, cfg: InboxConfig, golds: list[Gold | None], plan: SlaPlan, budget: int,
                 queues: dict[str, int]) -> None:
        self.cfg, self.golds, self.budget, self.queues = cfg, golds, budget, queues
        self.t = 0
        #: still on the SLA clock (not yet handled properly, not yet breached)
        self.on_clock = set(plan.clocked)
        #: unhandled emails past their deadline, and late emails handled this step (breaches not yet announced)
        self.late: set[int] = set()
        self.announce: list[int] = []
        self.breached: list[int] = []
        self.by_deadline = plan.by_deadline
        #: positions of the emails labelled above their true priority so far (their lane slows down:
        #: reward.over_priority_penalty)
        self.over_prioritised: list[int] = []

    def congestion(self, i: int) -> int:
        """Over-prioritised emails that still crowd the lane when email ``i`` is labelled."""
        window = self.cfg.penalties.over_priority_window
        # positions are appended in order: a binary search keeps a long episode linear
        return len(self.over_prioritised) - (bisect_left(self.over_prioritised, i - window) if window else 0)

    # ---- budget and queues ---------------------------------------------------------
    def spend_flag(self) -> bool:
        """Try to escalate; False when the budget is gone."""
        if self.budget <= 0:
            return False
        self.budget -= 1
        return True

    def enqueue(self, route: str) -> bool:
        """Put one email on ``route``'s queue; False on overflow."""
        if route in UNLIMITED_ROUTES or route not in self.queues:
            return True
        if self.queues[route] <= 0:
            return False
        self.queues[route] -= 1
        return True

    # ---- SLA -------------------------------------------------------------------------
    def handle(self, i: int, priority: str, route: str, reached_team: bool) -> None:
        """Take email ``i`` off the clock if this handling meets its SLA (a late one breaches now)."""
        if i in self.late:
            self.late.discard(i)
            self.announce.append(i)
            return
        if i not in self.on_clock:
            return
        g = self.golds[i]
        assert g is not None
        right_team = not self.cfg.sla_right_team or route == g.route_to or route in g.acceptable_routes
        if (reached_team and right_team and route not in UNLIMITED_ROUTES
                and PRIORITY_RANK[priority] - PRIORITY_RANK[g.priority] <= self.cfg.sla_tolerance):
            self.on_clock.discard(i)

    def tick(self, handled: int) -> list[int]:
        """Advance the clock one step; return the breaches to announce now. ``handled``: emails
        ``0 .. handled - 1`` have been handled; a later one past its deadline is only noted as late."""
        now = self.t
        self.t += 1
        out, self.announce = self.announce, []
        for i in self.by_deadline.get(now, ()):
            if i in self.on_clock:
                self.on_clock.discard(i)
                if i < handled:
                    out.append(i)
                else:
                    self.late.add(i)
        self.breached.extend(out)
        return out

    def flush(self) -> list[int]:
        """Episode over: everything still on the clock, or late, breaches."""
        out = sorted(self.on_clock | self.late)
        self.on_clock.clear()
        self.late.clear()
        self.breached.extend(out)
        return out

    def penalty(self, idx: list[int]) -> float:
        sla = self.cfg.sla
        return -sum(sla[self.golds[i].priority].penalty for i in idx)  # type: ignore[union-attr]

    def warnings(self, ids: list[str], handled: int) -> list[SlaWarning]:
        """Handled emails (index < ``handled``) on the clock with at most sla_warn_within steps left, soonest first."""
        out = []
        t = self.t
        for d in range(t, t + self.cfg.sla_warn_within + 1):
            for i in self.by_deadline.get(d, ()):
                if i < handled and i in self.on_clock:
                    out.append(construct(SlaWarning, {"email_id": ids[i], "steps_left": d - t}))
        return out
