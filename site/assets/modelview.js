/* npuready model page: graph view (dagre layout in a Blob-URL worker), placement colours, lint badges,
   cycles heat, target switcher, scopes expanded and collapsed — all rendered on demand from the one embedded
   result JSON; the node side panel (nodepanel.js), per-layer table (layertable.js), search and SVG export
   (graphtools.js) get this file's context. Every number is a drill-down button (data-exp + data-path). */
(function () {
  "use strict";
  var app = document.getElementById("model-app");
  if (!app) { return; }
  var NS = "http://www.w3.org/2000/svg";
  var COLLAPSE_AT = 400, MAX_UNITS = 200;
  var exp = app.dataset.exp, R = app.dataset.root || "";
  var doc = window.npuready.data(exp);
  var res = R ? doc.results : doc;
  var nodes = res.graph.nodes, edges = res.graph.edges;
  var targets = (res.model && res.model.targets) || [];
  /* maps keyed by node, scope or tensor names (any string, "constructor" and "__proto__" too) have no prototype */
  function dict() { return Object.create(null); }
  var byName = dict();
  nodes.forEach(function (n) { byName[n.name] = n.id; });
  var state = {target: targets[0], colour: "placement", expanded: dict(), selected: null, selectedNode: null, layout: null,
               view: {x: 0, y: 0, k: 1}, matches: dict(), matchCurrent: null};

  function esc(t) { return String(t).replace(/~/g, "~0").replace(/\//g, "~1"); }
  function ptr() { return R + "/" + Array.prototype.map.call(arguments, esc).join("/"); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(NS, tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }
  function fmt(v) {
    if (typeof v !== "number") { return String(v); }
    return Number.isInteger(v) ? v.toLocaleString("en-US") : v.toLocaleString("en-US", {maximumSignificantDigits: 4});
  }
  function num(path, value) { var b = el("button", {"class": "num", "data-exp": exp, "data-path": path}, fmt(value)); return b; }
  function raw(path, label) { return el("button", {"class": "raw", "data-exp": exp, "data-path": path}, label); }

  /* ---------- per-target records, indexed by node name ---------- */
  function records(t) {
    var out = {place: dict(), seg: dict(), cost: dict(), findings: dict(), sev: dict(), badge: dict()};
    var part = res.partition && res.partition.targets[t];
    if (part) {
      part.placements.forEach(function (p, i) { out.place[p.node] = i; });
      part.segments.forEach(function (s) { s.nodes.forEach(function (n) { out.seg[n] = s.name; }); });
    }
    var cost = res.cost && res.cost.targets[t];
    if (cost) { cost.layers.forEach(function (l, i) { out.cost[l.node] = i; }); }
    var lint = res.lint && res.lint.targets[t];
    var rank = {ERROR: 3, WARN: 2, INFO: 1};
    if (lint) {
      lint.findings.forEach(function (f, i) {
        if (!f.node) { return; }
        (out.findings[f.node] = out.findings[f.node] || []).push(i);  /* every finding: the node's panel */
        if (f.severity !== "ERROR" && f.severity !== "WARN") { return; }  /* badges count what the summary counts */
        out.badge[f.node] = (out.badge[f.node] || 0) + 1;
        if ((rank[f.severity] || 0) > (rank[out.sev[f.node]] || 0)) { out.sev[f.node] = f.severity; }
      });
    }
    return out;
  }

  function category(rec, name) {
    var i = rec.place[name];
    if (i === undefined) { return "unknown"; }
    var p = res.partition.targets[state.target].placements[i];
    if (p.device === "npu") { return "npu"; }
    if (p.device === "folded") { return "folded"; }
    var s = rec.seg[name];
    return s === "head" ? "cpu-head" : s === "tail" ? "cpu-tail" : "cpu";
  }

  function cycles(rec, name) {
    var i = rec.cost[name];
    return i === undefined ? 0 : res.cost.targets[state.target].layers[i].cycles;
  }

  /* ---------- collapse by scope (ONNX names like /blocks.3/attn/qkv/MatMul), expand level by level ---------- */
  function scopeOf(name) { return name.split("/").filter(Boolean).slice(0, -1); }
  var consumers = dict();
  edges.forEach(function (e) {
    if (typeof e.from === "number" && typeof e.to === "number") { (consumers[e.from] = consumers[e.from] || []).push(e.to); }
  });
  var scope = [];  /* a node without a scope (folded constants, weight Identities) joins its first consumer's scope */
  for (var i = nodes.length - 1; i >= 0; i--) {
    var own = scopeOf(nodes[i].name), c = consumers[i];
    scope[i] = own.length || !c ? own : scope[Math.min.apply(null, c)] || own;
  }
  var depth = 0;
  if (nodes.length > COLLAPSE_AT) {
    for (var d = 1; d < 8; d++) {
      var keys = dict();
      nodes.forEach(function (n) { var s = scope[n.id]; keys[s.length >= d ? s.slice(0, d).join("/") : "n" + n.id] = 1; });
      if (Object.keys(keys).length > MAX_UNITS) { break; }
      depth = d;
    }
  }
  var unitMap = dict();
  function rawUnit(n) {
    var s = scope[n.id];
    for (var d = depth; depth && s.length >= d; d++) {
      var key = s.slice(0, d).join("/");
      if (!state.expanded[key]) { return "g:" + key; }
    }
    return "n:" + n.id;
  }
  function unitOf(n) { return unitMap[n.id] || rawUnit(n); }
  function expandTo(n) { var s = scope[n.id]; for (var d = depth; depth && d <= s.length; d++) { state.expanded[s.slice(0, d).join("/")] = true; } }
  function endpoint(x) { return typeof x === "number" ? unitOf(nodes[x]) : "io:" + x; }

  function units() {
    var u = dict(), order = [];
    unitMap = dict();
    nodes.forEach(function (n) {
      var id = rawUnit(n);
      if (!u[id]) { u[id] = {id: id, members: []}; order.push(id); }
      u[id].members.push(n.id);
    });
    order = order.map(function (id) {  /* a scope of one node is drawn as that node */
      if (id.charAt(0) === "g" && u[id].members.length === 1) {
        var only = u[id].members[0], nid = "n:" + only;
        u[nid] = {id: nid, members: [only]}; delete u[id];
        return nid;
      }
      return id;
    });
    order.forEach(function (id) { u[id].members.forEach(function (m) { unitMap[m] = id; }); });
    edges.forEach(function (e) {
      [e.from, e.to].forEach(function (x) {
        if (typeof x !== "number" && !u["io:" + x]) { u["io:" + x] = {id: "io:" + x, members: [], io: x}; order.push("io:" + x); }
      });
    });
    var seen = dict(), es = [], shapes = dict(), tips = dict();
    edges.forEach(function (e) {
      var a = endpoint(e.from), b = endpoint(e.to), k = a + "\u0000" + b;
      var tip = e.tensor + ": " + (shapeLabel(e.shape) || "shape unknown") + " " + (e.dtype || "");
      if (a !== b && !seen[k]) { seen[k] = 1; es.push([a, b]); shapes[k] = shapeLabel(e.shape); tips[k] = [tip]; }
      else if (a !== b) {
        if (shapes[k] !== shapeLabel(e.shape)) { shapes[k] = ""; }  /* several tensors: no label */
        if (tips[k].indexOf(tip) < 0) { tips[k].push(tip); }
      }
    });
    return {units: u, order: order, edges: es, shapes: shapes, tips: tips};
  }

  function label(unit) {
    if (unit.io) { return unit.io.replace(/^(input|output):/, "$1 "); }
    if (unit.id.charAt(0) === "g") { return unit.id.slice(2).split("/").slice(-2).join("/") + " (" + unit.members.length + ")"; }
    return nodes[unit.members[0]].op_type;
  }

  /* ---------- layout: dagre in a Blob-URL worker (works from file://); main thread if workers are refused ---------- */
  var WORKER = "self.onmessage=function(e){var m=e.data;var g=new dagre.graphlib.Graph();" +
    "g.setGraph({rankdir:'TB',nodesep:14,ranksep:26,marginx:10,marginy:10});g.setDefaultEdgeLabel(function(){return {};});" +
    "m.nodes.forEach(function(n){g.setNode(n[0],{width:n[1],height:n[2]});});m.edges.forEach(function(x){g.setEdge(x[0],x[1]);});" +
    "dagre.layout(g);var o={nodes:{},edges:[],w:g.graph().width,h:g.graph().height};" +
    "g.nodes().forEach(function(v){var n=g.node(v);o.nodes[v]=[n.x,n.y,n.width,n.height];});" +
    "g.edges().forEach(function(x){o.edges.push([x.v,x.w,g.edge(x).points]);});postMessage(o);};";
  var dagreSrc = document.getElementById("dagre-src").textContent;
  var worker = null;
  function layout(msg) {
    return new Promise(function (resolve, reject) {
      try {
        if (!worker) {
          worker = new Worker(URL.createObjectURL(new Blob([dagreSrc + "\n" + WORKER], {type: "text/javascript"})));
        }
        worker.onmessage = function (e) { resolve(e.data); };
        worker.onerror = function (e) { e.preventDefault(); worker = false; reject(e); };
        worker.postMessage(msg);
      } catch (e) { reject(e); }
    }).catch(function () {  /* workers refused: same code on the main thread */
      var scope = {};
      (new Function("self", "postMessage", dagreSrc + "\n" + WORKER + "\nreturn dagre;"))(scope, function (o) { scope.out = o; });
      scope.onmessage({data: msg});
      return scope.out;
    });
  }

  /* ---------- drawing ---------- */
  var host = document.getElementById("graph");
  var status = document.getElementById("graph-status");
  var root = svg("svg", {"class": "graph-svg", width: "100%", height: "100%"});  /* sized to the layout once drawn */
  var vp = svg("g", {"class": "viewport"});
  var defs = svg("defs"), arrow = svg("marker", {id: "graph-arrow", viewBox: "0 0 8 8", refX: "8", refY: "4",
    markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse"});
  arrow.appendChild(svg("path", {d: "M0,0 L8,4 L0,8 z", "class": "arrow-head"}));
  defs.appendChild(arrow);
  root.appendChild(defs);
  root.appendChild(vp);
  host.appendChild(root);
  var current = null;

  /* the view is a CSS transform of the whole drawing (sized to the layout), not an SVG transform: changing an SVG
     transform re-lays out every box and label under it on each frame, a CSS transform of the <svg> box does not */
  function applyView() {
    root.style.transform = "translate(" + state.view.x + "px," + state.view.y + "px) scale(" + state.view.k + ")";
    cull();
  }

  /* ---------- what a frame paints: boxes and edges outside the view (plus a margin) are display:none, and labels
     too small to read are not drawn (node labels under 4 px, edge labels under 5 px). Measured in make bench
     (benchmarks/bench_graph_fps.py): text and off-screen elements were most of a zoom frame's cost. ---------- */
  var cullItems = [];
  function cullIndex(lay) {
    cullItems = [];
    vp.querySelectorAll("g.gnode").forEach(function (g) {
      var p = lay.nodes[g.dataset.unit];
      cullItems.push({el: g, x0: p[0] - p[2] / 2, y0: p[1] - p[3] / 2 - 12, x1: p[0] + p[2] / 2 + 12, y1: p[1] + p[3] / 2, off: false});
    });
    vp.querySelectorAll("g.edges > *").forEach(function (e) {
      var b = e.getBBox();  /* laid out once per draw, not per frame */
      cullItems.push({el: e, x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height, off: false});
    });
  }
  function cull() {
    var v = state.view, m = 60, W = host.clientWidth, H = host.clientHeight;
    var x0 = (-v.x - m) / v.k, y0 = (-v.y - m) / v.k, x1 = (W - v.x + m) / v.k, y1 = (H - v.y + m) / v.k;
    for (var i = 0; i < cullItems.length; i++) {
      var it = cullItems[i], off = it.x1 < x0 || it.x0 > x1 || it.y1 < y0 || it.y0 > y1;
      if (off !== it.off) { it.off = off; it.el.classList.toggle("off", off); }
    }
    root.classList.toggle("lod-far", v.k * 11 < 4);
    root.classList.toggle("lod-mid", v.k * 9 < 5);
  }

  function paint() {
    if (!current) { return; }
    var rec = records(state.target);
    var sums = dict();
    current.order.forEach(function (id) {
      var u = current.units[id], s = 0;
      u.members.forEach(function (i) { s += cycles(rec, nodes[i].name); });
      sums[id] = s;
    });
    var boxes = current.order.filter(function (id) { return !current.units[id].io; });
    var heat = parts.heat.scale(boxes, sums, state.colour === "cycles");
    if (parts.sens) {  /* the sensitivity overlay (sensitivity.js) replaces the heat colours while it is on */
      var sens = parts.sens.scale(boxes, current.units, state.colour === "sensitivity");
      if (state.colour === "sensitivity") { heat = sens; }
    }
    vp.querySelectorAll("g.gnode").forEach(function (g) {
      var u = current.units[g.dataset.unit];
      var box = g.querySelector("rect");
      var culled = g.classList.contains("off") ? " off" : "";  /* cull() owns "off" */
      if (u.io) { g.setAttribute("class", "gnode io" + culled); return; }
      var cats = {}, sev = null, nf = 0, rank = {ERROR: 3, WARN: 2, INFO: 1};
      u.members.forEach(function (i) {
        var name = nodes[i].name;
        cats[category(rec, name)] = 1;
        nf += rec.badge[name] || 0;
        var s = rec.sev[name];
        if (s && (rank[s] || 0) > (rank[sev] || 0)) { sev = s; }
      });
      if (Object.keys(cats).length > 1) { delete cats.folded; }  /* a scope's folded constants do not make it mixed */
      var cat = Object.keys(cats).length === 1 ? Object.keys(cats)[0] : "mixed";
      var hit = u.members.some(function (i) { return state.matches[i]; });
      var here = state.matchCurrent !== null && u.members.indexOf(state.matchCurrent) >= 0;
      var colour = heat[g.dataset.unit];
      g.setAttribute("class", "gnode cat-" + cat + (g.dataset.unit === state.selected ? " selected" : "") +
        (hit ? " match" : "") + (here ? " match-current" : "") + (colour && colour.kept ? " kept-float" : "") +
        culled);
      box.style.fill = colour ? colour.fill : "";
      g.querySelector("text").style.fill = colour ? colour.text : "";
      g.dataset.cycles = sums[g.dataset.unit];
      var badge = g.querySelector("g.badge");
      if (badge) { badge.remove(); }
      if (nf) {
        var w = +box.getAttribute("width");
        badge = svg("g", {"class": "badge sev-" + sev, transform: "translate(" + (w - 2) + ",-4)", "aria-hidden": "true"});
        badge.appendChild(svg("circle", {r: 8}));
        var t = svg("text", {"text-anchor": "middle", dy: "3.5"});
        t.textContent = nf > 99 ? "99+" : String(nf);
        badge.appendChild(t);
        g.appendChild(badge);
      }
    });
  }

  function shapeLabel(shape) {
    return Array.isArray(shape) && shape.length ? shape.map(function (d) { return d === null ? "?" : String(d); }).join("×") : "";
  }

  function draw() {
    current = units();
    var msg = {nodes: current.order.map(function (id) {
      var w = Math.max(56, Math.min(260, 7 * label(current.units[id]).length + 14));
      return [id, w, 24];
    }), edges: current.edges};
    status.textContent = "laying out " + msg.nodes.length + " boxes (" + nodes.length + " ONNX nodes)…";
    var t0 = performance.now();
    return layout(msg).then(function (lay) {
      state.layout = lay;
      vp.textContent = "";
      root.setAttribute("width", String(Math.ceil(lay.w)));
      root.setAttribute("height", String(Math.ceil(lay.h)));
      var eg = svg("g", {"class": "edges"});
      lay.edges.forEach(function (e) {
        var line = svg("polyline", {points: e[2].map(function (p) { return p.x + "," + p.y; }).join(" "), "marker-end": "url(#graph-arrow)"});
        var tip = svg("title"), tensors = current.tips[e[0] + "\u0000" + e[1]] || [];  /* hover: tensor, shape, dtype */
        tip.textContent = tensors.slice(0, 8).join("\n") + (tensors.length > 8 ? "\n… " + (tensors.length - 8) + " more" : "");
        line.appendChild(tip);
        eg.appendChild(line);
        var text = current.shapes[e[0] + "\u0000" + e[1]], mid = e[2][Math.floor(e[2].length / 2)];
        if (text && mid) {  /* the tensor's shape beside the edge, as Netron shows it */
          var t = svg("text", {"class": "elabel", x: mid.x + 4, y: mid.y});
          t.textContent = text;
          eg.appendChild(t);
        }
      });
      vp.appendChild(eg);
      var ng = svg("g", {"class": "nodes"});
      current.order.forEach(function (id) {
        var p = lay.nodes[id];
        var g = svg("g", {"class": "gnode", transform: "translate(" + (p[0] - p[2] / 2) + "," + (p[1] - p[3] / 2) + ")"});
        g.dataset.unit = id;
        g.appendChild(svg("rect", {width: p[2], height: p[3], rx: 4}));
        var t = svg("text", {x: p[2] / 2, y: 16, "text-anchor": "middle"});
        t.textContent = label(current.units[id]);
        g.appendChild(t);
        var title = svg("title");
        var u = current.units[id];
        title.textContent = u.io ? u.io : u.id.charAt(0) === "g" ? "scope " + u.id.slice(2) + ": " + u.members.length + " nodes (click to expand)" : nodes[u.members[0]].name;
        g.appendChild(title);
        g.setAttribute("tabindex", "0");  /* keyboard: graphnav.js walks producers/consumers, Enter opens */
        g.setAttribute("role", u.io ? "img" : "button");

        ng.appendChild(g);
      });
      vp.appendChild(ng);
      cullIndex(lay);
      paint();
      status.textContent = current.order.length + " boxes, " + nodes.length + " ONNX nodes" +
        (depth ? " (collapsed by scope; click a scope box to expand)" : "") + "; layout " + Math.round(performance.now() - t0) + " ms";
      host.dataset.ready = "1";
    });
  }

  /* the first view (and after expand / collapse all): the whole width (at most 1:1), top of the graph first, but
     node labels never under MIN_LABEL_PX on screen; a graph wider than that is centred on its middle and the
     sides are a drag away. The "fit" button (whole = true) fits the whole width whatever the label size. */
  var MIN_LABEL_PX = 9;
  function labelPx() {
    var t = vp.querySelector("g.gnode text");
    return (t && parseFloat(getComputedStyle(t).fontSize)) || 11;
  }
  function fit(whole) {
    var lay = state.layout, w = host.clientWidth, h = host.clientHeight;
    var k = Math.min(1, w / lay.w);
    if (whole !== true) { k = Math.max(k, Math.min(1, MIN_LABEL_PX / labelPx())); }
    state.view = {k: k, x: (w - lay.w * k) / 2, y: lay.h * k < h ? (h - lay.h * k) / 2 : 0};
    applyView();
  }

  function centre(unit) {
    var p = state.layout.nodes[unit];
    if (!p) { return; }
    var k = Math.max(state.view.k, 0.8);
    state.view = {k: k, x: host.clientWidth / 2 - p[0] * k, y: host.clientHeight / 2 - p[1] * k};
    applyView();
  }

  /* ---------- selection: the node's side panel (nodepanel.js); its records open in the JSON dialog ---------- */
  function select(i) {
    state.selectedNode = i;
    state.selected = unitOf(nodes[i]);
    paint();
    parts.panel.show(i);
  }

  /* the expanded scopes a node sits in, outermost first (each one can be collapsed again) */
  function expandedScopes(i) {
    var s = scope[i], out = [];
    for (var d = depth; depth && d <= s.length; d++) {
      var key = s.slice(0, d).join("/");
      if (state.expanded[key]) { out.push(key); } else { break; }
    }
    return out;
  }
  function collapse(key) {  /* the scope and every scope inside it */
    Object.keys(state.expanded).forEach(function (k) { if (k === key || k.indexOf(key + "/") === 0) { delete state.expanded[k]; } });
    return draw().then(function () {
      if (state.layout.nodes["g:" + key]) { centre("g:" + key); }
      if (state.selectedNode !== null) { select(state.selectedNode); }
    });
  }
  function expandAll(on) {
    state.expanded = dict();
    if (on) { nodes.forEach(function (n) { expandTo(n); }); }
    return draw().then(function () { fit(); });
  }

  root.addEventListener("click", function (e) {
    if (parts.nav.dragged()) { return; }
    var g = e.target.closest("g.gnode");
    if (g) { activate(g.dataset.unit); }
  });
  function activate(id) {  /* a click or Enter on a box: a scope expands, a node opens its panel */
    var u = current.units[id];
    if (!u || u.io) { return; }
    if (u.id.charAt(0) === "g") {
      state.expanded[u.id.slice(2)] = true;
      var keep = state.view;
      draw().then(function () { var to = unitOf(nodes[u.members[0]]); if (state.layout.nodes[to]) { centre(to); } else { state.view = keep; applyView(); } });
      return;
    }
    select(u.members[0]);
  }
  function zoomAt(f, mx, my) {  /* zoom by f about (mx, my) in the graph's box (its middle when not given) */
    if (mx === undefined) { mx = host.clientWidth / 2; my = host.clientHeight / 2; }
    var k = Math.min(4, Math.max(0.02, state.view.k * f));
    state.view = {k: k, x: mx - (mx - state.view.x) * k / state.view.k, y: my - (my - state.view.y) * k / state.view.k};
    applyView();
  }

  function reveal(i) {
    var n = nodes[i], go = function () { centre(unitOf(n)); select(i); };
    if (unitOf(n).charAt(0) === "g") { expandTo(n); return draw().then(go); }
    go();
    return Promise.resolve();
  }

  function download(text, type, name) {
    var url = URL.createObjectURL(new Blob([text], {type: type}));
    var a = el("a", {href: url, download: name});
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 0);
  }

  /* ---------- the parts (nodepanel.js, layertable.js, graphtools.js) share this context ---------- */
  var ctx = {app: app, exp: exp, res: res, nodes: nodes, edges: edges, byName: byName, state: state, host: host, root: root,
             el: el, num: num, raw: raw, ptr: ptr, records: records, paint: paint, reveal: reveal, select: select,
             collapse: collapse, expandedScopes: expandedScopes, download: download, activate: activate,
             zoomAt: zoomAt, applyView: applyView, centre: centre, current: function () { return current; }};
  var made = window.npuready.modelParts || {};
  var parts = {panel: made.panel(ctx), table: made.table(ctx), tools: made.tools(ctx), nav: made.nav(ctx), heat: made.heat(ctx),
               doc: made.doc(ctx), sens: made.sens ? made.sens(ctx) : null};

  /* ---------- summary + controls ---------- */
  function summary() {
    var box = document.getElementById("model-summary"), t = state.target;
    box.textContent = "";
    var dl = el("dl", {"class": "model-facts"});
    function fact(name, node) { dl.appendChild(el("dt", {}, name)); var dd = el("dd"); dd.appendChild(node); dl.appendChild(dd); }
    fact("ONNX nodes", num(ptr("graph", "node_count"), res.graph.node_count));
    if (res.partition) {
      var p = res.partition.targets[t];
      fact("NPU segments", num(ptr("partition", "targets", t, "npu_segments"), p.npu_segments));
      fact("partition", document.createTextNode(p.verdict_text));
    }
    if (res.cost) { fact("cycles (simulated)", num(ptr("cost", "targets", t, "total", "cycles"), res.cost.targets[t].total.cycles)); }
    if (res.lint) {
      var s = res.lint.targets[t].summary, f = document.createDocumentFragment();
      f.appendChild(num(ptr("lint", "targets", t, "summary", "errors"), s.errors)); f.appendChild(document.createTextNode(" errors, "));
      f.appendChild(num(ptr("lint", "targets", t, "summary", "warnings"), s.warnings)); f.appendChild(document.createTextNode(" warnings"));
      if (s.infos) {  /* INFO findings are listed in the report and the node panel, not counted on the badges */
        f.appendChild(document.createTextNode(", ")); f.appendChild(num(ptr("lint", "targets", t, "summary", "infos"), s.infos));
        f.appendChild(document.createTextNode(" info (no badge)"));
      }
      fact("lint", f);
    }
    if (res.checks) { fact("sanity checks", raw(ptr("checks"), res.checks.all_ok ? "all pass" : "some fail")); }
    box.appendChild(dl);
  }
  var sel = document.getElementById("target-select");
  targets.forEach(function (t) { sel.appendChild(el("option", {value: t}, t)); });
  sel.addEventListener("change", function () {
    state.target = sel.value;
    summary(); paint(); parts.table.draw(); parts.doc.draw();
    if (state.selectedNode !== null) { parts.panel.show(state.selectedNode); }  /* the panel follows the target */
  });
  document.getElementById("colour-select").addEventListener("change", function (e) { state.colour = e.target.value; paint(); });
  document.getElementById("graph-fit").addEventListener("click", function () { fit(true); });
  document.getElementById("graph-expand-all").addEventListener("click", function () { expandAll(true); });
  document.getElementById("graph-collapse-all").addEventListener("click", function () { expandAll(false); });

  summary();
  parts.doc.draw();
  draw().then(function () { fit(); document.documentElement.dataset.graphReady = "1"; parts.table.draw(); },
    function (err) { status.textContent = "graph layout failed: " + err; console.error(err); parts.table.draw(); });
})();
