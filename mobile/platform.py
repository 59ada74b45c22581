"""What differs on a phone: keeping the screen awake, the system bars' insets, sharing a file. No-ops on a desktop.

On Android these go through pyjnius to the activity's window (FLAG_KEEP_SCREEN_ON, WindowInsets); anywhere else
they do nothing, so the app and its tests run the same on a desktop.
"""

from __future__ import annotations

import os
from typing import Any


def on_android() -> bool:
    return "ANDROID_ARGUMENT" in os.environ or "ANDROID_PRIVATE" in os.environ


def _activity() -> Any:
    from jnius import autoclass  # type: ignore[import-not-found]  # only on Android

    return autoclass("org.kivy.android.PythonActivity").mActivity


def keep_awake(on: bool) -> bool:
    """Keep the screen on beside the board while a table is open; True when the platform took it."""
    if not on_android():
        return False
    try:
        from android.runnable import run_on_ui_thread  # type: ignore[import-not-found]
        from jnius import autoclass

        flag = autoclass("android.view.WindowManager$LayoutParams").FLAG_KEEP_SCREEN_ON

        @run_on_ui_thread  # type: ignore[misc]
        def apply() -> None:
            window = _activity().getWindow()
            if on:
                window.addFlags(flag)
            else:
                window.clearFlags(flag)

        apply()
        return True
    except Exception:  # noqa: BLE001 - a phone without the API keeps its own screen timeout
        return False


def insets() -> tuple[int, int, int, int]:
    """(left, top, right, bottom) pixels taken by the status and navigation bars (edge to edge, Android 15+)."""
    if not on_android():
        return (0, 0, 0, 0)
    try:
        view = _activity().getWindow().getDecorView()
        found = view.getRootWindowInsets()
        if found is None:
            return (0, 0, 0, 0)
        from jnius import autoclass

        types = autoclass("android.view.WindowInsets$Type")
        bars = found.getInsets(types.systemBars() | types.displayCutout())
        return (bars.left, bars.top, bars.right, bars.bottom)
    except Exception:  # noqa: BLE001 - older Android: the system lays out below its bars itself
        return (0, 0, 0, 0)


def launch_link() -> str:
    """The brimstone:// link the app was opened with (a scanned join or posse QR code), or ""."""
    if not on_android():
        return os.environ.get("BRIMSTONE_LINK", "")
    try:
        data = _activity().getIntent().getDataString()
        return str(data) if data else ""
    except Exception:  # noqa: BLE001 - opened from the launcher: no link
        return ""
