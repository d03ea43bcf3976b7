"""The sample catalogue (invented cards in the real shape, with texts) has the shape the
tests' databases start from (docs/architecture.md, "Tests"), for the demos and the tests."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from cardbase.catalog.choice import SAMPLE, built_in
from cardbase.catalog.load import read_catalogue
from cardbase.fields import RARITY_NAMES as RARITIES
from cardbase.games import FREE_REALMS
from tests.helpers import ROOT


@pytest.fixture(scope="module")
def cards():
    parsed = read_catalogue(built_in(SAMPLE))
    assert parsed.problems == []
    return parsed.cards


def test_size_and_series(cards) -> None:
    assert len(cards) >= 240
    assert len({card.code.series for card in cards}) >= 2


def test_every_rarity_sphere_and_type(cards) -> None:
    assert {card.code.rarity for card in cards} == set(RARITIES)
    assert {card.sphere for card in cards} == {*FREE_REALMS.spheres, None}
    assert {card.type for card in cards} == set(FREE_REALMS.types)


def test_heroes(cards) -> None:
    heroes = [card for card in cards if card.hero]
    assert len(heroes) >= 12
    assert [card.name for card in heroes if card.sphere is not None] == []
    assert [card.name for card in heroes if card.type != "Creature"] == []


def test_each_sphere_can_make_a_legal_deck(cards) -> None:
    for sphere in FREE_REALMS.spheres:
        in_sphere = [card for card in cards if card.sphere == sphere]
        assert len({card.name for card in in_sphere}) >= 14
        assert {card.type for card in in_sphere} == set(FREE_REALMS.types)


def test_gems_names_and_text(cards) -> None:
    assert [(card.name, card.gems) for card in cards if not 1 <= len(card.gems) <= 4] == []
    assert len({card.name for card in cards}) == len(cards)
    assert [card.name for card in cards if not card.text] == []
    assert [card.name for card in cards if not card.lore] == []
    assert [card.name for card in cards if not card.traits] == []
    creatures = [card for card in cards if card.type == "Creature"]
    assert [s.name for s in creatures if None in (s.cost, s.attack, s.defense)] == []


def test_real_card_text_style(cards) -> None:
    texts = " ".join(card.text for card in cards)
    for marker in ("[Spend ", "] >> ", "[Stars ", "Stun my foe.", "Collect ", "[Chaos]"):
        assert marker in texts


def test_examples_used_in_the_docs(cards) -> None:
    by_code = {tuple(s.code): s for s in cards}
    assert by_code[(1, "C", 14)].name == "Chugawug Cook"
    assert (1, "U", 132) in by_code
    numbers = Counter((s.code.series, s.code.number) for s in cards)
    assert max(numbers.values()) == 1


def test_the_generator_writes_the_committed_catalogue(tmp_path: Path) -> None:
    regenerated = tmp_path / "sample-cards.csv"
    with regenerated.open("wb") as out:
        subprocess.run(
            [sys.executable, "tools/make_sample_catalogue.py"], cwd=ROOT, stdout=out, check=True
        )
    new, committed = regenerated.read_bytes(), (ROOT / "sample-cards.csv").read_bytes()
    assert new.decode().splitlines() == committed.decode().splitlines()  # which rows differ
    assert new == committed  # line endings and encoding too
