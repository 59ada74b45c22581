"""The Town Stay screen: the Day and its caps, each hero's one visit (who may enter where), the visit's prompt, the
wares with prices, Unwanted Attention and Wanted!, the end of the Day and leaving town; one tap each."""

from __future__ import annotations

from pathlib import Path

from mobile.presenters.stay import StayAction, StayPresenter, trouble_line
from shared_rules import Choose, EnterCard, RollDice
from shared_rules.state import Carry, Phase, StayStage
from tests.mobile.helpers import hero
from tests.mobile.phases import in_town


def _answer_dawn(table) -> None:  # type: ignore[no-untyped-def]
    """Just Another Day in a Standard Town, and everyone at the Hotel (FT-DAY-01/02)."""
    table.submit(Choose("just_another_day"))
    while (prompt := table.snapshot.pending) is not None:
        assert prompt.kind == "choice", prompt.question
        table.submit(Choose("hotel"))


def test_dawn_is_one_tap_and_the_day_shows_its_cap_FT_DAY_01(tmp_path: Path) -> None:
    table = in_town(tmp_path, [hero("ann", "Ann", gold=100)], carry=Carry(max_days=2))
    stay = StayPresenter(table)
    view = stay.view()
    assert view.in_town and view.title == "Day 1 of 2" and view.main is not None and view.main.key == "start_day"
    assert stay.act()  # one tap: the Daily Event is drawn
    assert table.snapshot.pending is not None and stay.view().main.key == "answer"  # the card: on the Dice screen
    _answer_dawn(table)
    view = stay.view()
    assert view.event == "Just Another Day on the Frontier" and "Sleeps at the Hotel" in view.heroes[0].badges


def test_a_visit_is_one_tap_on_the_place_and_closed_places_say_why_FT_WANTED_03(tmp_path: Path) -> None:
    table = in_town(tmp_path, [hero("ann", "Ann", gold=100, wanted=1), hero("bob", "Bob", gold=50)])
    stay = StayPresenter(table)
    stay.act()
    _answer_dawn(table)
    ann, bob = stay.view().heroes
    assert "Sheriff's Office" not in [a.arg for a in ann.places] and "★ Wanted!" in ann.badges
    assert any(line.startswith("Sheriff's Office:") and "Wanted!" in line for line in ann.closed)
    assert not any("FT-" in line or "_" in line for line in ann.closed)  # the game's words, no ids or commands
    assert "Sheriff's Office" in [a.arg for a in bob.places]
    saloon = next(a for a in bob.places if a.arg == "Saloon")
    assert stay.do(saloon)  # one tap: the visit, then the Location Event Chart's 2D6 (FT-LOC)
    prompt = table.snapshot.pending
    assert prompt is not None and prompt.hero == "bob" and "Location Event" in prompt.question
    table.submit(RollDice((3, 5)))
    table.submit(EnterCard("A quiet drink"))
    view = stay.view()
    bob = view.heroes[1]
    assert bob.status == "At the Saloon" and bob.places == ()
    # no "leave" tap: the visit lasts until Bob leaves or the Day ends; Ann's place is the next tap (R-STAY-01)
    assert view.main is None and view.stage.startswith("Bob: At the Saloon; 1 hero still to visit")
    assert any(a.key == "end_day" for a in view.others)
    leave = next(a for a in bob.actions if a.key == "end_visit")  # still there, under Bob
    assert leave.label == "Bob: leave the Saloon"
    stay.do(leave)
    assert stay.view().heroes[1].status == "Visited the Saloon today"


