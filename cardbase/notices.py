"""What cardbase has to tell a user once, apart from any command's own output.

An upgrade runs inside whichever command first opens an older database, and some upgrades
have something to say (a database made from the old sample catalogue can move to the real
one). They say it here; the command line prints what was said on stderr when the command
ends, so it is said once, by the command that did the upgrade.
"""

from __future__ import annotations

_PENDING: list[str] = []


def tell(message: str) -> None:
    _PENDING.append(message)


def take() -> list[str]:
    """What was said since the last call, in order; said once, then gone."""
    said = _PENDING[:]
    _PENDING.clear()
    return said
