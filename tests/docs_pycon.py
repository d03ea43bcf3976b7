"""The docs' ```pycon blocks as doctests, for tests/docs_runner.py: one process per page, so a
page's blocks share their names as one Python session would; a block per line of JSON on
stdin, a report per line of JSON on stdout."""

from __future__ import annotations

import doctest
import io
import json
import sys


def main() -> None:
    names: dict[str, object] = {"__name__": "__main__"}
    parser = doctest.DocTestParser()
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    for line in sys.stdin:
        request = json.loads(line)
        test = parser.get_doctest(
            request["text"], names, request["name"], request["name"], request["line"]
        )
        out = io.StringIO()
        runner = doctest.DocTestRunner(optionflags=flags)
        real_stdout = sys.stdout
        try:
            runner.run(test, out=out.write, clear_globs=False)
        finally:
            sys.stdout = real_stdout
        names.update(test.globs)
        report = {"failed": runner.failures, "output": out.getvalue()}
        real_stdout.write(json.dumps(report) + "\n")
        real_stdout.flush()


if __name__ == "__main__":
    main()
