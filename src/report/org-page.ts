/**
 * @module report/org-page
 * The organisation view as a page (`/v2bridge/report/org`, Node only, src/report/org.ts): the admin
 * token is typed into the page, kept in the tab only (sessionStorage) and sent as
 * `Authorization: Bearer` to `/v2bridge/report/org.json` on this origin. It shows the totals, each
 * operation over the keys that called it and each key by fingerprint, written with `textContent`
 * only; the report page's stylesheet styles it, with a few rules of its own.
 */

export const orgCss = `.scroll{overflow-x:auto}table{border-collapse:collapse;margin:.5em 0}
th,td{border-bottom:1px solid #d5dade;padding:.25em .6em;text-align:left;overflow-wrap:anywhere}
td:last-child{white-space:nowrap}
td:first-child{font-family:ui-monospace,monospace}
`

export const orgHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>v2bridge migration report: organisation</title>
<link rel="stylesheet" href="/v2bridge/report/app.css">
<link rel="stylesheet" href="/v2bridge/report/org/app.css">
</head>
<body>
<header>
<h1>Migration report: every key</h1>
<p>The operations every key called through v2bridge, summed up. Keys are shown only by fingerprint;
each key's own report is at <a href="/v2bridge/report">/v2bridge/report</a>.</p>
</header>
<form id="token-form" autocomplete="off">
<label for="token">Admin token</label>
<input id="token" type="password" spellcheck="false">
<button type="submit">Show</button>
</form>
<p id="status" role="status"></p>
<section id="summary" hidden>
<h2>Summary</h2>
<dl id="figures"></dl>
</section>
<section id="operations" hidden>
<h2>Operations</h2>
<div class="scroll"><table id="operation-rows"></table></div>
</section>
<section id="keys" hidden>
<h2>Keys</h2>
<div class="scroll"><table id="key-rows"></table></div>
</section>
<script src="/v2bridge/report/org/app.js"></script>
</body>
</html>
`

export const orgScript = String.raw`'use strict';
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var el = function (tag, text) {
    var node = document.createElement(tag);
    if (text !== undefined) node.textContent = String(text);
    return node;
  };
  var stored = 'v2bridge.adminToken';

  function status(text) { $('status').textContent = text || ''; }

  function table(id, head, rows) {
    var t = $(id);
    t.textContent = '';
    var tr = el('tr');
    head.forEach(function (h) { tr.appendChild(el('th', h)); });
    t.appendChild(tr);
    rows.forEach(function (row) {
      var line = el('tr');
      row.forEach(function (cell) { line.appendChild(el('td', cell)); });
      t.appendChild(line);
    });
  }

  function answers(counts) {
    return Object.keys(counts).sort().map(function (k) { return k + ' ' + counts[k]; }).join(', ');
  }

  function render(o) {
    var dl = $('figures');
    dl.textContent = '';
    [['Keys', o.keys], ['Calls', o.calls + (o.errors ? ' (' + o.errors + ' answered with an error)' : '')],
      ['Operations called', o.operations.length], ['Client families', o.clients.join(', ') || 'none'],
      ['First seen', o.first_seen || 'never'], ['Last seen', o.last_seen || 'never']].forEach(function (f) {
      dl.appendChild(el('dt', f[0]));
      dl.appendChild(el('dd', f[1]));
    });
    table('operation-rows', ['Operation', 'Answer', 'Keys', 'Calls', 'Errors', 'Verified (equal / compared)', 'Last seen'],
      o.operations.map(function (op) {
        var v = op.verification;
        return [op.method + ' ' + op.path, op.answer || 'unknown', op.keys, op.calls, op.errors,
          v ? v.equal + ' / ' + v.compared : '', op.last_seen || ''];
      }));
    table('key-rows', ['Key', 'Operations', 'Answers', 'Calls', 'Errors', 'Clients', 'Last seen'],
      o.by_key.map(function (k) {
        return [k.key, k.operations, answers(k.answers), k.calls, k.errors, k.clients.join(', '), k.last_seen || ''];
      }));
    ['summary', 'operations', 'keys'].forEach(function (id) { $(id).hidden = false; });
  }

  function load(token) {
    status('Loading…');
    fetch('/v2bridge/report/org.json', { headers: { Authorization: 'Bearer ' + token }, credentials: 'omit' })
      .then(function (res) { return res.json().then(function (json) { return [res, json]; }); })
      .then(function (pair) {
        if (!pair[0].ok) {
          if (pair[0].status === 401) sessionStorage.removeItem(stored);
          status((pair[1].error && pair[1].error.title) || ('HTTP ' + pair[0].status));
          return;
        }
        status('');
        render(pair[1].organisation);
      })
      .catch(function () { status('The organisation view could not be loaded.'); });
  }

  $('token-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var token = $('token').value.trim();
    $('token').value = '';
    if (!token) { status('Type the admin token (REPORT_ADMIN_TOKEN).'); return; }
    sessionStorage.setItem(stored, token);
    load(token);
  });
  var kept = sessionStorage.getItem(stored);
  if (kept) load(kept);
})();
`
