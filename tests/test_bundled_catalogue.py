"""The bundled sample catalogue has the shape the README promises."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from cardbase.catalog.load import bundled_catalogue, read_catalogue
from cardbase.fields import RARITY_NAMES as RARITIES
from cardbase.games import FREE_REALMS
from tests.conftest import ROOT


@pytest.fixture(scope="module")
def specs():
    parsed = read_catalogue(bundled_catalogue())
    assert parsed.problems == []
    return parsed.specs


def test_size_and_series(specs) -> None:
    assert len(specs) >= 240
    assert len({spec.series for spec in specs}) >= 2


def test_every_rarity_sphere_and_type(specs) -> None:
    assert {spec.rarity for spec in specs} == set(RARITIES)
    assert {spec.sphere for spec in specs} == {*FREE_REALMS.spheres, None}
    assert {spec.type for spec in specs} == set(FREE_REALMS.types)


def test_heroes(specs) -> None:
    heroes = [spec for spec in specs if spec.hero]
    assert len(heroes) >= 12
    assert [spec.name for spec in heroes if spec.sphere is not None] == []
    assert [spec.name for spec in heroes if spec.type != "Creature"] == []


def test_each_sphere_can_make_a_legal_deck(specs) -> None:
    for sphere in FREE_REALMS.spheres:
        cards = [spec for spec in specs if spec.sphere == sphere]
        assert len({spec.name for spec in cards}) >= 14
        assert {spec.type for spec in cards} == set(FREE_REALMS.types)


def test_gems_names_and_text(specs) -> None:
    assert [(spec.name, spec.gems) for spec in specs if not 1 <= len(spec.gems) <= 4] == []
    assert len({spec.name for spec in specs}) == len(specs)
    assert [spec.name for spec in specs if not spec.text] == []
    assert [spec.name for spec in specs if not spec.lore] == []
    assert [spec.name for spec in specs if not spec.traits] == []
    creatures = [spec for spec in specs if spec.type == "Creature"]
    assert [s.name for s in creatures if None in (s.cost, s.attack, s.defense)] == []


def test_real_card_text_style(specs) -> None:
    texts = " ".join(spec.text for spec in specs)
    for marker in ("[Spend ", "] >> ", "[Stars ", "Stun my foe.", "Collect ", "[Chaos]"):
        assert marker in texts


def test_examples_used_in_the_docs(specs) -> None:
    by_code = {(s.series, s.rarity, s.number): s for s in specs}
    assert by_code[(1, "C", 14)].name == "Chugawug Cook"
    assert (1, "U", 132) in by_code
    numbers = Counter((s.series, s.number) for s in specs)
    assert max(numbers.values()) == 1


def test_the_generator_writes_the_committed_catalogue(tmp_path: Path) -> None:
    regenerated = tmp_path / "cards.csv"
    with regenerated.open("wb") as out:
        subprocess.run(
            [sys.executable, "tools/make_sample_catalogue.py"], cwd=ROOT, stdout=out, check=True
        )
    new, committed = regenerated.read_bytes(), (ROOT / "cards.csv").read_bytes()
    assert new.decode().splitlines() == committed.decode().splitlines()  # which rows differ
    assert new == committed  # line endings and encoding too
