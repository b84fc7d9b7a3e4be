/* npuready workbench: views by URL hash, raw-JSON drill-down, record filters, lazy charts.
   Reads only the JSON embedded in the page (file:// cannot fetch); makes no network request. */
(function () {
  "use strict";
  var VIEWS = ["findings", "models", "npu", "integer", "reports", "records", "history", "docs"];
  var cache = {};

  function data(exp) {
    if (!(exp in cache)) {
      var el = document.querySelector('script.exp-data[data-exp="' + CSS.escape(exp) + '"]');
      if (!el) { throw new Error("no embedded result for experiment " + exp); }
      cache[exp] = JSON.parse(el.textContent);
    }
    return cache[exp];
  }

  function tokens(pointer) {
    if (pointer === "") { return []; }
    return pointer.slice(1).split("/").map(function (t) { return t.replace(/~1/g, "/").replace(/~0/g, "~"); });
  }

  function resolve(doc, pointer) {
    return tokens(pointer).reduce(function (node, t) {
      if (node === null || typeof node !== "object" || !(t in node)) { throw new Error("no " + pointer); }
      return node[t];
    }, doc);
  }

  /* ---------- views and deep links ---------- */
  function parseHash() {
    var raw = decodeURIComponent(location.hash.replace(/^#/, ""));
    var out = {view: "findings"};
    if (VIEWS.indexOf(raw) >= 0) { out.view = raw; return out; }
    raw.split("&").forEach(function (part) {
      var i = part.indexOf("=");
      if (i > 0) { out[part.slice(0, i)] = part.slice(i + 1); }
    });
    if (out.exp) { out.view = "records"; }
    if (out.panel) {
      var panel = document.getElementById("panel-" + out.panel);
      if (panel) { out.view = panel.closest("section.view").dataset.view; }
    }
    if (out.doc) { out.view = "docs"; }
    return out;
  }

  function showView(name) {
    document.querySelectorAll("section.view").forEach(function (s) { s.hidden = s.dataset.view !== name; });
    document.querySelectorAll("nav.tabs a").forEach(function (a) {
      if (a.dataset.view === name) { a.setAttribute("aria-current", "page"); } else { a.removeAttribute("aria-current"); }
    });
    drawCharts(document.getElementById("view-" + name));
  }

  function showDoc(name) {  /* null: the list of documents only */
    var shown = null;
    document.querySelectorAll("article.doc").forEach(function (a) {
      a.hidden = a.dataset.doc !== name;
      if (!a.hidden) { shown = a; }
    });
    if (name !== null && !shown) { throw new Error("no document " + name); }
    var index = document.querySelector("nav.doc-index");
    if (index) { index.hidden = shown !== null; }
    return shown;
  }

  function linkProblem(text) {  /* a deep link that points to nothing: say so on the page, not only in the console */
    var box = document.getElementById("link-error");
    if (!box && !text) { return; }
    if (!box) {
      box = document.createElement("p");
      box.id = "link-error";
      box.className = "link-error";
      box.setAttribute("role", "alert");
      (document.querySelector("main") || document.body).prepend(box);
    }
    box.textContent = text;
    box.hidden = !text;
  }

  function route() {
    try {
      routeTo();
      linkProblem("");
    } catch (e) {
      showView("findings");
      linkProblem("This link points to nothing on this page (" + (e && e.message ? e.message : e) +
                  "); showing the findings instead.");
    }
  }

  function routeTo() {
    var h = parseHash();
    showView(h.view);
    if (h.exp) {
      var rec = document.getElementById("record-" + h.exp);
      if (rec) { rec.open = true; rec.scrollIntoView({block: "start"}); }
      if (h.path !== undefined) { openRaw(h.exp, h.path); }
    } else if (h.panel) {
      var p = document.getElementById("panel-" + h.panel);
      if (p) { p.scrollIntoView({block: "start"}); }
    } else if (h.doc) {  /* docs: one document at a time; &h= names a heading in it */
      var d = showDoc(h.doc);
      var heading = h.h ? document.getElementById(h.h) : null;
      if (h.h && (!heading || !d.contains(heading))) { throw new Error("no heading " + h.h + " in " + h.doc); }
      (heading || d).scrollIntoView({block: "start"});
    } else {
      if (h.view === "docs") { showDoc(null); }
      window.scrollTo(0, 0);
    }
  }

  /* ---------- charts (vendored vega bundles, loaded only when a view with charts is shown) ---------- */
  var runtime = null;

  function loadRuntime() {
    if (!runtime) {
      var files = (document.body.dataset.vendor || "").split(" ").filter(Boolean);
      runtime = files.reduce(function (chain, src) {
        return chain.then(function () {
          return new Promise(function (resolve, reject) {
            var s = document.createElement("script");
            s.src = src;
            s.onload = resolve;
            s.onerror = function () { reject(new Error("cannot load " + src)); };
            document.head.appendChild(s);
          });
        });
      }, Promise.resolve());
    }
    return runtime;
  }

  function drawCharts(root) {
    if (!root) { return; }
    var specs = root.querySelectorAll("script.chart-spec:not([data-drawn])");
    if (!specs.length) { return; }
    loadRuntime().then(function () {
      specs.forEach(function (s) {
        if (s.dataset.drawn) { return; }
        s.dataset.drawn = "1";
        var target = document.getElementById(s.dataset.target);
        window.vegaEmbed(target, JSON.parse(s.textContent), {actions: false, renderer: "svg"})
          .catch(function (err) { target.textContent = "chart failed: " + err; console.error(err); });
      });
    }, function (err) {
      specs.forEach(function (s) {
        document.getElementById(s.dataset.target).textContent = "chart runtime missing (site/vendor); the data is in the raw JSON.";
      });
      console.error(err);
    });
  }

  /* ---------- raw JSON drill-down ---------- */
  var dlg = document.getElementById("raw");
  var current = null;

  function render(whole) {
    var doc = data(current.exp);
    var value = resolve(doc, current.path);
    var t = tokens(current.path);
    var scalar = value === null || typeof value !== "object";
    var shownPath = current.path, record = value, key = null;
    if (whole) { record = doc; shownPath = ""; }
    else if (scalar && t.length) {
      key = t[t.length - 1];
      shownPath = "/" + t.slice(0, -1).map(function (x) { return x.replace(/~/g, "~0").replace(/\//g, "~1"); }).join("/");
      if (shownPath === "/") { shownPath = ""; }
      record = resolve(doc, shownPath);
    }
    current.text = JSON.stringify(record, null, 2) + "\n";
    current.file = current.exp + (whole ? ".result.json" : (shownPath.replace(/\//g, ".") || ".result") + ".json");
    document.getElementById("raw-exp").textContent = current.exp;
    document.getElementById("raw-path").textContent = current.path || "(whole file)";
    document.getElementById("raw-link").href = "#exp=" + current.exp + "&path=" + current.path;
    document.getElementById("raw-value").textContent = scalar ? JSON.stringify(value) : (Array.isArray(value) ? "list" : "object");
    document.getElementById("raw-shown-note").textContent = whole ? "showing the whole result.json"
      : (key !== null ? "showing the record that holds it (" + (shownPath || "/") + ")" : "");
    var pre = document.getElementById("raw-json");
    pre.textContent = "";
    var lines = current.text.split("\n");
    var mark = -1, markEnd = -1;
    if (key !== null && !whole) {
      var index = Array.isArray(record) ? Number(key) : Object.keys(record).indexOf(key);
      var starts = [];
      lines.forEach(function (ln, i) { if (/^ {2}[^ \]}]/.test(ln)) { starts.push(i); } });
      if (index >= 0 && index < starts.length) {
        mark = starts[index];
        markEnd = index + 1 < starts.length ? starts[index + 1] : lines.length - 2;
      }
    }
    var frag = document.createDocumentFragment();
    lines.forEach(function (ln, i) {
      var span = document.createElement(i >= mark && i < markEnd ? "mark" : "span");
      span.textContent = ln + "\n";
      frag.appendChild(span);
    });
    pre.appendChild(frag);
    var hit = pre.querySelector("mark");
    if (hit) { hit.scrollIntoView({block: "center"}); } else { pre.scrollTop = 0; }
  }

  function openRaw(exp, path) {
    current = {exp: exp, path: path};
    document.getElementById("raw-whole").checked = false;
    document.getElementById("raw-status").textContent = "";
    render(false);
    if (!dlg.open) { dlg.showModal(); }
  }

  document.addEventListener("mouseover", function (ev) {  /* tooltips are added on demand: smaller page */
    var b = ev.target.closest && ev.target.closest("button.num:not([title]), button.raw:not([title])");
    if (b) { b.title = "view raw JSON: " + b.dataset.exp + " " + (b.dataset.path || "(whole file)"); }
  });
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest("button.num, button.raw");
    if (b) { ev.preventDefault(); openRaw(b.dataset.exp, b.dataset.path); }
  });
  document.getElementById("raw-close").addEventListener("click", function () { dlg.close(); });
  dlg.addEventListener("close", function () {  /* a deep link to a number opens once; closing keeps the record */
    var h = parseHash();
    if (h.exp && h.path !== undefined) { history.replaceState(null, "", "#exp=" + h.exp); }
  });
  document.getElementById("raw-link").addEventListener("click", function () { dlg.close(); });
  dlg.addEventListener("click", function (ev) { if (ev.target === dlg) { dlg.close(); } });
  document.getElementById("raw-whole").addEventListener("change", function (ev) { render(ev.target.checked); });
  document.getElementById("raw-copy").addEventListener("click", function () {
    var status = document.getElementById("raw-status");
    function fallback() {
      var r = document.createRange();
      r.selectNodeContents(document.getElementById("raw-json"));
      var sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(r);
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      status.textContent = ok ? "copied" : "selected — press Ctrl+C";
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(current.text).then(function () { status.textContent = "copied"; }, fallback);
    } else { fallback(); }
  });
  document.getElementById("raw-download").addEventListener("click", function () {
    var url = URL.createObjectURL(new Blob([current.text], {type: "application/json"}));
    var a = document.createElement("a");
    a.href = url; a.download = current.file;
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 0);
  });

  /* ---------- experiment records: search and filters ---------- */
  function filterRecords() {
    var terms = document.getElementById("rec-search").value.toLowerCase().split(/\s+/).filter(Boolean);
    var view = document.getElementById("rec-view").value;
    var evidence = document.getElementById("rec-evidence").value;
    var any = false;
    document.querySelectorAll("details.record").forEach(function (d) {
      var hay = d.dataset.search + " " + (d.dataset.text || (d.dataset.text = d.textContent.toLowerCase()));
      var ok = terms.every(function (t) { return hay.indexOf(t) >= 0; }) &&
        (!view || d.dataset.view === view) &&
        (!evidence || d.dataset.evidence.split(" ").indexOf(evidence) >= 0);
      d.hidden = !ok;
      any = any || ok;
    });
    document.getElementById("rec-none").hidden = any;
  }
  ["rec-search", "rec-view", "rec-evidence"].forEach(function (id) {
    var input = document.getElementById(id);  /* absent on a model page */
    if (input) { input.addEventListener("input", filterRecords); }
  });
  window.npuready = {data: data, openRaw: openRaw};  /* for assets/modelview.js */

  window.addEventListener("hashchange", route);
  route();
  document.documentElement.dataset.ready = "1";
})();
