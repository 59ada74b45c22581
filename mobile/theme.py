"""Colours and sizes for a dim game room: light text on near-black, one warm accent, die colours as on the table.

Plain RGBA tuples (no Kivy import) so the `.kv` files and the contrast test read the same values.
"""

from __future__ import annotations

Colour = tuple[float, float, float, float]


def hex_colour(code: str, alpha: float = 1.0) -> Colour:
    code = code.lstrip("#")
    return (int(code[0:2], 16) / 255, int(code[2:4], 16) / 255, int(code[4:6], 16) / 255, alpha)


BG = hex_colour("#0D0D10")  # the screen
SURFACE = hex_colour("#1B1B21")  # cards
SURFACE_2 = hex_colour("#2A2A33")  # buttons, inputs
TEXT = hex_colour("#F4F4F6")
MUTED = hex_colour("#BDBDC7")
ACCENT = hex_colour("#FFB547")  # brass: the main action
ON_ACCENT = hex_colour("#141414")
OK = hex_colour("#6BE38F")
WARN = hex_colour("#FFD166")
DANGER = hex_colour("#FF7070")
DANGER_BG = hex_colour("#5A1A1E")
INFO = hex_colour("#86C8FF")
DISABLED_TEXT = hex_colour("#8A8A96")

# Dice as they lie on the table: the D36 needs two colours (FT-DICE-01)
DIE_FACE = {"red": hex_colour("#C62828"), "white": hex_colour("#F4F4F6"), "amber": hex_colour("#FFB547"),
            "blue": hex_colour("#1E63C6")}  # fmt: skip
DIE_PIPS = {"red": TEXT, "white": ON_ACCENT, "amber": ON_ACCENT, "blue": TEXT}

TONE = {"normal": TEXT, "warn": WARN, "danger": DANGER, "ok": OK, "error": DANGER, "info": INFO}

TOUCH = 48  # dp: the smallest touch target
WIDE = 600  # dp: from this width on, the posse shows two columns
ICON_FONT = "data/fonts/DejaVuSans.ttf"  # ships with Kivy; has the marks Roboto lacks (✓ ✗ ★ ♥ ◉ ⚂ ...)
NBSP = "\u00a0"  # keeps "Grit 1/3" together when a line wraps


def icon(mark: str) -> str:
    """A mark in Kivy markup, drawn with the font that has it (the text around it keeps the app's font)."""
    return f"[font={ICON_FONT}]{mark}[/font]"


TEXT_SCALES = (0.85, 1.0, 1.15, 1.3, 1.5)  # the in-app text size, on top of the phone's own font scale
BODY = 16  # sp
SMALL = 14
TITLE = 20
VALUE = 26


def luminance(colour: Colour) -> float:
    """WCAG relative luminance."""

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Colour, b: Colour) -> float:
    """WCAG contrast ratio between two colours (1..21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def die_colours(colour: str) -> tuple[Colour, Colour]:
    """(face, pips) for a die colour name."""
    return DIE_FACE.get(colour, DIE_FACE["white"]), DIE_PIPS.get(colour, ON_ACCENT)

# The Town board (mobile/screens/board.py): the Street dark, Buildings as wood, Walls light, Doors brass, Windows
# blue; Heroes blue and Bandits red (each with a letter or number too, never colour alone); the Bandits' moves in
# brass, their lines of fire red, a blocked line grey and dashed with a cross.
BOARD = {
    "street": hex_colour("#24242B"), "grid": hex_colour("#FFFFFF", 0.07), "building": hex_colour("#4A3828"),
    "building_text": hex_colour("#F2DDBA"), "wall": hex_colour("#E6D5B8"), "door": hex_colour("#FFB547"),
    "window": hex_colour("#86C8FF"), "shared roof": hex_colour("#E6D5B8", 0.55), "entry": hex_colour("#86C8FF"),
    "entry_fill": hex_colour("#86C8FF", 0.16), "hero": hex_colour("#1E63C6"), "bandit": hex_colour("#C62828"),
    "neutral": hex_colour("#5E5E68"), "token_text": hex_colour("#FFFFFF"), "ghost": hex_colour("#FF8A80"),
    "arrow": hex_colour("#FFB547"), "fire": hex_colour("#FF5252"), "cover": hex_colour("#FFD166"),
    "blocked": hex_colour("#A0A0AA"), "selected": hex_colour("#FFFFFF"),
}  # fmt: skip
