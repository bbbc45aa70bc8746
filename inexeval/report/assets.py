"""The report's style sheet and its one script (sorting tables by a column), written once at the site's root.

The script is plain JavaScript, no framework, no network: a table with
class ``sortable`` gets its header buttons wired; a click sorts the body
rows by that column (numbers from each cell's ``data-value``, text
otherwise), best first for a measure (``data-better="low"``: smallest
first), then alternately; rows without a value stay last; equal values
keep the table's order.
"""

#: Style rules of the panel's classes (:mod:`inexeval.report.panels`), part of :data:`CSS`.
PANEL_CSS = """\
table.panel td { white-space: normal; text-align: left; vertical-align: top; }
table.panel td.pos { text-align: right; }
table.panel td.rel { background: #e7f5e9; } table.panel td.nonrel { background: #fbeaea; }
table.panel td.unjudged { background: #f2f2f2; font-style: italic; } table.panel td.malformed { color: #a00000; }
table.panel td.shared { box-shadow: inset 4px 0 0 #0b5394; }
table.panel td:target { outline: 2px solid #0b5394; }
"""

CSS = """\
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto; max-width: 80rem;
       padding: 0 1rem 2rem; color: #1a1a1a; background: #fff; line-height: 1.4; }
nav { padding: .6rem 0; border-bottom: 1px solid #ddd; margin-bottom: 1rem; font-size: .95rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.3rem; margin-top: 2rem; border-bottom: 1px solid #eee; }
h3 { font-size: 1.1rem; margin-top: 1.4rem; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: .9rem; }
th, td { border: 1px solid #d0d0d0; padding: .2rem .45rem; text-align: right; white-space: nowrap; }
th { background: #f3f3f3; }
th.id, td.id { text-align: left; }
th button { font: inherit; font-weight: bold; background: none; border: 0; padding: 0; cursor: pointer; color: inherit; }
th button::after { content: " \\2195"; color: #888; }
th[aria-sort="ascending"] button::after { content: " \\2191"; color: #000; }
th[aria-sort="descending"] button::after { content: " \\2193"; color: #000; }
tr.self td { background: #fff6d5; }
table.summary th.id, table.summary td.id { position: sticky; left: 0; z-index: 1; }
table.summary td.id { background: #fff; } table.summary th.id { background: #f3f3f3; }
sup.group { color: #0b5394; font-weight: bold; }
td.sig { font-weight: bold; }
.rank { color: #666; font-size: .8em; }
.graphs { display: flex; flex-wrap: wrap; gap: 1rem; }
.graphs figure { margin: 0; flex: 1 1 28rem; max-width: 44rem; }
.graphs img { max-width: 100%; height: auto; border: 1px solid #eee; }
.problem { color: #a00000; } .warning { color: #7a5200; }
.note { color: #555; font-size: .9rem; }
code { font-size: .9em; }
h4 { font-size: 1rem; margin: 1rem 0 .3rem; }
details { margin: .5rem 0; } summary { cursor: pointer; font-weight: bold; }
footer { margin-top: 3rem; color: #777; font-size: .85rem; }
svg.bars { font-size: 10px; fill: #555; } svg.bars rect.up { fill: #0072b2; } svg.bars rect.down { fill: #d55e00; }
svg.bars line.axis { stroke: #000; stroke-width: 1; } svg.bars text.undefined { fill: #666; }
""" + PANEL_CSS

JS = """\
"use strict";
(function () {
  function numberOf(cell) {
    var v = cell.getAttribute("data-value");
    return v === null || v === "" ? null : parseFloat(v);
  }
  function textOf(cell) {
    var v = cell.getAttribute("data-value");
    return v === null ? cell.textContent : v;
  }
  function sortTable(table, column, th) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var numeric = th.getAttribute("data-type") !== "text";
    var current = th.getAttribute("aria-sort");
    var ascending;
    if (current === "ascending") { ascending = false; }
    else if (current === "descending") { ascending = true; }
    else { ascending = numeric ? th.getAttribute("data-better") === "low" : true; }
    rows.forEach(function (row, i) { if (!row.hasAttribute("data-order")) { row.setAttribute("data-order", i); } });
    rows.sort(function (a, b) {
      var ca = a.cells[column], cb = b.cells[column], d = 0;
      if (numeric) {
        var x = numberOf(ca), y = numberOf(cb);
        if (x === null || y === null) {
          d = (x === null ? 1 : 0) - (y === null ? 1 : 0);
          return d !== 0 ? d : a.getAttribute("data-order") - b.getAttribute("data-order");
        }
        d = x - y;
      } else {
        var s = textOf(ca), t = textOf(cb);
        d = s < t ? -1 : s > t ? 1 : 0;
      }
      if (!ascending) { d = -d; }
      return d !== 0 ? d : a.getAttribute("data-order") - b.getAttribute("data-order");
    });
    rows.forEach(function (row) { body.appendChild(row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.setAttribute("aria-sort", "none"); });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  }
  function wire(table) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, column) {
      var button = th.querySelector("button");
      if (button) {
        button.addEventListener("click", function () { sortTable(table, column, th); });
      }
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), wire);
  });
})();
"""
