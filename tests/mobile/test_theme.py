"""Colours readable in a dim game room: WCAG contrast of every text colour on the surfaces it is drawn on."""

from __future__ import annotations

from mobile import theme

SURFACES = (theme.BG, theme.SURFACE, theme.SURFACE_2)


def test_body_text_reaches_aaa_contrast_on_every_surface() -> None:
    for surface in SURFACES:
        assert theme.contrast(theme.TEXT, surface) >= 7.0


def test_secondary_and_status_colours_reach_aa_on_every_surface() -> None:
    for colour in (theme.MUTED, theme.ACCENT, theme.OK, theme.WARN, theme.DANGER, theme.INFO):
        for surface in SURFACES:
            assert theme.contrast(colour, surface) >= 4.5, (colour, surface)
    assert theme.contrast(theme.TEXT, theme.DANGER_BG) >= 7.0  # a destroyed Building, an error notice


def test_dice_faces_are_readable_and_the_d36_dice_differ() -> None:
    for name in theme.DIE_FACE:
        face, pips = theme.die_colours(name)
        assert theme.contrast(face, pips) >= 4.5, name
    tens, _ = theme.die_colours("red")
    ones, _ = theme.die_colours("white")
    assert theme.contrast(tens, ones) >= 3.0  # FT-DICE-01: two dice told apart at a glance


def test_contrast_is_the_wcag_ratio() -> None:
    assert round(theme.contrast(theme.hex_colour("#000000"), theme.hex_colour("#FFFFFF")), 1) == 21.0
    assert theme.contrast(theme.BG, theme.BG) == 1.0
