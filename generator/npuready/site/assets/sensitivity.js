/* npuready model page, sensitivity overlay (measured): where the page carries a sensitivity table for this model
   (#model-app data-sens-exp + data-sens-path: the mixed-precision result section of the same ONNX file, embedded as
   its own exp-data record), each quantised layer is coloured by the metric its quantisation costs — the gain of
   keeping it float alone on the held-out images — in quantile bins of the positive gains (ColorBrewer's Purples,
   text colour keeping WCAG AA contrast); a gain of zero or below is grey, a node that is no quantised layer white.
   The layers --keep-float auto kept are outlined (class kept-float). A scope box takes its members' largest gain.
   Used by modelview.js (ctx); the legend (#sens-legend) replaces the placement legend while the overlay is on. */
(function () {
  "use strict";
  var npr = window.npuready;
  if (!npr) { return; }
  var BINS = [["#dadaeb", "#1d232b"], ["#bcbddc", "#1d232b"], ["#9e9ac8", "#1d232b"], ["#756bb1", "#ffffff"],
              ["#54278f", "#ffffff"]];
  var NONE = ["#f4f4f4", "#1d232b"], OTHER = ["#ffffff", "#1d232b"];
  (npr.modelParts = npr.modelParts || {}).sens = function (ctx) {
    var app = ctx.app, legend = document.getElementById("sens-legend"), places = document.getElementById("placement-legend");
    var exp = app.dataset.sensExp, base = app.dataset.sensPath;
    var gain = Object.create(null), row = Object.create(null), kept = Object.create(null), sec = null;
    if (exp && base && legend) {
      sec = base.split("/").slice(1).reduce(function (o, k) { return o && o[k.replace(/~1/g, "/").replace(/~0/g, "~")]; }, npr.data(exp));
      (sec && sec.sensitivity ? sec.sensitivity.rows : []).forEach(function (r, i) { gain[r.name] = r.gain_float; row[r.name] = i; });
      (sec && sec.keep_float ? sec.keep_float.kept : []).forEach(function (k) { kept[k.name] = 1; });
    }
    function fmt(v) { return (v > 0 ? "+" : "") + v.toLocaleString("en-US", {maximumSignificantDigits: 3}); }
    /* ids: the boxes; units: id -> {members: node indices}; on: overlay shown. Returns id -> {fill, text, kept, gain}. */
    function scale(ids, units, on) {
      var out = Object.create(null);
      if (!legend) { return out; }
      legend.hidden = !on;
      if (!on) { return out; }
      places.hidden = true;
      var val = Object.create(null);
      ids.forEach(function (id) {
        units[id].members.forEach(function (i) {
          var name = ctx.nodes[i].name;
          if (name in gain && (!(id in val) || gain[name] > val[id])) { val[id] = gain[name]; }
          if (kept[name]) { out[id] = {kept: true}; }
        });
      });
      var hot = ids.filter(function (id) { return val[id] > 0; }).sort(function (a, b) { return val[a] - val[b]; });
      var ranges = BINS.map(function () { return null; }), rank = 0;
      hot.forEach(function (id, i) {
        if (i === 0 || val[id] !== val[hot[i - 1]]) { rank = i; }
        var b = Math.min(BINS.length - 1, Math.floor(rank * BINS.length / hot.length));
        out[id] = {fill: BINS[b][0], text: BINS[b][1], kept: !!(out[id] && out[id].kept), gain: val[id]};
        ranges[b] = ranges[b] ? [ranges[b][0], val[id]] : [val[id], val[id]];
      });
      ids.forEach(function (id) {
        if (out[id] && out[id].fill) { return; }
        var c = id in val ? NONE : OTHER;
        out[id] = {fill: c[0], text: c[1], kept: !!(out[id] && out[id].kept), gain: id in val ? val[id] : null};
      });
      legend.textContent = "";
      var title = ctx.el("span", {"class": "heat-title"}, "sensitivity (measured): metric gain of the layer kept float alone, on ");
      title.appendChild(ctx.el("button", {"class": "num", "data-exp": exp, "data-path": base + "/sensitivity/images"},
                               String(sec.sensitivity.images)));
      title.appendChild(document.createTextNode(" held-out images, by quantile:"));
      legend.appendChild(title);
      ranges.forEach(function (r, b) {
        if (!r) { return; }
        var s = ctx.el("span", {"class": "heat-bin", "data-bin": String(b)}, r[0] === r[1] ? fmt(r[0]) : fmt(r[0]) + " to " + fmt(r[1]));
        s.style.background = BINS[b][0];
        s.style.color = BINS[b][1];
        legend.appendChild(s);
      });
      [[NONE, "≤ 0", "none"], [OTHER, "not a quantised layer", "other"]].forEach(function (c) {
        var s = ctx.el("span", {"class": "heat-bin", "data-bin": c[2]}, c[1]);
        s.style.background = c[0][0];
        legend.appendChild(s);
      });
      legend.appendChild(ctx.el("span", {"class": "kept-float-key"}, "outlined: kept float by --keep-float auto"));
      return out;
    }
    return {scale: scale, available: !!(sec && sec.sensitivity), row: function (name) { return row[name]; }};
  };
})();
