"""GraphQL abuse limits, checked once per document before graphql-core validates or executes it (issue 20).

`DocumentGuard` is a strawberry schema extension that does the parsing itself (strawberry's documented place for
custom parsing) so that nothing costly runs before the document is known to be cheap:

1. the text, before any parser reads it: longer than `max_chars`, brackets nested deeper than MAX_TEXT_DEPTH (a
   parser would recurse), or fragments found by a regex token scan that spread themselves, chain longer than
   MAX_FRAGMENT_NESTING or expand past the cost (`check_text`: about 1 ms for the 14 kB 400-fragment chain, which
   graphql-core takes 25-40 ms to parse);
2. the parse, with a token budget (graphql-core stops counting at `max_tokens`);
3. one walk of the parsed document: every fragment's cost, depth, root fields and repeated response names are
   computed once (memoized, each fragment after those it spreads), so a fragment spread twice by each of 20
   fragments costs 21 little walks, not 2^20. Aliases, root fields (500 `createSession` in one request), depth,
   the cost (fields selected plus spreads, fragments expanded) and a response name selected more than
   MAX_SAME_FIELD times in one selection set are refused with `QUERY_TOO_COSTLY`; a cycle or an unknown operation
   with `GRAPHQL_VALIDATION_FAILED`.

A refused document is never validated by graphql-core (whose fragment rules expand spreads without memoizing:
4.5 s for a 751-byte document) nor executed. The same extension runs for HTTP and for a websocket subscribe
message. Every refusal of the door has one shape (`refusal_extensions`), and graphql-core's own
errors (syntax, validation, variables) that shape too (`give_codes`, from the Schema's `process_errors`); over HTTP a
request refused before it ran answers the refusal's status (400), one that ran answers 200 (docs/api.md, GraphQL).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLSyntaxError,
    InlineFragmentNode,
    NameNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    Source,
    parse,
)
from strawberry.extensions import SchemaExtension

from services.contract.problems import BY_SLUG
from services.settings import Settings

TOKENS_PER_COST = 4
"""The token budget is this many tokens per unit of cost (a field with arguments is a handful of tokens)."""
CHARS_PER_TOKEN = 16
"""The document's length budget is this many characters per token of the budget (names, strings and indentation
included: the phone's longest query averages under 8)."""
MAX_TEXT_DEPTH = 64
"""Deepest bracket nesting ({, [, ( outside strings and comments) a document may have before it is parsed: the
parser recurses once per level (the HTTP edge refuses the same depth in the request body)."""
MAX_FRAGMENT_NESTING = 32
"""Longest chain of fragments spreading fragments: graphql-core's validation recurses once per link and gives up
("Validation aborted") past about 150; the phone's and GraphiQL's documents nest 3."""
MAX_SAME_FIELD = 16
"""Most times one response name may be selected in one selection set, fragments looked through: graphql-core's
check that same-named fields can merge compares every pair (1,990 `status` took 0.34 s, 400 inline fragments
1.6 s)."""

TOO_COSTLY = "QUERY_TOO_COSTLY"
PARSE_FAILED = "GRAPHQL_PARSE_FAILED"
VALIDATION_FAILED = "GRAPHQL_VALIDATION_FAILED"


def refusal_extensions(code: str, detail: str, *, status: int = 400, slug: str = "invalid-command",
                       field: str = "query", limit: str = "") -> dict[str, Any]:
    """The extensions of every refusal the GraphQL door makes before running anything: the same members as a use
    case's refusal (services/api/errors.py `graphql_extensions`: code, kind, type, title, status, detail, field,
    rule) plus `limit`, the setting that was exceeded (BRIMSTONE_GRAPHQL_MAX_COST ...) when one was."""
    kind = BY_SLUG.get(slug)
    out: dict[str, Any] = {"code": code, "kind": slug, "type": kind.uri if kind else "about:blank",
                           "title": "Bad Request" if status == 400 else (kind.title if kind else "Error"),
                           "status": status, "detail": detail, "field": field, "rule": ""}
    if limit:
        out["limit"] = limit
    return out


