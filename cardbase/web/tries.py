"""Guessing slowed down: a player's code and the organiser's PIN are short secrets typed on
a phone, so each device (by its address) has a few wrong tries a minute, then waits.

Ten tries a minute at a code of 25^6 (about 244 million) leaves a guesser nothing within an
event's day; the organiser's PIN is theirs to make longer than the four digits a phone's
is.
"""

from __future__ import annotations

from fastapi import Request

from cardbase.web.guard import Refused
from cardbase.web.site import site_of

MAX_WRONG = 10
WINDOW = 60.0  # seconds


def _who(request: Request) -> str:
    return request.client.host if request.client else ""


def check(request: Request) -> None:
    """Refuse a device past its wrong tries, before its guess is even compared."""
    if site_of(request).wrong_tries.recent(_who(request), WINDOW) >= MAX_WRONG:
        raise Refused(
            "too many wrong codes from this device; wait a minute, then type it again", 429
        )


def wrong(request: Request) -> None:
    site_of(request).wrong_tries.add(_who(request))
