/* npuready model page, graph tools: search inside the graph (node name, op type, tensor name, attribute value;
   next/previous; the match expanded into view, highlighted and centred) and export of the drawn view as SVG
   (the boxes as drawn now: expanded scopes, colours, badges; the graph styles embedded). Used by modelview.js. */
(function () {
  "use strict";
  var npr = window.npuready;
  if (!npr) { return; }
  (npr.modelParts = npr.modelParts || {}).tools = function (ctx) {
    var input = document.getElementById("graph-search"), count = document.getElementById("graph-search-count");
    var state = ctx.state, nodes = ctx.nodes;
    var hay = nodes.map(function (n) {
      var parts = [n.name, n.op_type].concat(n.inputs || [], n.outputs || [], n.weights || []);
      Object.keys(n.attrs || {}).forEach(function (k) { parts.push(k + "=" + JSON.stringify(n.attrs[k])); });
      return parts.join("\n").toLowerCase();
    });
    ctx.edges.forEach(function (e) {  /* tensor names between nodes, from the edge list */
      if (typeof e.to === "number" && e.tensor) { hay[e.to] += "\n" + String(e.tensor).toLowerCase(); }
    });
    var matches = [], at = -1;

    function find() {
      var q = input.value.trim().toLowerCase();
      matches = q ? nodes.map(function (n, i) { return i; }).filter(function (i) { return hay[i].indexOf(q) >= 0; }) : [];
      at = -1;
      state.matches = Object.create(null);
      matches.forEach(function (i) { state.matches[i] = true; });
      state.matchCurrent = null;
      count.textContent = q ? (matches.length === 1 ? "1 match" : matches.length ? matches.length + " matches" : "no match") : "";
      ctx.paint();
    }
    function go(step) {
      if (!matches.length) { return; }
      at = (at + step + matches.length) % matches.length;
      state.matchCurrent = matches[at];
      count.textContent = (at + 1) + " of " + matches.length;
      ctx.reveal(matches[at]);
    }
    input.addEventListener("input", find);
    input.addEventListener("keydown", function (e) {
      if (e.key === "Enter") { e.preventDefault(); go(e.shiftKey ? -1 : 1); }
    });
    document.getElementById("graph-search-next").addEventListener("click", function () { go(1); });
    document.getElementById("graph-search-prev").addEventListener("click", function () { go(-1); });

    function graphCss() {  /* the page's .graph-svg rules, CSS variables replaced by their values */
      var vars = getComputedStyle(document.documentElement), out = [];
      Array.prototype.forEach.call(document.styleSheets, function (sheet) {
        var rules;
        try { rules = sheet.cssRules; } catch (e) { return; }
        Array.prototype.forEach.call(rules || [], function (r) {
          if (r.selectorText && r.selectorText.indexOf(".graph-svg") >= 0) { out.push(r.cssText); }
        });
      });
      return out.join("\n").replace(/var\((--[\w-]+)\)/g, function (m, name) { return vars.getPropertyValue(name).trim() || m; });
    }
    function svgText() {
      var lay = state.layout, copy = ctx.root.cloneNode(true);
      copy.setAttribute("xmlns", "http://www.w3.org/2000/svg");
      copy.setAttribute("viewBox", "0 0 " + Math.ceil(lay.w) + " " + Math.ceil(lay.h));
      copy.setAttribute("width", String(Math.ceil(lay.w)));
      copy.setAttribute("height", String(Math.ceil(lay.h)));
      copy.setAttribute("data-boxes", String(ctx.root.querySelectorAll("g.gnode").length));
      copy.removeAttribute("style");  /* the page's view (a CSS transform) is not part of the drawing */
      copy.classList.remove("lod-far", "lod-mid");  /* the whole graph, every label, whatever the view culls */
      Array.prototype.forEach.call(copy.querySelectorAll(".off"), function (e) { e.classList.remove("off"); });
      var style = document.createElementNS("http://www.w3.org/2000/svg", "style");
      style.textContent = graphCss();
      copy.insertBefore(style, copy.firstChild);
      return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(copy) + "\n";
    }
    function exportSvg() {
      ctx.download(svgText(), "image/svg+xml", ctx.exp + "." + state.target + ".graph.svg");
    }
    /* PNG: the same SVG drawn on a canvas at 2x (less when the graph is large: a side stays under 16,384 px
       and the area under 64 M pixels, what browsers allocate), on the page's background colour. */
    function exportPng() {
      var lay = state.layout, w = Math.ceil(lay.w), h = Math.ceil(lay.h);
      var scale = Math.min(2, 16384 / Math.max(w, h, 1), Math.sqrt(64e6 / Math.max(w * h, 1)));
      var img = new Image(), url = URL.createObjectURL(new Blob([svgText()], {type: "image/svg+xml"}));
      img.onload = function () {
        var canvas = document.createElement("canvas");
        canvas.width = Math.max(1, Math.floor(w * scale)); canvas.height = Math.max(1, Math.floor(h * scale));
        var g = canvas.getContext("2d");
        g.fillStyle = getComputedStyle(document.body).backgroundColor || "#fff";
        g.fillRect(0, 0, canvas.width, canvas.height);
        g.drawImage(img, 0, 0, canvas.width, canvas.height);
        URL.revokeObjectURL(url);
        canvas.toBlob(function (blob) { ctx.download(blob, "image/png", ctx.exp + "." + state.target + ".graph.png"); },
                      "image/png");
      };
      img.onerror = function () { URL.revokeObjectURL(url); };
      img.src = url;
    }
    document.getElementById("graph-export-svg").addEventListener("click", exportSvg);
    document.getElementById("graph-export-png").addEventListener("click", exportPng);
    return {find: find};
  };
})();
