"""Amounts as an office writes them (DESIGN.md: money as decimals, the event's currency from
``[event] currency``): Indian grouping for rupees as the National Junior regulations write
them ("Rs 2,50,000"), thousands and two decimals otherwise ("$1,250.00")."""

from __future__ import annotations

from decimal import Decimal

SYMBOLS = {"INR": "Rs ", "USD": "$", "EUR": "€", "GBP": "£"}
"""How the regulations write each currency before an amount; others as ``"CHF "``."""


def symbol(currency: str) -> str:
    """What stands before an amount of ``currency`` ("Rs ", "$", or the code and a space)."""
    return SYMBOLS.get(currency, f"{currency} ")


def grouped(amount: Decimal | float | int, currency: str) -> str:
    """The amount's digits: rupees in whole rupees with Indian grouping (2,50,000), other
    currencies with thousands separators and two decimals (1,250.00)."""
    value = Decimal(str(amount))
    if currency != "INR":
        return f"{value:,.2f}"
    whole = int(value)
    s = str(abs(whole))
    if len(s) > 3:
        head, tail = s[:-3], s[-3:]
        groups: list[str] = []
        while len(head) > 2:
            groups.insert(0, head[-2:])
            head = head[:-2]
        if head:
            groups.insert(0, head)
        s = ",".join(groups + [tail])
    return ("-" if whole < 0 else "") + s


def amount_text(amount: Decimal | float | int, currency: str) -> str:
    """An amount in running text: "Rs 1,500", "$7.00"."""
    return f"{symbol(currency)}{grouped(amount, currency)}"
