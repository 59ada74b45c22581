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


# ---- the engine's events, worded from their facts in the app's language (issue 19) --------------------------------
def _run(state: object, command: object, seen: list[object], policy: object) -> tuple[object, list[object]]:
    from shared_rules.engine import apply

    outcome = apply(state, command, policy=policy)  # type: ignore[arg-type]
    return outcome.state, [*seen, *outcome.events]


def _town_events() -> list[object]:
    """What a real table sees on the road to a Small Town, at arrival and on the first Day of the Stay (the default
    policy answers, the RNG rolls), and the Day's end."""
    from shared_rules.commands import Arrive, ChooseTownSize, EndDay, RollHazard, StartDay
    from shared_rules.engine import new_session
    from shared_rules.simulate import default_policy, sample_heroes
    from shared_rules.state import Phase

    seen: list[object] = []
    for seed in (1, 2, 3):
        state = new_session(list(sample_heroes(4)), seed=seed)
        state, seen = _run(state, ChooseTownSize("small"), seen, default_policy)
        while state.phase is Phase.TRAVEL:
            state, seen = _run(state, RollHazard(), seen, default_policy)
        if state.phase is Phase.ARRIVAL and state.active_heroes:
            state, seen = _run(state, Arrive(), seen, default_policy)
        if state.phase is Phase.TOWN:
            state, seen = _run(state, StartDay(), seen, default_policy)
            state, seen = _run(state, EndDay(), seen, default_policy)
    return seen


def _adventure_events() -> list[object]:
    """An Adventure's first turns: set up, Hold Back the Darkness failed and passed, a hero's activation."""
    from shared_rules.commands import Activate, EndActivation, HoldBackTheDarkness
    from tests.rules.adventure.helpers import of, start

    t = start([of("a"), of("b")])
    t.do(HoldBackTheDarkness(dice=((1, 2),)))  # 3 fails: the Darkness moves
    t.do(Activate("a", dice=((2,),)))
    t.do(EndActivation("a"))
    return list(t.events)


def _fight_events() -> list[object]:
    """A Fight: typed Hits wound an enemy, its turn, a hero's Move, a Hit that kills it and ends the Fight."""
    from shared_rules.commands import Activate, ActivateEnemy, Attack, HeroHit
    from tests.rules.adventure.helpers import adv, enemy, of, run, to_activations
    from tests.rules.adventure.test_fight import fighting

    t = fighting([of("a")], enemy("oni-1", health=5, defense=2))
    run(t, Attack("a", hits=(HeroHit("oni-1", 4),)))
    run(t, ActivateEnemy("oni-1"))
    to_activations(t)
    run(t, Activate("a", dice=((2,),)))
    run(t, Attack("a", hits=(HeroHit("oni-1", 6),)))
    assert not adv(t).in_fight
    return list(t.events)


def _made(kind: str, hero: str | None = "ann", **facts: object) -> object:
    """An event of `kind` with the facts the engine gives it (for kinds a short scripted run does not reach)."""
    from shared_rules import Change, Event, EventType
    from shared_rules.events import Fact

    changes = (Change("items", "", str(facts["item"])),) if kind == "item_gained" else \
        (Change("fury", 1, 2),) if kind == "resource" and "reason" not in facts else ()  # fmt: skip
    return Event(EventType(kind), "(the English line)", hero, "", changes,
                 facts=tuple(Fact(k, v) for k, v in facts.items()))  # type: ignore[arg-type]  # fmt: skip


