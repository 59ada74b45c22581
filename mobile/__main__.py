"""`python -m mobile`: start the table companion in a desktop window sized like a phone (360x780 dp)."""

from __future__ import annotations

import os


def main() -> None:
    from kivy.config import Config

    if not os.environ.get("BRIMSTONE_FULLSCREEN"):
        Config.set("graphics", "width", "400")
        Config.set("graphics", "height", "860")
    from mobile.app import BrimstoneApp

    BrimstoneApp().run()


if __name__ == "__main__":
    main()
