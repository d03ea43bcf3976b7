"""Options shared by commands that search: the plain-option form of the query language.

Each option stands for one query field (`--sphere chaos` is `sphere:chaos`) and is made from
that field's entry in `cardbase.fields`; the library turns the values into query nodes with
the term builders the parser uses, so both forms always agree.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any

import typer

from cardbase.errors import shorten
from cardbase.fields import FLAGS, OPTION_FIELDS, SORT_KEYS, CardField
from cardbase.limits import MAX_RESULTS

PANEL = "Filters (same as the query language)"


def _value_option(field: CardField) -> object:
    return Annotated[
        str | None,
        typer.Option(
            f"--{field.name}",
            help=f"{field.option}, e.g. --{field.name} {field.example}",
            rich_help_panel=PANEL,
        ),
    ]


def _flag_option(flag: str, meaning: str) -> object:
    return Annotated[bool, typer.Option(f"--{flag}", help=meaning, rich_help_panel=PANEL)]


@functools.cache
def _all_filter_parameters() -> tuple[inspect.Parameter, ...]:
    """Made once per process: three commands share them, and each costs typing's machinery."""
    keyword = inspect.Parameter.KEYWORD_ONLY
    values = [
        inspect.Parameter(field.name, keyword, default=None, annotation=_value_option(field))
        for field in OPTION_FIELDS
    ]
    flags = [
        inspect.Parameter(flag, keyword, default=False, annotation=_flag_option(flag, meaning))
        for flag, meaning in FLAGS.items()
    ]
    return (*values, *flags)


def filter_parameters(skip: tuple[str, ...] = ()) -> list[inspect.Parameter]:
    """A plain option for every query field that has one, and a flag for every is: term.

    Generated from `cardbase.fields`, so a new field gets its option in every command that
    filters, and the library reads the options by the same names.
    """
    return [param for param in _all_filter_parameters() if param.name not in skip]


def with_filters(command: Callable[..., None], skip: tuple[str, ...] = ()) -> Callable[..., None]:
    """`command` with the filter options added; it gets their values as one `filters` dict."""
    # The command's module leaves out `from __future__ import annotations`, so its annotations
    # are objects already: evaluating strings here cost each start a millisecond or two.
    own = inspect.signature(command)
    filters = filter_parameters(skip)
    names = [param.name for param in filters]

    def run(**values: Any) -> None:
        filters = {name: values.pop(name) for name in names}
        command(**values, filters=filters)

    own_params = [param for name, param in own.parameters.items() if name != "filters"]
    run.__signature__ = own.replace(parameters=[*own_params, *filters])  # type: ignore[attr-defined]
    run.__doc__ = command.__doc__
    run.__name__ = command.__name__
    run.__module__ = command.__module__
    return run


QueryWords = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="[QUERY]...",
        help="Words and field terms, e.g. chug* s:nature cost<=2 -is:owned (see "
        "docs/query-language.md). A word starting with - excludes; options take their value as "
        "the next word (-o json).",
    ),
]
Sort = Annotated[
    str | None,
    typer.Option("--sort", help=f"Sort by {', '.join(SORT_KEYS)}."),
]
Desc = Annotated[bool, typer.Option("--desc", help="Sort in descending order.")]


def whole_number(value: str | int) -> int:
    """`--limit N`: 1 or more; an N past `MAX_RESULTS` means every match, as that one does,
    so it is read as that rather than sent to SQLite, which holds no number past 2**63 (and
    int() reads none of over 4,300 digits)."""
    if isinstance(value, int):
        return value
    text = value.strip()
    if not text.isascii() or not text.isdigit():
        raise typer.BadParameter(f"'{shorten(text, 20)}' is not a whole number")
    digits = text.lstrip("0")
    if not digits:
        raise typer.BadParameter("it must be 1 or more")
    if len(digits) > len(str(MAX_RESULTS)):
        return MAX_RESULTS
    return min(int(digits), MAX_RESULTS)


Limit = Annotated[
    int | None,
    typer.Option("--limit", "-n", parser=whole_number, metavar="N", help="Show at most N cards."),
]
ShowAll = Annotated[
    bool, typer.Option("--all", help="On a terminal too, show every match, not only the first 50.")
]
Overwrite = Annotated[bool, typer.Option("--force", help="Overwrite the file if it exists.")]
Unsleeve = Annotated[
    bool,
    typer.Option(
        "--force", help="Take copies sleeved in built decks out of those decks ('deck sleeve')."
    ),
]
Count = Annotated[bool, typer.Option("--count", help="Print only the number of matches.")]
Explain = Annotated[
    bool, typer.Option("--explain", help="Show the query as understood and its SQL; run nothing.")
]
