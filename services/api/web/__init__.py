"""The host's pages, served by the service itself: the live dashboard of an event, join cards, the summaries after
the evening, and the vendored assets (htmx, Swagger UI, GraphiQL) so nothing loads from the internet."""
