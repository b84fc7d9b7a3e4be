/* npuready workbench: tabs rendered on demand, URL state and deep links, lazy charts (the drill-down dialog
   itself is assets/drilldown.js).
   file:// cannot fetch, so every tab's HTML (views/<name>.js) and every stored result (data/<id>.js) is a script
   that registers itself here when injected. Makes no network request.

   API (window.npuready), for the other assets and for tools:
     showView(name) -> Promise         show a tab (loads its HTML once), recorded in the URL
     loadRecord(id) -> Promise<json>   the stored result JSON of an experiment
     openNumber(exp, pointer)          open the drill-down dialog; pushes a history entry (Back closes it)
     setState({key: value})            merge keys into the URL state (replaceState; null or "" removes a key)
     getState() -> {...}               the URL state: view, rec, panel, doc, exp + path (the open number), others
     ref(button) -> {exp, path}        what a drill-down button points at
     openRaw(exp, pointer) -> Promise  show the dialog without touching the URL (model pages' graph clicks)
     load(src) -> Promise              inject a script that registers data, once (search index, history data)
     csvCell(value) -> string          one CSV cell, quoted, formula-looking text (= + - @ tab CR) defused
   Events on document: "npuready:view" {view, element} once a tab's HTML is in the page (the first tab too),
   "npuready:state" {state} after the page followed a URL (load, link, Back/Forward). */
