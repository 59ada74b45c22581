"""Translation of the app's own words (gettext): `_("Close")` in the screens, `.kv` layouts and presenters.

Catalogues live in `mobile/locale/<lang>/LC_MESSAGES/brimstone.mo` (sources `.po`; the template is
`mobile/locale/brimstone.pot`, extracted by `scripts/i18n.py`). The engine's events are worded in the app from
their facts (`presenters/words.py`); a kind without facts shows the engine's English line.
The language is the phone's (LANGUAGE / LANG), or the one chosen in the app (`set_language`).
"""

from __future__ import annotations

import gettext
import os
from pathlib import Path

DOMAIN = "brimstone"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = {"en": "English", "es": "Español"}
_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def set_language(language: str | None = None) -> str:
    """Use `language` ("es"), or the phone's language when None; returns the language in use."""
    global _current, _language
    if language is None:
        found = (os.environ.get("BRIMSTONE_LANG") or os.environ.get("LANGUAGE") or os.environ.get("LANG") or "en")
        language = found.split(":")[0].split(".")[0].split("_")[0].lower() or "en"
    if language not in LANGUAGES:
        language = "en"
    _current = gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True)
    _language = language
    return language


def language() -> str:
    return _language


def _(text: str) -> str:
    """The text in the language in use (itself when no catalogue has it)."""
    return _current.gettext(text)


def ngettext(one: str, many: str, n: int) -> str:
    return _current.ngettext(one, many, n)
