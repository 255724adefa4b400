// The dashboard's only script (no build step): copy buttons, the deadline countdown,
// and live updates (server-sent events say "change"; the page fetches its live part).
"use strict";
(function () {
  function countdowns() {
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      if (!el.dataset.loadedAt) { el.dataset.loadedAt = String(Date.now()); }
      var serverNow = Date.parse(el.dataset.now);
      var elapsed = Date.now() - Number(el.dataset.loadedAt);
      var left = Math.round((Date.parse(el.dataset.deadline) - serverNow - elapsed) / 1000);
      if (left <= 0) { el.textContent = "ended"; return; }
      var d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600);
      var m = Math.floor(left % 3600 / 60), s = left % 60;
      var parts = [];
      if (d) { parts.push(d + " d"); }
      if (d || h) { parts.push(h + " h"); }
      parts.push(m + " min");
      if (!d) { parts.push(s + " s"); }
      el.textContent = parts.join(" ") + " left";
    });
  }
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest("button[data-copy]");
    if (!button) { return; }
    var box = document.getElementById(button.dataset.copy);
    var said = button.parentElement.querySelector(".copied");
    function done(ok) { if (said) { said.textContent = ok ? "Copied." : "Select the text and copy it."; } }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(box.value).then(function () { done(true); }, function () {
        box.select(); done(document.execCommand("copy"));
      });
    } else {
      box.select(); done(document.execCommand("copy"));
    }
  });
  function live() {
    var root = document.querySelector("[data-live]");
    if (!root || !window.EventSource) { return; }
    var busy = false, again = false;
    var source = new EventSource(root.dataset.events);
    function refresh() {
      if (busy) { again = true; return; }
      busy = true;
      again = false;
      fetch(root.dataset.live + window.location.search, { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (html !== null) {
            root.innerHTML = html;
            root.dataset.updated = String(Number(root.dataset.updated || 0) + 1);
            countdowns();
          }
        })
        .finally(function () { busy = false; if (again) { refresh(); } });
    }
    source.addEventListener("change", refresh);
  }
  document.addEventListener("DOMContentLoaded", function () {
    countdowns();
    setInterval(countdowns, 1000);
    live();
  });
})();
