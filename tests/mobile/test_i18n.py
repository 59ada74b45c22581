"""The app's words are extracted for translation (gettext) and a second language (Spanish) covers all of them."""

from __future__ import annotations

import gettext
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "mobile" / "locale"


def _script() -> object:
    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["i18n_script"] = module
    spec.loader.exec_module(module)
    return module


def test_the_template_holds_every_string_the_code_translates() -> None:
    script = _script()
    strings = script.extract()  # type: ignore[attr-defined]
    template = script.read_po(LOCALE / "brimstone.pot")  # type: ignore[attr-defined]
    assert len(strings) > 100 and set(strings) == set(template) - {""}, "run scripts/i18n.py"
    assert "How many dice show {n} or more?" in strings and "Apply again" in strings


def test_spanish_translates_every_string_and_its_catalogue_is_compiled() -> None:
    script = _script()
    po = script.read_po(LOCALE / "es" / "LC_MESSAGES" / "brimstone.po")  # type: ignore[attr-defined]
    missing = [s for s in script.extract() if not po.get(s)]  # type: ignore[attr-defined]
    assert not missing, f"untranslated: {missing[:5]}"
    catalogue = gettext.translation("brimstone", LOCALE, languages=["es"])
    for text, translated in po.items():
        if text:
            assert catalogue.gettext(text) == translated, text  # the .mo is the .po, compiled
    for text in po:  # the placeholders survive translation
        for name in ("{n}", "{code}", "{token}", "{who}", "{die}", "{path}", "{question}", "{grit}"):
            assert (name in text) == (name in po[text]), (text, po[text])


def test_the_app_speaks_the_phones_language_and_falls_back_to_english(monkeypatch: object) -> None:
    from mobile import i18n

    try:
        assert i18n.set_language("es") == "es" and i18n._("Roll for me") == "Tira por mí"
        assert i18n._("A sentence no catalogue has") == "A sentence no catalogue has"
        assert i18n.set_language("xx") == "en" and i18n._("Roll for me") == "Roll for me"
        monkeypatch.setenv("BRIMSTONE_LANG", "es_ES.UTF-8")  # type: ignore[attr-defined]
        assert i18n.set_language() == "es"
    finally:
        i18n.set_language("en")
