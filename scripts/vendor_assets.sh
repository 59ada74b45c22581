#!/usr/bin/env bash
# Refresh the vendored front-end assets (services/api/web/static/vendor, see VENDORED.md there) from the npm registry.
# The service serves them itself: the dashboard, Swagger UI and GraphiQL load nothing from a CDN.
set -euo pipefail
cd "$(dirname "$0")/.."
out=services/api/web/static/vendor
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack -q htmx.org@2.0.11 htmx-ext-sse@2.2.4 swagger-ui-dist@5.35.0 graphiql@3.9.0 react@18.3.1 \
  react-dom@18.3.1 >/dev/null)
for tgz in "$work"/*.tgz; do mkdir -p "${tgz%.tgz}" && tar xzf "$tgz" -C "${tgz%.tgz}"; done
cp "$work"/htmx.org-2.0.11/package/dist/htmx.min.js "$work"/htmx.org-2.0.11/package/LICENSE "$out/htmx/"
cp "$work"/htmx-ext-sse-2.2.4/package/dist/sse.min.js "$out/htmx/htmx-ext-sse.min.js"
cp "$work"/swagger-ui-dist-5.35.0/package/{swagger-ui-bundle.js,swagger-ui-standalone-preset.js,swagger-ui.css,LICENSE} \
  "$out/swagger-ui/"
cp "$work"/graphiql-3.9.0/package/{graphiql.min.js,graphiql.min.css,LICENSE} "$out/graphiql/"
cp "$work"/react-18.3.1/package/umd/react.production.min.js "$work"/react-18.3.1/package/LICENSE "$out/react/"
cp "$work"/react-dom-18.3.1/package/umd/react-dom.production.min.js "$out/react/"
echo "refreshed $out"
