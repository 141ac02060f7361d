"""Inbox baselines (random, rules, oracle), the repair layer, and metrics."""

from __future__ import annotations

import pytest
from inbox_agents_helpers import _mail

from supportgym import make
from supportgym.agents import make_agent
from supportgym.agents.inbox_heuristics import analyse, lookalike, rules
from supportgym.agents.inbox_rules import InboxOracleAgent, InboxRulesAgent
from supportgym.agents.repair import validate_action
from supportgym.envs.inbox.models import InboxAction, LabelledEmail
from supportgym.envs.inbox.tasks import load_task
from supportgym.eval.runner import episode_specs, evaluate, summarize

TASKS = ("easy", "medium", "hard")


def score(agent: str, **spec) -> dict[str, float]:
    return summarize("inbox-v0", evaluate("inbox-v0", agent, episode_specs(**spec), seed=0))


def test_agents_are_registered():
    assert isinstance(make_agent("inbox", "rules", seed=1), InboxRulesAgent)
    oracle = make_agent("inbox", "oracle", seed=None)
    assert isinstance(oracle, InboxOracleAgent) and oracle.is_oracle
    assert not InboxRulesAgent.is_oracle


@pytest.mark.parametrize("task", TASKS)
def test_oracle_is_perfect_on_fixed_tasks(task):
    m = score("oracle", task=task)
    assert m["normalized_score"] == pytest.approx(1.0)
    assert m["sla_breaches"] == 0 and m["budget_abuse"] == 0 and m["queue_overflows"] == 0


def test_oracle_near_perfect_on_generated_test_split():
    assert score("oracle", split="test", episodes=4, size=10)["normalized_score"] >= 0.97


@pytest.mark.parametrize("task", TASKS)
def test_rules_clearly_beat_random(task):
    rules_score = score("rules", task=task)["normalized_score"]
    random_score = score("random", task=task, episodes=5)["normalized_score"]
    assert rules_score > random_score + 0.4


def test_rules_beat_random_on_generated_test_split():
    r = score("rules", split="test", episodes=4, size=10)
    x = score("random", split="test", episodes=4, size=10)
    assert r["normalized_score"] > x["normalized_score"] + 0.25
    assert r["category_accuracy"] > 0.5 > x["category_accuracy"]


def test_rules_agent_never_reads_gold():
    """Same mail without gold labels -> the same actions, byte for byte."""
    t = load_task("hard")
    bare = [LabelledEmail(email=e.email) for e in t.emails]
    actions = []
    for emails in (list(t.emails), bare):
        env = make("inbox-v0")
        agent = InboxRulesAgent(seed=0)
        obs = env.reset(seed=0, emails=emails)
        agent.bind(env, 0)
        seq = []
        while not obs.done:
            a = agent.act(obs)
            seq.append(a)
            obs = env.step(a)
        actions.append(seq)
    assert actions[0] == actions[1]


def test_rules_detect_lookalike_phishing_and_spare_real_senders():
    d = rules().data
    assert lookalike("brlghtdesk.io", d)
    assert lookalike("brightdesk-helpdesk.com", d)
    assert lookalike("paypa1.com", d) and lookalike("rnicrosoft.com", d)
    assert lookalike("p\u0430ypal.com", d)
    assert lookalike("paypal.com.secure-42.xyz", d)
    for ok in ("brightdesk.io", "paypal.com", "gmail.com", "meridianlabs.com", "hartley-associates-law.co.uk",
               "purchase-orders.com", "groups.io"):
        assert lookalike(ok, d) is None, ok
    hard = {e.id: e for e in load_task("hard").emails}
    agent = InboxRulesAgent()
    assert agent.read(hard["h02"].email)[1] == "spam_phishing"  # billing phishing on brlghtdesk.io
    assert agent.read(hard["h08"].email)[1] == "billing_inquiry"  # the real billing emergency
    assert analyse(hard["h02"].email).spam_reasons


@pytest.mark.parametrize("sender,subject,body,phish", [
    # customers' webmail named with the everyday word for mail ("correio", "correo") or the post ("laposte"):
    # no Correos or La Poste phish unless the email claims the brand (3 Dec: eight hand-written customers trashed)
    ("Beatriz Costa <bia.costa@correio.pt>", "Relógio não sincroniza com o telemóvel",
     "Boa noite, comprei um smartwatch na vossa loja (encomenda BD-2025-423118) e deixou de sincronizar com o meu "
     "telemóvel. Podem ajudar? Obrigada, Beatriz", False),
    ("Chloé Bernard <chloe.bernard@laposte-mail.fr>", "Clavier QWERTZ au lieu d'AZERTY",
     "Bonjour, j'ai reçu mon ordinateur portable avec un clavier allemand au lieu du clavier AZERTY commandé. "
     "Pouvez-vous l'échanger ? Cordialement, Chloé Bernard\nchloe.bernard@laposte-mail.fr", False),
    ("Correos <avisos@correos-entregas-es.com>", "Su paquete no ha podido ser entregado",
     "Correos: su paquete ES8847201 está retenido. Pague 1,99 EUR de gastos de envío aquí: "
     "http://correos-entregas-es.com/pago", True),
    ("Avis de passage <notification@laposte-suivi.info>", "Votre colis est en attente",
     "La Poste : votre colis n'a pas pu être livré. Réglez les frais de réexpédition de 2,99 EUR sur "
     "http://laposte-suivi.info/colis", True),
])
def test_a_sender_domain_named_with_the_word_for_mail_is_no_phish_unless_the_email_claims_the_brand(
        sender, subject, body, phish):
    a = analyse(_mail(subject, body, sender).email)
    assert any(r.startswith("sender ") for r in a.spam_reasons) is phish, a.spam_reasons
    assert (InboxRulesAgent().read(_mail(subject, body, sender).email)[1] == "spam_phishing") is phish


