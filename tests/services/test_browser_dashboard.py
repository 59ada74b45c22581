"""The host's dashboard in a real browser (issue 13): headless Chromium from the system packages, driven by selenium,
one browser for the whole module.

A host signs in, opens 40 tables from the dashboard and gets their join cards (the QR code read back from the
screenshot opens the table in the phone app's link format), watches the room (a table on the road stuck on a
question, one in town, one in an Adventure, a paused one, one whose hero died), sorts and filters it, pauses a
table, and sees a phone's move appear live. Swagger UI and GraphiQL load with every outside host unreachable.

The room view (issue 21): every table on one 1400x1000 screen with no scroll, alerts first, the view kept in the
address over a reload, an alarm when a hero dies or a table calls the host, a confirmation before New card, and an
honest banner (never "live") while Redis is down, with an HTML page on a reload and the failed Pause in words.

Screenshots go to a temporary folder, or to BRIMSTONE_SCREENSHOT_DIR (`docs/screenshots` to refresh the README's).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from tests import processes, system_packages
from tests.services.servers import ServerProcess, next_command, sqlite_storage
from tests.services.test_e2e_adventure import LAYOUT

T = TypeVar("T")
WAIT = 20.0  # seconds any page may take under load before the test gives up (nothing here is timed)
EXTRA_HERO = {"id": "kenji", "name": "Kenji", "removed": True}  # taken from the game earlier in the campaign
FOUR = [{"id": "hanzo", "name": "Hanzo", "hero_class": "Samurai Warrior"}, {"id": "akane", "name": "Akane",
                                                                            "hero_class": "Assassin"},
        {"id": "tenzin", "name": "Tenzin", "hero_class": "Traveling Monk"},
        {"id": "mei", "name": "Mei", "hero_class": "Sorceress"}]  # the dashboard's four-hero preset


def _ensure_chromium() -> None:
    """Chromium and its driver from the system packages; selenium from the test extras."""
    system_packages.ensure("chromium", "chromium", "chromium-driver")
    system_packages.ensure("chromedriver", "chromium", "chromium-driver")


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chosen = os.environ.get("BRIMSTONE_SCREENSHOT_DIR")
    path = Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    _ensure_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1440,900",
                 "--hide-scrollbars", "--force-device-scale-factor=1",
                 "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"):  # no internet: only this machine
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    try:
        driver = webdriver.Chrome(service=service, options=options)
    except BaseException:
        service.stop()  # a browser that failed to start leaves no chromedriver behind
        raise
    try:
        driver.set_page_load_timeout(60)
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("dashboard")
    env = {"BRIMSTONE_ALERT_STUCK": "1", "BRIMSTONE_SIMULATION_EXECUTOR": "thread"}  # a waiting prompt: "stuck" at once
    running = ServerProcess(sqlite_storage(tmp), tmp, env=env).start()  # readiness waits scale with the load
    try:
        yield running
        assert "Traceback" not in running.log(), running.log()
    finally:
        running.stop()


def until(check: Callable[[], T | None], what: str, timeout: float = WAIT) -> T:
    """Poll `check` until it returns something truthy (no fixed sleeps: generous under load)."""
    timeout = processes.start_timeout(timeout)
    deadline = time.monotonic() + timeout
    while True:
        try:
            found = check()
        except Exception:  # noqa: BLE001 - an element replaced while being read: read again
            found = None
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:.0f} s for {what}")
        time.sleep(0.02)


@pytest.fixture(scope="module")
def event(server: ServerProcess) -> dict[str, Any]:
    with server.client(server.host_token) as admin:
        response = admin.post("/v1/events", json={"name": "Brimstone Night at the Con"})
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        return created


def _rows(browser: Any) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(browser.find_elements(By.CSS_SELECTOR, "#rows [id^=t-]"))  # a tile (room) or a row (list)


def _viewport(browser: Any, width: int, height: int) -> None:
    """The page's own size exactly (a window's size includes whatever the browser draws around it)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def _whole_viewport(browser: Any) -> None:
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_host_opens_40_tables_and_prints_their_join_cards(server: ServerProcess, browser: Any,
                                                              event: dict[str, Any], shots: Path) -> None:
    import zxingcpp
    from PIL import Image
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(f"{server.url}/host/?event={event['event_id']}")
    browser.find_element(By.NAME, "token").send_keys(event["host_token"])
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    until(lambda: browser.find_element(By.ID, "live-state").text == "live", "the dashboard's live stream")

    before = len(_rows(browser))
    browser.find_element(By.CSS_SELECTOR, ".create summary").click()
    count = browser.find_element(By.NAME, "count")
    count.clear()
    count.send_keys("40")
    Select(browser.find_element(By.NAME, "preset")).select_by_value("forbidden-fortress")
    dashboard = browser.current_window_handle
    browser.find_element(By.CSS_SELECTOR, ".create-form button[type=submit]").click()
    cards_tab = until(lambda: next((h for h in browser.window_handles if h != dashboard), None), "the cards tab")
    browser.switch_to.window(cards_tab)
    until(lambda: len(browser.find_elements(By.CSS_SELECTOR, "section.card")) == 40, "40 join cards", 60)
    first = browser.find_element(By.CSS_SELECTOR, "section.card")
    code = first.find_element(By.CSS_SELECTOR, ".join-code").text
    token = first.find_element(By.CSS_SELECTOR, ".token").text
    assert first.find_element(By.CSS_SELECTOR, ".table-no").text == "Table 1"
    browser.set_window_size(900, 1200)
    first.screenshot(str(shots / "join_card.png"))
    browser.set_window_size(1440, 900)

    # the QR code, read back from the picture, is the phone app's join link for this very table
    decoded = zxingcpp.read_barcodes(Image.open(shots / "join_card.png"))
    assert decoded, "no QR code found on the card"
    link = urlsplit(decoded[0].text)
    query = {key: values[0] for key, values in parse_qs(link.query).items()}
    assert (link.scheme, link.netloc) == ("brimstone", "join")
    assert query == {"server": server.url, "code": code, "token": token}
    with httpx.Client(base_url=query["server"], headers={"Authorization": f"Bearer {query['token']}"}) as phone:
        assert phone.get(f"/v1/sessions/{query['code']}").json()["version"] == 0

    browser.close()
    browser.switch_to.window(dashboard)
    until(lambda: len(_rows(browser)) == before + 40, "40 more tiles on the dashboard (the `added` events)")


