/* npuready model page, cycles heat (simulated): boxes binned by quantile of their cycles — six bins holding about
   the same number of boxes, so hot and cold separate however skewed the cycles are — in ColorBrewer's YlOrRd,
   with the text colour that keeps WCAG AA contrast on each fill; zero-cycle boxes stay grey. The legend shows
   each bin's cycle range and replaces the placement legend while the heat is on. Used by modelview.js (ctx). */
(function () {
  "use strict";
  var npr = window.npuready;
  if (!npr) { return; }
  var BINS = [["#ffffb2", "#1d232b"], ["#fed976", "#1d232b"], ["#feb24c", "#1d232b"], ["#fd8d3c", "#1d232b"],
              ["#e31a1c", "#ffffff"], ["#bd0026", "#ffffff"]];
  var ZERO = ["#f4f4f4", "#1d232b"];
  (npr.modelParts = npr.modelParts || {}).heat = function (ctx) {
    var legend = document.getElementById("heat-legend"), places = document.getElementById("placement-legend");
    function fmt(v) { return v.toLocaleString("en-US"); }
    /* ids: the boxes to colour; sums: id -> cycles; on: heat shown. Returns id -> {fill, text, bin} (empty when off). */
    function scale(ids, sums, on) {
      legend.hidden = !on;
      places.hidden = on;
      var out = Object.create(null);
      if (!on) { return out; }
      var hot = ids.filter(function (id) { return sums[id] > 0; }).sort(function (a, b) { return sums[a] - sums[b]; });
      var ranges = BINS.map(function () { return null; });
      var rank = 0;
      hot.forEach(function (id, i) {  /* equal cycles share the bin of their first rank */
        if (i === 0 || sums[id] !== sums[hot[i - 1]]) { rank = i; }
        var b = Math.min(BINS.length - 1, Math.floor(rank * BINS.length / hot.length));
        out[id] = {fill: BINS[b][0], text: BINS[b][1], bin: b};
        ranges[b] = ranges[b] ? [ranges[b][0], sums[id]] : [sums[id], sums[id]];
      });
      ids.forEach(function (id) { if (!out[id]) { out[id] = {fill: ZERO[0], text: ZERO[1], bin: -1}; } });
      legend.textContent = "";
      legend.appendChild(ctx.el("span", {"class": "heat-title"}, "cycles (simulated), by quantile:"));
      ranges.forEach(function (r, b) {
        if (!r) { return; }
        var s = ctx.el("span", {"class": "heat-bin", "data-bin": String(b)}, r[0] === r[1] ? fmt(r[0]) : fmt(r[0]) + "–" + fmt(r[1]));
        s.style.background = BINS[b][0];
        s.style.color = BINS[b][1];
        legend.appendChild(s);
      });
      var z = ctx.el("span", {"class": "heat-bin", "data-bin": "-1"}, "0");
      z.style.background = ZERO[0];
      legend.appendChild(z);
      return out;
    }
    return {scale: scale, bins: BINS};
  };
})();
