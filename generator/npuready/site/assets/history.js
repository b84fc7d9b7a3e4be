/* npuready workbench, History view: key figures by commit and a two-commit diff, drawn from
   window.NPUREADY_HISTORY (history-data.js, written by `npuready site` from git history).
   Reads only that JSON; recomputes nothing; every text goes in through textContent. */
(function () {
  "use strict";
  var root = null, status = null, requested = false;

  /* history-data.js loads when the tab is first shown (its HTML is inserted by site.js): other tabs never ask;
     a build that did not write it (no --history: the committed site) names no script, and nothing is asked for */
  function load() {
    if (requested) { return; }
    requested = true;
    var script = status.dataset.script;
    if (!script) { root.dataset.history = "not-built"; return; }
    window.npuready.load(script).then(function () {
      if (window.NPUREADY_HISTORY) { draw(window.NPUREADY_HISTORY); }
    }, function () { root.dataset.history = "absent"; });  /* the template's message stays */
  }
  document.addEventListener("npuready:view", function (e) {
    if (!e.detail || e.detail.view !== "history") { return; }
    root = e.detail.element || document.getElementById("view-history");
    status = document.getElementById("history-status");
    load();
  });

  function draw(H) {
    root.dataset.history = H.available ? "drawn" : "unavailable";
    if (!H.available) {
      status.textContent = "History unavailable when this page was built: " + H.reason + ".";
      return;
    }
    var commits = H.commits, ids = Object.keys(H.experiments).sort();

    function el(tag, text, cls) {
      var e = document.createElement(tag);
      if (text !== undefined && text !== null) { e.textContent = text; }
      if (cls) { e.className = cls; }
      return e;
    }

    function fmt(v) {  /* the site's one number format (npuready/site/fmt.py): accuracy 0.8808 as everywhere else */
      if (v === null || v === undefined) { return "—"; }
      if (typeof v === "boolean") { return v ? "yes" : "no"; }
      if (typeof v === "string") { return v; }
      if (Number.isInteger(v)) { return v.toLocaleString("en-US"); }
      var m = Math.abs(v);
      if (m === 0) { return "0"; }
      if (m >= 1e4) { return Math.round(v).toLocaleString("en-US"); }
      if (m < 1e-4) { return v.toExponential(3).replace(/e([+-])(\d)$/, function (all, s, d) { return "e" + s + "0" + d; }); }
      return String(Number(v.toPrecision(4)));
    }

    function valueAt(exp, i, k) {
      var s = exp.at[i];
      return s === null || s === undefined ? null : exp.states[s][k];
    }

    function label(c) { return c.short + " " + c.date.slice(0, 10) + " " + c.subject; }

    status.textContent = commits.length + " commits changed a stored result, " + commits[0].date.slice(0, 10) +
      " to " + commits[commits.length - 1].date.slice(0, 10) + "; " + ids.length + " experiments." +
      (H.skipped && H.skipped.length ? " Skipped (unreadable, counted absent): " + H.skipped.map(function (s) {
        return s.experiment + " at " + s.commit + ": " + s.reason; }).join("; ") + "." : "");

    /* ---------- two-commit diff ---------- */
    var selA = document.getElementById("history-a"), selB = document.getElementById("history-b");
    commits.forEach(function (c, i) {
      [selA, selB].forEach(function (s) {
        var o = el("option", label(c).slice(0, 110));
        o.value = String(i);
        s.appendChild(o);
      });
    });
    function differing(a, b) {  /* [experiment id, figure, A value, B value] of every key figure that differs */
      var out = [];
      ids.forEach(function (id) {
        var exp = H.experiments[id];
        exp.figures.forEach(function (f, k) {
          var va = valueAt(exp, a, k), vb = valueAt(exp, b, k);
          if (JSON.stringify(va) !== JSON.stringify(vb)) { out.push([id, f, va, vb]); }
        });
      });
      return out;
    }

    /* default: the latest commit against the most recent earlier one at which some key figure differed */
    var last = commits.length - 1, start = last - 1;
    while (start > 0 && !differing(start, last).length) { start -= 1; }
    selA.value = String(Math.max(0, start));
    selB.value = String(last);

    var npr = window.npuready;
    function recount() {  /* the diff table was enhanced (tables.js) before its rows existed: state its count now */
      if (npr.recountTable) { npr.recountTable(document.getElementById("history-diff-rows").closest("table")); }
    }
    function drawDiff() {
      var a = Number(selA.value), b = Number(selB.value), body = document.getElementById("history-diff-rows");
      body.textContent = "";
      var rows = differing(a, b), n = rows.length;
      body.closest("table").hidden = !n;
      rows.forEach(function (r) {
        var tr = el("tr"), td = el("td"), jump = el("button", r[0], "linkish");
        tr.dataset.exp = r[0];
        jump.type = "button";
        jump.title = "scroll to its key figures by commit";
        jump.addEventListener("click", function () {  /* the URL hash stays #history */
          document.getElementById("history-exp-" + r[0]).scrollIntoView();
        });
        td.appendChild(jump);
        tr.appendChild(td);
        tr.appendChild(el("td", r[1].label));
        tr.appendChild(el("td", fmt(r[2], r[1].kind), "n"));
        tr.appendChild(el("td", fmt(r[3], r[1].kind), "n"));
        body.appendChild(tr);
      });
      document.getElementById("history-diff-count").textContent =
        n ? n + " key figures differ" : "no key figure differs between these commits";
      recount();
    }
    selA.addEventListener("change", drawDiff);
    selB.addEventListener("change", drawDiff);
    document.getElementById("history-diff").hidden = false;
    drawDiff();

    /* ---------- per experiment: a sparkline per numeric figure and the table by commit ---------- */
    var SVG = "http://www.w3.org/2000/svg";

    function sparkline(exp, k) {
      var pts = exp.changed.map(function (i) { return valueAt(exp, i, k); })
        .filter(function (v) { return typeof v === "number"; });
      if (pts.length < 2 || Math.min.apply(null, pts) === Math.max.apply(null, pts)) { return null; }
      var lo = Math.min(0, Math.min.apply(null, pts)), hi = Math.max.apply(null, pts), w = 160, h = 36;
      var svg = document.createElementNS(SVG, "svg");
      svg.setAttribute("viewBox", "0 0 " + w + " " + h);
      svg.setAttribute("width", w);
      svg.setAttribute("height", h);
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", exp.figures[k].label + ": " + pts.map(function (v) { return fmt(v, exp.figures[k].kind); }).join(" → "));
      var line = document.createElementNS(SVG, "polyline");
      line.setAttribute("fill", "none");
      line.setAttribute("stroke", "currentColor");
      line.setAttribute("points", pts.map(function (v, j) {
        return (4 + j * (w - 8) / (pts.length - 1)).toFixed(1) + "," + (h - 3 - (v - lo) / (hi - lo || 1) * (h - 6)).toFixed(1);
      }).join(" "));
      svg.appendChild(line);
      return svg;
    }

    var host = document.getElementById("history-experiments");
    ids.forEach(function (id) {
      var exp = H.experiments[id];
      var art = el("article", null, "panel history-exp");
      art.id = "history-exp-" + id;
      art.dataset.exp = id;
      var h2 = el("h2", exp.title + " ");
      var rec = el("a", id, "exp-link");
      rec.href = "#exp=" + id;
      rec.title = "open its current record";
      h2.appendChild(rec);
      art.appendChild(h2);
      if (!exp.figures.length) {
        art.appendChild(el("p", "No key figures are declared for this experiment (npuready/history/figures.py).", "dim"));
        host.appendChild(art);
        return;
      }
      var sparks = el("div", null, "history-sparks");
      exp.figures.forEach(function (f, k) {
        var s = sparkline(exp, k);
        if (!s) { return; }
        var fig = el("figure");
        fig.appendChild(s);
        var seen = exp.changed.map(function (i) { return valueAt(exp, i, k); })
          .filter(function (v) { return typeof v === "number"; });
        fig.appendChild(el("figcaption", f.label + ": " + fmt(seen[0], f.kind) + " → " + fmt(seen[seen.length - 1], f.kind) +
                                        " (axis from " + fmt(Math.min(0, Math.min.apply(null, seen)), f.kind) + ")"));
        sparks.appendChild(fig);
      });
      if (sparks.childNodes.length) { art.appendChild(sparks); }
      var scroll = el("div", null, "table-scroll");
      var table = el("table", null, "history-table");
      var head = el("tr");
      ["commit", "date", "subject"].concat(exp.figures.map(function (f) { return f.label; }))
        .forEach(function (t) { var th = el("th", t); th.scope = "col"; head.appendChild(th); });
      var thead = el("thead");
      thead.appendChild(head);
      table.appendChild(thead);
      var body = el("tbody");
      exp.changed.slice().reverse().forEach(function (i, j, order) {
        var c = commits[i], prev = order[j + 1], tr = el("tr");
        tr.dataset.commit = c.short;
        tr.appendChild(el("td", c.short, "mono"));
        tr.appendChild(el("td", c.date.slice(0, 10)));
        var subj = el("td", c.subject.length > 90 ? c.subject.slice(0, 89) + "…" : c.subject, "subject");
        subj.title = c.subject;
        tr.appendChild(subj);
        exp.figures.forEach(function (f, k) {
          var v = valueAt(exp, i, k);
          var moved = prev !== undefined && JSON.stringify(valueAt(exp, prev, k)) !== JSON.stringify(v);
          tr.appendChild(el("td", fmt(v, f.kind), moved ? "n moved" : "n"));
        });
        body.appendChild(tr);
      });
      table.appendChild(body);
      scroll.appendChild(table);
      art.appendChild(scroll);
      art.appendChild(el("p", "Newest first; a highlighted value moved at that commit; — means the result had no such " +
                               "figure then (not run yet, or another layout).", "dim"));
      host.appendChild(art);
    });
    if (npr.enhanceTables) { npr.enhanceTables(host); }  /* scroll regions, counts, sorting, as on every table */
  }
})();
