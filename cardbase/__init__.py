"""cardbase: a card database and collection manager for trading card games.

The Python API is one object, `cardbase.Library` (see `cardbase.library`)::

    from cardbase import Library

    Library.open("cards.db").search("chugawug")
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardbase.library import Library

__version__ = "0.1.0"
__all__ = ["Library", "__version__"]


def __getattr__(name: str) -> Any:
    """`Library` loads on first use: a command's start-up does not pay for it."""
    if name == "Library":
        from cardbase.library import Library

        return Library
    raise AttributeError(f"module 'cardbase' has no attribute {name!r}")
