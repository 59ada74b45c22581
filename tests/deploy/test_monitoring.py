"""The monitoring files in deploy/monitoring/ are checked like code (issue 21): the alert rules by `promtool check
rules`, the Grafana dashboard loads as JSON with a query in every panel, every metric the rules and the dashboard
name is one a real replica serves, and that replica's /metrics (on its own port) passes `promtool check metrics`.
promtool comes from the Debian prometheus package (installed on demand, as the deployment test installs nginx)."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml

from tests.deploy.test_deployment import _ensure
from tests.services.servers import ServerProcess, create_session, free_port, sqlite_storage

MONITORING = Path(__file__).resolve().parents[2] / "deploy" / "monitoring"
PROMETHEUS_OWN = {"up"}
"""Series Prometheus makes itself for every target (not in any /metrics)."""
_SELECTED = re.compile(r"([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{")


@pytest.fixture(scope="module")
def promtool() -> str:
    return _ensure("promtool", "prometheus")


@pytest.fixture(scope="module")
def scrape(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real replica's /metrics after a few requests (so the labelled series exist), from its metrics port."""
    port = free_port()
    with ServerProcess(sqlite_storage(tmp_path_factory.mktemp("metrics-db")), tmp_path_factory.mktemp("metrics-logs"),
                       env={"BRIMSTONE_METRICS_PORT": str(port)}) as server:
        with server.client() as client:
            created = create_session(client)
            client.get(f"/v1/sessions/{created['session_id']}", headers={"Authorization": "Bearer wrong"})
            client.post(f"/v1/sessions/{created['session_id']}/commands", json={"type": "choose_town_size",
                                                                               "size": "small"},
                        headers={"Authorization": f"Bearer {created['token']}"})
            assert client.get("/metrics").status_code == 404
        yield httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=30).text


def _served(text: str) -> set[str]:
    """Every series name a scrape can be queried by (a histogram's _bucket, _sum and _count)."""
    names = set()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ", 3)
            names |= {name + s for s in ("_bucket", "_sum", "_count")} if kind == "histogram" else {name}
    return names


def _alert_expressions() -> list[str]:
    rules = yaml.safe_load((MONITORING / "alerts.yaml").read_text())
    return [rule["expr"] for group in rules["groups"] for rule in group["rules"]]


def _dashboard_expressions() -> list[str]:
    dashboard = json.loads((MONITORING / "dashboard.json").read_text())
    assert dashboard["panels"] and dashboard["uid"]
    expressions = []
    for panel in dashboard["panels"]:
        assert panel["targets"], panel["title"]
        expressions += [target["expr"] for target in panel["targets"]]
    expressions += [v["query"]["query"] for v in dashboard["templating"]["list"] if v["type"] == "query"]
    return expressions


def test_the_alert_rules_pass_promtool(promtool: str) -> None:
    result = subprocess.run([promtool, "check", "rules", str(MONITORING / "alerts.yaml")], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    alerts = {rule["alert"] for group in yaml.safe_load((MONITORING / "alerts.yaml").read_text())["groups"]
              for rule in group["rules"]}
    assert {"BrimstoneUnavailableAnswers", "BrimstoneSlowAnswers", "BrimstoneRedisDown",
            "BrimstoneSimulationQueueDeep", "BrimstoneRateLimitStorm"} <= alerts


def test_every_metric_the_rules_and_the_dashboard_name_is_served(scrape: str) -> None:
    served = _served(scrape) | PROMETHEUS_OWN
    for expression in _alert_expressions() + _dashboard_expressions():
        named = set(_SELECTED.findall(expression))
        assert named, expression
        assert named <= served, f"{sorted(named - served)} in {expression!r} is not in a replica's /metrics"


def test_a_replicas_metrics_pass_promtool(promtool: str, scrape: str) -> None:
    result = subprocess.run([promtool, "check", "metrics"], input=scrape, capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stdout + result.stderr
