/* npuready tables: applied to every table of a view after its HTML is on the page (the `npuready:view` event;
   the view shown at load; a hash change). Each table gets a focusable horizontal-scroll region (role=region,
   tabindex=0, a label) with a visible cue when it is wider than the screen, a sticky header (tall tables scroll
   inside their region), sortable columns (numbers sort by value), a row filter on long tables, and a CSV download
   of exactly the rows and columns shown, in the order shown. Reads only the page. */
(function () {
  "use strict";
  var N = window.npuready = window.npuready || {};
  var TALL = 15;  /* rows above which a table scrolls inside its region (its header stays visible) */

  function text(el) { return (el ? el.textContent : "").replace(/\s+/g, " ").trim(); }

  /* the header grid: the text over each column (rows of a multi-row header joined with " · ") and,
     where one header cell covers exactly that column in the last row, that cell (it can sort) */
  function headerGrid(table) {
    var rows = table.tHead ? Array.prototype.slice.call(table.tHead.rows) : [];
    var grid = [];
    rows.forEach(function (tr, r) {
      var col = 0;
      Array.prototype.forEach.call(tr.cells, function (cell) {
        while (grid[col] && grid[col].taken > r) { col += 1; }
        var span = cell.colSpan || 1, down = cell.rowSpan || 1;
        for (var c = col; c < col + span; c += 1) {
          grid[c] = grid[c] || {names: [], taken: 0, cell: null};
          grid[c].names.push(text(cell));
          grid[c].taken = r + down;
          grid[c].cell = span === 1 && r + down === rows.length ? cell : null;
        }
        col += span;
      });
    });
    return grid.map(function (g) { return {name: g.names.filter(Boolean).join(" · "), cell: g.cell}; });
  }

  function bodyRows(table) {
    return Array.prototype.concat.apply([], Array.prototype.map.call(table.tBodies, function (b) {
      return Array.prototype.slice.call(b.rows);
    }));
  }

  /* one entry per column: a colspan cell fills its first column, the rest stay empty */
  function rowCells(tr) {
    var out = [];
    Array.prototype.forEach.call(tr.cells, function (cell) {
      out.push(cell);
      for (var i = 1; i < (cell.colSpan || 1); i += 1) { out.push(null); }
    });
    return out;
  }

  function shownRows(table) {
    return bodyRows(table).filter(function (tr) { return !tr.hidden && tr.style.display !== "none"; });
  }

  /* ---------- sorting ---------- */
  function sortKey(cell) {
    if (!cell) { return null; }
    var t = text(cell);
    var nums = cell.querySelectorAll("button.num");
    if (nums.length === 1 && text(nums[0]) === t.split(" (")[0]) {
      var v = parseFloat(text(nums[0]).replace(/,/g, "").replace(/\u2009.*$/, ""));
      if (!isNaN(v)) { return v; }
    }
    return t === "" ? null : t;
  }

  function compare(a, b) {
    if (a === null || b === null) { return a === b ? 0 : (a === null ? 1 : -1); }  /* empty cells last */
    if (typeof a === "number" && typeof b === "number") { return a - b; }
    if (typeof a === "number") { return -1; }
    if (typeof b === "number") { return 1; }
    return a.localeCompare(b, undefined, {numeric: true});
  }

  function sortBy(table, col, th) {
    var dir = th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
    table.querySelectorAll("thead th[aria-sort]").forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir);
    var sign = dir === "ascending" ? 1 : -1;
    Array.prototype.forEach.call(table.tBodies, function (body) {
      var rows = Array.prototype.slice.call(body.rows).map(function (tr, i) {
        return {tr: tr, i: i, key: sortKey(rowCells(tr)[col])};
      });
      rows.sort(function (a, b) {
        var c = compare(a.key, b.key);
        if (a.key === null || b.key === null) { return c || a.i - b.i; }  /* empty last either way */
        return sign * c || a.i - b.i;
      });
      rows.forEach(function (r) { body.appendChild(r.tr); });
    });
  }

  function sortable(table) {  /* grouped rows (a heading row, a rowspan) keep their order */
    return table.tBodies.length > 0 && bodyRows(table).length > 1 &&
      !table.querySelector("tbody tr.group, tbody td[rowspan], tbody th[rowspan]");
  }

  /* ---------- CSV of what is shown ---------- */
  function csvField(s) { return window.npuready.csvCell(s); }  /* site.js: quoting and formula defusing */

  function csv(table) {
    var grid = headerGrid(table);
    var lines = [];
    if (grid.length) { lines.push(grid.map(function (g) { return csvField(g.name); }).join(",")); }
    shownRows(table).forEach(function (tr) {
      var cells = rowCells(tr);
      var width = Math.max(grid.length, cells.length);
      var out = [];
      for (var i = 0; i < width; i += 1) { out.push(csvField(text(cells[i]))); }
      lines.push(out.join(","));
    });
    return lines.join("\r\n") + "\r\n";
  }

  function fileName(table, label) {
    var owner = table.closest("[data-exp]");
    var base = (owner ? owner.dataset.exp + "-" : "") + label;
    return base.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 80) + ".csv";
  }

  function download(table, label) {
    var url = URL.createObjectURL(new Blob(["\ufeff" + csv(table)], {type: "text/csv;charset=utf-8"}));
    var a = document.createElement("a");
    a.href = url; a.download = fileName(table, label);
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 0);
  }

  /* ---------- scroll region and its cue ---------- */
  /* the table's name: its title, its caption, else the nearest heading or summary before it */
  function label(table) {
    var wrap = table.closest(".table-wrap");
    var named = text(wrap && wrap.querySelector(".table-title")) || (table.caption ? text(table.caption) : "");
    for (var el = table; !named && el && !el.matches("section.view, body"); el = el.parentElement) {
      var p = el.previousElementSibling;
      while (p && !/^(H[1-6]|SUMMARY)$/.test(p.tagName) && !p.classList.contains("table-title")) { p = p.previousElementSibling; }
      named = text(p);
    }
    return (named || "table").replace(/\s*raw JSON\s*/g, " ").trim();
  }

  function cue(region) {
    var wide = region.scrollWidth > region.clientWidth + 1;
    region.classList.toggle("overflows", wide);
    region.classList.toggle("more-left", wide && region.scrollLeft > 1);
    region.classList.toggle("more-right", wide && region.scrollLeft + region.clientWidth < region.scrollWidth - 1);
    var tools = region.previousElementSibling;
    var hint = tools && tools.classList.contains("table-tools") ? tools.querySelector(".scroll-hint") : null;
    if (hint) { hint.hidden = !wide; }
    var head = region.querySelector("thead");
    if (head && head.rows.length > 1 && head.rows[0].offsetHeight) {  /* a second header row sticks below the first */
      region.style.setProperty("--head-row", head.rows[0].offsetHeight + "px");
    }
  }

  var watcher = window.ResizeObserver ? new ResizeObserver(function (entries) {
    entries.forEach(function (e) { cue(e.target); });
  }) : null;

  function unique(text) {  /* landmarks need distinct names: a second table under the same heading gets "… 2" */
    var taken = {};
    document.querySelectorAll("[role=region][aria-label]").forEach(function (r) { taken[r.getAttribute("aria-label")] = 1; });
    var name = text, n = 1;
    while (taken[name]) { n += 1; name = text + " " + n; }
    return name;
  }

  function region(table, name) {
    var box = table.parentElement;
    var labelled = box.getAttribute("role") === "region" && box.getAttribute("aria-label") && box.children.length === 1;
    if (labelled) {  /* a scroll region the page already named (docs tables): one region, not two nested */
      box.classList.add("table-scroll");
    } else if (!box.classList.contains("table-scroll") || box.children.length !== 1) {
      box = document.createElement("div");
      box.className = "table-scroll";
      table.parentNode.insertBefore(box, table);
      box.appendChild(table);
    }
    box.setAttribute("role", "region");
    box.setAttribute("tabindex", "0");
    if (!labelled) { box.setAttribute("aria-label", unique(name + " (scrolls)")); }
    if (bodyRows(table).length > TALL) { box.classList.add("tall"); }
    box.addEventListener("scroll", function () { cue(box); }, {passive: true});
    if (watcher) { watcher.observe(box); } else { cue(box); }
    return box;
  }

  /* ---------- the enhancer ---------- */
  function enhance(table) {
    if (table.dataset.enhanced || table.closest("dialog, #graph")) { return; }
    table.dataset.enhanced = "1";
    var name = label(table);
    var box = region(table, name);
    var tools = document.createElement("div");
    tools.className = "table-tools";
    var rowsTotal = bodyRows(table).length;
    if (rowsTotal > TALL) {
      var filter = document.createElement("input");
      filter.type = "search";
      filter.className = "table-filter";
      filter.placeholder = "filter rows";
      filter.setAttribute("aria-label", "filter the rows of " + name);
      filter.addEventListener("input", function () {
        var terms = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
        bodyRows(table).forEach(function (tr) {
          var hay = tr.textContent.toLowerCase();
          tr.hidden = !terms.every(function (t) { return hay.indexOf(t) >= 0; });
        });
        count.textContent = shownRows(table).length + " of " + rowsTotal + " rows";
      });
      tools.appendChild(filter);
    }
    var count = document.createElement("span");
    count.className = "table-count dim";
    count.setAttribute("aria-live", "polite");
    count.textContent = rowsTotal + (rowsTotal === 1 ? " row" : " rows");
    tools.appendChild(count);
    var get = document.createElement("button");
    get.type = "button";
    get.className = "table-csv";
    get.textContent = "CSV";
    get.title = "download the rows and columns shown, in the order shown";
    get.setAttribute("aria-label", "download " + name + " as CSV");
    get.addEventListener("click", function () { download(table, name); });
    tools.appendChild(get);
    var hint = document.createElement("span");
    hint.className = "scroll-hint";
    hint.textContent = "wider than the screen: scroll sideways ⇆";
    hint.hidden = true;
    tools.appendChild(hint);
    box.parentNode.insertBefore(tools, box);
    table.querySelectorAll("th, td").forEach(function (cell) {  /* short cells stay on one line; long prose gets
      room: a squeezed column made rows tall and mostly blank */
      var n = text(cell).length;
      cell.classList.add(n > 80 ? "long" : n > 24 ? "mid" : "short");
    });
    if (sortable(table)) {
      headerGrid(table).forEach(function (g, col) {
        if (!g.cell || g.cell.querySelector("button.sort")) { return; }
        var b = document.createElement("button");
        b.type = "button";
        b.className = "sort";
        while (g.cell.firstChild) { b.appendChild(g.cell.firstChild); }
        b.title = "sort by this column";
        g.cell.appendChild(b);
        b.addEventListener("click", function () { sortBy(table, col, g.cell); });
      });
    }
    cue(box);
  }

  function enhanceAll(root) {
    if (!root || !root.querySelectorAll) { return; }
    root.querySelectorAll("table").forEach(enhance);
  }

  function shown() {
    document.querySelectorAll("section.view:not([hidden])").forEach(enhanceAll);
  }

  function recount(table) {  /* a table whose rows were drawn after it was enhanced (History's diff) */
    var box = table && table.closest(".table-scroll"), tools = box && box.previousElementSibling;
    var count = tools && tools.classList.contains("table-tools") ? tools.querySelector(".table-count") : null;
    if (!count) { return; }
    var n = bodyRows(table).length;
    count.textContent = n + (n === 1 ? " row" : " rows");
    box.classList.toggle("tall", n > TALL);
    cue(box);
  }

  N.enhanceTables = enhanceAll;
  N.recountTable = recount;
  N.tableCSV = csv;
  document.addEventListener("npuready:view", function (ev) {
    enhanceAll((ev.detail && (ev.detail.element || ev.detail.root)) || ev.target);
  });
  document.addEventListener("toggle", function (ev) {  /* a table inside <details> has a size only once opened */
    if (ev.target.open) { ev.target.querySelectorAll(".table-scroll").forEach(cue); }
  }, true);
  window.addEventListener("hashchange", shown);
  shown();
  document.documentElement.dataset.tables = "1";
})();
