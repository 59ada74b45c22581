"""The deployment files are checked like code (issue 13): the Kubernetes manifests against the Kubernetes schemas
(kubernetes-validate, offline), compose.yaml against the Compose specification's schema (check-jsonschema), and the
settings an event relies on are where the runbook says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
BIN = Path(sys.executable).parent


def _documents(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def _kinds() -> dict[tuple[str, str], dict[str, Any]]:
    return {(doc["kind"], doc["metadata"]["name"]): doc
            for path in sorted((DEPLOY / "kubernetes").glob("*.yaml")) for doc in _documents(path)}


def test_kubernetes_manifests_fit_the_kubernetes_schemas() -> None:
    manifests = sorted(str(p) for p in (DEPLOY / "kubernetes").glob("*.yaml"))
    assert manifests
    result = subprocess.run([str(BIN / "kubernetes-validate"), "--strict", "--quiet", *manifests],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_compose_file_fits_the_compose_specification() -> None:
    result = subprocess.run([str(BIN / "check-jsonschema"), "--builtin-schema", "vendor.compose-spec",
                             str(DEPLOY / "compose.yaml")], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_api_is_probed_and_scaled_and_redis_never_evicts_a_table() -> None:
    kinds = _kinds()
    api = kinds[("Deployment", "brimstone-api")]["spec"]["template"]["spec"]["containers"][0]
    assert api["readinessProbe"]["httpGet"]["path"] == "/v1/ready"
    assert api["livenessProbe"]["httpGet"]["path"] == "/v1/health"
    assert kinds[("HorizontalPodAutoscaler", "brimstone-api")]["spec"]["scaleTargetRef"]["name"] == "brimstone-api"
    assert ("Deployment", "brimstone-worker") in kinds and ("StatefulSet", "brimstone-redis") in kinds
    in_cluster = _settings(kinds[("ConfigMap", "brimstone-redis")]["data"]["redis.conf"])
    assert in_cluster == _settings((DEPLOY / "redis.conf").read_text()), "one redis.conf for every deployment"
    assert in_cluster["maxmemory-policy"] == "noeviction" and in_cluster["appendonly"] == "yes"
    assert in_cluster["maxmemory"] not in ("", "0")


def _settings(text: str) -> dict[str, str]:
    """A redis.conf as {directive: value}, comments left out."""
    found = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.strip().partition(" ")
            found[key] = value
    return found


def test_compose_runs_two_replicas_behind_the_tls_proxy() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert {"api-1", "api-2", "worker", "redis", "proxy"} <= set(services)
    assert services["worker"]["deploy"]["replicas"] == 2
    nginx = (DEPLOY / "nginx.conf").read_text()
    assert "server api-1:8000" in nginx and "server api-2:8000" in nginx and "listen 443 ssl" in nginx
    assert "proxy_buffering off" in nginx and "$connection_upgrade" in nginx
