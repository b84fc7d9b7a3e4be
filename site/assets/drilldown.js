/* npuready drill-down dialog: a number's or record's raw JSON from the stored result, its value, the record that
   holds it (marked), copy, download, the whole result.json, and a link to it. Opened through window.npuready
   (assets/site.js: openNumber keeps the URL and history; this file only shows). Makes no network request. */
(function () {
  "use strict";
  /* ---------- pointers ---------- */
  function tokens(pointer) {
    if (pointer === "") { return []; }
    return pointer.slice(1).split("/").map(function (t) { return t.replace(/~1/g, "/").replace(/~0/g, "~"); });
  }

  function resolve(doc, pointer) {
    return tokens(pointer).reduce(function (node, t) {
      if (node === null || typeof node !== "object" || !(t in node)) { throw new Error("no " + pointer + " in the stored result"); }
      return node[t];
    }, doc);
  }

  var npr = window.npuready;
  var dlg = document.getElementById("raw");
  if (!npr || !dlg) { return; }
  var current = null;
  var quiet = false;

  function render(whole) {
    var doc = npr.data(current.exp);
    var value = resolve(doc, current.path);
    var t = tokens(current.path);
    var scalar = value === null || typeof value !== "object";
    var shownPath = current.path, record = value, key = null;
    if (whole) { record = doc; shownPath = ""; }
    else if (scalar && t.length) {
      key = t[t.length - 1];
      shownPath = "/" + t.slice(0, -1).map(function (x) { return x.replace(/~/g, "~0").replace(/\//g, "~1"); }).join("/");
      if (shownPath === "/") { shownPath = ""; }
      record = resolve(doc, shownPath);
    }
    current.text = JSON.stringify(record, null, 2) + "\n";
    current.file = current.exp + (whole ? ".result.json" : (shownPath.replace(/\//g, ".") || ".result") + ".json");
    document.getElementById("raw-exp").textContent = current.exp;
    document.getElementById("raw-path").textContent = current.path || "(whole file)";
    document.getElementById("raw-link").href = npr.linkTo(current.exp, current.path);
    document.getElementById("raw-value").textContent = scalar ? JSON.stringify(value) : (Array.isArray(value) ? "list" : "object");
    document.getElementById("raw-shown-note").textContent = whole ? "showing the whole result.json"
      : (key !== null ? "showing the record that holds it (" + (shownPath || "/") + ")" : "");
    var pre = document.getElementById("raw-json");
    pre.textContent = "";
    var lines = current.text.split("\n");
    var mark = -1, markEnd = -1;
    if (key !== null && !whole) {
      var index = Array.isArray(record) ? Number(key) : Object.keys(record).indexOf(key);
      var starts = [];
      lines.forEach(function (ln, i) { if (/^ {2}[^ \]}]/.test(ln)) { starts.push(i); } });
      if (index >= 0 && index < starts.length) {
        mark = starts[index];
        markEnd = index + 1 < starts.length ? starts[index + 1] : lines.length - 2;
      }
    }
    var frag = document.createDocumentFragment();
    lines.forEach(function (ln, i) {
      var span = document.createElement(i >= mark && i < markEnd ? "mark" : "span");
      span.textContent = ln + "\n";
      frag.appendChild(span);
    });
    pre.appendChild(frag);
    var hit = pre.querySelector("mark");
    if (hit) { hit.scrollIntoView({block: "center"}); } else { pre.scrollTop = 0; }
  }

  function open(exp, path) {  /* show the dialog; the URL is site.js's business */
    return npr.loadRecord(exp).then(function (doc) {
      resolve(doc, path);  /* a pointer to nothing fails before the dialog changes */
      current = {exp: exp, path: path};
      document.getElementById("raw-whole").checked = false;
      document.getElementById("raw-status").textContent = "";
      render(false);
      if (!dlg.open) { dlg.showModal(); }
    });
  }

  function closeQuietly() {
    if (dlg && dlg.open) { quiet = true; dlg.close(); quiet = false; }
  }

  dlg.addEventListener("close", function () {
    if (!quiet) { npr.dialogClosed(); }
  });
  document.getElementById("raw-close").addEventListener("click", function () { dlg.close(); });
  dlg.addEventListener("click", function (ev) { if (ev.target === dlg) { dlg.close(); } });
  document.getElementById("raw-link").addEventListener("click", function (ev) {
    ev.preventDefault();  /* the URL already is this link; copy it instead of navigating */
    var link = location.href.split("#")[0] + ev.currentTarget.getAttribute("href");
    var status = document.getElementById("raw-status");
    status.textContent = "link: " + link;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(link).then(function () { status.textContent = "link copied"; }, function () { /* shown above */ });
    }
  });
  document.getElementById("raw-whole").addEventListener("change", function (ev) { render(ev.target.checked); });
  document.getElementById("raw-copy").addEventListener("click", function () {
    var status = document.getElementById("raw-status");
    function fallback() {
      var r = document.createRange();
      r.selectNodeContents(document.getElementById("raw-json"));
      var sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(r);
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      status.textContent = ok ? "copied" : "selected — press Ctrl+C";
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(current.text).then(function () { status.textContent = "copied"; }, fallback);
    } else { fallback(); }
  });
  document.getElementById("raw-download").addEventListener("click", function () {
    var url = URL.createObjectURL(new Blob([current.text], {type: "application/json"}));
    var a = document.createElement("a");
    a.href = url; a.download = current.file;
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 0);
  });

  npr.dialog = {open: open, closeQuietly: closeQuietly, isOpen: function () { return dlg.open; }};
})();
