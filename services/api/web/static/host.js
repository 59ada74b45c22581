// The host's pages: print buttons and the live connection's state. Everything else is htmx (hx-* attributes).
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-print]");
    if (button) { window.print(); }
  });
  function state(text, live) {
    var shown = document.getElementById("live-state");
    if (shown) { shown.textContent = text; shown.classList.toggle("on", live); }
  }
  document.addEventListener("htmx:sseOpen", function () { state("live", true); });
  document.addEventListener("htmx:sseError", function () { state("reconnecting…", false); });
})();
