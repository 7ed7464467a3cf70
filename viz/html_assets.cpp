// The HTML report's inline style sheet and script. Colours are the pictures' own
// (viz/style.h): red for what the trace lost, green for what it kept, blue for the
// selection.
#include "viz/html_parts.h"

namespace d2s::viz::html_parts {

const char* const kStyle = R"CSS(
:root { --text: #0f172a; --muted: #64748b; --border: #cbd5e1; --bg: #f8fafc;
        --lost: #dc2626; --lost-bg: #fee2e2; --kept: #16a34a; --kept-bg: #dcfce7;
        --info: #2563eb; --amber: #b45309; --lit: #2563eb; --lit-bg: #dbeafe; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text);
       font: 14px/1.45 Helvetica, Arial, sans-serif; }
header.page { padding: 14px 24px; background: var(--text); color: white; }
header.page h1 { margin: 0; font-size: 18px; }
header.page p { margin: 4px 0 0; color: #cbd5e1; }
main { padding: 8px 24px 32px; }
section.model { margin: 16px 0 32px; }
h2 { font-size: 17px; margin: 8px 0; }
h3 { font-size: 14px; margin: 18px 0 6px; color: #334155; }
.verdict { display: inline-block; padding: 1px 8px; border-radius: 4px; font-size: 13px;
           color: white; background: var(--kept); margin-right: 6px; }
.verdict.lossy { background: var(--lost); }
.verdict.disagrees { background: var(--amber); }
.muted { color: var(--muted); }
.panes { display: grid; grid-template-columns: minmax(300px, 2fr) 3fr; gap: 16px;
         align-items: start; }
.pane { background: white; border: 1px solid var(--border); border-radius: 6px;
        overflow: auto; max-height: 80vh; }
.pane h3 { margin: 0; padding: 6px 12px; border-bottom: 1px solid var(--border);
           background: #f1f5f9; font-size: 13px; position: sticky; top: 0; left: 0; z-index: 1; }
pre.code { margin: 0; padding: 6px 0;
           font: 12.5px/1.55 "DejaVu Sans Mono", Menlo, Consolas, monospace; }
pre.code .line { display: block; white-space: pre; padding-right: 12px;
                 border-left: 4px solid transparent; }
pre.code .ln { display: inline-block; width: 3.2em; padding-right: 0.9em; text-align: right;
               color: var(--muted); user-select: none; }
pre.code .line.linked { cursor: pointer; }
pre.code .line.linked:hover { background: #f1f5f9; }
pre.code .line.finding { border-left-color: var(--amber); }
pre.code .line.lost { background: var(--lost-bg); border-left-color: var(--lost); }
pre.code .line.lit { background: var(--lit-bg); border-left-color: var(--lit);
                     box-shadow: inset 0 0 0 1px var(--lit); }
pre.code .line.lost.lit { background: #fecaca; }
pre.code .tag { margin-left: 1.2em; padding: 0 5px; border-radius: 3px; font-size: 11px;
                font-family: Helvetica, Arial, sans-serif; color: white; background: var(--lost); }
pre.code .tag.info { background: var(--info); }
.picture svg { display: block; max-width: 100%; height: auto; }
svg g.node, svg g.cluster { cursor: pointer; }
svg g.node.lit path, svg g.node.lit polygon, svg g.node.lit ellipse {
  stroke: var(--lit) !important; stroke-width: 3px; }
svg g.cluster.lit path, svg g.cluster.lit polygon { stroke: var(--lit) !important;
                                                    stroke-width: 2px; }
table { border-collapse: collapse; background: white; border: 1px solid var(--border);
        font-size: 13px; }
th, td { border: 1px solid var(--border); padding: 4px 8px; text-align: left;
         vertical-align: top; }
th { background: #f1f5f9; }
tr.lossy td:first-child { border-left: 4px solid var(--lost); }
tr.info td:first-child { border-left: 4px solid var(--info); }
.sev { font-weight: bold; }
.sev.lossy { color: var(--lost); }
.sev.info { color: var(--info); }
td.arm-then, td.arm-else, td.arm-both, td.trips { font-family: monospace; }
td.none { color: var(--muted); }
.differs { color: var(--lost); font-weight: bold; }
.agrees { color: var(--kept); font-weight: bold; }
td.changed { font-weight: bold; color: var(--lost); }
code, .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; }
a[data-goto] { color: var(--info); cursor: pointer; }
.counterexample { background: white; border: 1px solid var(--border); border-radius: 6px;
                  padding: 8px 12px; margin-bottom: 12px; }
.counterexample h4 { margin: 0 0 6px; font-size: 13px; }
.pair { display: flex; gap: 16px; flex-wrap: wrap; align-items: flex-start; }
@media (max-width: 900px) { .panes { grid-template-columns: 1fr; } }
)CSS";

// Links lines and nodes within each model's section. A node's line is its SVG class
// `src_L<line>` (viz/diff_picture.h). On load it selects the first lossy finding's
// line (the section's data-first-line) and marks the page data-ready="true", which
// the browser test reads from the rendered DOM.
const char* const kScript = R"JS(
(function () {
  'use strict';
  function lineOf(el) {
    var m = /(?:^|\s)src_L(\d+)(?:\s|$)/.exec(el.getAttribute('class') || '');
    return m ? m[1] : null;
  }
  function setup(section) {
    var byLine = {};
    var lines = {};
    function select(line, reveal) {
      section.querySelectorAll('.lit').forEach(function (el) { el.classList.remove('lit'); });
      var el = lines[line];
      var nodes = byLine[line] || [];
      if (el) el.classList.add('lit');
      nodes.forEach(function (g) { g.classList.add('lit'); });
      section.setAttribute('data-selected-line', line);
      if (reveal === 'picture' && nodes.length) {
        nodes[0].scrollIntoView({block: 'nearest', inline: 'nearest'});
      }
      if (reveal === 'source' && el) el.scrollIntoView({block: 'nearest'});
    }
    section.querySelectorAll('svg g.node, svg g.cluster').forEach(function (g) {
      var line = lineOf(g);
      if (!line) return;
      (byLine[line] = byLine[line] || []).push(g);
      g.addEventListener('click', function (e) {
        e.stopPropagation();
        select(line, 'source');
      });
    });
    section.querySelectorAll('pre.code .line').forEach(function (el) {
      var line = el.getAttribute('data-line');
      lines[line] = el;
      var nodes = byLine[line];
      if (nodes) {
        el.classList.add('linked');
        el.setAttribute('data-nodes', String(nodes.length));
        el.setAttribute('title', 'click: light up its ' + nodes.length + ' drawn element(s)');
      }
      el.addEventListener('click', function () { select(line, 'picture'); });
    });
    section.querySelectorAll('a[data-goto]').forEach(function (a) {
      a.addEventListener('click', function (e) {
        e.preventDefault();
        var line = a.getAttribute('data-goto');
        select(line, 'source');
        select(line, 'picture');
      });
    });
    var first = section.getAttribute('data-first-line');
    if (first) select(first, 'none');
  }
  document.querySelectorAll('section.model').forEach(setup);
  document.body.setAttribute('data-ready', 'true');
})();
)JS";

}  // namespace d2s::viz::html_parts
