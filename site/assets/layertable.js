/* npuready model page, per-layer table: the cost rows of the target the switcher shows, most cycles first (any
   column sorts), folded nodes (known before inference: no cycles) hidden unless asked for, filtered, paged, each
   node linked to the graph, the rows shown downloadable as CSV. Used by modelview.js (ctx). */
(function () {
  "use strict";
  var npr = window.npuready;
  if (!npr) { return; }
  (npr.modelParts = npr.modelParts || {}).table = function (ctx) {
    var COLUMNS = [["node", "Node"], ["op_type", "Operator"], ["device", "Runs on"], ["macs", "MACs"],
      ["cycles", "Cycles (simulated)"], ["compute_cycles", "Compute cycles"], ["memory_cycles", "Memory cycles"],
      ["bound", "Bound by"], ["utilisation", "Utilisation"], ["dram_bytes", "DRAM bytes"], ["sram_bytes", "SRAM bytes"]];
    var PAGE_ROWS = 200;
    var el = ctx.el, res = ctx.res, state = ctx.state, sort = {key: "cycles", dir: -1};
    var folded = document.getElementById("layer-folded");
    var table = document.getElementById("layer-table"), filter = document.getElementById("layer-filter");
    var more = document.getElementById("layer-more"), limit = PAGE_ROWS;

    function shownRows() {
      var cost = res.cost && res.cost.targets[state.target];
      if (!cost) { return []; }
      var q = filter.value.toLowerCase();
      var rows = cost.layers.map(function (l, k) { return {k: k, l: l}; }).filter(function (r) {
        if (r.l.device === "folded" && !folded.checked) { return false; }
        return !q || (r.l.node + " " + r.l.op_type + " " + r.l.device).toLowerCase().indexOf(q) >= 0;
      });
      if (sort.key) {
        rows.sort(function (a, b) {
          var x = a.l[sort.key], y = b.l[sort.key];
          return (x < y ? -1 : x > y ? 1 : a.k - b.k) * sort.dir;
        });
      }
      return rows;
    }
    function draw() {
      table.textContent = "";
      var head = el("tr");
      COLUMNS.forEach(function (c) {
        var th = el("th", {"data-key": c[0], "aria-sort": sort.key === c[0] ? (sort.dir > 0 ? "ascending" : "descending") : "none"});
        th.appendChild(el("button", {"class": "sort", type: "button"}, c[1]));
        head.appendChild(th);
      });
      var thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
      var body = el("tbody"), rows = shownRows();
      more.hidden = rows.length <= limit;
      more.textContent = "show " + Math.min(PAGE_ROWS, rows.length - limit) + " more of " + rows.length + " rows";
      rows.slice(0, limit).forEach(function (r) {
        var tr = el("tr", {"data-node": r.l.node});
        COLUMNS.forEach(function (c) {
          var td = el("td"), v = r.l[c[0]];
          if (c[0] === "node") {
            td.appendChild(el("button", {"class": "node-link", type: "button", title: "show in the graph"}, v));
          } else if (typeof v === "number") {
            td.appendChild(ctx.num(ctx.ptr("cost", "targets", state.target, "layers", r.k, c[0]), v));
          } else { td.textContent = v; }
          tr.appendChild(td);
        });
        body.appendChild(tr);
      });
      table.appendChild(body);
    }
    table.addEventListener("click", function (e) {
      var th = e.target.closest("th");
      if (th) {
        var k = th.dataset.key;
        sort = {key: k, dir: sort.key === k ? -sort.dir : (k === "node" || k === "op_type" ? 1 : -1)};
        draw();
        return;
      }
      var b = e.target.closest("button.node-link");
      if (b) {
        var i = ctx.byName[b.textContent];
        if (i !== undefined) { ctx.host.scrollIntoView({block: "start"}); ctx.reveal(i); }
      }
    });
    filter.addEventListener("input", function () { limit = PAGE_ROWS; draw(); });
    folded.addEventListener("change", function () { limit = PAGE_ROWS; draw(); });
    more.addEventListener("click", function () { limit += PAGE_ROWS; draw(); });
    document.getElementById("layer-csv").addEventListener("click", function () {
      function q(v) { return window.npuready.csvCell(v); }  /* site.js: quoting, = + - @ tab CR defused */
      var lines = [COLUMNS.map(function (c) { return q(c[1]); }).join(",")];
      shownRows().forEach(function (r) { lines.push(COLUMNS.map(function (c) { return q(r.l[c[0]]); }).join(",")); });
      ctx.download(lines.join("\n") + "\n", "text/csv", ctx.exp + "." + state.target + ".layers.csv");
    });
    return {draw: draw};
  };
})();
