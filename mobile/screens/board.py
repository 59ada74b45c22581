"""The Town board screen: the board drawn with canvas instructions from the presenter's `BoardView`, scaled to fit
the phone's width; the Bandits' turn on top (moves, lines of fire), a tap to select or correct (layout in board.kv).

Every label drawn on the board is recorded in `BoardCanvas.drawn_labels` (text and rectangle), so the render check
can tell a label cut off at the board's edge or lying on another."""

from __future__ import annotations

import math
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.factory import Factory
from kivy.graphics import Color, Ellipse, Line, Rectangle, Triangle
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.stencilview import StencilView
from kivy.uix.widget import Widget

from .. import theme
from ..i18n import _
from ..presenters.board import BoardPresenter, BoardView, FireLine, Token

C = theme.BOARD


class BoardCanvas(StencilView):
    """The board, drawn to fit this widget: square spaces, the presenter's viewport centred."""

    vm: BoardView | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    tapped: Any = ObjectProperty(None, allownone=True)  # called with the board coordinates of a tap

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.drawn_labels: list[tuple[str, float, float, float, float]] = []
        self.bind(pos=self.redraw, size=self.redraw, vm=self.redraw)

    # ---- board coordinates <-> widget coordinates -----------------------------------------------------------------
    @property
    def cell(self) -> float:
        vm = self.vm
        if vm is None or not vm.viewport[2]:
            return 1.0
        return min(self.width / vm.viewport[2], self.height / vm.viewport[3])

    def _origin(self) -> tuple[float, float]:
        vm = self.vm
        assert vm is not None
        cell = self.cell
        _x, _y, w, h = vm.viewport
        return self.x + (self.width - w * cell) / 2, self.y + (self.height - h * cell) / 2

    def to_screen(self, bx: float, by: float) -> tuple[float, float]:
        vm = self.vm
        assert vm is not None
        ox, oy = self._origin()
        vx, vy, _w, vh = vm.viewport
        cell = self.cell
        return ox + (bx - vx) * cell, oy + (vy + vh - by) * cell

    def to_board(self, sx: float, sy: float) -> tuple[float, float]:
        vm = self.vm
        assert vm is not None
        ox, oy = self._origin()
        vx, vy, _w, vh = vm.viewport
        cell = self.cell
        return vx + (sx - ox) / cell, vy + vh - (sy - oy) / cell

    def across(self) -> int:
        """How many spaces side by side fit this board at the smallest touch target."""
        return max(1, int(min(self.width, self.height) // dp(theme.TOUCH)))

    def tap_targets(self) -> list[tuple[str, float, float]]:
        """What a tap here picks, for the render check: a space as drawn once a tap picks spaces (zoomed in, or
        spaces already big enough), else the whole board (a tap zooms in)."""
        vm = self.vm
        if vm is None or not vm.viewport[2]:
            return []
        if vm.zoomed or vm.viewport[2] <= self.across():
            return [("a board space", self.cell, self.cell)]
        return [("the board (a tap zooms in)", self.width, self.height)]

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos) or self.vm is None or not self.vm.viewport[2]:
            return bool(super().on_touch_down(touch))
        if self.tapped is not None:
            self.tapped(*self.to_board(*touch.pos))
        return True

    # ---- drawing --------------------------------------------------------------------------------------------------
    def redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        self.drawn_labels = []
        vm = self.vm
        if vm is None or not vm.viewport[2] or self.width < 2:
            return
        cell = self.cell
        with self.canvas:
            self._ground(vm, cell)
            self._walls(vm, cell)
            for label in vm.labels:
                colour = C["building_text"] if label.kind == "building" else C["entry"]
                self._text(label.text, label.x, label.y, min(sp(14), cell * 0.62), colour, bold=True)
            if vm.overlay:
                self._moves(vm, cell)
            vx, vy, vw, vh = vm.viewport
            for token in vm.tokens:  # zoomed in, the models off the view are not drawn half-cut at its edge
                if vx <= token.x <= vx + vw and vy <= token.y <= vy + vh:
                    self._token(token, cell)
            if vm.overlay:
                for line in vm.fire:
                    self._fire_marks(line, cell)
            if vm.correction is not None:
                x, y = vm.correction.space
                ok = vm.correction.command is not None
                Color(*(C["cover"] if ok else theme.DANGER))
                sx, sy = self.to_screen(x, y + 1)
                Line(rectangle=(sx + dp(1), sy + dp(1), cell - dp(2), cell - dp(2)), width=dp(1.6))

    def _ground(self, vm: BoardView, cell: float) -> None:
        vx, vy, vw, vh = vm.viewport
        for block in vm.blocks:
            if block.y + 1 <= vy or block.y >= vy + vh or block.x + block.w <= vx or block.x >= vx + vw:
                continue
            Color(*(C["building"] if block.building else C["street"]))
            sx, sy = self.to_screen(block.x, block.y + 1)
            Rectangle(pos=(sx, sy), size=(block.w * cell, cell))
        for x, y, w, h in vm.entries:
            Color(*C["entry_fill"])
            sx, sy = self.to_screen(x, y + h)
            Rectangle(pos=(sx, sy), size=(w * cell, h * cell))
        Color(*C["grid"])  # the Street's spaces, faintly, so a player can count them
        for gx in range(vx, vx + vw + 1):
            a, b = self.to_screen(gx, vy), self.to_screen(gx, vy + vh)
            Line(points=[*a, *b], width=1)
        for gy in range(vy, vy + vh + 1):
            a, b = self.to_screen(vx, gy), self.to_screen(vx + vw, gy)
            Line(points=[*a, *b], width=1)

    def _walls(self, vm: BoardView, cell: float) -> None:
        widths = {"wall": dp(2.4), "shared roof": dp(1.2), "door": dp(3.2), "window": dp(3.2),
                  "diagonal door": dp(3.2)}  # fmt: skip
        for seg in vm.segments:
            a, b = self.to_screen(seg.x1, seg.y1), self.to_screen(seg.x2, seg.y2)
            Color(*C[seg.kind if seg.kind != "diagonal door" else "door"])
            if seg.kind == "shared roof":
                self._dashed(a, b, dp(3), dp(3), widths[seg.kind])
            elif seg.kind in ("door", "window"):
                # an opening: drawn inset, with the Wall's ends left as stubs
                inset = 0.18
                ax, ay = a[0] + (b[0] - a[0]) * inset, a[1] + (b[1] - a[1]) * inset
                bx, by = a[0] + (b[0] - a[0]) * (1 - inset), a[1] + (b[1] - a[1]) * (1 - inset)
                Line(points=[ax, ay, bx, by], width=widths[seg.kind], cap="none")
                Color(*C["wall"])
                Line(points=[a[0], a[1], ax, ay], width=widths["wall"], cap="none")
                Line(points=[bx, by, b[0], b[1]], width=widths["wall"], cap="none")
            else:
                Line(points=[*a, *b], width=widths[seg.kind], cap="square")
        # the edge of what is shown (not a Wall: the board may go on)
        vx, vy, vw, vh = vm.viewport
        Color(*theme.MUTED[:3], 0.5)
        x0, y0 = self.to_screen(max(vx, 0), min(vy + vh, vm.height))
        x1, y1 = self.to_screen(min(vx + vw, vm.width), max(vy, 0))
        Line(rectangle=(x0, y0, x1 - x0, y1 - y0), width=dp(1.2))

    def _moves(self, vm: BoardView, cell: float) -> None:
        for arrow in sorted(vm.arrows, key=lambda a: a.selected):
            points = [c for p in arrow.points for c in self.to_screen(*p)]
            alpha = 0.3 if arrow.dimmed else 1.0
            width = dp(3.2) if arrow.selected else dp(2.2)
            Color(0, 0, 0, 0.55 * alpha)
            Line(points=points, width=width + dp(1.4), joint="round", cap="round")
            Color(*C["arrow"][:3], alpha)
            # stop short of the last centre: the head ends at the ghost's edge
            tail = points[:-2] + list(self._towards(points[-4:-2], points[-2:], -cell * 0.42))
            Line(points=tail, width=width, joint="round", cap="round")
            self._head(points[-4:-2], points[-2:], cell, alpha, back=cell * 0.36)
        for line in sorted(vm.fire, key=lambda f: f.selected):
            alpha = 0.3 if line.dimmed else 1.0
            a0, b0 = self.to_screen(*line.frm), self.to_screen(*line.to)
            # from the shooter's edge to the target's ring: the line never covers a token's number
            a = self._towards(list(b0), list(a0), -cell * 0.45)
            b = self._towards(list(a0), list(b0), -cell * 0.5)
            width = dp(2.8) if line.selected else dp(2.0)
            if line.clear:
                Color(0, 0, 0, 0.55 * alpha)
                Line(points=[*a, *b], width=width + dp(1.2))
                Color(*C["fire"][:3], alpha)
                Line(points=[*a, *b], width=width)
            else:
                Color(*C["blocked"][:3], alpha)
                self._dashed(a, b, dp(4), dp(5), width)

    def _fire_marks(self, line: FireLine, cell: float) -> None:
        """The end of a line of fire: a crosshair on the target (a yellow shield ring when it is in cover), and a
        red cross where a Wall blocks it."""
        alpha = 0.3 if line.dimmed else 1.0
        tx, ty = self.to_screen(*line.to)
        r = cell * 0.5
        if line.clear:
            Color(*(C["cover"] if line.cover else C["fire"])[:3], alpha)
            Line(circle=(tx, ty, r), width=dp(2.2) if line.cover else dp(1.4))
            if line.cover:
                Line(circle=(tx, ty, r + dp(3)), width=dp(1.2))
        if line.block is not None:
            bx, by = self.to_screen(*line.block)
            s = cell * 0.28
            Color(0, 0, 0, 0.6 * alpha)
            Line(points=[bx - s, by - s, bx + s, by + s], width=dp(4))
            Line(points=[bx - s, by + s, bx + s, by - s], width=dp(4))
            Color(*theme.DANGER[:3], alpha)
            Line(points=[bx - s, by - s, bx + s, by + s], width=dp(2.2))
            Line(points=[bx - s, by + s, bx + s, by - s], width=dp(2.2))

    def _token(self, token: Token, cell: float) -> None:
        cx, cy = self.to_screen(token.x, token.y)
        r = cell * 0.42
        alpha = 0.35 if token.dimmed else 1.0
        fill = C[token.side if token.side in C else "neutral"]
        if token.ghost:
            Color(*C["ghost"][:3], 0.9 * alpha)
            Line(circle=(cx, cy, r), width=dp(1.6))
            Color(*C["ghost"][:3], 0.22 * alpha)
            Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
            self._text(token.label, token.x, token.y, min(sp(12), cell * 0.55), C["ghost"][:3] + (alpha,), bold=True)
            return
        if token.selected:
            Color(*C["selected"])
            Line(circle=(cx, cy, r + dp(5)), width=dp(2))
        hero = token.side == "hero"  # a Hero is round, a Bandit square: told apart by shape as well as colour
        Color(0, 0, 0, 0.7 * alpha)
        if hero:
            Ellipse(pos=(cx - r - dp(1), cy - r - dp(1)), size=(2 * r + dp(2), 2 * r + dp(2)))
        else:
            Rectangle(pos=(cx - r * 0.9 - dp(1), cy - r * 0.9 - dp(1)), size=(r * 1.8 + dp(2), r * 1.8 + dp(2)))
        Color(*fill[:3], alpha)
        if hero:
            Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
        else:
            Rectangle(pos=(cx - r * 0.9, cy - r * 0.9), size=(r * 1.8, r * 1.8))
        if token.roof:
            Color(*C["building_text"][:3], alpha)
            Triangle(points=[cx - r, cy + r * 0.7, cx + r, cy + r * 0.7, cx, cy + r * 1.3])
        self._text(token.label, token.x, token.y, min(sp(12), cell * 0.55), C["token_text"][:3] + (alpha,), bold=True)

    # ---- drawing helpers ------------------------------------------------------------------------------------------
    def _text(self, text: str, bx: float, by: float, size: float, colour: Any, bold: bool = False) -> None:
        if not text:
            return
        label = CoreLabel(text=text, font_size=size, bold=bold)
        label.refresh()
        texture = label.texture
        cx, cy = self.to_screen(bx, by)
        w, h = texture.size
        Color(*colour)
        Rectangle(texture=texture, pos=(cx - w / 2, cy - h / 2), size=(w, h))
        self.drawn_labels.append((text, cx - w / 2, cy - h / 2, w, h))

    @staticmethod
    def _towards(a: list[float], b: list[float], by: float) -> tuple[float, float]:
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        return b[0] + dx / length * by, b[1] + dy / length * by

    def _head(self, a: list[float], b: list[float], cell: float, alpha: float, back: float) -> None:
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        tip = (b[0] - ux * back, b[1] - uy * back)
        size = max(dp(7), cell * 0.34)
        base = (tip[0] - ux * size, tip[1] - uy * size)
        left = (base[0] - uy * size * 0.6, base[1] + ux * size * 0.6)
        right = (base[0] + uy * size * 0.6, base[1] - ux * size * 0.6)
        Color(*C["arrow"][:3], alpha)
        Triangle(points=[*tip, *left, *right])

    @staticmethod
    def _dashed(a: tuple[float, float], b: tuple[float, float], dash: float, gap: float, width: float) -> None:
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        if length <= 0:
            return
        ux, uy = dx / length, dy / length
        at = 0.0
        while at < length:
            end = min(at + dash, length)
            Line(points=[a[0] + ux * at, a[1] + uy * at, a[0] + ux * end, a[1] + uy * end], width=width, cap="none")
            at = end + gap


class LegendSample(Widget):
    """The small drawing beside a legend word: the same marks as on the board."""

    key = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, key=self.redraw)

    def redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        key = self.key
        cx, cy = self.center
        r = min(self.width, self.height) * 0.4
        with self.canvas:
            if key in ("hero", "bandit", "neutral"):
                Color(*C[key])
                if key == "hero":
                    Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
                else:
                    Rectangle(pos=(cx - r * 0.9, cy - r * 0.9), size=(r * 1.8, r * 1.8))
            elif key == "ghost":
                Color(*C["ghost"])
                Line(circle=(cx, cy, r), width=dp(1.6))
            elif key == "arrow":
                Color(*C["arrow"])
                Line(points=[self.x, cy, self.right - dp(6), cy], width=dp(2))
                Triangle(points=[self.right, cy, self.right - dp(8), cy + dp(5), self.right - dp(8), cy - dp(5)])
            elif key == "fire":
                Color(*C["fire"])
                Line(points=[self.x, cy, self.right, cy], width=dp(2))
            elif key == "cover":
                Color(*C["cover"])
                Line(circle=(cx, cy, r), width=dp(2))
                Line(circle=(cx, cy, r * 0.6), width=dp(1.2))
            elif key == "blocked":
                Color(*C["blocked"])
                BoardCanvas._dashed((self.x, cy), (self.right, cy), dp(4), dp(4), dp(1.8))
                Color(*theme.DANGER)
                s = r * 0.6
                Line(points=[cx - s, cy - s, cx + s, cy + s], width=dp(2))
                Line(points=[cx - s, cy + s, cx + s, cy - s], width=dp(2))
            elif key in ("door", "window", "wall", "shared roof"):
                Color(*C["wall"])
                if key == "shared roof":
                    Color(*C["shared roof"])
                    BoardCanvas._dashed((self.x, cy), (self.right, cy), dp(3), dp(3), dp(1.2))
                else:
                    Line(points=[self.x, cy, self.right, cy], width=dp(2.4))
                if key in ("door", "window"):
                    Color(*C[key])
                    Line(points=[self.x + self.width * 0.2, cy, self.right - self.width * 0.2, cy], width=dp(3.2))


