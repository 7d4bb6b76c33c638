"""The support-routing example from TypeSafe's memory cookbook, as plain data.

Two customers write to support. Five earlier tickets tell what each runs and pays for (three of
them state a lasting fact, two only a passing one); six later messages never mention the setup,
so the right team can only be found with what was learned earlier. The same message goes to
different teams for different customers. The cookbook's ticket texts are not published, so these
were written for Dossier from the cookbook's description; the customers, the questions and the
expected teams are the cookbook's.

`dossier demo` and the tests both read this module; nothing here talks to an engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Customer:
    id: str
    company: str
    contact: str


@dataclass(frozen=True)
class Ticket:
    """One support ticket and the team a person routed it to."""

    id: str
    customer_id: str
    received_on: str
    subject: str
    text: str
    expected_team: str
    lasting_fact: str | None = None
    """The memory line a person would keep from this ticket; None when it states nothing lasting."""


HARBOR = Customer(id="C-1042", company="Harbor Logistics", contact="Dana Whitfield")
FERNWOOD = Customer(id="C-2210", company="Fernwood Studio", contact="Theo Marsh")
CUSTOMERS: dict[str, Customer] = {c.id: c for c in (HARBOR, FERNWOOD)}

ROUTE: dict[str, Any] = {
    "team": {
        "type": "choice",
        "instructions": "Which support team should handle `ticket`?",
        "criteria": {
            "cloud_ops": "Cloud team: problems with the hosted cloud edition, run by us",
            "selfhosted_linux": (
                "Self-hosted team, Linux: installs, upgrades and performance of the self-hosted "
                "edition on Linux servers"
            ),
            "selfhosted_windows": (
                "Self-hosted team, Windows Server: installs, upgrades and performance of the "
                "self-hosted edition on Windows Server"
            ),
            "billing": "Billing: invoices, payments, seats and plan changes for self-serve plans",
            "enterprise_desk": (
                "Enterprise desk: seats, contracts and account changes for customers on an "
                "Enterprise contract (their technical problems go to the technical teams)"
            ),
            "general": "General product questions: features, how-to, settings",
            "none_suitable": "None of these teams fits the ticket",
        },
    }
}
"""The routing question, in System One wire form."""

GATE: dict[str, Any] = {
    "remember": {
        "type": "noul",
        "instructions": (
            "In `request.ticket`, does the thread state a lasting fact about the customer that "
            "should change how their future, unrelated tickets are handled? Count what the "
            "customer or our support staff wrote in `request.ticket`. `jev_answered` shows how "
            "the ticket was routed, which may rely on things learned earlier: do not count "
            "anything it says or implies."
        ),
        "criteria": {
            "true": (
                "Yes: in `request.ticket` the customer or our support staff state something "
                "about the customer that stays true after this ticket, such as the product "
                "edition or operating system they run, their plan or contract, or a standing "
                "preference."
            ),
            "false": (
                "No: `request.ticket` only contains things specific to this one ticket or "
                "moment, such as a one-off request, today's schedule, or the device they "
                "happen to be typing on; or the lasting fact appears only in `jev_answered`."
            ),
        },
    }
}
"""The cookbook's gate: does a ticket state a lasting fact worth remembering?"""

EARLIER_TICKETS: tuple[Ticket, ...] = (
    Ticket(
        id="T-101",
        customer_id="C-1042",
        received_on="2026-08-04",
        subject="Patch 5.1.3 on our servers",
        text=(
            "Hi, we run your self-hosted edition on Windows Server 2022 in our own data centre. "
            "Is the 5.1.3 security patch safe to apply during business hours, or should we wait "
            "for the weekend?"
        ),
        expected_team="selfhosted_windows",
        lasting_fact="Harbor Logistics runs the self-hosted edition on Windows Server.",
    ),
    Ticket(
        id="T-102",
        customer_id="C-2210",
        received_on="2026-08-11",
        subject="Logo on the login page",
        text=(
            "We're on the cloud edition with the self-serve Team plan. How do I put our own logo "
            "on the login page?"
        ),
        expected_team="general",
        lasting_fact="Fernwood Studio uses the cloud edition on the self-serve Team plan.",
    ),
    Ticket(
        id="T-103",
        customer_id="C-1042",
        received_on="2026-08-19",
        subject="Invoice copy",
        text=(
            "Sorry for the typos, I'm typing on my phone at the airport. Could you resend last "
            "month's invoice to our accounts team?"
        ),
        expected_team="billing",
    ),
    Ticket(
        id="T-104",
        customer_id="C-2210",
        received_on="2026-08-28",
        subject="Onboarding call",
        text=(
            "Our whole team is out on Friday for a public holiday, so please don't book the "
            "onboarding call then. Would Monday work?"
        ),
        expected_team="general",
    ),
    Ticket(
        id="T-105",
        customer_id="C-1042",
        received_on="2026-09-03",
        subject="Account manager",
        text=(
            "We signed our Enterprise contract in March. Who is our account manager now? We'd "
            "like to talk about the renewal terms."
        ),
        expected_team="enterprise_desk",
        lasting_fact="Harbor Logistics has an Enterprise contract, signed in March.",
    ),
)

_SLOW = (
    "Slow dashboards",
    "Dashboards have been really slow since this morning. Every report takes minutes to open.",
)
_UPGRADE = (
    "Upgrade to 5.2 failing",
    "The upgrade to version 5.2 keeps failing halfway through. We tried twice and got the same "
    "error both times.",
)
_SEATS = (
    "20 more seats",
    "We need 20 more seats for new colleagues who start next month. How do we add them?",
)

LATER_MESSAGES: tuple[Ticket, ...] = (
    Ticket("T-201", "C-1042", "2026-09-15", *_SLOW, expected_team="selfhosted_windows"),
    Ticket("T-202", "C-1042", "2026-09-16", *_UPGRADE, expected_team="selfhosted_windows"),
    Ticket("T-203", "C-1042", "2026-09-17", *_SEATS, expected_team="enterprise_desk"),
    Ticket("T-204", "C-2210", "2026-09-15", *_SLOW, expected_team="cloud_ops"),
    Ticket("T-205", "C-2210", "2026-09-16", *_UPGRADE, expected_team="cloud_ops"),
    Ticket("T-206", "C-2210", "2026-09-17", *_SEATS, expected_team="billing"),
)
"""Messages that never mention the setup: only memory can tell the two customers apart."""


def ticket_state(ticket: Ticket) -> dict[str, Any]:
    """The ticket as the cookbook's state: `customer` and `ticket` with its message thread."""
    customer = CUSTOMERS[ticket.customer_id]
    return {
        "customer": {"id": customer.id, "company": customer.company},
        "ticket": {
            "id": ticket.id,
            "received_on": ticket.received_on,
            "subject": ticket.subject,
            "messages": [{"from": customer.contact, "text": ticket.text}],
        },
    }


def lasting_facts(customer_id: str) -> list[str]:
    """The memory lines a person would keep about a customer from the earlier tickets."""
    return [
        t.lasting_fact
        for t in EARLIER_TICKETS
        if t.customer_id == customer_id and t.lasting_fact is not None
    ]