def _play(server: ServerProcess, token: str, code: str, until_phase: str, limit: int = 60) -> dict[str, Any]:
    """Move a table along the road with plain answers until it reaches `until_phase`."""
    with server.client(token) as phone:
        view: dict[str, Any] = phone.get(f"/v1/sessions/{code}").json()
        for _ in range(limit):
            if view["state"]["phase"] == until_phase and view["pending"] is None:
                return view
            response = phone.post(f"/v1/sessions/{code}/commands", json=next_command(view, "small"))
            assert response.status_code == 200, response.text
            view = response.json()
    raise AssertionError(f"{code} did not reach {until_phase}")


def _sign_in(browser: Any, server: ServerProcess, event: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    browser.get(f"{server.url}/host/?event={event['event_id']}")
    browser.find_element(By.NAME, "token").send_keys(event["host_token"])
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    until(lambda: browser.find_elements(By.ID, "live-state"), "the dashboard")


@pytest.fixture(scope="module")
def room(server: ServerProcess, event: dict[str, Any], browser: Any) -> dict[str, dict[str, str]]:
    """Tables in the states a host meets, each with a fresh player token (the cards' were printed), and the host
    signed in (a worker that did not run the first test opens the 40 tables through the API)."""
    _sign_in(browser, server, event)
    host = {"Authorization": f"Bearer {event['host_token']}"}
    with httpx.Client(base_url=server.url, headers=host, timeout=60) as c:
        if not c.get(f"/v1/events/{event['event_id']}").json()["tables"]:  # this worker did not open them (xdist)
            opened = c.post(f"/v1/events/{event['event_id']}/tables", json={"count": 40, "heroes": FOUR})
            assert opened.status_code == 201, opened.text
        tables = {t["number"]: t["session_id"] for t in c.get(f"/v1/events/{event['event_id']}").json()["tables"]}
        tokens = {n: c.post(f"/v1/sessions/{tables[n]}/tokens/player").json()["token"] for n in (1, 2, 3, 4, 5)}
        died = c.post(f"/v1/events/{event['event_id']}/tables", json={
            "count": 1, "heroes": [{"id": "hanzo", "name": "Hanzo", "hero_class": "Samurai Warrior"}, EXTRA_HERO]})
        fallen = died.json()["tables"][0]
    # 1: on the road, waiting on the table's answer to a hazard (stuck after BRIMSTONE_ALERT_STUCK)
    with server.client(tokens[1]) as phone:
        phone.post(f"/v1/sessions/{tables[1]}/commands", json={"type": "choose_town_size", "size": "large"})
        view = phone.post(f"/v1/sessions/{tables[1]}/commands",  # 36: the Warlord asks to pay or test (FT-TRAVEL-D36)
                          json={"type": "roll_hazard", "dice": [[3, 6]]}).json()
        assert view["pending"] is not None, view
    # 2: in town; 3: in an Adventure; 4: paused by the host
    _play(server, tokens[2], tables[2], "town")
    with server.client(tokens[2]) as phone:
        phone.post(f"/v1/sessions/{tables[2]}/commands", json={"type": "start_day"})
    with server.client(tokens[3]) as phone:
        started = phone.post(f"/v1/sessions/{tables[3]}/commands", json={
            "type": "start_adventure", "lantern": "hanzo", "layout": LAYOUT,
            "sheets": [{"hero": "hanzo", "initiative": 5, "max_fury": 3}, {"hero": "akane", "initiative": 6,
                                                                            "deadly_bonus": 1},
                       {"hero": "tenzin", "initiative": 4, "max_ki": 3},
                       {"hero": "mei", "initiative": 3, "mana": 4, "blast_cost": 2, "focus": "fire"}]})
        assert started.status_code == 200, started.text
        held = phone.post(f"/v1/sessions/{tables[3]}/commands",
                          json={"type": "hold_back_the_darkness", "dice": [[5, 2]]})
        assert held.status_code == 200, held.text
    with httpx.Client(base_url=server.url, headers=host) as c:
        assert c.post(f"/v1/sessions/{tables[4]}/pause").status_code == 200
    return {"codes": {str(n): sid for n, sid in tables.items()} | {"41": fallen["session_id"]},
            "tokens": {str(n): tok for n, tok in tokens.items()}}


def test_the_room_at_a_glance_sorted_and_filtered(server: ServerProcess, browser: Any, event: dict[str, Any],
                                                  room: dict[str, dict[str, str]], shots: Path) -> None:
    from selenium.webdriver.common.by import By

    codes = room["codes"]
    time.sleep(1.1)  # BRIMSTONE_ALERT_STUCK: table 1's question has waited long enough to be "stuck"
    browser.get(f"{server.url}/host/{event['event_id']}?density=list")
    until(lambda: len(_rows(browser)) == 41, "41 rows")

    def row(number: str) -> Any:
        return browser.find_element(By.ID, f"t-{codes[number]}")

    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {event['host_token']}"}) as host:
        tables = host.get(f"/v1/events/{event['event_id']}").json()["tables"]
    first = next(t for t in tables if t["number"] == 1)
    assert first["waiting_for"] and [a["kind"] for a in first["alerts"]] == ["stuck"], first
    alerting = [t["number"] for t in tables if t["alerts"]]
    stuck = sorted(n for n in alerting if n != 41)
    until(lambda: "stuck" in row("1").find_element(By.CSS_SELECTOR, ".alerts").text, "table 1's stuck alert")
    assert "Road to a Large Town" in row("1").find_element(By.CSS_SELECTOR, ".where").text
    assert "Town Stay, Day 1" in row("2").find_element(By.CSS_SELECTOR, ".where").text
    assert "turn" in row("3").find_element(By.CSS_SELECTOR, ".where").text.lower()
    assert "PAUSED" in row("4").text.upper()
    assert "Kenji died" in row("41").find_element(By.CSS_SELECTOR, ".alerts").text

    # alerts first from the start: the fallen hero's table, then the stuck ones by number
    assert _rows(browser)[0].get_attribute("id") == f"t-{codes['41']}"
    assert _rows(browser)[1].get_attribute("id") == f"t-{codes[str(stuck[0])]}"
    browser.find_element(By.CSS_SELECTOR, "button.sort[value=number]").click()  # by table number
    until(lambda: _rows(browser)[0].get_attribute("id") == f"t-{codes['1']}", "table 1 first")
    browser.find_element(By.CSS_SELECTOR, "button.sort[value^=alerts]").click()  # one click: most serious first
    until(lambda: _rows(browser)[0].get_attribute("id") == f"t-{codes['41']}", "the fallen hero's table first")
    assert _rows(browser)[1].get_attribute("id") == f"t-{codes[str(stuck[0])]}"
    browser.save_screenshot(str(shots / "dashboard_list.png"))

    # filter: alerts only, then a hero's name
    browser.find_element(By.NAME, "alerts").click()
    until(lambda: len(_rows(browser)) == len(alerting), "only the alerting tables")
    browser.find_element(By.NAME, "alerts").click()
    search = browser.find_element(By.NAME, "q")
    search.send_keys(codes["3"])
    until(lambda: [r.get_attribute("id") for r in _rows(browser)] == [f"t-{codes['3']}"], "table 3 alone")
    search.clear()
    search.send_keys("kenji")
    until(lambda: [r.get_attribute("id") for r in _rows(browser)] == [f"t-{codes['41']}"], "Kenji's table alone")
    search.clear()
    search.send_keys(" ")
    until(lambda: len(_rows(browser)) == 41, "every table again")

    # a tablet held upright: in the list, every table is a card
    _viewport(browser, 820, 1180)
    until(lambda: row("1").value_of_css_property("display") == "block", "table 1 as a card")
    _whole_viewport(browser)


def test_a_phone_move_appears_live_and_the_host_pauses_a_table(server: ServerProcess, browser: Any,
                                                              event: dict[str, Any],
                                                              room: dict[str, dict[str, str]]) -> None:
    from selenium.webdriver.common.by import By

    code, token = room["codes"]["5"], room["tokens"]["5"]
    browser.get(f"{server.url}/host/{event['event_id']}")
    until(lambda: browser.find_element(By.ID, "live-state").text == "live", "the live stream")
    latencies = []
    with server.client(token) as phone:
        for size in ("small", "medium", "large"):
            version = int(browser.find_element(By.ID, f"t-{code}").get_attribute("data-version"))
            posted = time.perf_counter()
            phone.post(f"/v1/sessions/{code}/undo" if version else f"/v1/sessions/{code}/commands",
                       json={} if version else {"type": "choose_town_size", "size": size})
            until(lambda v=version: int(browser.find_element(By.ID, f"t-{code}").get_attribute("data-version")) > v,
                  "the phone's move on the dashboard")
            latencies.append(time.perf_counter() - posted)
    print(f"\ndashboard: a phone's move visible after {', '.join(f'{s * 1000:.0f} ms' for s in latencies)}")

    _manage(browser, code, "Pause")
    until(lambda: "PAUSED" in browser.find_element(By.ID, f"t-{code}").text.upper(), "the paused badge")
    with server.client(token) as phone:
        refused = phone.post(f"/v1/sessions/{code}/commands", json={"type": "choose_town_size", "size": "small"})
        assert refused.status_code == 409 and refused.json()["type"] == "/problems/paused"
    _manage(browser, code, "Resume")
    until(lambda: "PAUSED" not in browser.find_element(By.ID, f"t-{code}").text.upper(), "resumed")


def _manage(browser: Any, code: str, action: str) -> None:
    """Open a tile's menu (⋯) and press one of its buttons. Each try finds the tile again: a live update redraws the
    tiles, and an element read before it is stale after it."""
    from selenium.webdriver.common.by import By

    def press() -> bool:
        tile = browser.find_element(By.ID, f"t-{code}")
        menu = tile.find_element(By.CSS_SELECTOR, "details.menu")
        if menu.get_attribute("open") is None:
            menu.find_element(By.CSS_SELECTOR, "summary").click()
        button = tile.find_element(By.XPATH, f".//button[normalize-space()='{action}']")
        if not button.is_displayed():
            return False
        button.click()
        return True

    until(press, f"the {action} button pressed")


def test_swagger_ui_and_graphiql_work_without_internet(server: ServerProcess, browser: Any, shots: Path) -> None:
    """Every outside host is unreachable for this browser: the docs load the service's own copies of their
    scripts and styles."""
    from selenium.webdriver.common.by import By

    origin = server.url
    browser.get(f"{origin}/schema/swagger")
    until(lambda: "Brimstone Table" in browser.find_element(By.CSS_SELECTOR, ".swagger-ui .info .title").text,
          "Swagger UI rendering the document")
    until(lambda: browser.find_elements(By.CSS_SELECTOR, ".opblock-tag"), "Swagger UI's operations")
    _same_origin(browser, origin)
    browser.get(f"{origin}/graphql")
    until(lambda: browser.find_elements(By.CSS_SELECTOR, ".graphiql-container .graphiql-query-editor"),
          "GraphiQL's editor")
    _same_origin(browser, origin)
    browser.find_element(By.CSS_SELECTOR, ".graphiql-execute-button").click()
    until(lambda: '"status": "ok"' in browser.find_element(By.CSS_SELECTOR, ".graphiql-response").text,
          "GraphiQL's answer from the service")
    browser.save_screenshot(str(shots / "graphiql.png"))


def _same_origin(browser: Any, origin: str) -> None:
    loaded = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert loaded and all(url.startswith(origin) for url in loaded), loaded


# ---- the room view (issue 21) -------------------------------------------------------------------------------------


def _board(server: ServerProcess, event: dict[str, Any]) -> list[dict[str, Any]]:
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {event['host_token']}"}) as host:
        tables: list[dict[str, Any]] = host.get(f"/v1/events/{event['event_id']}").json()["tables"]
        return tables


def _severity(table: dict[str, Any]) -> int:
    order = {"host_called": 4, "hero_died": 3, "stuck": 2, "idle": 1}
    return max((order[a["kind"]] for a in table["alerts"]), default=0)


def test_every_table_fits_one_laptop_screen_alerts_first(server: ServerProcess, browser: Any,
                                                         event: dict[str, Any], room: dict[str, dict[str, str]],
                                                         shots: Path) -> None:
    from selenium.webdriver.common.by import By

    codes = room["codes"]
    _viewport(browser, 1400, 1000)
    try:
        browser.get(f"{server.url}/host/{event['event_id']}")
        until(lambda: len(_rows(browser)) == 41, "41 tiles")
        until(lambda: browser.find_element(By.ID, "live-state").text == "live", "the live stream")
        sizes = browser.execute_script(
            "return [innerWidth, innerHeight, document.documentElement.scrollWidth,"
            " document.documentElement.scrollHeight]")
        assert sizes[2] <= sizes[0] and sizes[3] <= sizes[1], f"the page scrolls: {sizes}"
        for tile in _rows(browser):
            box = browser.execute_script("return arguments[0].getBoundingClientRect().toJSON()", tile)
            assert box["bottom"] <= 1000 and box["right"] <= 1400, (tile.get_attribute("id"), box)
        # alerts first (the most serious first), then the quiet tables by number
        tables = {t["session_id"]: t for t in _board(server, event)}
        shown = [tile.get_attribute("id")[2:] for tile in _rows(browser)]
        expected = sorted(tables, key=lambda sid: (-_severity(tables[sid]), -len(tables[sid]["alerts"]),
                                                   tables[sid]["number"]))
        assert shown == expected
        assert shown[0] == codes["41"] and tables[shown[1]]["alerts"][0]["kind"] == "stuck"
        # tables never played are "not started", with no "idle" alert
        never = [t for t in tables.values() if t["version"] == 0 and t["status"] == "not_started"]
        assert len(never) >= 30 and not any(t["alerts"] for t in never if t["number"] != 41)
        tile = browser.find_element(By.ID, f"t-{never[0]['session_id']}")
        assert "NOT STARTED" in tile.text.upper() and "status-not_started" in tile.get_attribute("class")
        browser.save_screenshot(str(shots / "dashboard.png"))

        # a portrait tablet: three tiles a row, alerts still first
        _viewport(browser, 800, 1280)
        until(lambda: len({t.location["x"] for t in _rows(browser)}) == 3, "three tiles a row")
        assert _rows(browser)[0].get_attribute("id") == f"t-{codes['41']}"
        visible = [t for t in _rows(browser) if t.location["y"] + t.size["height"] <= 1280]
        assert len(visible) >= 24, len(visible)
        browser.save_screenshot(str(shots / "dashboard_tablet.png"))
    finally:
        _whole_viewport(browser)


def test_the_view_is_kept_in_the_address_over_a_reload(server: ServerProcess, browser: Any, event: dict[str, Any],
                                                       room: dict[str, dict[str, str]]) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(f"{server.url}/host/{event['event_id']}")
    until(lambda: len(_rows(browser)) >= 41, "the tiles")
    Select(browser.find_element(By.ID, "sort")).select_by_value("number")
    until(lambda: "sort=number" in browser.current_url, "the sort in the address")
    browser.find_element(By.NAME, "alerts").click()
    until(lambda: "alerts=1" in browser.current_url and "sort=number" in browser.current_url,
          "the filter in the address")
    browser.find_element(By.CSS_SELECTOR, "input[name=density][value=list]").click()
    until(lambda: "density=list" in browser.current_url and "alerts=1" in browser.current_url
          and browser.find_elements(By.CSS_SELECTOR, "table.tables"), "the list, in the address")
    url = browser.current_url
    browser.refresh()
    until(lambda: browser.find_elements(By.CSS_SELECTOR, "table.tables #rows tr[id^=t-]"), "the list after reload")
    assert browser.current_url == url
    assert Select(browser.find_element(By.ID, "sort")).first_selected_option.get_attribute("value") == "number"
    assert browser.find_element(By.NAME, "alerts").is_selected()
    assert browser.find_element(By.CSS_SELECTOR, "input[name=density][value=list]").is_selected()

    def shown() -> list[int]:
        return [int(r.find_element(By.CSS_SELECTOR, ".num").text) for r in _rows(browser)]

    def alerting() -> list[int]:  # the alerts change with time ("stuck" after a while): asked again each time
        return sorted(t["number"] for t in _board(server, event) if t["alerts"])

    until(lambda: shown() == alerting(), "only the alerting tables, by number")


def test_new_card_asks_before_it_ends_a_tables_card(server: ServerProcess, browser: Any, event: dict[str, Any],
                                                     room: dict[str, dict[str, str]]) -> None:
    from selenium.webdriver.common.by import By

    code = room["codes"]["2"]
    browser.get(f"{server.url}/host/{event['event_id']}")
    until(lambda: len(_rows(browser)) >= 41, "the tiles")
    dashboard = browser.current_window_handle
    _manage(browser, code, "New card")
    asked = until(lambda: browser.switch_to.alert, "the confirmation")
    assert "stops working" in asked.text and "table 2" in asked.text, asked.text
    asked.dismiss()
    with server.client(room["tokens"]["2"]) as phone:  # a misclick changed nothing: the card still plays
        assert phone.get(f"/v1/sessions/{code}").status_code == 200
    assert browser.window_handles == [dashboard]
    _manage(browser, code, "New card")
    until(lambda: browser.switch_to.alert, "the confirmation").accept()
    card_tab = until(lambda: next((h for h in browser.window_handles if h != dashboard), None), "the new card")
    browser.switch_to.window(card_tab)
    token = until(lambda: browser.find_element(By.CSS_SELECTOR, ".card .token").text, "the new token")
    assert len(token) == 40 and not set(token) & set("O0I1l"), token  # nothing to misread on the card
    browser.close()
    browser.switch_to.window(dashboard)
    with server.client(room["tokens"]["2"]) as phone:
        assert phone.get(f"/v1/sessions/{code}").status_code == 403  # the old card stopped working
    room["tokens"]["2"] = token


def test_a_hero_dies_and_a_table_calls_the_host_and_the_host_is_alerted(
        server: ServerProcess, browser: Any, event: dict[str, Any], room: dict[str, dict[str, str]],
        shots: Path) -> None:
    from selenium.webdriver.common.by import By

    browser.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.url, "permissions": ["notifications"]})
    browser.get(f"{server.url}/host/{event['event_id']}")
    until(lambda: browser.find_element(By.ID, "live-state").text == "live", "the live stream")
    browser.find_element(By.ID, "alarm-setup").click()  # the host's click lets the page make a sound
    until(lambda: "on" in browser.find_element(By.ID, "alarm-setup").get_attribute("class"), "sound on")
    host = {"Authorization": f"Bearer {event['host_token']}"}
    with httpx.Client(base_url=server.url, headers=host, timeout=30) as c:  # Hanzo took Mr. Scratch's deal
        made = c.post(f"/v1/events/{event['event_id']}/tables", json={"count": 1, "heroes": [
            {"id": "hanzo", "name": "Hanzo", "hero_class": "Samurai Warrior", "scratch_deal": True}]}).json()
    table = made["tables"][0]
    code = table["session_id"]
    until(lambda: browser.find_elements(By.ID, f"t-{code}"), "the new table's tile")
    with server.client(table["token"]) as phone:
        phone.post(f"/v1/sessions/{code}/commands", json={"type": "choose_town_size", "size": "large"})
        # 66 Traveler on the Road, then 6: Mr. Scratch returns to collect (FT-TRAVEL-D66)
        died = phone.post(f"/v1/sessions/{code}/commands", json={"type": "roll_hazard", "dice": [[6, 6], [6]]})
        assert died.json()["state"]["heroes"][0]["removed"] is True, died.text
    alarm = until(lambda: next((a for a in browser.execute_script("return window.hostAlarms")
                                if a["sid"] == code), None), "the alarm for the hero's death")
    assert alarm["kind"] == "hero_died" and alarm["text"].startswith(f"Hanzo died at table {table['number']}")
    assert alarm["sound"] and alarm["notified"], alarm  # the beep played; the notification was shown
    assert "Hanzo died" in browser.find_element(By.ID, "alarms").text
    until(lambda: "flash" in browser.find_element(By.ID, f"t-{code}").get_attribute("class"), "the tile flashing")
    # the board reorders itself: the fallen tables first (by number), before the stuck ones
    until(lambda: [t.get_attribute("id") for t in _rows(browser)[:2]] == [f"t-{room['codes']['41']}", f"t-{code}"],
          "the fallen heroes' tables first")

    # a phone raises its hand: the tile says why, comes first, and the host clears it when done
    caller = room["codes"]["5"]
    with server.client(room["tokens"]["5"]) as phone:
        assert phone.post(f"/v1/sessions/{caller}/host-call", json={"reason": "rules question"}).status_code == 200
    called = until(lambda: next((a for a in browser.execute_script("return window.hostAlarms")
                                 if a["kind"] == "host_called"), None), "the call's alarm")
    assert called["sid"] == caller and called["text"].endswith("calls the host: rules question")
    until(lambda: _rows(browser)[0].get_attribute("id") == f"t-{caller}", "the calling table first")
    tile = browser.find_element(By.ID, f"t-{caller}")
    assert "rules question" in tile.find_element(By.CSS_SELECTOR, ".call").text
    browser.save_screenshot(str(shots / "dashboard_alarm.png"))
    tile.find_element(By.CSS_SELECTOR, ".call .clear-call").click()
    until(lambda: not browser.find_element(By.ID, f"t-{caller}").find_elements(By.CSS_SELECTOR, ".call"),
          "the call cleared")
    assert next(t for t in _board(server, event) if t["session_id"] == caller)["host_call"] is None