CONVERTED = {"rolled", "test", "changed", "hazard", "hazard_count", "hits", "card", "knocked_out", "item_gained",
             "item_lost", "token_gained", "token_lost", "visit", "visit_ended", "purchase", "sale", "phase",
             "day_begun", "day_ended", "daily_event", "lodging", "location_closed", "turn_started", "darkness_held",
             "darkness_moved", "party_moved", "depth_event", "activated", "grit_lost", "hit", "killed",
             "fight_over", "resource", "moved", "spell", "tactic", "revived", "scavenged", "town_type",
             "building_destroyed", "hero_removed", "trouble", "town_event", "token_used", "darkness_card",
             "growing_dread", "fled", "cannot_pay", "nothing_lost", "duel", "warrants_paid", "jackpot",
             "session_created", "undone", "adjusted", "bell", "plague_church", "search", "nothing_to_lose",
             "town_built", "town_short", "enemies_arrived", "adventure_ended", "wheel", "bounty_posted", "bounty_paid",
             "tile_placed", "encounter"}  # fmt: skip


def test_a_spanish_app_words_the_engines_events_in_spanish_for_each_converted_kind() -> None:
    from mobile import i18n
    from mobile.presenters.words import event_text

    made = [_made("hits", hits=2, hit_kind="horror"), _made("knocked_out"), _made("grit_lost", count=1),
            _made("item_gained", item="Bandages", why=""), _made("item_lost", item="Rope", why=""),
            _made("token_gained", token="Whiskey"), _made("token_lost", token="Whiskey", reason="full"),
            _made("visit", location="Saloon"), _made("visit_ended", location="Saloon", why=""),
            _made("purchase", item="Dynamite", price=100), _made("sale", item="Dark Stone", count=2, price=100),
            _made("day_ended", None, day=1, name="Dust Storm"),
            _made("location_closed", None, location="Saloon", why="a fire"),
            _made("party_moved", None, before=0, after=1, target=9, why="a Map Tile"),
            _made("depth_event", None, first=3, second=3), _made("depth_event", None, number=3, card_text="Omens"),
            _made("card", chart="gear", card_text="A Lantern"), _made("darkness_held", None, value=8, target=7),
            _made("hit", reason="missed", figure="Goblin"), _made("hit", reason="saved", figure="Goblin"),
            _made("resource", why=""), _made("resource", reason="at_max", name="ki", count=1),
            _made("moved", reason="extra_die", value=4, why=""), _made("moved", reason="moved", count=2, value=1),
            _made("spell", name="Blinding Light", value=9, target=7, passed=True),
            _made("spell", name="Blinding Light", value=5, target=7, passed=False),
            _made("tactic", name="Flashing Steel"), _made("revived", why="the Fight is over"),
            _made("scavenged", count=0), _made("scavenged", count=2),
            _made("town_type", None, town_type="Mining Town", value=5), _made("building_destroyed", None, number=3),
            _made("hero_removed", why="shot in the back"), _made("trouble", reason="automatic", count=6),
            _made("trouble", reason="nobody", count=2, value=5), _made("trouble", reason="attacked", count=2, value=1),
            _made("trouble", reason="dodged"), _made("town_event", None, reason="none", value=3),
            _made("town_event", None, card_text="A quiet night"), _made("token_used", token="Fine Cigar", target=3),
            _made("token_used", token="Spice"), _made("token_used", token="Hatchet", value=6),
            _made("token_used", token="Tequila"), _made("darkness_card", None, reason="draw"),
            _made("growing_dread", None, reason="reveal", count=1, why=""),
            _made("growing_dread", None, reason="stack", count=1, value=3, why=""), _made("fled", None, reason="fled"),
            _made("cannot_pay", price=150, value=40), _made("nothing_lost", item="Whiskey"),
            _made("duel", reason="called_out"), _made("warrants_paid", reason="paid"),
            _made("jackpot", reason="bitten"), _made("jackpot", reason="artifact", value=4),
            _made("session_created", None, name="Ann, Bo"),
            _made("undone", None, count=1), _made("undone", None, count=3), _made("adjusted", why=""),
            _made("bell", target=3, count=2), _made("plague_church", None, successes=5, passed=True),
            _made("plague_church", None, successes=2, passed=False), _made("search", None, successes=3, passed=True),
            _made("search", None, successes=1, passed=False), _made("nothing_to_lose", reason="bandits", count=2),
            _made("nothing_to_lose", reason="black_fang"), _made("town_short", None, count=2),
            _made("town_built", None, size="small", town_type="Mining Town", name="1 Saloon, 2 Church"),
            _made("enemies_arrived", None, reason="fight", name="Void Hound, Void Hound", count=2, passed=True),
            _made("enemies_arrived", None, reason="board", name="Goblin", count=1, passed=False),
            _made("adventure_ended", None, reason="darkness", passed=False),
            _made("adventure_ended", None, reason="objective", passed=True),
            _made("adventure_ended", None, reason="after"), _made("wheel", reason="roll", number=1, value=14),
            _made("wheel", reason="score", value=21, card_text="", price=100),
            _made("bounty_posted", reason="drawn", name="Void Hounds"),
            _made("bounty_posted", reason="sheriff", price=50, name="Void Hound", passed=False),
            _made("bounty_paid", None, reason="paid", name="Void Hound", price=50),
            _made("bounty_paid", None, reason="closed"), _made("tile_placed", reason="no_door"),
            _made("tile_placed", reason="placed", name="Mine Shaft", passed=True),
            _made("encounter", None, reason="card"), _made("encounter", None, reason="attack", size="low"),
            _made("encounter", None, reason="attack", size="high", name="Tentacles")]  # fmt: skip
    events = _town_events() + _adventure_events() + _fight_events() + made
    names = {"ann": "Ann", "a": "Ann", "b": "Bo"} | {f"h{i}": f"H{i}" for i in range(1, 5)}
    seen: set[str] = set()
    try:
        for event in events:
            kind = event.type.value  # type: ignore[attr-defined]
            if kind not in CONVERTED:
                continue
            i18n.set_language("en")
            english = event_text(event, names)  # type: ignore[arg-type]
            i18n.set_language("es")
            spanish = event_text(event, names)  # type: ignore[arg-type]
            if kind == "card":  # a card's own words are the card's: only who read it is the app's
                assert spanish == english and ": " in spanish
            elif kind == "rolled" and not event.hero:  # type: ignore[attr-defined]
                assert spanish.startswith("Tirada: "), spanish
            else:
                assert spanish != english, (kind, spanish)
            seen.add(kind)
    finally:
        i18n.set_language("en")
    assert seen == CONVERTED, CONVERTED - seen


