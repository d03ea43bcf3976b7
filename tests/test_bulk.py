"""Bulk work pauses the cycle collector and always gives it back."""

from __future__ import annotations

import gc

import pytest

from cardbase.bulk import paused_gc


def test_paused_and_restored() -> None:
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_restored_after_an_error() -> None:
    with pytest.raises(ValueError), paused_gc():
        raise ValueError
    assert gc.isenabled()


def test_left_off_if_it_was_off() -> None:
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