def test_the_page_says_the_storage_is_down_while_redis_is(browser: Any, tmp_path: Path, shots: Path) -> None:
    from selenium.webdriver.common.by import By

    from tests.services.outages import RedisProcess
    from tests.services.servers import redis_storage

    redis_server = RedisProcess(tmp_path).start()
    try:
        with ServerProcess(redis_storage(redis_server.url), tmp_path) as server:
            with server.client(server.host_token) as admin:
                event = admin.post("/v1/events", json={"name": "Outage Night"}).json()
            with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {event['host_token']}"},
                              timeout=30) as host:
                tables = host.post(f"/v1/events/{event['event_id']}/tables", json={
                    "count": 3, "heroes": [{"id": "hanzo", "name": "Hanzo"}]}).json()["tables"]
            browser.get(f"{server.url}/host/?event={event['event_id']}")
            browser.find_element(By.NAME, "token").send_keys(event["host_token"])
            browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
            until(lambda: browser.find_element(By.ID, "live-state").text == "live", "the live stream")

            redis_server.kill()
            # within a few seconds (a beat every 2 s, a ping given 1.5 s; 15 s allowed on a loaded machine)
            until(lambda: browser.find_element(By.ID, "live-state").text == "storage down", "'storage down'", 15)
            banner = browser.find_element(By.ID, "outage")
            assert banner.is_displayed() and "storage is down" in banner.text.lower()
            _manage(browser, tables[0]["session_id"], "Pause")
            problems = until(lambda: browser.find_element(By.ID, "problems") if browser.find_element(
                By.ID, "problems").is_displayed() else None, "the failed Pause in words")
            assert "Pause failed" in problems.text and "storage is down" in problems.text.lower(), problems.text
            browser.save_screenshot(str(shots / "dashboard_outage.png"))

            browser.refresh()  # a reload during the outage: an HTML page that says so (and retries by itself)
            heading = until(lambda: browser.find_element(By.TAG_NAME, "h1").text, "the outage page")
            assert heading == "The storage is down"
            assert not browser.find_element(By.TAG_NAME, "body").text.lstrip().startswith("{")

            redis_server.start()
            until(lambda: browser.find_elements(By.ID, "live-state")
                  and browser.find_element(By.ID, "live-state").text == "live", "live again after the outage", 60)
            assert len(_rows(browser)) == 3
    finally:
        redis_server.kill()
