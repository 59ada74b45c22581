"""Draw the Android icon and splash screen (mobile/assets/*.png) with Kivy, offscreen: `python scripts/make_assets.py`.

A brass die showing a five on the app's near-black, the name under it on the splash. Run again only to change them.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
    os.environ["KIVY_NO_ARGS"] = "1"
    os.environ.setdefault("KIVY_CLIPBOARD", "dummy")
    from kivy.config import Config

    Config.set("graphics", "width", "1024")
    Config.set("graphics", "height", "1024")
    sys.path.insert(0, str(ROOT))
    from kivy.base import EventLoop
    from kivy.core.window import Window
    from kivy.graphics import Color, Ellipse, Rectangle, RoundedRectangle
    from kivy.uix.label import Label
    from kivy.uix.widget import Widget

    from mobile import theme

    EventLoop.ensure_window()
    out = ROOT / "mobile" / "assets"
    out.mkdir(parents=True, exist_ok=True)

    def die(widget: Widget, cx: float, cy: float, side: float) -> None:
        with widget.canvas:
            Color(*theme.ACCENT)
            RoundedRectangle(pos=(cx - side / 2, cy - side / 2), size=(side, side), radius=[side * 0.18])
            Color(*theme.ON_ACCENT)
            pip = side * 0.16
            for dx, dy in ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)):
                Ellipse(pos=(cx + dx * side * 0.27 - pip / 2, cy + dy * side * 0.27 - pip / 2), size=(pip, pip))

    icon = Widget(size=(512, 512), size_hint=(None, None))
    with icon.canvas:
        Color(*theme.BG)
        Rectangle(pos=(0, 0), size=(512, 512))
    die(icon, 256, 256, 340)
    Window.add_widget(icon)
    icon.export_to_png(str(out / "icon.png"))
    Window.remove_widget(icon)

    splash = Widget(size=(1024, 1024), size_hint=(None, None))
    with splash.canvas:
        Color(*theme.BG)
        Rectangle(pos=(0, 0), size=(1024, 1024))
    die(splash, 512, 580, 300)
    name = Label(text="Brimstone Table", font_size=72, bold=True, color=theme.ACCENT, pos=(0, 250), size=(1024, 120))
    splash.add_widget(name)
    Window.add_widget(splash)
    splash.export_to_png(str(out / "presplash.png"))
    print(f"wrote {out / 'icon.png'} and {out / 'presplash.png'}")


if __name__ == "__main__":
    main()
