"""GraphQL abuse limits, as strawberry extensions on the schema: a token budget (refused while parsing, before a
38,000-alias document is even built), query depth, aliases, root fields per operation (500 `createSession` in one
request) and a cost (fields selected, fragments expanded). A refused document is a GraphQL error naming the limit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from graphql import (
    ASTValidationRule,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
    ValidationContext,
)
from strawberry.extensions import (
    AddValidationRules,
    MaxAliasesLimiter,
    MaxTokensLimiter,
    QueryDepthLimiter,
    SchemaExtension,
)

from services.settings import Settings

TOKENS_PER_COST = 4
"""The token budget is this many tokens per unit of cost (a field with arguments is a handful of tokens)."""


def _limit_error(message: str, node: Any) -> GraphQLError:
    return GraphQLError(message, node, extensions={"code": "QUERY_TOO_COSTLY", "kind": "invalid-command",
                                                    "status": 400})


def cost_rule(max_cost: int, max_root_fields: int) -> type[ASTValidationRule]:
    """A validation rule counting every field an operation selects (fragments expanded, so reusing a fragment
    costs what it selects each time) and the fields at its root."""

    class CostLimit(ASTValidationRule):
        def __init__(self, context: ValidationContext) -> None:
            super().__init__(context)
            self.fragments = {d.name.value: d for d in context.document.definitions
                              if isinstance(d, FragmentDefinitionNode)}

        def _cost(self, selection_set: SelectionSetNode | None, seen: frozenset[str], budget: int) -> int:
            if selection_set is None:
                return 0
            total = 0
            for selection in selection_set.selections:
                if isinstance(selection, FieldNode):
                    total += 1 + self._cost(selection.selection_set, seen, budget - total)
                elif isinstance(selection, InlineFragmentNode):
                    total += self._cost(selection.selection_set, seen, budget - total)
                elif isinstance(selection, FragmentSpreadNode):
                    name = selection.name.value
                    fragment = self.fragments.get(name)
                    if fragment is not None and name not in seen:  # a cycle is the validator's to report
                        total += self._cost(fragment.selection_set, seen | {name}, budget - total)
                if total > budget:
                    return total  # stop counting a fragment bomb
            return total

        def enter_operation_definition(self, node: OperationDefinitionNode, *_: Any) -> None:
            roots = sum(1 for s in node.selection_set.selections if isinstance(s, FieldNode))
            if roots > max_root_fields:
                self.report_error(_limit_error(f"an operation may select at most {max_root_fields} root fields, "
                                               f"this one selects {roots}", node))
                return
            cost = self._cost(node.selection_set, frozenset(), max_cost)
            if cost > max_cost:
                self.report_error(_limit_error(f"the operation selects more than {max_cost} fields (fragments "
                                               "expanded); ask for less per request", node))

    return CostLimit


_TOO_COSTLY = ("tokens", "aliases found", "exceeds maximum operation depth", "depth exceeded", "root fields",
               "selects more than")


class ErrorCodes(SchemaExtension):
    """Gives every refused document's error a code, like the service's own errors: GRAPHQL_PARSE_FAILED,
    GRAPHQL_VALIDATION_FAILED or QUERY_TOO_COSTLY (a limit)."""

    def on_operation(self) -> Iterator[None]:
        yield
        context = self.execution_context
        errors = list(context.pre_execution_errors or [])
        if context.result is not None and context.result.errors:
            errors += [e for e in context.result.errors if e not in errors]
        for error in errors:
            if (error.extensions or {}).get("code"):
                continue
            message = error.message
            if any(marker in message for marker in _TOO_COSTLY):
                code = "QUERY_TOO_COSTLY"
            elif message.startswith("Syntax Error"):
                code = "GRAPHQL_PARSE_FAILED"
            else:
                code = "GRAPHQL_VALIDATION_FAILED"
            error.extensions = {**(error.extensions or {}), "code": code, "kind": "invalid-command", "status": 400}


def graphql_limits(settings: Settings) -> list[Callable[[], SchemaExtension]]:
    """Factories of the schema extensions enforcing the settings' GraphQL limits (a fresh one per request)."""
    rule = cost_rule(settings.graphql_max_cost, settings.graphql_max_root_fields)
    return [
        lambda: MaxTokensLimiter(max_token_count=settings.graphql_max_cost * TOKENS_PER_COST),
        lambda: QueryDepthLimiter(max_depth=settings.graphql_max_depth),
        lambda: MaxAliasesLimiter(max_alias_count=settings.graphql_max_aliases),
        lambda: AddValidationRules([rule]),
        ErrorCodes,
    ]