(function () {
  "use strict";
  var manifestEl = document.getElementById("site-manifest");
  var manifest = manifestEl ? JSON.parse(manifestEl.textContent) : {first: "", views: {}, records: {}, panels: {}, vendor: []};
  var records = {};
  var views = {};      /* tab -> {html, refs} registered by views/<tab>.js */
  var tables = {};     /* tab -> [[exp, pointer], ...]: what data-n means inside that tab */
  var loading = {};    /* src -> Promise */
  var shown = null;

  /* ---------- scripts that register data (file:// cannot fetch) ---------- */
  function inject(src) {
    if (!loading[src]) {
      loading[src] = new Promise(function (resolve, reject) {
        var s = document.createElement("script");
        s.src = src;
        s.onload = resolve;
        s.onerror = function () { delete loading[src]; reject(new Error("cannot load " + src)); };
        document.head.appendChild(s);
      });
    }
    return loading[src];
  }

  function embedded(exp) {
    var el = document.querySelector('script.exp-data[data-exp="' + CSS.escape(exp) + '"]');
    return el ? JSON.parse(el.textContent) : undefined;
  }

  function data(exp) {  /* synchronous: a record already loaded or embedded (model pages) */
    if (!(exp in records)) {
      var doc = embedded(exp);
      if (doc === undefined) { throw new Error("no stored result for experiment " + exp); }
      records[exp] = doc;
    }
    return records[exp];
  }

  function loadRecord(exp) {
    if (exp in records) { return Promise.resolve(records[exp]); }
    var doc = embedded(exp);
    if (doc !== undefined) { records[exp] = doc; return Promise.resolve(doc); }
    if (!Object.prototype.hasOwnProperty.call(manifest.records, exp)) {
      return Promise.reject(new Error("no stored result for experiment " + exp));
    }
    return inject(manifest.records[exp]).then(function () { return data(exp); });
  }

  function unpack(packed) {
    var out = [], previous = "";
    packed.r.forEach(function (row) {
      previous = previous.slice(0, row[1]) + row[2];
      out.push([packed.e[row[0]], previous]);
    });
    return out;
  }

  function ref(button) {
    if (button.dataset.exp !== undefined) { return {exp: button.dataset.exp, path: button.dataset.path || ""}; }
    var section = button.closest("section.view");
    var row = section && tables[section.dataset.view] && tables[section.dataset.view][Number(button.dataset.n)];
    if (!row) { throw new Error("drill-down button without a reference table"); }
    return {exp: row[0], path: row[1]};
  }

  /* ---------- tabs ---------- */
  function section(name) { return document.getElementById("view-" + name); }
  function tabNames() { return Array.prototype.map.call(document.querySelectorAll("section.view"), function (s) { return s.dataset.view; }); }

  function announce(name, el) {
    document.dispatchEvent(new CustomEvent("npuready:view", {detail: {view: name, element: el}}));
  }

  function ensureView(name) {
    var el = section(name);
    if (!el) { return Promise.reject(new Error("no view '" + name + "'")); }
    if (tables[name]) { return Promise.resolve(el); }
    if (!Object.prototype.hasOwnProperty.call(manifest.views, name)) {
      return Promise.reject(new Error("view '" + name + "' has no content file"));
    }
    return inject(manifest.views[name]).then(function () {
      if (!tables[name]) {
        var v = views[name];
        if (!v) { throw new Error(manifest.views[name] + " did not register view " + name); }
        el.innerHTML = v.html;
        tables[name] = unpack(v.refs);
        delete views[name];
        announce(name, el);
      }
      return el;
    });
  }

  function display(name) {
    if (!tabNames().length) { return Promise.resolve(null); }  /* a model page: no tabs */
    if ((manifest.charts || []).indexOf(name) >= 0) { loadRuntime().catch(function () { /* drawCharts says so */ }); }
    return ensureView(name).then(function (el) {
      document.querySelectorAll("section.view").forEach(function (s) { s.hidden = s !== el; });
      document.querySelectorAll("nav.tabs a").forEach(function (a) {
        if (a.dataset.view === name) {
          a.setAttribute("aria-current", "page");
          document.title = a.textContent.trim() + " — npuready workbench";  /* one title per tab (history, bookmarks) */
        } else { a.removeAttribute("aria-current"); }
      });
      var changed = shown !== name;
      shown = name;
      drawCharts(el);
      return changed;
    });
  }

  /* ---------- URL state ---------- */
  var ORDER = ["view", "rec", "panel", "doc", "h", "exp", "path"];
  var routedHref = null;

  function parseHash(hash) {
    var raw = (hash === undefined ? location.hash : hash).replace(/^#/, "");
    var st = {};
    if (!raw) { return st; }
    if (raw.indexOf("=") < 0) { st.view = decodeURIComponent(raw); return st; }
    raw.split("&").forEach(function (part) {
      var i = part.indexOf("=");
      if (i > 0) { st[decodeURIComponent(part.slice(0, i))] = decodeURIComponent(part.slice(i + 1)); }
    });
    if (st.exp !== undefined && st.view === undefined && st.panel === undefined && st.doc === undefined) {
      st.view = "records";  /* #exp=<id>[&path=<pointer>]: the experiment's record (and that number) */
      st.rec = st.exp;
      if (st.path === undefined) { delete st.exp; }
    }
    return st;
  }

  function encode(value) { return encodeURIComponent(value).replace(/%2F/g, "/").replace(/%3A/g, ":"); }

  function formatHash(st) {
    var keys = ORDER.filter(function (k) { return st[k] !== undefined; })
      .concat(Object.keys(st).filter(function (k) { return ORDER.indexOf(k) < 0; }).sort());
    if (keys.length === 1 && keys[0] === "view") { return "#" + encode(st.view); }
    return "#" + keys.map(function (k) { return encode(k) + "=" + encode(st[k]); }).join("&");
  }

  function getState() {
    try { return parseHash(); } catch (e) { return {}; }
  }

  function writeUrl(st, push, marker) {
    var url = location.pathname + location.search + formatHash(st);
    if (push) { history.pushState(marker || null, "", url); } else { history.replaceState(history.state, "", url); }
    routedHref = location.href;
  }

  function setState(changes) {
    var st = getState();
    Object.keys(changes).forEach(function (k) {
      if (changes[k] === null || changes[k] === undefined || changes[k] === "") { delete st[k]; } else { st[k] = String(changes[k]); }
    });
    writeUrl(st, false);
    return st;
  }

  function showView(name) {
    return display(name).then(function () {
      var st = getState();
      if ((st.view || manifest.first) !== name) { writeUrl({view: name}, true); }
    });
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

  var routing = 0;

  function route() {
    var token = ++routing;
    routedHref = location.href;
    var st;
    try { st = parseHash(); } catch (e) { return Promise.resolve(routeFailed(e, token)); }
    return follow(st).then(function () {
      if (token !== routing) { return; }
      linkProblem("");
      document.dispatchEvent(new CustomEvent("npuready:state", {detail: {state: st}}));
    }, function (e) { routeFailed(e, token); });
  }

  function routeFailed(e, token) {
    if (token !== routing) { return null; }
    closeQuietly();
    return display(manifest.first).then(function () {
      window.scrollTo(0, 0);
      linkProblem("This link points to nothing on this page (" + (e && e.message ? e.message : e) +
                  "); showing the findings instead.");
    });
  }

  function follow(st) {
    var view = st.view || (st.panel !== undefined ? manifest.panels[st.panel] : st.doc !== undefined ? "docs" : manifest.first);
    if (view === undefined) { return Promise.reject(new Error("no panel for experiment " + st.panel)); }
    return display(view).then(function (changed) {
      var target = null;
      if (changed === null) { /* a model page: only the number */ }
      else if (st.rec !== undefined) {
        target = document.getElementById("record-" + st.rec);
        if (!target) { throw new Error("no record of experiment " + st.rec); }
        target.open = true;
      } else if (st.panel !== undefined) {
        target = document.getElementById("panel-" + st.panel);
        if (!target) { throw new Error("no panel for experiment " + st.panel); }
      } else if (st.doc !== undefined) {  /* docs: one document at a time; &h= names a heading in it */
        target = showDoc(st.doc);
        var top = target.querySelector("h2");  /* a document's title (headings sit one level down on the site) */
        document.title = (top ? top.textContent.trim() : st.doc) + " — Docs — npuready workbench";
        var heading = st.h ? document.getElementById(st.h) : null;
        if (st.h && (!heading || !target.contains(heading))) { throw new Error("no heading " + st.h + " in " + st.doc); }
        target = heading || target;
      } else if (view === "docs") {
        showDoc(null);
      }
      if (target && (changed || !dialogOpen())) { target.scrollIntoView({block: "start"}); }
      else if (changed) { window.scrollTo(0, 0); }
      if (st.exp !== undefined && st.path !== undefined) { return dialog().open(st.exp, st.path); }
      closeQuietly();
      return null;
    });
  }

  /* ---------- charts (vendored vega bundles, loaded only when a view with charts is shown) ---------- */
  var runtime = null;

  function loadRuntime() {
    if (!runtime) {
      runtime = (manifest.vendor || []).reduce(function (chain, src) {
        return chain.then(function () { return inject(src); });
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

  /* ---------- the drill-down dialog (assets/drilldown.js shows it; the URL is kept here) ---------- */
  function dialog() {
    if (!window.npuready.dialog) { throw new Error("assets/drilldown.js is not loaded"); }
    return window.npuready.dialog;
  }

  function dialogOpen() { return Boolean(window.npuready.dialog && window.npuready.dialog.isOpen()); }

  function closeQuietly() { if (window.npuready.dialog) { window.npuready.dialog.closeQuietly(); } }

  function modalState(exp, path) {
    var st = getState();
    if (tabNames().length) { st.view = shown || st.view || manifest.first; } else { delete st.view; delete st.rec; }
    st.exp = exp;
    st.path = path;
    return st;
  }

  function openNumber(exp, path) {
    writeUrl(modalState(exp, path), true, {npureadyModal: true});
    return dialog().open(exp, path).catch(function (e) { console.error(e); });
  }

  function dialogClosed() {  /* the reader closed it: Back if opening it pushed an entry, else drop it from the URL */
    if (history.state && history.state.npureadyModal) { history.back(); return; }
    var st = getState();
    delete st.exp;
    delete st.path;
    writeUrl(st, false);
  }

  document.addEventListener("mouseover", function (ev) {  /* tooltips are added on demand: smaller page */
    var b = ev.target.closest && ev.target.closest("button.num:not([title]), button.raw:not([title])");
    if (b) { try { var r = ref(b); b.title = "view raw JSON: " + r.exp + " " + (r.path || "(whole file)"); } catch (e) { /* no table */ } }
  });
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest("button.num, button.raw");
    if (b) { ev.preventDefault(); var r = ref(b); openNumber(r.exp, r.path); }
  });

  /* experiment records: search and filters live in search.js (state kept in the URL through setState) */

  /* ---------- one CSV cell: RFC 4180 quoting, and no formula a spreadsheet would run ---------- */
  function csvCell(v) {  /* OWASP CSV injection: a cell starting with = + - @ tab or CR gets a leading ' and quotes */
    var s = v === undefined || v === null ? "" : String(v);
    var number = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s);  /* -3.5 stays a number */
    var risky = /^[=+\-@\t\r]/.test(s) && !number;
    if (risky) { s = "'" + s; }
    return risky || /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }  /* end csvCell */

  window.npuready = {
    showView: showView, loadRecord: loadRecord, openNumber: openNumber, setState: setState, getState: getState,
    ref: ref, data: data, load: inject, openRaw: function (exp, path) { return dialog().open(exp, path); },
    linkTo: function (exp, path) { return formatHash(modalState(exp, path)); }, dialogClosed: dialogClosed,
    registerView: function (name, payload) { views[name] = payload; },
    registerRecord: function (id, doc) { records[id] = doc; }, csvCell: csvCell
  };

  function onNavigate() { if (location.href !== routedHref) { route(); } }
  window.addEventListener("popstate", onNavigate);
  window.addEventListener("hashchange", onNavigate);

  function start() {  /* after every deferred asset ran, so their npuready:view listeners see the first tab */
    var refs = document.querySelector("script.view-refs");
    if (refs && manifest.first) {
      tables[manifest.first] = unpack(JSON.parse(refs.textContent));
      announce(manifest.first, section(manifest.first));
    }
    route().then(function () { document.documentElement.dataset.ready = "1"; });
  }
  /* deferred scripts run while readyState is already "interactive" but before DOMContentLoaded */
  if (document.readyState === "complete") { start(); } else { document.addEventListener("DOMContentLoaded", start); }
})();
