"""The pages' script parses: a merge that drops one brace turns every keyboard and focus
aid off at once, and no page test without a browser would notice."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.conftest import ROOT


def test_app_js_parses() -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CARDBASE_REQUIRE_BROWSER") == "1":
            pytest.fail("CARDBASE_REQUIRE_BROWSER=1 but there is no node: apt-get install nodejs")
        pytest.skip("no node to parse the script with: apt-get install nodejs")
    checked = subprocess.run(
        [node, "--check", str(ROOT / "cardbase/web/static/app.js")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stderr
