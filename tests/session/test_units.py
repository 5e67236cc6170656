"""Typed numbers (robogui.session.units.parse_number): arithmetic with pi, Qt-free."""

from __future__ import annotations

import math

import pytest

from robogui.session.units import NumberError, parse_number


@pytest.mark.parametrize("text, quantity, unit, want", [
    ("-pi/4", "angle", "deg", -45.0),  # pi is in radians, whatever the field's unit
    ("-pi/4", "angle", "rad", -math.pi / 4),
    ("\u2212pi/2", "angle", "deg", -90.0),  # a typographic minus
    ("2*pi/3 rad", "angle", "deg", 120.0),
    ("pi/2 deg", "angle", "deg", math.pi / 2),  # a unit typed wins
    ("0.15 + 0.02", "length", "m", 0.17),
    ("(100 + 20) mm", "length", "m", 0.12),
    ("12,5", "angle", "deg", 12.5),
])
def test_expressions_are_numbers(text, quantity, unit, want):
    assert parse_number(text, quantity, unit) == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("text", ["__import__('os')", "pi pi", "9**9**9", "1e999", "pi/0",
                                  "1+", "(1,5)+2", "x*2", "pi rad rad", "2 kg"])
def test_other_text_is_refused_with_a_reason(text):
    with pytest.raises(NumberError):
        parse_number(text, "angle", "deg")
