"""Amounts of money in a reply: figures with a currency in six languages, and amounts told in words (which no check can
read, so a remedy stating one fails closed)."""

from __future__ import annotations

import re
from functools import lru_cache

#: (an amount before its symbol is no order id's digits: "fur Bestellung ORD-54446 $95.00 erstattet" read $54,446, round 13)
# (thousands grouped by a space before the sign, as French writes them: "1 150 $" is $1,150, not $150; round 22)
# (other currencies too: "£900", "Rs. 900", "900 reais", "900 bucks" were no amount, so a remedy promising them passed the
# amount check; red team of 5 Dec. "Rs." with its dot: "the RS 232 port" is no amount)
# (a number is at most 32 characters: "1.1.1.1..." was scanned to its end from each of its digits, 1.5 s a QA step on
# a 6,000-character draft; red team of 5 Dec)
#: currencies written before an amount, and after one (red team of 5 Dec, 32nd session: "CHF 500", "¥500", "500,- €"
#: stated a refund no check read, and an honest "54.40 US dollars" told no amount). Not "pounds" alone: "your parcel
#: weighed 12 pounds" is no amount (the second red team the same day)
_CURRENCY_BEFORE = r"(?:[ac]?\$|usd\s?|€|eur\s?|£|gbp\s?|₹|inr\s?|(?<![a-z])rs\.\s?|¥|jpy\s?|(?<![a-z])(?:cad|aud|chf|sek|nok|dkk)\s?|(?<![a-z])kr\.?\s?)"
_CURRENCY_AFTER = (r"(?:us\s?\$|\$|usd\b|(?:us\s)?dollars?\b|€|eur\b|euros?\b|dolares\b|dolar\b|dollari\b|£|gbp\b"
                   r"|quid\b|₹|inr\b|rupees?\b|reais\b|brl\b|bucks\b|¥|yen\b|jpy\b|pesos?\b|cad\b|aud\b|chf\b|francs?\b"
    r"|pounds?\s+sterling\b"
                   r"|franken\b|kr\b|kronor\b|kroner\b|sek\b|nok\b|dkk\b)")
_MONEY = re.compile(
    rf"{_CURRENCY_BEFORE}\s?(\d[\d,.]{{0,30}}\d|\d)"
    r"|(?<![\w-])(\d{1,3}(?:[ \u00a0\u202f]\d{3}){1,10}(?:,\d{1,2})?|\d[\d,.]{0,30}\d|\d)(?:,-)?\s?" + _CURRENCY_AFTER,
    re.IGNORECASE)
#: an amount in words, or a multiple of what was paid ("an extra nine hundred dollars", "twice the amount you paid"):
#: nothing the amount check can read, so a remedy promise stating one fails closed (consistency)
SPELLED_MONEY = re.compile(
    r"\b(?:(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|hundred|thousand|ein|zwei|drei|funf|zehn|hundert|tausend|uno|dos|tres|cinco|diez|"
    r"cien|ciento|mil|deux|trois|cinq|dix|cent|mille|cem|dez)[\s-]+(?:(?:and|y|e|et|und)[\s-]+)?)+"
    r"(?:dollars|bucks|euros|pounds|reais|rupees|dolares|quid|yen|pesos|francs|franken|grand)\b"
    # "$five hundred", "1k dollars", "$2k", "half a grand"
    r"|[$€£¥]\s?(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|hundred|thousand)\b"
    r"|\b\d+(?:[.,]\d+)?\s?k\s?(?:dollars|bucks|euros|pounds|usd|eur)\b|[$€£¥]\s?\d+(?:[.,]\d+)?k\b"
    r"|\b(?:a|half a) grand\b(?!\s+total)"
    # a multiple of what was paid in its comparative frame only: "die doppelte Abbuchung des Betrags" is the double
    # charge that is refunded, and "the five-dollar shipping fee" a fee (review of 5 Dec)
    r"|\b(?:twice|double|triple|quadruple|(?:[a-z]+|\d+) times) (?:the|what|your) (?:amount|price|sum|total|you paid)\b"
    r"|\b(?:das doppelte|den doppelten) (?:des|vom) (?:betrag|preis|kaufpreis)|\bden doppelten (?:betrag|preis)\b(?!\s+(?:von|uber|in\s+hohe\s+von)\s+(?:[$€£]|\d))"  # (the duplicate amount "von $29.50")
    r"|\b(?:el doble|o dobro) (?:del|de lo|do) (?:importe|monto|precio|que|valor|preco)\b"
    r"|\ble double (?:du|de ce) (?:montant|prix|que)\b",
    re.IGNORECASE)


def parse_amount(raw: str) -> float:
    """"1,200.50" -> 1200.5; "89,00" (decimal comma) -> 89.0; "1.200,50" -> 1200.5."""
    raw = re.sub(r"(?<=\d)[ \u00a0\u202f](?=\d{3})", "", raw)  # "1 150" (a French thousands space)
    if re.fullmatch(r"\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?", raw) or re.fullmatch(r"\d+,\d{1,2}", raw):
        raw = raw.replace(".", "").replace(",", ".")
    return round(float(raw.replace(",", "")), 2)


#: a customer's lifetime value or spending before an amount: "With a lifetime value over $5,000 you are treated as a VIP
#: customer ... VIP customers whose orders are delayed receive a goodwill store credit" (the 41st session's held-out writer:
#: read as a store credit of $5,000)
_THRESHOLD = re.compile(r"\b(?:lifetime\s+value|spent|spending|spend|gasto|gastos|depenses|ausgaben|umsatz|valor\s+vitalicio"
                        r"|valor\s+total\s+de\s+compras)\b(?:\s+\S+){0,4}?\s*$")


def amounts(text: str) -> list[float]:
    return list(_amounts(text))


@lru_cache(maxsize=256)
def _amounts(text: str) -> tuple[float, ...]:
    # cached: the extractor asks for the amounts of a clause's whole sentence once per clause (red team of 5 Dec: a
    # 6,000-character sentence of 141 remedy clauses took 40 s a QA step)
    out = []
    for m in _MONEY.finditer(text):
        if _THRESHOLD.search(text, max(0, m.start() - 40), m.start()):
            continue  # the VIP threshold the policy names, not money moved
        try:
            out.append(parse_amount((m.group(1) or m.group(2)).rstrip(".,")))
        except ValueError:
            continue
    return tuple(out)
