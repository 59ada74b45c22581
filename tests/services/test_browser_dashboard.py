"""The host's dashboard in a real browser (issue 13): headless Chromium from the system packages, driven by selenium,
one browser for the whole module.

A host signs in, opens 40 tables from the dashboard and gets their join cards (the QR code read back from the
screenshot opens the table in the phone app's link format), watches the room (a table on the road stuck on a
question, one in town, one in an Adventure, a paused one, one whose hero died), sorts and filters it, pauses a
table, and sees a phone's move appear live. Swagger UI and GraphiQL load with every outside host unreachable.

Screenshots go to a temporary folder, or to BRIMSTONE_SCREENSHOT_DIR (`docs/screenshots` to refresh the README's).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from tests import processes
from tests.services.servers import ServerProcess, next_command, sqlite_storage
from tests.services.test_e2e_adventure import LAYOUT

T = TypeVar("T")
WAIT = 20.0  # seconds any page may take under load before the test gives up (nothing here is timed)
EXTRA_HERO = {"id": "kenji", "name": "Kenji", "removed": True}  # taken from the game earlier in the campaign


def _ensure_chromium() -> None:
    """Chromium and its driver from the system packages; selenium from the test extras."""
    if shutil.which("chromium") and shutil.which("chromedriver"):
        return
    if shutil.which("apt-get") is None:
        pytest.fail("the browser tests need chromium and chromium-driver (apt-get install chromium chromium-driver)")
    subprocess.run(["apt-get", "update", "-q"], check=False, capture_output=True)
    subprocess.run(["apt-get", "install", "-y", "-q", "chromium", "chromium-driver"], check=True, capture_output=True,
                   env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})


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
    with ServerProcess(sqlite_storage(tmp), tmp, env=env) as running:
        yield running
        assert "Traceback" not in running.log(), running.log()


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

    return list(browser.find_elements(By.CSS_SELECTOR, "#rows tr[id^=t-]"))


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
    until(lambda: len(_rows(browser)) == 40, "40 rows on the dashboard (the `added` events)")


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


@pytest.fixture(scope="module")
def room(server: ServerProcess, event: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Tables in the states a host meets, each with a fresh player token (the cards' were printed)."""
    host = {"Authorization": f"Bearer {event['host_token']}"}
    with httpx.Client(base_url=server.url, headers=host, timeout=30) as c:
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
    browser.get(f"{server.url}/host/{event['event_id']}")
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

    # sort by alerts, most serious first: the fallen hero's table, then the stuck one
    header = browser.find_element(By.CSS_SELECTOR, "button.sort[value^=alerts]")
    header.click()  # ascending
    until(lambda: browser.find_element(By.CSS_SELECTOR, "button.sort[value^=alerts]").get_attribute("value")
          == "alerts:desc", "the alerts column sorted")
    browser.find_element(By.CSS_SELECTOR, "button.sort[value^=alerts]").click()  # descending
    until(lambda: _rows(browser)[0].get_attribute("id") == f"t-{codes['41']}", "the fallen hero's table first")
    assert _rows(browser)[1].get_attribute("id") == f"t-{codes[str(stuck[0])]}"  # then the stuck ones, by number
    browser.save_screenshot(str(shots / "dashboard.png"))

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

    # a tablet held upright: every table is a card
    browser.set_window_size(820, 1180)
    browser.save_screenshot(str(shots / "dashboard_tablet.png"))
    assert row("1").value_of_css_property("display") == "block"
    browser.set_window_size(1440, 900)


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

    row = browser.find_element(By.ID, f"t-{code}")
    row.find_element(By.XPATH, ".//button[normalize-space()='Pause']").click()
    until(lambda: "PAUSED" in browser.find_element(By.ID, f"t-{code}").text.upper(), "the paused badge")
    with server.client(token) as phone:
        refused = phone.post(f"/v1/sessions/{code}/commands", json={"type": "choose_town_size", "size": "small"})
        assert refused.status_code == 409 and refused.json()["type"] == "/problems/paused"
    browser.find_element(By.ID, f"t-{code}").find_element(By.XPATH, ".//button[normalize-space()='Resume']").click()
    until(lambda: "PAUSED" not in browser.find_element(By.ID, f"t-{code}").text.upper(), "resumed")


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