def test_everyone_visited_then_end_the_day_then_leave_town_FT_UA_06(tmp_path: Path) -> None:
    table = in_town(tmp_path, [hero("ann", "Ann", gold=100, unwanted_attention=2)], town_events="darkness")
    stay = StayPresenter(table)
    assert stay.view().heroes[0].trouble == trouble_line(2) == \
        "On a Location Event roll of 7, trouble comes on a D6 of 2 or less"  # FT-UA-04
    stay.act()
    _answer_dawn(table)
    stay.do(next(a for a in stay.view().heroes[0].places if a.arg == "Frontier Outpost"))
    table.submit(RollDice((4, 4)))
    table.submit(EnterCard())
    view = stay.view()  # everyone has visited: the big button ends the Day, which ends the visit (FT-UA-02)
    assert view.main is not None and view.main.key == "end_day" and view.stage == "Ann: At the Frontier Outpost"
    assert view.end_die == "End Day 1: tap the Town Darkness die (the marker is on 1)"  # Town Events on, table dice
    assert stay.end_day_with(6)  # 6 > 1: no Town Event, the marker moves up (FT-TRAVEL-D54)
    assert table.snapshot.pending is None and table.snapshot.state.stay.darkness == 2
    view = stay.view()
    assert table.snapshot.state.stay.stage is StayStage.NIGHT
    assert view.main.key == "start_day" and view.main.label == "Start Day 2"
    leave = next(a for a in view.others if a.key == "leave_town")
    stay.do(leave)
    assert table.snapshot.state.phase is Phase.BETWEEN_ADVENTURES
    assert not stay.view().in_town


def test_six_markers_mean_trouble_on_any_seven_FT_UA_04() -> None:
    assert "no D6 can save you" in trouble_line(6) and trouble_line(0) == ""


def test_buttons_are_only_what_the_rules_take(tmp_path: Path) -> None:
    table = in_town(tmp_path, [hero("ann", "Ann", gold=100)])
    stay = StayPresenter(table)
    assert stay.command(StayAction("nonsense", "?")) is None
    stay.act()
    assert not stay.do(StayAction("answer", "Answer"))  # the screen opens the Dice tab for it
    legal = {c.type for c in table.snapshot.legal}
    for action in stay.view().others:
        assert {"leave_town": "end_town_stay"}.get(action.key, action.key) in legal | {"end_town_stay"}


def test_a_ware_the_pack_does_not_list_is_typed_with_its_price_and_kind(tmp_path: Path) -> None:
    table = in_town(tmp_path, [hero("ann", "Ann", gold=100)])
    stay = StayPresenter(table)
    stay.act()
    _answer_dawn(table)  # the Hotel: $10
    stay.do(next(a for a in stay.view().heroes[0].places if a.arg == "Gambling Hall"))
    table.submit(RollDice((3, 5)))
    table.submit(EnterCard())
    typed = next(a for a in stay.view().heroes[0].actions if a.key == "buy_typed")
    assert typed.arg == "Gambling Hall"
    assert not stay.buy_typed("ann", "Whiskey", "ten", "token") and "price in Gold" in table.notice.text
    assert stay.buy_typed("ann", "Whiskey", "15", "token")
    ann = table.snapshot.state.hero("ann")
    assert ann.gold == 100 - 10 - 15 and "Whiskey" in ann.side_bag


def test_a_bounty_from_a_low_threat_card_pays_ten_a_health_FT_BOUNTY_01(tmp_path: Path) -> None:
    table = in_town(tmp_path, [hero("ann", "Ann", gold=100)])
    stay = StayPresenter(table)
    stay.act()
    _answer_dawn(table)
    stay.do(next(a for a in stay.view().heroes[0].places if a.arg == "Frontier Outpost"))
    table.submit(RollDice((3, 5)))
    table.submit(EnterCard())
    bounties = [a for a in stay.view().heroes[0].actions if a.key == "bounty"]
    assert {a.arg for a in bounties} >= {"threat_card"}
    assert not stay.post_bounty("ann", "threat_card", "Void Hound", "") and "number the card shows" in \
        table.notice.text
    assert stay.post_bounty("ann", "threat_card", "Void Hound", "3", all_heroes=True)
    assert stay.view().bounties == ("Void Hound: $30 bounty (every hero)",)
