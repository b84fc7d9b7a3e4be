/* npuready search: every stored value and text of every result (ids, titles, model names, finding messages,
   numbers, keys). The index (data/search.index.js, written by npuready/site/search_index.py) loads with a
   <script src> the first time someone searches (file:// pages cannot fetch). Lists the matching records with
   the matching JSON paths; a path opens that value's JSON. Query and filters live in the URL. */
(function () {
  "use strict";
  var N = window.npuready = window.npuready || {};
  var SHOW = 8;        /* paths listed per record */
  var KEEP = 200;      /* paths collected per record (the rest are counted) */
  var me = document.currentScript && document.currentScript.src;
  var SRC = me ? new URL("../data/search.index.js", me).href : "data/search.index.js";
  var index = null, loading = false, waiting = [];

  function state() { return N.getState(); }
  function resolves(doc, path) {
    var node = doc;
    return path.split("/").slice(1).every(function (t) {
      t = t.replace(/~1/g, "/").replace(/~0/g, "~");
      if (node === null || typeof node !== "object" || !Object.prototype.hasOwnProperty.call(node, t)) { return false; }
      node = node[t];
      return true;
    });
  }
  /* open a hit's JSON; a heavy record the page carries only an excerpt of points to its file (and model page) */
  function open(rec, path, note) {
    N.loadRecord(rec.id).then(function (doc) {
      if (!resolves(doc, path)) { throw new Error("not carried"); }
      return N.openNumber(rec.id, path);
    }).catch(function () {
      note.textContent = "this page carries an excerpt of this record; the value is in experiments/" + rec.id + "/result.json";
      if (rec.page) {
        var a = el("a", "", "open it on its model page");
        a.href = rec.page + "#exp=" + encodeURIComponent(rec.id) + "&path=" + encodeURIComponent(path);
        note.appendChild(document.createTextNode(" — "));
        note.appendChild(a);
      }
    });
  }

  /* ---------- the index ---------- */
  function unescapeToken(t) { return t.replace(/~2/g, "*").replace(/~1/g, "/").replace(/~0/g, "~"); }

  N.registerSearch = function (data) {
    index = {
      texts: data.texts,
      lower: data.texts.map(function (t) { return t.toLowerCase(); }),
      records: data.records.map(function (r) {
        var shapes = r.paths.map(function (p) { return p.split("/"); });
        return {id: r.id, title: r.title, view: r.view, evidence: r.evidence, page: r.page, cols: r.cols, shapes: shapes,
                keys: shapes.map(function (s) { return s.map(function (t) { return t === "*" ? null : unescapeToken(t).toLowerCase(); }); })};
      })
    };
    var w = waiting; waiting = [];
    w.forEach(function (f) { f(); });
  };

  function withIndex(fn) {
    if (index) { fn(); return; }
    waiting.push(fn);
    if (loading) { return; }
    loading = true;
    N.load(SRC).catch(function () {
      loading = false;
      say("The search index " + SRC + " is missing; run 'npuready site' again.");
    });
  }

  function terms(q) {  /* "1,884" finds the stored 1884 */
    return q.toLowerCase().split(/\s+/).filter(Boolean).map(function (t) {
      return /^[-+]?[\d,]+(\.\d+)?$/.test(t) ? t.replace(/,/g, "") : t;
    });
  }

  function pointerOf(shape, positions, upto) {
    var k = 0, out = [];
    for (var i = 1; i <= upto; i += 1) { out.push(shape[i] === "*" ? String(positions[k++]) : shape[i].replace(/~2/g, "*")); }
    return out.length ? "/" + out.join("/") : "";
  }

  /* per record: did every term match (a value or a key), and which paths. A matching key names the object or
     list under it (its pointer); a pointer is built only for the first KEEP hits and where two hits can coincide */
  function searchRecord(rec, words, flags) {
    var found = words.map(function () { return false; });
    var hits = [], seen = {}, count = 0;
    function add(path, shown) {
      count += 1;
      if (hits.length < KEEP) { hits.push({path: path, text: shown}); }
    }
    function addOnce(path, shown) {
      if (seen[path]) { return; }
      seen[path] = 1;
      add(path, shown);
    }
    rec.cols.forEach(function (col) {
      var shape = rec.shapes[col[0]], keys = rec.keys[col[0]], last = shape.length - 1;
      var once = [], each = [], leafKey = false;  /* key positions: fixed pointer / one per cell / shared by cells */
      var stars = [];
      shape.forEach(function (t, j) { if (t === "*") { stars.push(j); } });
      words.forEach(function (w, k) {
        keys.forEach(function (key, j) {
          if (!key || key.indexOf(w) < 0) { return; }
          found[k] = true;
          if (j === last) { leafKey = true; } else if (!stars.length || stars[0] > j) { once.push(j); } else { each.push(j); }
        });
      });
      once.forEach(function (j) { addOnce(pointerOf(shape, [], j), unescapeToken(shape[j]) + " (key)"); });
      var positions = stars.map(function () { return 0; });
      for (var c = 1; c < col.length; c += 1) {
        var cell = col[c], t = cell;
        if (Array.isArray(cell)) { positions = cell.slice(0, -1); t = cell[cell.length - 1]; }
        var any = leafKey;
        for (var k = 0; k < words.length; k += 1) { if (flags[k][t]) { found[k] = true; any = true; } }
        if (any) {
          if (hits.length < KEEP) { add(pointerOf(shape, positions, last), index.texts[t]); } else { count += 1; }
        }
        for (var e = 0; e < each.length; e += 1) { addOnce(pointerOf(shape, positions, each[e]), unescapeToken(shape[each[e]]) + " (key)"); }
        if (positions.length) { positions[positions.length - 1] += 1; }
      }
    });
    return {ok: found.every(Boolean), hits: hits, count: count};
  }

  function run(q, view, evidence) {
    var words = terms(q);
    var flags = words.map(function (w) {
      var f = new Uint8Array(index.texts.length);
      index.lower.forEach(function (t, i) { if (t.indexOf(w) >= 0) { f[i] = 1; } });
      return f;
    });
    var out = [];
    index.records.forEach(function (rec) {
      if (view && rec.view !== view) { return; }
      if (evidence && rec.evidence.indexOf(evidence) < 0) { return; }
      var r = words.length ? searchRecord(rec, words, flags) : {ok: true, hits: [], count: 0};
      if (r.ok) { out.push({rec: rec, hits: r.hits, count: r.count}); }
    });
    return out;
  }
  N.search = function (q, view, evidence) {  /* for tests and other scripts: Promise of [{id, count, paths}] */
    return new Promise(function (resolve) {
      withIndex(function () {
        resolve(run(q, view || "", evidence || "").map(function (r) {
          return {id: r.rec.id, count: r.count, paths: r.hits.map(function (h) { return h.path; })};
        }));
      });
    });
  };

  /* ---------- the Records view ---------- */
  function el(tag, cls, txt) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (txt !== undefined) { e.textContent = txt; }
    return e;
  }

  function box() {
    var b = document.getElementById("search-results");
    var filters = document.querySelector(".filters");
    if (!b && filters) {
      b = el("div");
      b.id = "search-results";
      filters.parentNode.insertBefore(b, filters.nextSibling);
    }
    return b;
  }

  function say(msg) {
    var count = document.getElementById("rec-count");
    if (count) { count.textContent = msg; }
  }

  function show(q, found, total) {
    var b = box();
    if (!b) { return; }
    b.textContent = "";
    var ids = {};
    found.forEach(function (r) { ids[r.rec.id] = 1; });
    document.querySelectorAll("details.record").forEach(function (d) { d.hidden = !ids[d.dataset.exp]; });
    var none = document.getElementById("rec-none");
    if (none) { none.hidden = found.length > 0; }
    say(found.length + " of " + total + " records");
    if (!terms(q).length) { return; }
    var list = el("ol", "search-hits");
    list.setAttribute("aria-label", "records containing " + q);
    found.forEach(function (r) {
      var li = el("li");
      li.dataset.exp = r.rec.id;
      var link = el("a", "exp-link", r.rec.id);
      link.href = "#exp=" + encodeURIComponent(r.rec.id);
      li.appendChild(link);
      li.appendChild(document.createTextNode(" "));
      li.appendChild(el("b", "", r.rec.title));
      li.appendChild(el("span", "dim", " — " + r.count + (r.count === 1 ? " matching value" : " matching values or keys")));
      var paths = el("ul", "search-paths");
      r.hits.slice(0, SHOW).forEach(function (h) {
        var item = el("li");
        var b2 = el("button", "search-path", h.path || "(whole result)");
        b2.type = "button";
        b2.dataset.exp = r.rec.id;
        b2.dataset.path = h.path;
        b2.title = "open this value's JSON";
        var note = el("span", "search-text", h.text.length > 120 ? h.text.slice(0, 117) + "…" : h.text);
        b2.addEventListener("click", function () { open(r.rec, h.path, note); });
        item.appendChild(b2);
        item.appendChild(document.createTextNode(" "));
        item.appendChild(note);
        paths.appendChild(item);
      });
      li.appendChild(paths);
      if (r.count > SHOW) {
        li.appendChild(el("p", "dim search-more", "and " + (r.count - SHOW) + " more in this record — refine the search, or open the record"));
      }
      list.appendChild(li);
    });
    b.appendChild(list);
  }

  function current() {
    var q = document.getElementById("rec-search");
    var v = document.getElementById("rec-view");
    var e = document.getElementById("rec-evidence");
    return {q: q ? q.value.trim() : "", view: v ? v.value : "", evidence: e ? e.value : ""};
  }

  var applied = null;  /* the query and filters the results on the page are for */
  function key(c) { return [c.q, c.view, c.evidence].join("\u0000"); }

  function apply() {
    var c = current();
    if (!document.getElementById("rec-search")) { return; }
    withIndex(function () {
      var now = current();  /* the index may have arrived after more typing */
      applied = key(now);
      show(now.q, run(now.q, now.view, now.evidence), index.records.length);
    });
    if (!index && c.q) { say("loading the search index…"); }
  }

  var timer = null;
  document.addEventListener("input", function (ev) {
    var id = ev.target && ev.target.id;
    if (id !== "rec-search" && id !== "rec-view" && id !== "rec-evidence") { return; }
    clearTimeout(timer);
    timer = setTimeout(function () {
      var c = current();
      N.setState({q: c.q || null, in: c.view || null, ev: c.evidence || null});
      apply();
    }, 120);
  });

  /* the Records view shown (at load, by a link, or inserted later): restore query and filters from the URL */
  function restore() {
    var input = document.getElementById("rec-search");
    if (!input || input.closest("section.view[hidden]")) { return; }
    input.placeholder = "search every stored value: ids, titles, models, messages, numbers…";
    var s = state();
    var v = document.getElementById("rec-view"), e = document.getElementById("rec-evidence");
    input.value = s.q || "";
    if (v) { v.value = s["in"] || ""; }
    if (e) { e.value = s.ev || ""; }
    if (key(current()) !== applied && (applied !== null || input.value || (v && v.value) || (e && e.value))) { apply(); }
  }
  document.addEventListener("npuready:view", restore);
  document.addEventListener("npuready:state", restore);  /* the page followed a URL (link, Back/Forward) */
  window.addEventListener("hashchange", restore);
  restore();
  document.documentElement.dataset.search = "1";
})();
