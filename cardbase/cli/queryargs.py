"""Query words that start with '-' on the command line.

The query language negates with a leading '-' (`-s:order`, `-is:owned`, `-dragon`), which
click would read as options it does not know. Search-like commands therefore sort their
arguments first: the words that are exactly one of the command's options (with the value
after it) stay options, every other word is part of the query, in the order typed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import typer.core


def options_before_words(args: Sequence[str], options: Mapping[str, bool]) -> list[str]:
    """`args` as options, then `--`, then the query words; `options` maps each option name
    to whether it takes a value.

    A word is an option only when it is one exactly (or `--name=value`); an unknown
    `--word` is left for click to refuse with its own "did you mean". So `-ojson` is the
    query term "not ojson": options take their value as the next word. An option left
    without one raises ValueError, since the `--` added here would otherwise become its value.
    """
    leading: list[str] = []
    words: list[str] = []
    position = 0
    while position < len(args):
        word = args[position]
        position += 1
        name = word.split("=", 1)[0]
        if word == "--":
            words.extend(args[position:])
            break
        if name in options and (name.startswith("--") or name == word):
            leading.append(word)
            if options[name] and name == word:
                if position == len(args):
                    raise ValueError(f"Option '{word}' requires an argument.")
                leading.append(args[position])
                position += 1
        elif word.startswith("--") and len(word) > 2:
            leading.append(word)  # a mistyped option, reported as such
        else:
            words.append(word)
    return [*leading, "--", *words]


class QueryCommand(typer.core.TyperCommand):
    """A command whose query words may start with '-', unquoted."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        options: dict[str, bool] = {}
        for param in self.get_params(ctx):
            if param.param_type_name != "option":
                continue
            flag = getattr(param, "is_flag", False) or getattr(param, "count", False)
            for name in (*param.opts, *param.secondary_opts):
                options[name] = not flag
        try:
            sorted_args = options_before_words(args, options)
        except ValueError as exc:
            ctx.fail(str(exc))  # click's own usage error: exit 2
        return super().parse_args(ctx, sorted_args)
