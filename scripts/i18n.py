"""The app's translations: extract the `_()` strings into mobile/locale/brimstone.pot, merge them into each
language's .po, and compile the .mo files the app reads. `python scripts/i18n.py` (no GNU gettext needed).

Strings are found in mobile/**/*.py (calls `_("...")`, read with ast) and mobile/screens/*.kv (`_('...')`).
Widget labels that come from data (tab names, badge words, die labels) are listed in `DATA_STRINGS`.
"""

from __future__ import annotations

import ast
import re
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "mobile" / "locale"
DOMAIN = "brimstone"
_KV = re.compile(r"""_\(\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\s*\)""")


def data_strings() -> list[str]:
    """Words the screens pass through `_()` from data: tab labels, badges, die labels, item tags, stat names."""
    sys.path.insert(0, str(ROOT))
    from mobile.presenters.shell import SCREENS
    from mobile.presenters.start import DRAFT_STATS

    found = [s.label for s in SCREENS] + [label for _k, label, *_r in DRAFT_STATS]
    found += ["Out", "KO", "Near death", "Wanted!", "Most Wanted!", "Bag torn", "Scratch's deal"]
    found += ["Tens (red)", "Ones (white)", "Peril Die", "D6", "D8", "D3 (a D6)", "Small Town", "Medium Town",
              "Large Town"]
    from mobile.presenters.adventure import CLASS_NUMBERS, RESOURCES, STATE_WORDS, STEP_WORDS, TOKEN_FLAGS
    from mobile.presenters.odds import HERO_RISKS
    from mobile.presenters.stay import BEDS, BOUNTY_WORDS
    from shared_rules.engine import _load_areas
    from shared_rules.odds import HEADLINE, WORDS
    from shared_rules.rules import missions  # noqa: F401  (the Town Missions add themselves to MISSIONS)
    from shared_rules.rules.adventure import MISSIONS

    _load_areas()  # the rule areas load on the first command: the Town Missions' titles register then

    found += list(STEP_WORDS.values()) + [word for *_k, word in RESOURCES] + [w for _k, w in CLASS_NUMBERS.values()]
    found += list(BEDS.values()) + list(BOUNTY_WORDS.values()) + [w for w in STATE_WORDS.values() if w] + [w for _k, w in HERO_RISKS]
    found += [WORDS[m] for m in HEADLINE] + [m.title for m in MISSIONS.values()] + [w for _k, w in TOKEN_FLAGS]
    from mobile.presenters.amounts import FIELD_WORDS
    from mobile.presenters.board import COUNTER_WORDS
    from mobile.presenters.start import TAG_WORDS

    found += list(COUNTER_WORDS.values())  # the board's status strip names a mission's counters
    found += list(FIELD_WORDS.values()) + list(TAG_WORDS.values())  # hero values in the log, item tags at the start
    return found


def extract() -> list[str]:
    """Every string the app translates, in a stable order (first seen)."""
    found: dict[str, None] = {}
    for path in sorted((ROOT / "mobile").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_"
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.setdefault(node.args[0].value)
    for path in sorted((ROOT / "mobile" / "screens").glob("*.kv")):
        for match in _KV.finditer(path.read_text(encoding="utf-8")):
            text = match.group(1) if match.group(1) is not None else match.group(2)
            found.setdefault(text.encode().decode("unicode_escape"))
    for text in data_strings():
        found.setdefault(text)
    return [s for s in found if s.strip()]


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def read_po(path: Path) -> dict[str, str]:
    """msgid -> msgstr of a .po file (single-line or continued strings)."""
    entries: dict[str, str] = {}
    key = value = None
    target = ""
    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if line.startswith("msgid "):
            if key is not None and value is not None:
                entries[key] = value
            key, value, target = _unquote(line[6:]), None, "id"
        elif line.startswith("msgstr "):
            value, target = _unquote(line[7:]), "str"
        elif line.startswith('"') and target == "id" and key is not None:
            key += _unquote(line)
        elif line.startswith('"') and target == "str" and value is not None:
            value += _unquote(line)
    if key is not None and value is not None:
        entries[key] = value
    return entries


def _unquote(text: str) -> str:
    return text.strip()[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")


def write_pot(strings: list[str]) -> None:
    lines = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"', ""]
    for text in strings:
        lines += [f"msgid {_quote(text)}", 'msgstr ""', ""]
    (LOCALE / f"{DOMAIN}.pot").write_text("\n".join(lines), encoding="utf-8")


def write_mo(entries: dict[str, str], path: Path) -> None:
    """A GNU .mo catalogue (what gettext.translation reads), from msgid -> msgstr."""
    items = sorted((k, v) for k, v in entries.items() if v)
    items.insert(0, ("", "Content-Type: text/plain; charset=UTF-8\n"))
    ids = b"".join(k.encode() + b"\0" for k, _v in items)
    strs = b"".join(v.encode() + b"\0" for _k, v in items)
    start = 7 * 4 + 16 * len(items)
    id_offsets, str_offsets, offset = [], [], 0
    for k, _v in items:
        id_offsets.append((len(k.encode()), start + offset))
        offset += len(k.encode()) + 1
    offset = 0
    for _k, v in items:
        str_offsets.append((len(v.encode()), start + len(ids) + offset))
        offset += len(v.encode()) + 1
    header = struct.pack("Iiiiiii", 0x950412DE, 0, len(items), 7 * 4, 7 * 4 + 8 * len(items), 0, 0)
    table = b"".join(struct.pack("ii", *o) for o in id_offsets) + b"".join(struct.pack("ii", *o) for o in str_offsets)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header + table + ids + strs)


def merge(strings: list[str], po: Path) -> list[str]:
    """Keep the translations the .po has, add the new strings untranslated, drop gone ones; returns the missing."""
    known = read_po(po) if po.exists() else {}
    lines = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"', ""]
    missing = []
    for text in strings:
        value = known.get(text, "")
        if not value:
            missing.append(text)
        lines += [f"msgid {_quote(text)}", f"msgstr {_quote(value)}", ""]
    po.write_text("\n".join(lines), encoding="utf-8")
    return missing


def main() -> int:
    strings = extract()
    LOCALE.mkdir(parents=True, exist_ok=True)
    write_pot(strings)
    for po in sorted(LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        missing = merge(strings, po)
        write_mo(read_po(po), po.with_suffix(".mo"))
        print(f"{po.parent.parent.name}: {len(strings) - len(missing)} of {len(strings)} strings translated")
        for text in missing:
            print(f"  missing: {text!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
