"""The catalogue of problem types: every refusal a client can meet, with its status, what it means, an example and
what the client should do. Listed in the OpenAPI document (the `Problem.type` enum and the `getProblemType`
operation) and served at its URL (`/problems/<slug>`), so a problem's `type` is a link to its explanation.
"""

from __future__ import annotations

from dataclasses import dataclass

BASE = "/problems/"  # problem types are URLs on the service itself (RFC 9457 section 3.1.1, a relative reference)


@dataclass(frozen=True, slots=True)
class ProblemType:
    slug: str
    status: int
    title: str
    description: str
    action: str  # what a client should do
    example_detail: str
    example_field: str = ""
    example_rule: str = ""

    @property
    def uri(self) -> str:
        return BASE + self.slug

    def example(self, instance: str = "/v1/sessions/K7QX2M/commands") -> dict[str, object]:
        out: dict[str, object] = {"type": self.uri, "title": self.title, "status": self.status,
                                  "detail": self.example_detail, "field": self.example_field,
                                  "rule": self.example_rule, "instance": instance}
        if self.slug in ("stale-version", "precondition-failed"):
            out["current_version"] = 5
        return out


CATALOGUE: tuple[ProblemType, ...] = (
    ProblemType(
        "invalid-command", 422, "Malformed request",
        "The request does not fit the published schema: invalid JSON, a wrong type, a missing or unknown field, an "
        "unknown command type, a value outside its range. `field` is the JSON path of the first thing refused.",
        "Fix the request: sending it again unchanged fails again. Every limit is in the OpenAPI document.",
        "effects[0].amount: 2000000 is greater than the maximum of 1000000", "effects[0].amount"),
    ProblemType(
        "illegal-command", 409, "Refused by the rules",
        "The request is well formed, but the game's rules or the table's current state refuse it: a command not "
        "allowed in this phase, a prompt answered with the wrong command, a die face the die being rolled cannot "
        "show, a hero who is not in this posse, a hero sheet the rules do not allow. `rule` names the rule "
        "(rules-reference id) and nothing was written.",
        "Show `detail` to the players, read what may be sent now (GET .../legal-commands, or `legalCommands` in "
        "GraphQL) and send one of those.",
        "'arrive' is not allowed in phase 'travel': the posse arrives once every hazard is resolved (FT-TRAVEL-04)",
        "type", "FT-TRAVEL-04"),
    ProblemType(
        "stale-version", 409, "Stale version",
        "`expected_version` names a version the table has moved past; `current_version` says where it is. Nothing "
        "was written.",
        "Read the table again, decide again with what changed, and send the command with the new version.",
        "the session is at version 5, not 3; reload and send the command again", "expected_version"),
    ProblemType(
        "precondition-failed", 412, "Precondition failed",
        "`If-Match` names an ETag (a version) the table has moved past; `current_version` says where it is. Nothing "
        "was written.",
        "Read the table again (its ETag is the current version), decide again, and send with the new If-Match.",
        "If-Match: the session is at version 5 (ETag \"5\"), not \"3\"", "If-Match"),
    ProblemType(
        "archived", 409, "Archived",
        "The table's owner archived it: it can be read and its log paged, not changed.",
        "Open a new table to play on; read this one for its history.",
        "session 'K7QX2M' is archived: it can be read, not changed", "session_id"),
    ProblemType(
        "paused", 409, "Paused by the host",
        "The event's host paused the table (a break, a rules question, a dispute): it can be read, not changed, "
        "until the host resumes it. Nothing was written.",
        "Wait for the host to resume the table, then send the command again (with the same Idempotency-Key).",
        "session 'K7QX2M' is paused by the event host: it can be read, not changed", "session_id"),
    ProblemType(
        "idempotency-key-reused", 422, "Idempotency-Key reused",
        "An Idempotency-Key was sent again with a different request; a key stands for one request for 24 hours.",
        "Use a new key for every new request; resend a key only with exactly the request it was first sent with.",
        "Idempotency-Key 'a1b2' was already used for a different request", "Idempotency-Key"),
    ProblemType(
        "unauthenticated", 401, "Missing credentials",
        "No bearer token was sent (the `WWW-Authenticate` header names the scheme).",
        "Send the table token as `Authorization: Bearer <token>` (it was returned once, when the table opened).",
        "Authorization: send 'Bearer <table token>'", "Authorization"),
    ProblemType(
        "forbidden", 403, "Forbidden",
        "The token does not open this table, or not for this: a table token opens only its own table; a spectator "
        "token only reads; an event's host token reads, pauses, closes and issues tokens for its own event's tables "
        "but never plays their commands; only the deployment's admin token lists every table and opens events; a "
        "rotated or revoked token opens nothing.",
        "Use this table's own token (or the role the operation needs); do not retry with the same token.",
        "this token does not open session 'K7QX2M'", "Authorization"),
    ProblemType(
        "not-found", 404, "Not found",
        "No table, simulation job, problem type or path by that name (jobs expire after a while).",
        "Check the join code or job id; a table that never existed will not appear by retrying.",
        "session 'K7QX2M' does not exist", "session_id"),
    ProblemType(
        "method-not-allowed", 405, "Method not allowed",
        "The path exists but does not take this method; the `Allow` header lists the methods it takes.",
        "Use one of the methods in `Allow`.", "Method Not Allowed"),
    ProblemType(
        "body-too-large", 413, "Content too large",
        "The request body is larger than the server accepts (1 MB by default).",
        "Send a smaller body: no command or posse comes near the limit.", "Request Entity Too Large", "body"),
    ProblemType(
        "unsupported-media-type", 415, "Unsupported media type",
        "The request body is not `application/json`.",
        "Send JSON with `Content-Type: application/json`.",
        "Content-Type: send application/json", "Content-Type"),
    ProblemType(
        "rate-limited", 429, "Too many requests",
        "The client sent more requests than its share; `Retry-After` (seconds) says when to try again and the "
        "`RateLimit` header how much is left.",
        "Wait `Retry-After` seconds, then retry (with the same Idempotency-Key for a write).",
        "too many requests for this table; retry in 2 s"),
    ProblemType(
        "internal-error", 500, "Internal error",
        "The server failed to answer; the error was logged and the body carries no internals. A write that failed "
        "this way was not applied unless a retry with its Idempotency-Key says so.",
        "Retry later with the same Idempotency-Key; report it if it persists.",
        "the server failed to answer; the error was logged"),
    ProblemType(
        "store-unavailable", 503, "Storage unavailable",
        "The server cannot reach its storage for now (Redis restarting, a failover) or its job queue is full; "
        "nothing was written. `Retry-After` says when to try again.",
        "Wait `Retry-After` seconds and retry (with the same Idempotency-Key for a write).",
        "the table store is not reachable; retry in 1 s"),
)
BY_SLUG = {problem.slug: problem for problem in CATALOGUE}
BY_STATUS_DEFAULT = {401: "unauthenticated", 403: "forbidden", 404: "not-found", 405: "method-not-allowed",
                     412: "precondition-failed", 413: "body-too-large", 415: "unsupported-media-type",
                     422: "invalid-command", 429: "rate-limited", 500: "internal-error", 503: "store-unavailable"}
"""The problem type of an HTTP error the framework raises itself (an unknown path, a method, a body too large)."""


def page(problem: ProblemType) -> dict[str, object]:
    """The catalogue entry served at the problem type's URL."""
    return {"type": problem.uri, "status": problem.status, "title": problem.title,
            "description": problem.description, "action": problem.action, "sample": problem.example()}
