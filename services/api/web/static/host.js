// The host's pages: print buttons, confirmations, the live connection's honest state, errors in words, and the
// alarm (a beep, a notification when allowed, a flash) when a hero dies or a table calls the host.
// Everything else is htmx (hx-* attributes).
(function () {
  "use strict";
  var BEAT_LATE_MS = 5000; // no beat for this long: the page stops saying "live"
  var lastBeat = 0, storageDown = false, streamOpen = false, sawTrouble = false;
  var seen = {}; // session id -> {dead, called} as last shown
  var flashing = {}; // session ids whose tile flashes until the host clicks it
  var audio = null;
  window.hostAlarms = []; // what the page raised, newest last (the browser tests read it)

  function $(id) { return document.getElementById(id); }

  // ---- clicks and forms ----------------------------------------------------------------------------------------
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) { window.print(); }
    var dismiss = event.target.closest(".banner .dismiss, .alarm .dismiss");
    if (dismiss) {
      var box = dismiss.closest(".banner, .alarm");
      if (box.classList.contains("alarm")) { box.remove(); } else { box.hidden = true; }
    }
    if (event.target.closest("#alarm-setup")) { setUpAlarms(); }
    var item = event.target.closest(".menu-items button");
    if (item) {  // the tile's menu closes once an action is chosen (so it hides nothing while it runs)
      window.setTimeout(function () { var menu = item.closest("details"); if (menu) { menu.open = false; } }, 0);
    }
    var tile = event.target.closest(".tile.flash, tr.flash");
    if (tile && !event.target.closest("button, summary, a")) {
      tile.classList.remove("flash");
      delete flashing[tile.dataset.sid];
    }
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  }, true);

  // ---- the live state --------------------------------------------------------------------------------------------
  function state(text, live) {
    var shown = $("live-state");
    if (shown) { shown.textContent = text; shown.classList.toggle("on", live); }
  }
  function outage(text) {
    var box = $("outage");
    if (!box) { return; }
    box.hidden = !text;
    box.textContent = text || "";
    document.body.classList.toggle("storage-down", !!text);
  }
  function refresh() {
    var filters = $("filters");
    if (filters && window.htmx) { window.htmx.trigger(filters, "refresh"); }
  }
  function showState() {
    var late = Date.now() - lastBeat > BEAT_LATE_MS;
    if (storageDown) {
      state("storage down", false);
      outage("The storage is down: tables' moves cannot be saved or shown until it is back. What you see is " +
             "from before the outage. Retrying by itself…");
    } else if (!streamOpen || late) {
      state(lastBeat ? "not live: reconnecting…" : "connecting…", false);
      if (lastBeat && late) {
        outage("No word from the server for " + Math.round((Date.now() - lastBeat) / 1000) +
               " s: what you see may be out of date. Reconnecting…");
      }
    } else {
      state("live", true);
      outage("");
    }
  }
  document.addEventListener("htmx:sseOpen", function () { streamOpen = true; showState(); });
  document.addEventListener("htmx:sseError", function () { streamOpen = false; sawTrouble = true; showState(); });
  function onBeat(event) {
    var wasDown = storageDown;
    lastBeat = Date.now();
    storageDown = event.data !== "ok";
    if (storageDown) { sawTrouble = true; }
    if (!storageDown && (wasDown || sawTrouble)) { sawTrouble = false; refresh(); }
    showState();
  }
  document.addEventListener("htmx:sseOpen", function (event) {
    var source = event.detail && event.detail.source;
    if (source && !source.brimstoneBeat) {
      source.brimstoneBeat = true;
      source.addEventListener("beat", onBeat);
    }
  });
  window.setInterval(function () { if ($("live-state")) { showState(); } }, 1000);

  // ---- errors in words ----------------------------------------------------------------------------------------------
  function problem(text) {
    var box = $("problems");
    if (!box) { return; }
    box.querySelector(".text").textContent = text;
    box.hidden = false;
  }
  function words(xhr) {
    var type = xhr.getResponseHeader("Content-Type") || "";
    var body = xhr.responseText || "";
    if (type.indexOf("json") >= 0) {
      try { var data = JSON.parse(body); return data.detail || data.title || body; } catch (e) { return body; }
    }
    var holder = document.createElement("div");
    holder.innerHTML = body;
    return (holder.textContent || "").trim() || ("the server answered " + xhr.status);
  }
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    var what = event.detail.elt && event.detail.elt.tagName === "BUTTON" ?
      event.detail.elt.textContent.trim() + " failed: " : "The board could not be refreshed: ";
    if (xhr.status === 503) { storageDown = true; sawTrouble = true; showState(); }
    problem(what + words(xhr));
  });
  document.addEventListener("htmx:sendError", function (event) {
    var elt = event.detail.elt;
    var what = elt && elt.tagName === "BUTTON" ? elt.textContent.trim() + " failed" : "The board could not be refreshed";
    problem(what + ": the server cannot be reached.");
  });

  // ---- alarms: a hero died, a table calls the host ---------------------------------------------------------------------
  function setUpAlarms() {
    try {
      var Context = window.AudioContext || window.webkitAudioContext;
      if (Context && !audio) { audio = new Context(); }
      if (audio && audio.state === "suspended") { audio.resume(); }
    } catch (e) { audio = null; }
    if ("Notification" in window && Notification.permission === "default") {
      Notification.requestPermission().then(labelSetup);
    }
    try { window.localStorage.setItem("brimstone-alarms", "on"); } catch (e) { /* private mode */ }
    beep(660, 0.12);
    labelSetup();
  }
  function labelSetup() {
    var button = $("alarm-setup");
    if (!button) { return; }
    var notes = "Notification" in window ? Notification.permission : "unsupported";
    button.textContent = audio ? (notes === "granted" ? "♪ Sound and notifications on" : "♪ Sound on") :
      "♪ Sound & notifications";
    button.classList.toggle("on", !!audio);
  }
  function beep(pitch, seconds) {
    if (!audio) { return false; }
    try {
      var now = audio.currentTime, tone = audio.createOscillator(), gain = audio.createGain();
      tone.type = "square";
      tone.frequency.value = pitch;
      gain.gain.setValueAtTime(0.15, now);
      gain.gain.exponentialRampToValueAtTime(0.001, now + seconds);
      tone.connect(gain).connect(audio.destination);
      tone.start(now);
      tone.stop(now + seconds);
      return true;
    } catch (e) { return false; }
  }
  function alarm(kind, element, text) {
    var sound = kind === "hero_died" ? (beep(880, 0.25) && beep(440, 0.5)) : beep(660, 0.3);
    var notified = false;
    if ("Notification" in window && Notification.permission === "granted") {
      try { new Notification("Brimstone Table: " + text, {tag: kind + element.dataset.sid}); notified = true; }
      catch (e) { notified = false; }
    }
    flashing[element.dataset.sid] = true;
    element.classList.add("flash");
    var list = $("alarms");
    if (list) {
      var item = document.createElement("p");
      item.className = "alarm " + kind;
      item.dataset.sid = element.dataset.sid;
      item.textContent = text + " ";
      var close = document.createElement("button");
      close.type = "button"; close.className = "dismiss"; close.setAttribute("aria-label", "Dismiss");
      close.textContent = "×";
      item.appendChild(close);
      list.appendChild(item);
    }
    window.hostAlarms.push({kind: kind, sid: element.dataset.sid, text: text, sound: !!sound, notified: notified});
  }
  function scan(alarms) {
    var shown = document.querySelectorAll("[data-sid][data-dead]");
    for (var i = 0; i < shown.length; i++) {
      var element = shown[i], sid = element.dataset.sid;
      var now = {dead: parseInt(element.dataset.dead || "0", 10), called: element.dataset.called || ""};
      var before = seen[sid];
      if (alarms && before) {
        var table = "table " + element.dataset.number + " (" + sid + ")";
        if (now.dead > before.dead) {
          var names = (element.dataset.deadNames || "").split(", ");
          alarm("hero_died", element, names.slice(before.dead).join(", ") + " died at " + table);
        }
        if (now.called && !before.called) {
          alarm("host_called", element, table + " calls the host" +
                (element.dataset.callReason ? ": " + element.dataset.callReason : ""));
        }
      }
      if (flashing[sid]) { element.classList.add("flash"); }
      seen[sid] = now;
    }
  }
  document.addEventListener("htmx:afterSettle", function () { scan(true); });
  document.addEventListener("DOMContentLoaded", function () {
    scan(false);
    try { if (window.localStorage.getItem("brimstone-alarms") === "on") { labelSetup(); } } catch (e) { /* */ }
  });
})();
