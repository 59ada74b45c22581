// GraphiQL on this service's /graphql: queries over HTTP, subscriptions over the same path's websocket.
(function () {
  "use strict";
  var http = window.location.origin + "/graphql";
  var ws = http.replace(/^http/, "ws");
  var fetcher = GraphiQL.createFetcher({ url: http, subscriptionUrl: ws });
  var root = ReactDOM.createRoot(document.getElementById("graphiql"));
  root.render(React.createElement(GraphiQL, {
    fetcher: fetcher,
    defaultEditorToolsVisibility: true,
    defaultHeaders: JSON.stringify({ Authorization: "Bearer <table or host token>" }, null, 2),
    defaultQuery: "# The service's health; add a token under Headers for a table or an event.\n{ health { status storage } }\n",
  }));
})();
