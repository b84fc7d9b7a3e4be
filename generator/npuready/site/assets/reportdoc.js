/* npuready model page, the report as a document for the target shown: lint findings grouped by rule (severity,
   rule page, waiver state, each node a link into the graph), the CPU/NPU crossings with their bytes, the sanity
   checks with their verdicts. Every number and record opens its JSON. Used by modelview.js (ctx). */
(function () {
  "use strict";
  var npr = window.npuready;
  if (!npr) { return; }
  (npr.modelParts = npr.modelParts || {}).doc = function (ctx) {
    var el = ctx.el, res = ctx.res, rules = ctx.app.dataset.rules || "", rank = {ERROR: 0, WARN: 1, INFO: 2};
    var box = document.getElementById("model-doc");
    function text(t) { return document.createTextNode(t); }
    function h2(t) { return el("h2", {}, t); }

    function lint(t) {
      var out = document.createDocumentFragment(), lt = res.lint && res.lint.targets[t];
      out.appendChild(h2("Lint findings on " + t));
      if (!lt) { out.appendChild(el("p", {"class": "dim"}, "lint did not run")); return out; }
      var groups = Object.create(null), order = [];
      lt.findings.forEach(function (f, k) {
        if (!groups[f.rule]) { groups[f.rule] = []; order.push(f.rule); }
        groups[f.rule].push(k);
      });
      order.sort(function (a, b) {
        var fa = lt.findings[groups[a][0]], fb = lt.findings[groups[b][0]];
        return (rank[fa.severity] - rank[fb.severity]) || (groups[b].length - groups[a].length) || (a < b ? -1 : 1);
      });
      if (!order.length) { out.appendChild(el("p", {"class": "dim"}, "no finding")); }
      var list = el("div", {"class": "doc-findings"});
      order.forEach(function (rule) {
        var ks = groups[rule], first = lt.findings[ks[0]], waived = ks.filter(function (k) { return lt.findings[k].suppression; });
        var d = el("details", {"class": "doc-rule", "data-rule": rule}), s = el("summary");
        s.appendChild(el("span", {"class": "sev sev-" + first.severity}, first.severity));
        s.appendChild(text(" "));
        s.appendChild(el("code", {"class": "rule"}, rule));  /* no link inside a summary: nested controls */
        s.appendChild(text(" " + first.title + ": " + ks.length + (ks.length === 1 ? " finding" : " findings") +
                           (waived.length ? ", " + waived.length + " waived" : "")));
        d.appendChild(s);
        var about = el("p", {"class": "dim"}, (first.reason || "") + " ");
        if (rules) { about.appendChild(el("a", {"class": "rule", href: rules + rule}, "rule page " + rule)); }
        d.appendChild(about);
        var ul = el("ul");
        ks.forEach(function (k) {
          var f = lt.findings[k], li = el("li");
          if (f.node && ctx.byName[f.node] !== undefined) {
            var go = el("button", {type: "button", "class": "linklike"}, f.node);
            go.addEventListener("click", function () { ctx.reveal(ctx.byName[f.node]); ctx.host.scrollIntoView({block: "nearest"}); });
            li.appendChild(go);
          } else { li.appendChild(el("code", {}, f.node || "(graph)")); }
          li.appendChild(text(" " + f.message + " "));
          if (f.suppression) { li.appendChild(el("span", {"class": "dim"}, "waived: " + JSON.stringify(f.suppression) + " ")); }
          li.appendChild(ctx.raw(ctx.ptr("lint", "targets", t, "findings", k), "raw JSON"));
          ul.appendChild(li);
        });
        d.appendChild(ul);
        list.appendChild(d);
      });
      out.appendChild(list);
      return out;
    }

    function crossings(t) {
      var out = document.createDocumentFragment(), pt = res.partition && res.partition.targets[t];
      out.appendChild(h2("CPU/NPU crossings on " + t));
      if (!pt) { out.appendChild(el("p", {"class": "dim"}, "partition did not run")); return out; }
      if (!pt.crossings.length) { out.appendChild(el("p", {"class": "dim"}, "none: the graph does not cross")); return out; }
      var wrap = el("div", {"class": "layer-scroll"}), table = el("table", {"class": "doc-crossings"}), head = el("tr");
      ["direction", "from", "to", "tensor", "shape", "dtype", "bytes"].forEach(function (c) { head.appendChild(el("th", {scope: "col"}, c)); });
      var thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
      var body = el("tbody");
      pt.crossings.forEach(function (c, i) {
        var tr = el("tr"), tensor = c.tensor || {};
        [c.direction, c.from, (c.to || []).join(", "), tensor.name, (tensor.shape || []).join("×"), tensor.dtype].forEach(function (v) {
          tr.appendChild(el("td", {}, v === undefined || v === null ? "" : String(v)));
        });
        var td = el("td");
        td.appendChild(ctx.num(ctx.ptr("partition", "targets", t, "crossings", i, "tensor", "bytes"), tensor.bytes));
        tr.appendChild(td);
        body.appendChild(tr);
      });
      table.appendChild(body); wrap.appendChild(table); out.appendChild(wrap);
      return out;
    }

    function checks(t) {
      var out = document.createDocumentFragment(), c = res.checks;
      out.appendChild(h2("Sanity checks"));
      if (!c) { out.appendChild(el("p", {"class": "dim"}, "not run")); return out; }
      var ul = el("ul", {"class": "doc-checks"});
      function item(name, v, path) {
        var li = el("li");
        li.appendChild(el("span", {"class": v.ok ? "ok" : "bad"}, v.ok ? "pass" : "FAIL"));
        li.appendChild(text(" " + name + " "));
        li.appendChild(ctx.raw(path, "raw JSON"));
        ul.appendChild(li);
      }
      Object.keys(c).forEach(function (k) {
        if (c[k] && typeof c[k] === "object" && typeof c[k].ok === "boolean") { item(k, c[k], ctx.ptr("checks", k)); }
      });
      var per = c.targets && c.targets[t];
      Object.keys(per || {}).forEach(function (k) {
        if (per[k] && typeof per[k].ok === "boolean") { item(k + " on " + t, per[k], ctx.ptr("checks", "targets", t, k)); }
      });
      out.appendChild(ul);
      return out;
    }

    function draw() {
      if (!box) { return; }
      var t = ctx.state.target;
      box.textContent = "";
      box.appendChild(lint(t));
      box.appendChild(crossings(t));
      box.appendChild(checks(t));
    }
    return {draw: draw};
  };
})();
