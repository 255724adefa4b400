// The dashboard's only script (no build step, no inline script: the page's
// Content-Security-Policy allows none). Without it every section shows one under the
// other and every form still works; with it: tabs, the countdown, the chart's step
// details, copy buttons, selecting alerts, and live updates (server-sent events say
// "change"; the page asks for the parts whose digest changed and swaps only those).
"use strict";
(function () {
  // ---- the countdown: the same words as the server's (pages.short_duration) ----------
  function words(left) {
    var d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600);
    var m = Math.floor(left % 3600 / 60), s = left % 60;
    if (d) { return d + " d" + (h ? " " + h + " h" : ""); }
    if (h) { return h + " h" + (m ? " " + m + " min" : ""); }
    if (m) { return m + " min" + (s ? " " + s + " s" : ""); }
    return s + " s";
  }
  var refreshLive = function () {};
  function countdowns() {
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      if (!el.dataset.loadedAt) { el.dataset.loadedAt = String(Date.now()); }
      var serverNow = Date.parse(el.dataset.now);
      var elapsed = Date.now() - Number(el.dataset.loadedAt);
      var left = Math.round((Date.parse(el.dataset.deadline) - serverNow - elapsed) / 1000);
      if (left <= 0) {
        if (!el.dataset.passed) { el.dataset.passed = "1"; refreshLive(); }
        el.textContent = "deadline passed";
        return;
      }
      el.textContent = words(left) + " left";
    });
  }

  function tabKey() {
    var root = document.querySelector("[data-live]");
    return "tab:" + (root ? root.dataset.live : location.pathname);
  }
  // ---- tabs: one panel at a time; the one holding the address's #anchor first --------
  function showTab(key, remember) {
    var box = document.querySelector("[data-tabs]");
    if (!box) { return; }
    box.classList.add("js");
    box.querySelectorAll("[role=tab]").forEach(function (tab) {
      var on = tab.dataset.tab === key;
      tab.setAttribute("aria-selected", on ? "true" : "false");
      tab.tabIndex = on ? 0 : -1;
    });
    box.querySelectorAll("[role=tabpanel]").forEach(function (panel) {
      panel.hidden = panel.id !== "panel-" + key;
    });
    if (remember) { try { sessionStorage.setItem(tabKey(), key); } catch (e) {} }
  }
  function initialTab() {
    var box = document.querySelector("[data-tabs]");
    if (!box) { return; }
    // The #anchor an action sent the browser back to, else an action's refusal.
    var target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    target = target || document.querySelector("[role=tabpanel] [role=alert]");
    var panel = target ? target.closest("[role=tabpanel]") : null;
    var key = panel ? panel.id.replace("panel-", "") : null;
    if (!key) { try { key = sessionStorage.getItem(tabKey()); } catch (e) {} }
    var first = box.querySelector("[role=tab]");
    if (!key || !box.querySelector("[data-tab='" + key + "']")) { key = first && first.dataset.tab; }
    if (key) { showTab(key, false); }
    if (target && panel) { target.scrollIntoView(); }
  }

  // ---- the chart: a step's details beside the pointer, on hover, focus or tap ---------
  function tip() { return document.getElementById("chart-tip"); }
  function showStep(step, x, y) {
    var box = tip();
    var data = document.querySelector("ol.steps li[data-step='" + step.dataset.step + "']");
    if (!box || !data) { return; }
    box.innerHTML = data.innerHTML;
    box.hidden = false;
    var width = box.offsetWidth, room = document.documentElement.clientWidth;
    box.style.left = Math.max(4, Math.min(x + 12, room - width - 4)) + window.scrollX + "px";
    box.style.top = y + 16 + window.scrollY + "px";
    document.querySelectorAll("g.step.on").forEach(function (g) { g.classList.remove("on"); });
    step.classList.add("on");
  }
  function hideTip() {
    var box = tip();
    if (box) { box.hidden = true; }
    document.querySelectorAll("g.step.on").forEach(function (g) { g.classList.remove("on"); });
  }
  document.addEventListener("pointerover", function (ev) {
    if (ev.pointerType !== "mouse") { return; }  // a tap shows it on its click
    var step = ev.target.closest && ev.target.closest("g.step");
    if (step) { showStep(step, ev.clientX, ev.clientY); }
  });
  document.addEventListener("pointerout", function (ev) {
    var step = ev.target.closest && ev.target.closest("g.step");
    var into = ev.relatedTarget;
    if (step && ev.pointerType === "mouse" && !(into && into.closest && (into.closest("g.step") || into.closest("#chart-tip")))) {
      hideTip();
    }
  });
  document.addEventListener("focusin", function (ev) {
    var step = ev.target.closest && ev.target.closest("g.step");
    if (step) {
      var r = step.getBoundingClientRect();
      showStep(step, r.left + r.width / 2, r.top + r.height / 3);
    }
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape") { hideTip(); }
  });

  // ---- clicks: tabs, copy buttons, select all, confirmations, a tap outside a step -----
  document.addEventListener("click", function (ev) {
    var tab = ev.target.closest("[role=tab][data-tab]");
    if (tab) {
      ev.preventDefault();
      showTab(tab.dataset.tab, true);
      return;
    }
    // A tap's click may land on what it uncovered (the tip): find the step under the point.
    var step = ev.target.closest("g.step") || document.elementsFromPoint(ev.clientX, ev.clientY)
      .map(function (el) { return el.closest && el.closest("g.step"); }).filter(Boolean)[0];
    if (step) { showStep(step, ev.clientX, ev.clientY); return; }
    if (!ev.target.closest("#chart-tip")) { hideTip(); }
    var button = ev.target.closest("button[data-copy]");
    if (button) {
      var box = document.getElementById(button.dataset.copy);
      var said = button.parentElement.querySelector(".copied");
      var done = function (ok) { if (said) { said.textContent = ok ? "Copied." : "Select the text and copy it."; } };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(box.value).then(function () { done(true); }, function () {
          box.select(); done(document.execCommand("copy"));
        });
      } else {
        box.select(); done(document.execCommand("copy"));
      }
    }
  });
  document.addEventListener("change", function (ev) {
    if (ev.target.matches("[data-select-all]")) {
      var form = ev.target.form;
      form.querySelectorAll(".alert-list input[name=alert]").forEach(function (c) { c.checked = ev.target.checked; });
    }
  });
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) { ev.preventDefault(); }
  });

  // ---- live updates: only the parts whose digest changed, keeping what the GM did ------
  function live() {
    var root = document.querySelector("[data-live]");
    if (!root || !window.EventSource) { return; }
    var busy = false, again = false;
    var source = new EventSource(root.dataset.events);
    function have() {
      return Array.prototype.map.call(root.querySelectorAll("[data-part]"), function (el) {
        return el.dataset.part + ":" + el.dataset.digest;
      }).join(",");
    }
    function swap(el, html) {
      // What the GM was doing in the part: ticked alerts, opened rows.
      var ticked = Array.prototype.map.call(el.querySelectorAll("input[type=checkbox]:checked"), function (c) { return c.name + "=" + c.value; });
      var opened = Array.prototype.map.call(el.querySelectorAll("details[open]"), function (dt) {
        var owner = dt.closest("[id]"); return owner ? owner.id : "";
      });
      el.innerHTML = html;
      el.querySelectorAll("input[type=checkbox]").forEach(function (c) {
        if (ticked.indexOf(c.name + "=" + c.value) >= 0) { c.checked = true; }
      });
      opened.forEach(function (id) {
        var owner = id && document.getElementById(id);
        var dt = owner && (owner.matches("details") ? owner : owner.querySelector("details"));
        if (dt) { dt.open = true; }
      });
    }
    function refresh() {
      if (busy) { again = true; return; }
      busy = true;
      again = false;
      var params = new URLSearchParams(window.location.search);
      params.set("have", have());
      fetch(root.dataset.live + "?" + params.toString(), { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (doc) {
          if (doc === null) { return; }
          if (doc.html !== undefined) { root.innerHTML = doc.html; }
          Object.keys(doc.parts || {}).forEach(function (name) {
            var el = root.querySelector("[data-part='" + name + "']");
            if (el) { swap(el, doc.parts[name].html); el.dataset.digest = doc.parts[name].digest; }
          });
          if (doc.parts && doc.parts.chart) { chartToNow(); }
          root.dataset.updated = String(Number(root.dataset.updated || 0) + 1);
          // Every part swapped since the page was loaded (what a test can read).
          var all = (root.dataset.swapped || "").split(",").filter(Boolean);
          Object.keys(doc.parts || {}).forEach(function (k) { if (all.indexOf(k) < 0) { all.push(k); } });
          root.dataset.swapped = all.sort().join(",");
          countdowns();
        })
        .finally(function () { busy = false; if (again) { refresh(); } });
    }
    refreshLive = refresh;
    source.addEventListener("change", refresh);
  }
  // On a phone the chart scrolls sideways in its box: show its end (now, the deadline).
  function chartToNow() {
    document.querySelectorAll(".chart-box").forEach(function (box) {
      if (box.scrollWidth > box.clientWidth) { box.scrollLeft = box.scrollWidth; }
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    chartToNow();
    initialTab();
    countdowns();
    setInterval(countdowns, 1000);
    live();
  });
})();