class TurnRow(ButtonBehavior, BoxLayout):  # type: ignore[misc]
    """One Bandit's part of the turn under the board; a tap selects it on the board."""

    number = StringProperty("")
    text = StringProperty("")
    selected = BooleanProperty(False)
    warn = BooleanProperty(False)


class LegendItem(BoxLayout):
    key = StringProperty("")
    text = StringProperty("")


class BoardScreen(Screen):
    presenter: BoardPresenter | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]
    vm: BoardView | None = ObjectProperty(None, allownone=True)  # type: ignore[assignment]

    def refresh(self) -> None:
        if self.presenter is None:
            return
        self.vm = vm = self.presenter.view()
        ids = self.ids
        ids.board.vm = vm
        strip = ids.strip
        strip.clear_widgets()
        if vm.title and vm.viewport[2]:
            strip.add_widget(Factory.StatusChip(text=f"[b]{vm.title}[/b]", color=theme.ACCENT))
        for item in vm.status:
            strip.add_widget(Factory.StatusChip(text=f"{item.label} [b]{item.value}[/b]",
                                                color=theme.TONE.get(item.tone, theme.TEXT)))
        turn = ids.turn
        turn.clear_widgets()
        for line in vm.turn:
            row = Factory.TurnRow(number=line.label, text=line.text, selected=line.selected, warn=line.warn)
            row.bind(on_release=lambda _row, bandit=line.bandit: self.select(bandit))
            turn.add_widget(row)
        key = ids.legend
        key.clear_widgets()
        for item in vm.legend:
            key.add_widget(Factory.LegendItem(key=item.key, text=item.text))

    def tap(self, bx: float, by: float) -> None:
        if self.presenter is not None:
            self.presenter.touch(bx, by, self.ids.board.across())
            self.refresh()

    def select(self, bandit: str) -> None:
        if self.presenter is not None:
            self.presenter.select(bandit)
            self.refresh()

    def confirm(self) -> None:
        if self.presenter is not None:
            self.presenter.confirm()
            self.refresh()

    def cancel(self) -> None:
        if self.presenter is not None:
            self.presenter.cancel()
            self.refresh()

    def toggle_overlay(self) -> None:
        if self.presenter is not None:
            self.presenter.toggle_overlay()
            self.refresh()

    def toggle_whole(self) -> None:
        if self.presenter is not None:
            self.presenter.toggle_whole()
            self.refresh()


__all__ = ["BoardCanvas", "BoardScreen", "LegendItem", "LegendSample", "TurnRow", "_"]
