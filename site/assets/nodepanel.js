/* npuready model page, node side panel: one ONNX node's placement, cost row, lint findings (severity, rule page),
   tensor shapes, attributes and weights for the target the switcher shows, each record with a "raw JSON" button
   (the drill-down dialog). Filled by modelview.js through ctx (its one shared state); redrawn on a target switch. */
(function () {
  "use strict";
  var npr = window.npuready;
  if (!npr) { return; }
  (npr.modelParts = npr.modelParts || {}).panel = function (ctx) {
    var info = document.getElementById("node-info");
    var rules = ctx.app.dataset.rules || "";
    var el = ctx.el, res = ctx.res, nodes = ctx.nodes;

    function section(title, path, label) {
      var s = el("section", {"class": "np-section"});
      var h = el("h3", {}, title + " ");
      if (path) { h.appendChild(ctx.raw(path, label || "raw JSON")); }
      s.appendChild(h);
      return s;
    }
    function facts(rows) {
      var dl = el("dl", {"class": "np-facts"});
      rows.forEach(function (r) {
        dl.appendChild(el("dt", {}, r[0]));
        var dd = el("dd");
        if (typeof r[1] === "string") { dd.textContent = r[1]; } else { dd.appendChild(r[1]); }
        dl.appendChild(dd);
      });
      return dl;
    }
    function shape(s) { return s ? "[" + s.join(", ") + "]" : "unknown"; }

    function placement(i, t, rec) {
      var n = nodes[i], k = rec.place[n.name];
      if (k === undefined) { return null; }
      var p = res.partition.targets[t].placements[k];
      var s = section("Placement", ctx.ptr("partition", "targets", t, "placements", k));
      s.appendChild(facts([["runs on", p.device], ["segment", rec.seg[n.name] || "—"], ["why", p.reason]]));
      return s;
    }
    function cost(i, t, rec) {
      var k = rec.cost[nodes[i].name];
      if (k === undefined) { return null; }
      var row = res.cost.targets[t].layers[k], base = ["cost", "targets", t, "layers", k];
      var s = section("Cost row (simulated)", ctx.ptr.apply(null, base), "cost row");
      s.appendChild(facts(["cycles", "macs", "compute_cycles", "memory_cycles", "utilisation", "dram_bytes", "sram_bytes", "bound"]
        .filter(function (key) { return row[key] !== undefined; })
        .map(function (key) {
          var v = row[key];
          return [key.replace(/_/g, " "), typeof v === "number" ? ctx.num(ctx.ptr.apply(null, base.concat([key])), v) : String(v)];
        })));
      return s;
    }
    function findings(i, t, rec) {
      var list = rec.findings[nodes[i].name] || [];
      var s = section("Lint findings (" + list.length + ")");
      if (!list.length) { s.appendChild(el("p", {"class": "dim"}, "none on " + t)); return s; }
      var ul = el("ul", {"class": "np-findings"});
      list.forEach(function (k) {
        var f = res.lint.targets[t].findings[k], li = el("li", {"class": "np-finding"});
        li.appendChild(el("span", {"class": "sev sev-" + f.severity}, f.severity));
        li.appendChild(document.createTextNode(" "));
        li.appendChild(rules ? el("a", {"class": "rule", href: rules + f.rule}, f.rule) : el("code", {"class": "rule"}, f.rule));
        li.appendChild(document.createTextNode(" " + f.title + " "));
        li.appendChild(ctx.raw(ctx.ptr("lint", "targets", t, "findings", k), "raw JSON"));
        li.appendChild(el("p", {"class": "np-message"}, f.message));
        if (f.suppression) { li.appendChild(el("p", {"class": "dim"}, "waived: " + JSON.stringify(f.suppression))); }
        var d = el("details");
        d.appendChild(el("summary", {}, "why, and the fix"));
        d.appendChild(el("p", {}, f.reason || ""));
        d.appendChild(el("p", {}, f.fix || ""));
        li.appendChild(d);
        ul.appendChild(li);
      });
      s.appendChild(ul);
      return s;
    }
    function shapes(i) {
      var n = nodes[i], s = section("Tensors");
      var ins = ctx.edges.filter(function (e) { return e.to === i; });
      var rows = ins.map(function (e) { return ["in " + e.tensor, shape(e.shape) + (e.dtype ? " " + e.dtype : "")]; });
      (n.outputs || []).forEach(function (o, k) { rows.push(["out " + o, shape((n.output_shapes || [])[k])]); });
      (n.weights || []).forEach(function (w) { rows.push(["weight", w]); });
      s.appendChild(rows.length ? facts(rows) : el("p", {"class": "dim"}, "none"));
      return s;
    }
    function attributes(i) {
      var a = nodes[i].attrs || {}, keys = Object.keys(a).sort(), s = section("Attributes (" + keys.length + ")");
      s.appendChild(keys.length ? facts(keys.map(function (k) { return [k, JSON.stringify(a[k])]; }))
        : el("p", {"class": "dim"}, "none"));
      return s;
    }
    function scopes(i) {
      var open = ctx.expandedScopes(i);
      if (!open.length) { return null; }
      var s = section("Scope");
      open.forEach(function (key) {
        s.appendChild(el("button", {type: "button", "class": "collapse-scope", "data-scope": key}, "collapse " + key));
      });
      return s;
    }

    info.addEventListener("click", function (e) {
      var b = e.target.closest("button.collapse-scope");
      if (b) { ctx.collapse(b.dataset.scope); }
    });

    return {
      show: function (i) {
        var n = nodes[i], t = ctx.state.target, rec = ctx.records(t);
        info.textContent = "";
        info.dataset.node = String(i);
        info.dataset.target = t;
        var h = el("h2", {"class": "np-title"}, (n.name || "(unnamed " + n.op_type + ")") + " ");
        h.appendChild(ctx.raw(ctx.ptr("graph", "nodes", i), "raw JSON"));
        info.appendChild(h);
        info.appendChild(el("p", {"class": "np-sub"}, n.op_type + " · target " + t));
        [placement(i, t, rec), cost(i, t, rec), res.lint ? findings(i, t, rec) : null, shapes(i), attributes(i), scopes(i)]
          .forEach(function (s) { if (s) { info.appendChild(s); } });
      }
    };
  };
})();
