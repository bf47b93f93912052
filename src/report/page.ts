/**
 * @module report/page
 * The migration report as a page (`/v2bridge/report`): a static page, its script and stylesheet,
 * served like the explorer's (src/http/static-files.ts: from memory on Node, from the `ASSETS`
 * binding on Workers). The key is typed into the page, kept in the tab only (sessionStorage, shared
 * with the explorer) and sent as `X-Api-Key` to `/v2bridge/report.json` on this origin; the page
 * renders that JSON: a summary first, then each operation, collapsed, one row per operation with
 * the client families that called it inside, with CSV and JSON downloads.
 * Everything is written with `textContent`, never as HTML. Never in the Worker's import graph
 * (src/explorer/static-content.ts holds it).
 */

export type ReportFileName = 'report/page.html' | 'report/app.js' | 'report/app.css'

const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>v2bridge migration report</title>
<link rel="stylesheet" href="/v2bridge/report/app.css">
</head>
<body>
<header>
<h1>Migration report</h1>
<p>New Relic REST API v2 reaches its end of life on <strong>31 July 2027</strong>. For one key: every v2
operation it called through v2bridge, and what each became.</p>
</header>
<form id="key-form" autocomplete="off">
<label for="key">API key</label>
<input id="key" type="password" placeholder="NRAK-…" spellcheck="false">
<button type="submit">Show the report</button>
<span id="key-state"></span>
</form>
<p id="status" role="status"></p>
<section id="summary" hidden>
<h2>Summary</h2>
<dl id="figures"></dl>
<p><button id="csv" type="button">Download CSV</button> <button id="json" type="button">Download JSON</button></p>
</section>
<section id="verification" hidden>
<h2>Verification</h2>
<p>Compare mode (<code>V2_COMPARE</code>): each operation's calls compared with the real REST API v2, the
fields that differ beyond noise, and the fields whose noise was learned by asking v2 twice.</p>
<div id="checks"></div>
</section>
<section id="operations" hidden>
<h2>Operations</h2>
<div id="list"></div>
</section>
<script src="/v2bridge/report/app.js"></script>
</body>
</html>
`

const css = `body{font:15px/1.45 system-ui,sans-serif;max-width:72em;margin:1.5em auto;padding:0 1em;color:#1d252c}
h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.2em;margin:1.4em 0 .5em}h3{font-size:1em;margin:1em 0 .3em}
form{display:flex;flex-wrap:wrap;gap:.5em;align-items:center;margin:1em 0}
input{flex:1 1 18em;padding:.4em;font:inherit}button{padding:.4em .9em;font:inherit;cursor:pointer}
#status{color:#8a1c1c;min-height:1.2em}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25em 1em}dt{font-weight:600}dd{margin:0}
details{border:1px solid #d5dade;border-radius:4px;margin:.4em 0;padding:.3em .7em}
summary{cursor:pointer}pre{background:#f4f5f6;padding:.5em;overflow:auto;white-space:pre-wrap}
code{background:#f4f5f6;padding:0 .2em}table{border-collapse:collapse}td,th{text-align:left;padding:.1em .6em;vertical-align:top}
@media (max-width:40em){dl{grid-template-columns:1fr}body{margin:.5em auto}}
`

const script = String.raw`'use strict';
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var el = function (tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  };
  var answered = { served: 'translated to NerdGraph', forwarded: 'forwarded to v2', retired: 'retired (410)', unsupported: 'not supported (501)' };
  var body = null;

  function status(text) { $('status').textContent = text || ''; }

  function keyState() {
    $('key-state').textContent = sessionStorage.getItem('v2bridge.key') ? 'key kept in this tab only' : '';
  }

  function load(key) {
    status('Loading…');
    fetch('/v2bridge/report.json', { headers: { 'X-Api-Key': key } })
      .then(function (res) { return res.json().then(function (json) { return [res, json]; }); })
      .then(function (pair) {
        if (!pair[0].ok) {
          status((pair[1].error && pair[1].error.title) || ('HTTP ' + pair[0].status));
          return;
        }
        status('');
        render(pair[1]);
      })
      .catch(function () { status('The report could not be loaded.'); });
  }

  function figure(dl, name, value) {
    dl.appendChild(el('dt', name));
    dl.appendChild(el('dd', String(value)));
  }

  // report.json has one entry per operation and client family: one row per operation here, the
  // families inside it, most called first.
  function byOperation(entries) {
    var ops = [], index = {};
    entries.forEach(function (e) {
      var id = e.method + ' ' + e.path;
      var op = index[id];
      if (!op) {
        op = index[id] = { method: e.method, path: e.path, summary: e.summary, answer: e.answer, becomes: e.becomes,
          nerdgraph: e.nerdgraph, fields: e.fields, count: 0, errors: 0, first_seen: e.first_seen, last_seen: e.last_seen,
          parameters: [], metric_names: [], value_types: [], clients: [] };
        ops.push(op);
      }
      op.count += e.count; op.errors += e.errors;
      if (e.first_seen < op.first_seen) op.first_seen = e.first_seen;
      if (e.last_seen > op.last_seen) op.last_seen = e.last_seen;
      ['parameters', 'metric_names', 'value_types'].forEach(function (k) {
        e[k].forEach(function (v) { if (op[k].indexOf(v) < 0) op[k].push(v); });
      });
      op.clients.push(e);
    });
    var order = function (x, y) { return x < y ? -1 : x > y ? 1 : 0; };
    ops.forEach(function (op) { op.clients.sort(function (a, b) { return b.count - a.count || order(a.client, b.client); }); });
    return ops.sort(function (a, b) { return b.count - a.count || order(a.path, b.path); });
  }

  // Text with \`code\` spans (compare mode's summaries) as text and <code>, never as HTML.
  function withCode(node, text) {
    text.split('\`').forEach(function (part, i) { node.appendChild(i % 2 ? el('code', part) : document.createTextNode(part)); });
    return node;
  }

  function render(json) {
    body = json;
    var ops = byOperation(json.report.operations);
    var dl = $('figures');
    dl.textContent = '';
    var calls = 0, errors = 0, first = '', last = '', clients = {}, by = {};
    ops.forEach(function (op) {
      calls += op.count; errors += op.errors;
      if (!first || op.first_seen < first) first = op.first_seen;
      if (!last || op.last_seen > last) last = op.last_seen;
      op.clients.forEach(function (c) { clients[c.client] = true; });
      var kind = answered[op.answer] || 'unknown';
      by[kind] = (by[kind] || 0) + 1;
    });
    figure(dl, 'Key', json.report.key);
    figure(dl, 'Operations called', ops.length);
    figure(dl, 'Calls', calls + (errors ? ' (' + errors + ' answered with an error)' : ''));
    figure(dl, 'Client families', Object.keys(clients).sort().join(', ') || 'none');
    figure(dl, 'First seen', first || 'never');
    figure(dl, 'Last seen', last || 'never');
    Object.keys(by).sort().forEach(function (kind) { figure(dl, 'Operations ' + kind, by[kind]); });
    $('summary').hidden = false;

    var list = $('list');
    list.textContent = '';
    if (!ops.length) list.appendChild(el('p', 'No calls recorded for this key yet.'));
    ops.forEach(function (op) {
      var details = el('details');
      var families = op.clients.map(function (c) { return c.client; });
      details.appendChild(el('summary', op.method + ' ' + op.path + ' — ' + (op.summary || '') + ' — ' + op.count + ' call(s) from ' + families.join(', ') + ', ' + (answered[op.answer] || 'unknown')));
      details.appendChild(el('p', 'Becomes: ' + op.becomes));
      var who = el('table', undefined, 'clients');
      var top = el('tr');
      ['client family', 'calls', 'errors', 'first seen', 'last seen'].forEach(function (h) { top.appendChild(el('th', h)); });
      who.appendChild(top);
      op.clients.forEach(function (c) {
        var tr = el('tr');
        [c.client, c.count, c.errors, c.first_seen, c.last_seen].forEach(function (v) { tr.appendChild(el('td', String(v))); });
        who.appendChild(tr);
      });
      details.appendChild(who);
      details.appendChild(el('p', 'Parameters: ' + (op.parameters.join(', ') || 'none')));
      if (op.metric_names.length) {
        details.appendChild(el('p', 'Metric names: ' + op.metric_names.join(', ')));
        details.appendChild(el('p', 'Value types: ' + (op.value_types.join(', ') || 'all')));
      }
      op.nerdgraph.forEach(function (doc) {
        details.appendChild(el('h3', doc.kind + ' ' + (doc.operation || '')));
        doc.nrql.forEach(function (q) { details.appendChild(el('pre', q, 'nrql')); });
        var more = el('details');
        more.appendChild(el('summary', 'GraphQL document'));
        more.appendChild(el('pre', doc.document));
        details.appendChild(more);
      });
      var fields = Object.keys(op.fields);
      if (fields.length) {
        var table = el('table');
        var head = el('tr'); head.appendChild(el('th', 'v2 field')); head.appendChild(el('th', 'from NerdGraph'));
        table.appendChild(head);
        fields.forEach(function (f) {
          var tr = el('tr'); tr.appendChild(el('td', f)); tr.appendChild(el('td', op.fields[f]));
          table.appendChild(tr);
        });
        details.appendChild(table);
      }
      list.appendChild(details);
    });
    $('operations').hidden = false;
    renderVerification(json.report.verification || []);
  }

  function renderVerification(checks) {
    var box = $('checks');
    box.textContent = '';
    checks.forEach(function (v) {
      var details = el('details');
      details.open = v.differing > 0;
      details.appendChild(withCode(el('summary'), v.summary));
      if (v.differences.length) {
        var table = el('table');
        var head = el('tr');
        ['path', 'calls', 'kind', 'largest', 'examples (v2 → v2bridge)'].forEach(function (h) { head.appendChild(el('th', h)); });
        table.appendChild(head);
        v.differences.forEach(function (d) {
          var tr = el('tr');
          tr.appendChild(el('td', d.path, 'path'));
          tr.appendChild(el('td', String(d.count)));
          tr.appendChild(el('td', d.kinds.join(', ')));
          tr.appendChild(el('td', d.largest === null ? '' : (d.largest * 100).toPrecision(2) + '%'));
          tr.appendChild(el('td', d.examples.join('; ')));
          table.appendChild(tr);
        });
        details.appendChild(table);
      }
      if (v.noisy.length)
        details.appendChild(el('p', 'Noise (within the band learned from v2 itself): ' + v.noisy.map(function (n) { return n.path + (n.abs ? ' ±' + n.abs : ''); }).join(', ')));
      if (v.cosmetic.length)
        details.appendChild(el('p', 'Order only (cosmetic): ' + v.cosmetic.join(', ')));
      box.appendChild(details);
    });
    $('verification').hidden = checks.length === 0;
  }

  function csvCell(value) {
    var text = String(value);
    return /[",\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  }

  function download(name, type, text) {
    var a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: type }));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
  }

  $('csv').addEventListener('click', function () {
    if (!body) return;
    var rows = [['method', 'path', 'answer', 'becomes', 'client', 'calls', 'errors', 'first_seen', 'last_seen', 'parameters', 'metric_names', 'value_types']];
    body.report.operations.forEach(function (op) {
      rows.push([op.method, op.path, op.answer, op.becomes, op.client, op.count, op.errors, op.first_seen, op.last_seen, op.parameters.join(' '), op.metric_names.join(' '), op.value_types.join(' ')]);
    });
    download('v2bridge-report.csv', 'text/csv', rows.map(function (r) { return r.map(csvCell).join(','); }).join('\n') + '\n');
  });
  $('json').addEventListener('click', function () {
    if (body) download('v2bridge-report.json', 'application/json', JSON.stringify(body, null, 2));
  });

  $('key-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var key = $('key').value.trim() || sessionStorage.getItem('v2bridge.key') || '';
    if (!key) { status('Type the API key whose report to show.'); return; }
    sessionStorage.setItem('v2bridge.key', key);
    $('key').value = '';
    keyState();
    load(key);
  });

  keyState();
  var kept = sessionStorage.getItem('v2bridge.key');
  if (kept) load(kept);
})();
`

export const reportPageFiles: Readonly<Record<ReportFileName, string>> = {
  'report/page.html': html,
  'report/app.js': script,
  'report/app.css': css,
}
