"""The deployment files are checked like code (issue 13): the Kubernetes manifests against the Kubernetes schemas
(kubernetes-validate, offline), compose.yaml against the Compose specification's schema (check-jsonschema), and the
settings an event relies on are where the runbook says. Issue 21: the hardening (non-root read-only pods, disruption
budgets, network policies, Redis with a password, probes that keep replicas serving their own 503 while Redis is
down, client addresses from the proxy only) is asserted here too."""

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
    # readiness never touches Redis: with Redis down both replicas stay in and answer their own 503 + Retry-After
    assert api["readinessProbe"]["httpGet"]["path"] == "/v1/health"
    assert api["livenessProbe"]["httpGet"]["path"] == "/v1/health"
    startup = api["startupProbe"]  # a replica takes 14-30 s to start on a busy node: 60 s or more before liveness
    assert startup["periodSeconds"] * startup["failureThreshold"] >= 60
    worker = kinds[("Deployment", "brimstone-worker")]["spec"]["template"]["spec"]["containers"][0]
    for probe in ("startupProbe", "livenessProbe"):
        assert worker[probe]["exec"]["command"] == ["brimstone", "worker", "--alive"]
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


def _pods() -> dict[str, dict[str, Any]]:
    kinds = _kinds()
    return {name: doc["spec"]["template"]["spec"] for (kind, name), doc in kinds.items()
            if kind in ("Deployment", "StatefulSet")}


def _env(container: dict[str, Any]) -> dict[str, Any]:
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in container.get("env", [])}


def test_every_pod_runs_as_non_root_on_a_read_only_root_filesystem() -> None:
    pods = _pods()
    assert set(pods) == {"brimstone-api", "brimstone-worker", "brimstone-redis"}
    claims = {t["metadata"]["name"] for t in _kinds()[("StatefulSet", "brimstone-redis")]["spec"]
              ["volumeClaimTemplates"]}
    for name, pod in pods.items():
        assert pod["securityContext"]["runAsNonRoot"] is True and pod["securityContext"]["runAsUser"] > 0, name
        assert pod["automountServiceAccountToken"] is False, name
        writable = {v["name"] for v in pod.get("volumes", []) if "emptyDir" in v} | claims
        for container in pod["containers"]:
            context = container["securityContext"]
            assert context["readOnlyRootFilesystem"] is True and context["allowPrivilegeEscalation"] is False, name
            assert context["capabilities"]["drop"] == ["ALL"], name
            for mount in container.get("volumeMounts", []):  # what it may write is an emptyDir or its volume
                assert mount["name"] in writable or mount.get("readOnly"), (name, mount)
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    users = [line.split()[1] for line in dockerfile.splitlines() if line.startswith("USER ")]
    assert users and users[-1].split(":")[0] not in ("root", "0"), "the image runs as a user of its own"
    assert pods["brimstone-api"]["securityContext"]["runAsUser"] == int(users[-1].split(":")[0])


def test_a_drain_keeps_a_replica_and_only_the_right_pods_talk() -> None:
    kinds = _kinds()
    api_labels = kinds[("Deployment", "brimstone-api")]["spec"]["selector"]["matchLabels"]
    budget = kinds[("PodDisruptionBudget", "brimstone-api")]["spec"]
    assert budget["minAvailable"] == 1 and budget["selector"]["matchLabels"] == api_labels
    assert ("PodDisruptionBudget", "brimstone-worker") in kinds
    deny = kinds[("NetworkPolicy", "brimstone-default-deny")]["spec"]
    assert deny["policyTypes"] == ["Ingress"] and "ingress" not in deny  # nothing in unless a policy lets it
    redis_in = kinds[("NetworkPolicy", "brimstone-redis")]["spec"]["ingress"]
    assert [p["podSelector"]["matchLabels"]["app.kubernetes.io/component"] for rule in redis_in
            for p in rule["from"]] == ["api", "worker"]
    api_in = kinds[("NetworkPolicy", "brimstone-api")]["spec"]["ingress"]
    assert {port["port"] for rule in api_in for port in rule["ports"]} == {8000, 9100}
    service_ports = {p["targetPort"] for p in kinds[("Service", "brimstone-api")]["spec"]["ports"]}
    assert service_ports == {"http"}, "the metrics port is never behind the Service (nor the Ingress)"


def test_redis_asks_for_a_password_from_the_secret_and_keeps_protected_mode() -> None:
    for text in ((DEPLOY / "redis.conf").read_text(), _kinds()[("ConfigMap", "brimstone-redis")]["data"]["redis.conf"]):
        settings = _settings(text)
        assert settings["protected-mode"] == "yes" and "bind" not in settings and "requirepass" not in settings
    redis_pod = _pods()["brimstone-redis"]["containers"][0]
    assert redis_pod["args"][redis_pod["args"].index("--requirepass") + 1] == "$(REDIS_PASSWORD)"
    assert _env(redis_pod)["REDIS_PASSWORD"] == {"secretKeyRef": {"name": "brimstone", "key": "redis-password"}}
    for name in ("brimstone-api", "brimstone-worker"):
        env = _env(_pods()[name]["containers"][0])
        assert env["REDIS_URL"].startswith("redis://:$(REDIS_PASSWORD)@"), name
        assert list(env).index("REDIS_PASSWORD") < list(env).index("REDIS_URL")  # defined first, or not expanded
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    assert "--requirepass" in compose["redis"]["command"]
    assert compose["api-1"]["environment"]["REDIS_URL"].startswith("redis://:${REDIS_PASSWORD")


def test_client_addresses_come_from_the_proxy_only() -> None:
    nginx = (DEPLOY / "nginx.conf").read_text()
    assert "$proxy_add_x_forwarded_for" not in nginx  # appending would keep what the client forged
    assert nginx.count("proxy_set_header X-Forwarded-For $remote_addr;") == nginx.count("proxy_pass ")
    everything = "".join(p.read_text() for p in [*(DEPLOY / "kubernetes").glob("*.yaml"), DEPLOY / "compose.yaml"])
    assert "FORWARDED_ALLOW_IPS" not in everything
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    proxy_address = compose["proxy"]["networks"]["brimstone"]["ipv4_address"]
    assert compose["api-1"]["environment"]["BRIMSTONE_TRUSTED_PROXIES"] == proxy_address
    trusted = _env(_pods()["brimstone-api"]["containers"][0])["BRIMSTONE_TRUSTED_PROXIES"]
    assert trusted and "*" not in trusted


def test_the_runbook_builds_the_image_and_makes_the_secrets() -> None:
    runbook = (DEPLOY / "README.md").read_text()
    image = _pods()["brimstone-api"]["containers"][0]["image"]
    assert image == _pods()["brimstone-worker"]["containers"][0]["image"]
    assert "docker build -f deploy/Dockerfile" in runbook and "docker push" in runbook
    assert image.rsplit(":", 1)[0] in runbook, "the runbook names the image the manifests run"
    assert "kubectl create secret tls brimstone-tls" in runbook
    assert "redis-password" in runbook and "host-token" in runbook
