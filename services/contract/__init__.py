"""The API contract, generated from the engine: one model of its types (model.py) walked from the dataclasses, enums
and registries; the OpenAPI components (json_schema.py) and the GraphQL types (services/api/graphql/generated.py)
are both built from it, requests are checked against it (validation.py), and clients see only its public view
(public.py).
"""
