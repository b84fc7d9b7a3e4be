/* npuready model page, moving around the graph: drag to pan, wheel or two-finger pinch (pointer events) to zoom,
   + and − buttons zoom about the middle; keyboard: Tab into the boxes, ArrowDown / ArrowUp to a consumer /
   producer, ArrowLeft / ArrowRight to the previous / next box fed by the same producer, Enter or Space opens
   (a scope expands, a node opens its panel). Used by modelview.js (ctx). */
(function () {
  "use strict";
  var npr = window.npuready;
  if (!npr) { return; }
  (npr.modelParts = npr.modelParts || {}).nav = function (ctx) {
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
      if (g.classList.contains("off")) { ctx.centre(id); }  /* culled off-screen boxes take no focus */
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
    document.getElementById("graph-zoom-in").addEventListener("click", function () { ctx.zoomAt(1.25); });
    document.getElementById("graph-zoom-out").addEventListener("click", function () { ctx.zoomAt(0.8); });

    /* pointers: one drags the view, two pinch (distance ratio zooms about their midpoint) */
    /* on the graph's box (the drawing inside it moves and scales with the view) */
    var root = ctx.host, view = ctx.state, down = Object.create(null), drag = null, pinch = null, moved = false;
    function local(p) { var r = root.getBoundingClientRect(); return [p.x - r.left, p.y - r.top]; }
    function pair() { var ids = Object.keys(down); return [down[ids[0]], down[ids[1]]]; }
    function spread(a, b) { return Math.hypot(a.x - b.x, a.y - b.y) || 1; }
    root.addEventListener("pointerdown", function (e) {
      down[e.pointerId] = {x: e.clientX, y: e.clientY};
      var n = Object.keys(down).length;
      moved = false;
      if (n === 1) { drag = {x: e.clientX, y: e.clientY, vx: view.view.x, vy: view.view.y}; pinch = null; }
      else if (n === 2) { var p = pair(); pinch = {d: spread(p[0], p[1])}; drag = null; }
    });
    window.addEventListener("pointermove", function (e) {
      if (!down[e.pointerId]) { return; }
      down[e.pointerId] = {x: e.clientX, y: e.clientY};
      if (pinch) {
        var p = pair(), d = spread(p[0], p[1]), m = local({x: (p[0].x + p[1].x) / 2, y: (p[0].y + p[1].y) / 2});
        ctx.zoomAt(d / pinch.d, m[0], m[1]);
        pinch.d = d; moved = true;
      } else if (drag) {
        var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
        if (Math.abs(dx) + Math.abs(dy) > 3) { moved = true; }
        view.view.x = drag.vx + dx; view.view.y = drag.vy + dy; ctx.applyView();
      }
    });
    function up(e) {
      delete down[e.pointerId];
      if (Object.keys(down).length < 2) { pinch = null; }
      if (!Object.keys(down).length) { drag = null; setTimeout(function () { moved = false; }, 0); }
    }
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
    root.addEventListener("wheel", function (e) {
      e.preventDefault();
      var m = local({x: e.clientX, y: e.clientY});
      ctx.zoomAt(Math.exp(-e.deltaY * 0.0015), m[0], m[1]);
    }, {passive: false});
    return {focus: focus, dragged: function () { return moved; }};
  };
})();