def refusal(code: str, detail: str, nodes: Any = None, *, field: str = "query", limit: str = "") -> GraphQLError:
    return GraphQLError(detail, nodes, extensions=refusal_extensions(code, detail, field=field, limit=limit))


@dataclass(frozen=True, slots=True)
class Limits:
    """The door's limits, from the settings (BRIMSTONE_GRAPHQL_MAX_*)."""

    max_depth: int = 12
    max_aliases: int = 30
    max_cost: int = 2000
    max_root_fields: int = 10

    @property
    def max_tokens(self) -> int:
        return self.max_cost * TOKENS_PER_COST

    @property
    def max_chars(self) -> int:
        return self.max_tokens * CHARS_PER_TOKEN

    @classmethod
    def of(cls, settings: Settings) -> Limits:
        return cls(settings.graphql_max_depth, settings.graphql_max_aliases, settings.graphql_max_cost,
                   settings.graphql_max_root_fields)


# ---- the text, before parsing ------------------------------------------------------------------------------------

_TOKENS = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*(?:"""|$)|"(?:[^"\\\n]|\\.)*"?|#[^\n\r]*|\.\.\.|[{}()\[\]@]'
                     r"|[_A-Za-z][_0-9A-Za-z]*")
"""What the text scan reads: strings and comments (skipped whole), `...`, brackets and names; numbers and the
other punctuators do not matter to it."""


def order_fragments(graph: dict[str, list[tuple[str, Any]]]) -> list[str] | tuple[list[str], Any]:
    """The fragments of `graph` (name -> the (name, where) of each spread it holds, unknown names dropped), each
    after every fragment it spreads, by an iterative depth-first walk; or a cycle (its names, and where it
    closes)."""
    done: set[str] = set()
    out: list[str] = []
    for root in graph:
        if root in done:
            continue
        path = [root]
        on_path = {root}
        stack = [iter(graph[root])]
        while stack:
            for target, where in stack[-1]:
                if target in on_path:
                    return path[path.index(target):] + [target], where
                if target in done or target not in graph:
                    continue
                path.append(target)
                on_path.add(target)
                stack.append(iter(graph[target]))
                break
            else:
                stack.pop()
                name = path.pop()
                on_path.discard(name)
                done.add(name)
                out.append(name)
    return out


def _cycle(loop: list[str], nodes: Any = None, **where: Any) -> GraphQLError:
    detail = f"fragment {loop[0]} spreads itself ({' -> '.join(loop)}); a fragment may not spread itself"
    return GraphQLError(detail, nodes, **where, extensions=refusal_extensions(
        VALIDATION_FAILED, detail, field=f"fragment {loop[0]}"))


def _nested(name: str, nesting: int, nodes: Any = None, **where: Any) -> GraphQLError:
    detail = (f"fragment {name} starts a chain of {nesting} fragments spreading fragments, more than the "
              f"{MAX_FRAGMENT_NESTING} allowed")
    return GraphQLError(detail, nodes, **where, extensions=refusal_extensions(
        TOO_COSTLY, detail, field=f"fragment {name}", limit="MAX_FRAGMENT_NESTING"))


def _too_costly(label: str, limits: Limits, nodes: Any = None, **where: Any) -> GraphQLError:
    detail = (f"{label} selects more than {limits.max_cost} fields (fragments expanded, each spread counted); "
              "ask for less per request")
    return GraphQLError(detail, nodes, **where, extensions=refusal_extensions(
        TOO_COSTLY, detail, limit="BRIMSTONE_GRAPHQL_MAX_COST"))


def check_text(query: str, limits: Limits) -> GraphQLError | None:
    """Refuse a document from its text alone, before graphql-core's parser (15 us a token here) reads it: too long,
    brackets nested too deep, or fragments that spread themselves, chain too long or expand past the cost (each
    spread expanded counts one, so this never refuses what the walk after parsing would accept)."""
    if len(query) > limits.max_chars:
        return refusal(TOO_COSTLY, f"the document is {len(query)} characters long, more than the "
                       f"{limits.max_chars} allowed; ask for less per request", limit="BRIMSTONE_GRAPHQL_MAX_COST")
    graph: dict[str, list[tuple[str, Any]]] = {}
    operations: list[list[tuple[str, Any]]] = []
    depth = selection = arguments = 0
    current: list[tuple[str, Any]] | None = None
    naming = spreading = False
    source = Source(query)
    for match in _TOKENS.finditer(query):
        token = match.group()
        first = token[0]
        if first in '"#':
            naming = spreading = False
            continue
        if first in "{[(":
            depth += 1
            if depth > MAX_TEXT_DEPTH:
                return GraphQLError(f"the document nests brackets more than {MAX_TEXT_DEPTH} levels deep",
                                    source=source, positions=[match.start()], extensions=refusal_extensions(
                                        TOO_COSTLY, f"the document nests brackets more than {MAX_TEXT_DEPTH} "
                                        "levels deep", limit="BRIMSTONE_GRAPHQL_MAX_DEPTH"))
            if first == "(" or arguments:
                arguments += 1  # arguments, variables and their values: braces in there are not selections
            elif first == "{":
                if selection == 0 and current is None:
                    current = []
                    operations.append(current)
                selection += 1
        elif first in "}])":
            depth -= 1
            if arguments:
                arguments -= 1
            elif first == "}" and selection:
                selection -= 1
                if selection == 0:
                    current = None
        elif arguments or first == "@":
            pass
        elif token == "...":
            spreading = selection > 0
            continue
        elif spreading:
            if token != "on" and current is not None:
                current.append((token, match.start()))
        elif selection == 0:
            if naming and current is None:
                current = graph.setdefault(token, []) if token not in graph else []  # a second one: graphql-core's
                naming = False
                continue
            naming = token == "fragment"
            if naming:
                current = None
            continue
        naming = spreading = False
    order = order_fragments(graph)
    if isinstance(order, tuple):
        loop, position = order
        return _cycle(loop, source=source, positions=[position])
    cap = limits.max_cost + 1
    expanded: dict[str, int] = {}
    nesting: dict[str, int] = {}
    for name in order:
        spreads = [target for target, _ in graph[name] if target in graph]
        nesting[name] = max((1 + nesting[t] for t in spreads), default=0)
        if nesting[name] > MAX_FRAGMENT_NESTING:
            return _nested(name, nesting[name], source=source, positions=[graph[name][0][1]])
        expanded[name] = min(sum(1 + expanded[t] for t in spreads), cap)
    for held in operations:
        if sum(1 + expanded[t] for t, _ in held if t in graph) > limits.max_cost:
            return _too_costly("the operation", limits, source=source, positions=[held[0][1]])
    return None


def parse_document(query: str, limits: Limits) -> DocumentNode | GraphQLError:
    """The parsed document, or the refusal of its text (too long, too deep, too many tokens, bad syntax)."""
    refused = check_text(query, limits)
    if refused is not None:
        return refused
    try:
        return parse(query, max_tokens=limits.max_tokens)
    except GraphQLSyntaxError as error:
        if "tokens" in error.message and "Parsing aborted" in error.message:
            return refusal(TOO_COSTLY, f"the document has more than {limits.max_tokens} tokens; ask for less "
                           "per request", limit="BRIMSTONE_GRAPHQL_MAX_COST")
        return GraphQLError(error.message, source=error.source, positions=error.positions,
                            extensions=refusal_extensions(PARSE_FAILED, error.message))
    except RecursionError:  # not reached below MAX_TEXT_DEPTH; kept so that no input becomes an uncoded error
        return refusal(TOO_COSTLY, "the document is nested too deeply to read", limit="BRIMSTONE_GRAPHQL_MAX_DEPTH")


# ---- the document, after parsing ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cost:
    """What a selection set (or a fragment) selects once expanded: `fields` (saturated just past the budget, so
    the numbers stay small), `depth` (nested fields with a selection, introspection left to graphql-core's
    MaxIntrospectionDepthRule, as strawberry's QueryDepthLimiter counts)
    `roots` (fields at its own level, spreads and inline fragments looked through) and `nesting` (the longest
    chain of fragment spreads inside it)."""

    fields: int = 0
    depth: int = 0
    roots: int = 0
    nesting: int = 0
    names: dict[str, int] = field(default_factory=dict)


class _Walk:
    """One pass over a document; each fragment's Cost is computed once, after the fragments it spreads."""

    def __init__(self, document: DocumentNode, limits: Limits) -> None:
        self.limits = limits
        self.document = document
        self.cap = limits.max_cost + 1
        self.fragments: dict[str, FragmentDefinitionNode] = {}
        for definition in document.definitions:
            if isinstance(definition, FragmentDefinitionNode):
                self.fragments.setdefault(definition.name.value, definition)
        self.costs: dict[str, Cost] = {}
        self.repeated: GraphQLError | None = None

    def spreads(self, selection_set: SelectionSetNode | None) -> list[tuple[str, Any]]:
        """The fragment spreads written inside a selection set (fragments not expanded); iterative."""
        found: list[tuple[str, Any]] = []
        stack = [selection_set] if selection_set is not None else []
        while stack:
            for selection in stack.pop().selections:
                if isinstance(selection, FragmentSpreadNode):
                    found.append((selection.name.value, selection))
                elif selection.selection_set is not None:  # type: ignore[attr-defined]
                    stack.append(selection.selection_set)  # type: ignore[attr-defined]
        return found

    def cost(self, selection_set: SelectionSetNode | None) -> Cost:
        """The Cost of a selection set, every spread read from the fragments' memo (recursion only follows the
        nesting written in the text, which check_text bounds)."""
        if selection_set is None:
            return Cost()
        fields = depth = roots = nesting = 0
        names: dict[str, int] = {}
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                inner = self.cost(selection.selection_set)
                fields += 1 + inner.fields
                roots += 1
                key = (selection.alias or selection.name).value
                names[key] = names.get(key, 0) + 1
                if selection.selection_set is not None and not selection.name.value.startswith("__"):
                    depth = max(depth, 1 + inner.depth)  # introspection: graphql-core's own depth rule
                nesting = max(nesting, inner.nesting)
            else:
                if isinstance(selection, InlineFragmentNode):
                    inner = self.cost(selection.selection_set)
                    nesting = max(nesting, inner.nesting)
                else:
                    inner = self.costs.get(selection.name.value, Cost())  # type: ignore[attr-defined]
                    nesting = max(nesting, 1 + inner.nesting)
                    fields += 1  # the spread itself, as the text scan counts it
                fields += inner.fields
                roots += inner.roots
                depth = max(depth, inner.depth)
                for key, count in inner.names.items():
                    names[key] = min(names.get(key, 0) + count, self.cap)
            fields = min(fields, self.cap)
            roots = min(roots, self.cap)
        if self.repeated is None:
            for key, count in names.items():
                if count > MAX_SAME_FIELD:
                    times = str(count) if count < self.cap else f"over {self.limits.max_cost}"
                    self.repeated = refusal(TOO_COSTLY, f"{key} is selected {times} times in one selection set "
                                            "(fragments looked through), more than the "
                                            f"{MAX_SAME_FIELD} allowed",
                                            [selection_set], limit="MAX_SAME_FIELD")
                    break
        return Cost(fields, depth, roots, nesting, names)

    def check(self, operation_name: str | None) -> GraphQLError | None:
        limits = self.limits
        aliases = [node for node in _fields(self.fragments.values(), self.operations()) if node.alias is not None]
        if len(aliases) > limits.max_aliases:
            return refusal(TOO_COSTLY, f"the document uses {len(aliases)} aliases, more than the "
                           f"{limits.max_aliases} allowed", aliases[limits.max_aliases],
                           limit="BRIMSTONE_GRAPHQL_MAX_ALIASES")
        graph = {name: self.spreads(fragment.selection_set) for name, fragment in self.fragments.items()}
        order = order_fragments(graph)
        if isinstance(order, tuple):
            loop, spread = order
            return _cycle(loop, [spread])
        for name in order:
            cost = self.costs[name] = self.cost(self.fragments[name].selection_set)
            if cost.nesting > MAX_FRAGMENT_NESTING:
                return _nested(name, cost.nesting, [self.fragments[name]])
            if self.repeated is not None:
                return self.repeated
        operations = self.operations()
        if operation_name is not None:
            operations = [o for o in operations if o.name is not None and o.name.value == operation_name]
            if not operations:
                return refusal(VALIDATION_FAILED, f"the document has no operation named {operation_name!r}",
                               field="operationName")
        elif not operations:
            return refusal(VALIDATION_FAILED, "the document has no operation to run (only fragments)")
        for operation in operations:
            cost = self.cost(operation.selection_set)
            if self.repeated is not None:
                return self.repeated
            label = f"operation {operation.name.value!r}" if operation.name else "the operation"
            if cost.roots > limits.max_root_fields:
                return refusal(TOO_COSTLY, f"{label} selects {cost.roots} root fields (fragments looked "
                               f"through), more than the {limits.max_root_fields} allowed per request",
                               [operation], limit="BRIMSTONE_GRAPHQL_MAX_ROOT_FIELDS")
            if cost.depth > limits.max_depth:
                return refusal(TOO_COSTLY, f"{label} nests fields {cost.depth} levels deep (fragments expanded), "
                               f"more than the {limits.max_depth} allowed", [operation],
                               limit="BRIMSTONE_GRAPHQL_MAX_DEPTH")
            if cost.fields > limits.max_cost:
                return _too_costly(label, limits, [operation])
        return None

    def operations(self) -> list[OperationDefinitionNode]:
        return [d for d in self.document.definitions if isinstance(d, OperationDefinitionNode)]


def _fields(fragments: Any, operations: list[OperationDefinitionNode]) -> Iterator[FieldNode]:
    """Every field written in the document, once each (fragments not expanded)."""
    stack = [f.selection_set for f in fragments] + [o.selection_set for o in operations]
    while stack:
        for selection in stack.pop().selections:
            if isinstance(selection, FieldNode):
                yield selection
            if getattr(selection, "selection_set", None) is not None:
                stack.append(selection.selection_set)  # type: ignore[attr-defined]


def check_document(document: DocumentNode, limits: Limits, operation_name: str | None = None) -> GraphQLError | None:
    """The refusal of a parsed document over a limit, or None: linear in the document's size whatever its
    fragments spread."""
    return _Walk(document, limits).check(operation_name)


def check_query(query: str, limits: Limits, operation_name: str | None = None) -> DocumentNode | GraphQLError:
    """The whole check of one request's document: its text, its parse, its walk. The document, or the refusal."""
    document = parse_document(query, limits)
    if isinstance(document, GraphQLError):
        return document
    refused = check_document(document, limits, operation_name)
    return refused if refused is not None else document


# ---- the schema extensions ---------------------------------------------------------------------------------------


def _placeholder(context: Any) -> DocumentNode:
    """A document with one empty operation of an allowed type (named as asked): what strawberry reads the operation
    type from after a refusal, so that it answers the refusal rather than "can't get the operation type"."""
    allowed = {t.value for t in context.allowed_operations}
    kind = next((t for t in (OperationType.QUERY, OperationType.MUTATION, OperationType.SUBSCRIPTION)
                 if t.value in allowed), OperationType.QUERY)
    name = NameNode(value=context.operation_name) if context.operation_name else None
    return DocumentNode(definitions=(OperationDefinitionNode(operation=kind, name=name, directives=(),
                                                             variable_definitions=(),
                                                             selection_set=SelectionSetNode(selections=())),))


def guard_extension(limits: Limits) -> type[SchemaExtension]:
    class DocumentGuard(SchemaExtension):
        """Parses the request's document and refuses it over a limit before graphql-core validates it; a refused
        request's pre-execution errors are set, which makes strawberry skip validation and execution."""

        def on_parse(self) -> Iterator[None]:
            context = self.execution_context
            checked: DocumentNode | GraphQLError | None = None
            if context.graphql_document is not None:  # parsed by someone else (a cache): still walked
                checked = check_document(context.graphql_document, limits, context.operation_name) \
                    or context.graphql_document
            elif isinstance(context.query, str) and context.query:
                checked = check_query(context.query, limits, context.operation_name)
            if isinstance(checked, DocumentNode):
                allowed = {t.value for t in context.allowed_operations}
                kind = _operation_kind(checked, context.operation_name)
                if kind is not None and kind not in allowed:
                    checked = refusal(VALIDATION_FAILED, f"a {kind} cannot be sent this way (this transport "
                                      f"takes {' or '.join(sorted(allowed)) or 'nothing'})")
            if isinstance(checked, GraphQLError):
                context.graphql_document = _placeholder(context)
                context.pre_execution_errors = [checked]
            elif checked is not None:
                context.graphql_document = checked
            yield

    return DocumentGuard


def _operation_kind(document: DocumentNode, operation_name: str | None) -> str | None:
    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode) and (
                operation_name is None or (definition.name is not None and definition.name.value == operation_name)):
            return definition.operation.value
    return None


def give_codes(errors: list[GraphQLError], execution_context: Any) -> None:
    """Give every error graphql-core raised itself the door's one shape (syntax, validation, a variable's value:
    400 with a code; a resolver's failure that is no refusal: INTERNAL_ERROR, 500), and over HTTP make a request
    refused before it ran (no error has a path) answer the refusal's status; errors of fields that ran keep the 200.
    Called by the Schema's `process_errors`, which strawberry runs on every result before it is sent (HTTP and
    both websocket protocols)."""
    for error in errors:
        if (error.extensions or {}).get("code"):
            continue
        message = error.message
        if error.path:  # a resolver failed without a refusal: the server's fault (logged by the Schema)
            error.extensions = {**(error.extensions or {}), **refusal_extensions(
                "INTERNAL_ERROR", message, status=500, slug="internal-error", field="")}
            continue
        code = PARSE_FAILED if message.startswith("Syntax Error") else VALIDATION_FAILED
        field = "variables" if message.startswith("Variable '$") else "query"
        limit = ""
        if message == "Maximum introspection depth exceeded":  # graphql-core's MaxIntrospectionDepthRule
            code, limit = TOO_COSTLY, "MAX_INTROSPECTION_DEPTH"
        error.extensions = {**(error.extensions or {}), **refusal_extensions(code, message, field=field, limit=limit)}
    if errors and not any(error.path for error in errors):  # refused before it ran
        status = (errors[0].extensions or {}).get("status")
        context = getattr(execution_context, "context", None)
        response = context.get("response") if isinstance(context, dict) else None
        if isinstance(status, int) and status >= 400 and response is not None and hasattr(response, "status_code"):
            response.status_code = status


def graphql_limits(settings: Settings) -> list[type[SchemaExtension]]:
    """The schema extensions enforcing the settings' GraphQL limits (strawberry makes a fresh one per request)."""
    return [guard_extension(Limits.of(settings))]
