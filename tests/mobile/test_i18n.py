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


def _engine_events() -> list[object]:
    """The kinds the engine reported only in English before (issue 18), from real runs: a hazard's roll asked for
    and a Mimic Beast with no second Hero (A11, FT-TRAVEL-D21), the Shootout set up, a model placed, the Bandits'
    proposals and shots (FT-BANDIT-05/06), Lost Contact's Clues and Objective (FF-EXPL-06), and each Town Mission
    played a few turns by the autoplay's plain table (its own rules, the End of the Turn, its end carried on)."""
    from shared_rules.commands import Activate, ActivateBandits, RevealToken, Search
    from shared_rules.state import ExplorationToken
    from tests.rules.adventure.helpers import of, to_activations
    from tests.rules.adventure.helpers import run as run_adventure
    from tests.rules.adventure.test_explore import reveal, to_exploration
    from tests.rules.missions.helpers import answer
    from tests.rules.missions.test_activation import bandits_up
    from tests.rules.table import Table, hero, item

    road = Table.travelling([hero("a", xp=100, items=(item("Horse", "transport"),))])
    road.hazard(21)
    shootout = bandits_up()
    shootout.do(ActivateBandits(dice=((5,),)))
    answer(shootout, "a", 5, 5, (5, 5), (2, 2), (5,), (6,), (2,))
    lost = to_exploration([of("a")])
    reveal(lost, ExplorationToken(doors=1, clue=True), (2,))
    to_activations(lost)
    run_adventure(lost, Activate("a", dice=((2,),)))
    run_adventure(lost, Search("a", "door", placed="room"))
    lost.do(RevealToken("tile-2", ExplorationToken(doors=2, attack=True, clue=True)))
    return [*road.events, *shootout.events, *lost.events, *_missions_played()]


def _missions_played() -> list[object]:
    """Each Town Mission, 1 and 3 Heroes, up to turn 8: the default policy answers, the RNG rolls, aloud."""
    from shared_rules.autoplay.adventure import next_command
    from shared_rules.codec import decode_command
    from shared_rules.engine import apply, new_session
    from shared_rules.rules.missions import TOWN_MISSIONS
    from shared_rules.simulate import default_policy
    from shared_rules.state import RuleOptions
    from tests.rules.missions.test_sweep import LAYOUT
    from tests.rules.table import hero

    seen: list[object] = []
    for mission in TOWN_MISSIONS:
        for heroes in (1, 3):
            state = new_session([hero(f"h{i}", max_grit=2) for i in range(heroes)], seed=heroes,
                                options=RuleOptions(dice="server", combat="house"))  # fmt: skip
            sheets = [{"hero": f"h{i}", "initiative": 6 - i, "combat": 1, "melee_to_hit": 5, "ranged_to_hit": 5,
                       "shots": 1} for i in range(heroes)]  # fmt: skip
            outcome = apply(state, decode_command({"type": "start_adventure", "lantern": "h0", "mission": mission,
                                                   "layout": LAYOUT, "sheets": sheets}), policy=default_policy)  # fmt: skip
            seen += outcome.events
            state = outcome.state
            while state.adventure is not None and state.adventure.turn <= 8:
                outcome = apply(state, next_command(state), policy=default_policy)
                seen, state = [*seen, *outcome.events], outcome.state
    return seen


def _made(kind: str, hero: str | None = "ann", **facts: object) -> object:
    """An event of `kind` with the facts the engine gives it (for kinds a short scripted run does not reach)."""
    from shared_rules import Change, Event, EventType
    from shared_rules.events import Fact

    changes = (Change("items", "", str(facts["item"])),) if kind == "item_gained" else \
        (Change("fury", 1, 2),) if kind == "resource" and "reason" not in facts else ()  # fmt: skip
    return Event(EventType(kind), "(the English line)", hero, "", changes,
                 facts=tuple(Fact(k, v) for k, v in facts.items()))  # type: ignore[arg-type]  # fmt: skip


