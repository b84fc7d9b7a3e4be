/* npuready model page, graph by keyboard and buttons: Tab into the boxes, ArrowDown / ArrowUp to a consumer /
   producer, ArrowLeft / ArrowRight to the previous / next box fed by the same producer, Enter or Space opens
   (a scope expands, a node opens its panel); + and − buttons zoom about the middle. Used by modelview.js (ctx). */
(function () {
  "use strict";
  var npr = window.npuready;
  if (!npr) { return; }
  (npr.modelParts = npr.modelParts || {}).keys = function (ctx) {
    function linked(id, dir) {  /* dir 0: producers of id, 1: its consumers, in edge order */
      var out = [];
      ctx.current().edges.forEach(function (e) {
        var other = e[dir], self = e[1 - dir];
        if (self === id && out.indexOf(other) < 0) { out.push(other); }
      });
      return out;
    }
    function sibling(id, step) {
      var from = linked(id, 0)[0];
      if (from === undefined) { return undefined; }
      var row = linked(from, 1), i = row.indexOf(id);
      return row[(i + step + row.length) % row.length];
    }
    function focus(id) {
      var g = id === undefined ? null : ctx.root.querySelector('g.gnode[data-unit="' + CSS.escape(id) + '"]');
      if (!g) { return; }
      g.focus();
      var r = g.getBoundingClientRect(), h = ctx.host.getBoundingClientRect();
      if (r.left < h.left || r.right > h.right || r.top < h.top || r.bottom > h.bottom) { ctx.centre(id); }
    }
    ctx.root.addEventListener("keydown", function (e) {
      var g = e.target.closest && e.target.closest("g.gnode");
      if (!g) { return; }
      var id = g.dataset.unit;
      var to = {ArrowDown: function () { return linked(id, 1)[0]; }, ArrowUp: function () { return linked(id, 0)[0]; },
                ArrowRight: function () { return sibling(id, 1); }, ArrowLeft: function () { return sibling(id, -1); }}[e.key];
      if (to) { e.preventDefault(); focus(to()); return; }
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); ctx.activate(id); }
    });
    document.getElementById("graph-zoom-in").addEventListener("click", function () { ctx.zoomBy(1.25); });
    document.getElementById("graph-zoom-out").addEventListener("click", function () { ctx.zoomBy(0.8); });
    return {focus: focus};
  };
})();