def test_a_kind_not_converted_falls_back_to_its_english_line() -> None:
    from mobile import i18n
    from mobile.presenters.words import event_text
    from shared_rules import Event, EventType

    event = Event(EventType.BOUNTY_POSTED, "A Bounty is posted for the Outlaw (FT-BOUNTY-01)")
    try:
        i18n.set_language("es")
        assert event_text(event, {}) == "A Bounty is posted for the Outlaw"
    finally:
        i18n.set_language("en")


def test_item_tags_read_as_words_in_both_languages_FT_HERO_04() -> None:
    from mobile import i18n
    from mobile.presenters.start import TAGS, tag_words

    try:
        assert tag_words(("transport", "dark_stone")) == "Transport, Dark Stone icon"
        i18n.set_language("es")
        assert tag_words(("transport", "clothing", "personal")) == "Transporte, Ropa, Personal"
        assert all("_" not in tag_words((t,)) for t in TAGS)
    finally:
        i18n.set_language("en")


def test_the_presenters_read_no_english_out_of_event_or_prompt_text() -> None:
    import mobile.presenters.dice as dice
    import mobile.presenters.reading as reading
    import mobile.presenters.words as words

    source = Path(words.__file__).read_text(encoding="utf-8")
    assert "event.text)" not in source.replace("plain(event.text)", "")  # only the fallback reads the English line
    assert not hasattr(reading, "_TARGET") and not hasattr(dice, "FACES_READ")
    assert '"double"' not in Path(dice.__file__).read_text(encoding="utf-8")