def test_a_spanish_app_words_every_kind_of_event_in_spanish_from_its_facts() -> None:
    """All 81 event kinds, from real runs where a short one reaches them: none falls back to the English line."""
    from mobile import i18n
    from mobile.presenters.words import event_text
    from shared_rules import EventType

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
            _made("encounter", None, reason="attack", size="high", name="Tentacles"),
            _made("prompt", None, reason="card", purpose="Enter the Gear card"), _made("prompt", reason="reroll",
            purpose="Re-roll?"), _made("town_chart", reason="modified", chart="Camp Site Hazard", value=5, number=1),
            _made("town_chart", reason="entry", chart="Town Event", value=7, card_text="A quiet night"),
            _made("town_chart", reason="entry", chart="Town Event", value="", card_text=""),
            _made("town_chart", None, reason="hotel_rate", count=2), _made("town_chart", None, reason="stay_over"),
            _made("carry", None, reason="void_storm", count=4), _made("carry", None, reason="revive_tokens", count=1),
            _made("answered", reason="everyone", purpose="Search the wreck?", name="Search"),
            _made("shot", None, reason="gone", figure="Bandit 2"),
            _made("shot", "ann", reason="melee", figure="Bandit 2", name="Ann", hits=1),
            _made("placed", None, figure="Bandit 2", where="roof:3", to=""),
            _made("mission", None, reason="gang", name="Dalton Gang", value=10, price=25, card_text="")]  # fmt: skip
    events = _town_events() + _adventure_events() + _fight_events() + _engine_events() + made
    names = {"ann": "Ann", "a": "Ann", "b": "Bo"} | {f"h{i}": f"H{i}" for i in range(1, 5)}
    seen: set[str] = set()
    try:
        for event in events:
            kind = event.type.value  # type: ignore[attr-defined]
            i18n.set_language("en")
            english = event_text(event, names)  # type: ignore[arg-type]
            i18n.set_language("es")
            spanish = event_text(event, names)  # type: ignore[arg-type]
            facts = {fact.name: fact.value for fact in event.facts}  # type: ignore[attr-defined]
            assert facts or kind in ("rolled", "knocked_out"), (kind, event.text)  # type: ignore[attr-defined]
            if kind == "card" and not facts.get("reason"):  # a card's own words are the card's: only who read it
                assert spanish == english and ": " in spanish
            elif kind == "rolled" and not event.hero:  # type: ignore[attr-defined]
                assert spanish.startswith("Tirada: "), spanish
            else:
                assert spanish != english, (kind, spanish)
            seen.add(kind)
    finally:
        i18n.set_language("en")
    assert seen == {kind.value for kind in EventType} and len(seen) == 81, {k.value for k in EventType} - seen


def test_an_event_without_facts_falls_back_to_its_english_line() -> None:
    """An older server's event (no facts) still reads, in English, without its rule id."""
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


def test_every_reason_an_engine_emit_site_names_is_worded_in_spanish() -> None:
    """Each `reason` key the engine's source passes (a Mission rule, a carried flag, a Hit that did nothing ...) has
    its own words in the app: an event built from that site's fact names reads in Spanish, not the English line."""
    from mobile import i18n
    from mobile.presenters.words import event_text
    from shared_rules import Event, EventType
    from shared_rules.events import Fact
    from tests.rules.test_event_facts import emit_sites

    sample: dict[str, int | str | bool] = {"where": "street", "to": "3,4", "mission": "bank_robbery", "passed": True,
                                           "name": "Bo", "figure": "Bandit 2", "chart": "Town Event", "item": "Rifle",
                                           "card_text": "A card's words", "purpose": "Which one?", "why": "a reason",
                                           "size": "low", "token": "Whiskey", "skill": "luck"}  # fmt: skip
    keyed = [(where, kind, named) for where, kind, named in emit_sites() if isinstance(named.get("reason"), str)]
    assert len(keyed) > 100
    try:
        i18n.set_language("es")
        for where, kind, named in keyed:
            facts = tuple(Fact(k, v if v is not None else sample.get(k, 2)) for k, v in named.items())  # type: ignore[arg-type]
            event = Event(EventType(kind), "(the English line)", "ann", "", facts=facts)
            spanish = event_text(event, {"ann": "Ann"})
            i18n.set_language("en")
            english = event_text(event, {"ann": "Ann"})
            i18n.set_language("es")
            assert spanish != "(the English line)" and spanish != english, (where, kind, named, spanish)
    finally:
        i18n.set_language("en")