def test_rules_save_the_budget_and_the_tier2_queue():
    rec = evaluate("inbox-v0", "rules", episode_specs(task="hard"))[0]
    preds = {p["id"]: p for p in rec.report["predictions"]}
    assert not preds["h02"]["flag_review"]  # phishing "FINAL NOTICE" not escalated
    assert not preds["h04"]["flag_review"]  # routine urgent lockout keeps the budget for worse
    assert preds["h09"]["flag_review"] and preds["h09"]["escalated"]
    assert rec.report["queue_overflows"] == 0 and rec.report["budget_abuse"] == 0


def test_rules_replies_cite_the_email():
    e = load_task("easy").emails[3]
    reply = InboxRulesAgent().act(_obs_for(e))["reply_draft"]
    assert "INV-2024-0042" in reply and "4,850" in reply


def _obs_for(le: LabelledEmail):
    env = make("inbox-v0")
    return env.reset(seed=0, emails=[le])


def test_agent_counters_reach_the_record():
    rec = evaluate("inbox-v0", "rules", episode_specs(task="easy"))[0]
    assert rec.agent_counters["actions"] == 5
    m = summarize("inbox-v0", [rec])
    assert m["repair_rate"] == 0.0 and m["invalid_rate"] == 0.0


# ---- repair layer ---------------------------------------------------------------------
@pytest.mark.parametrize("field,raw,fixed", [
    ("category", "sales_leads", "sales_lead"),
    ("category", "Billing", "billing_inquiry"),
    ("category", "Spam / Phishing", "spam_phishing"),
    ("route_to", "tier 1", "support_tier1"),
    ("route_to", "Support-Tier2", "support_tier2"),
    ("route_to", "finance", "billing"),
    ("priority", "Critical", "urgent"),
    ("priority", "HIGH", "high"),
])
def test_repair_near_miss_enums(field, raw, fixed):
    out, fixes = validate_action({"email_id": "e1", "priority": "low", "category": "general_inquiry",
                                  "route_to": "archive", field: raw})
    assert out[field] == fixed and any(field in f for f in fixes)
    InboxAction.model_validate(out)


def test_repair_unwraps_lists_text_and_fills_missing():
    email = load_task("easy").emails[0].email
    raw = '```json\n[{"email_id": "e001", "priority": "urgent", "category": "technical_support", ' \
          '"route": "tier2", "flag_review": "true", "reply_draft": null, "confidence": 0.9}]\n```'
    out, fixes = validate_action(raw, email)
    action = InboxAction.model_validate(out)
    assert action.route_to == "support_tier2" and action.flag_review is True
    assert action.reply_draft and action.summary
    joined = " ".join(fixes)
    for word in ("fence", "unwrapped", "route", "flag_review", "reply_draft", "confidence"):
        assert word in joined


def test_repair_leaves_valid_actions_alone_and_unplaceable_values_invalid():
    good = {"email_id": "e1", "priority": "low", "category": "general_inquiry", "route_to": "archive",
            "summary": "", "flag_review": False, "reply_draft": ""}
    assert validate_action(good) == (good, [])
    out, _ = validate_action({**good, "category": "astrology"})
    assert out["category"] == "astrology"  # not guessed: the environment scores it as invalid
    assert validate_action("not json at all")[1][0] == "could not parse the action as JSON"


def test_repair_rate_is_measured():
    class Sloppy(InboxOracleAgent):
        name = "sloppy"

        def act(self, observation):
            a = dict(super().act(observation))
            a["category"] = a["category"].upper()
            fixed, fixes = validate_action(a, observation.current_email)
            if fixes:
                self.count("repairs")
            return fixed

    recs = evaluate("inbox-v0", Sloppy(), episode_specs(task="easy"))
    m = summarize("inbox-v0", recs)
    assert m["repair_rate"] == pytest.approx(1.0) and m["normalized_score"] == pytest.approx(1.0)


def test_metrics_summary_keys():
    m = score("random", task="medium", episodes=2)
    for key in ("mean_reward", "normalized_score", "priority_accuracy", "category_accuracy", "route_accuracy",
                "flag_precision", "flag_recall", "sla_breaches", "budget_abuse", "invalid_rate", "repair_rate"):
        assert isinstance(m[key], float)
    assert 0.0 <= m["normalized_score"] <= 1.0
