/**
 * @module explorer/script
 * The explorer page's script, served as `/explorer/app.js` (same origin, no build step, no CDN).
 * The key lives in the page (sessionStorage) and leaves it only as `X-Api-Key` to this origin.
 * Plain ES2020 in a string: it runs in the browser, never on the server.
 */
export const explorerScript = String.raw`'use strict';
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var el = function (tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  };
  var answers = { served: 'served', forwarded: 'forwarded', retired: 'retired (410)', unsupported: 'not supported (501)' };
  var state = { ops: [], op: null, key: sessionStorage.getItem('v2bridge.key') || '' };

  function keyShown() {
    $('key-state').textContent = state.key ? 'Authorized (key kept in this tab only)' : 'Not authorized';
  }

  function catalog(ops) {
    var root = $('catalog');
    var groups = {};
    ops.forEach(function (op, i) { (groups[op.resource] = groups[op.resource] || []).push([op, i]); });
    Object.keys(groups).forEach(function (resource) {
      var details = el('details', { open: '' });
      details.appendChild(el('summary', {}, resource));
      var list = el('ul');
      groups[resource].forEach(function (pair) {
        var op = pair[0];
        var button = el('button', { type: 'button', 'data-op': String(pair[1]), class: 'op ' + op.answer });
        button.appendChild(el('span', { class: 'method' }, op.method));
        button.appendChild(document.createTextNode(' ' + op.path + ' '));
        button.appendChild(el('span', { class: 'badge' }, answers[op.answer]));
        button.addEventListener('click', function () { choose(pair[1]); });
        var item = el('li');
        item.appendChild(button);
        list.appendChild(item);
      });
      details.appendChild(list);
      root.appendChild(details);
    });
  }

  function field(label, name, kind) {
    var wrap = el('label', { class: 'field' });
    wrap.appendChild(el('span', {}, label));
    var input;
    if (kind === 'bool') {
      input = el('select', { name: name });
      ['', 'true', 'false'].forEach(function (v) { input.appendChild(el('option', { value: v }, v || '(unset)')); });
    } else if (kind === 'list') {
      input = el('textarea', { name: name, rows: '2', placeholder: 'one per line' });
    } else {
      input = el('input', { name: name, type: kind === 'time' ? 'datetime-local' : kind === 'number' ? 'number' : 'text' });
      if (kind === 'time') input.setAttribute('step', '1');
    }
    input.setAttribute('data-kind', kind);
    wrap.appendChild(input);
    return wrap;
  }

  function choose(index) {
    var op = state.ops[index];
    state.op = op;
    $('op-title').textContent = op.method + ' ' + op.path + ' (' + op.summary + ')';
    $('op-answer').textContent = 'v2bridge: ' + answers[op.answer] + (op.nerdgraph.length ? ' via ' + op.nerdgraph.join(', ') : '');
    var pathFields = $('path-params');
    var queryFields = $('query-params');
    pathFields.textContent = '';
    queryFields.textContent = '';
    (op.path.match(/\{\w+\}/g) || []).forEach(function (p) {
      var name = p.slice(1, -1);
      pathFields.appendChild(field(name, 'path:' + name, 'text'));
    });
    op.params.forEach(function (spec) { queryFields.appendChild(field(spec[0], 'query:' + spec[0], spec[1])); });
    var body = $('body');
    body.value = op.body ? JSON.stringify(op.body, null, 2) : '';
    $('body-field').hidden = op.method === 'GET' || op.method === 'DELETE';
    $('request').hidden = false;
    $('send').focus();
  }

  function buildUrl() {
    var op = state.op;
    var path = op.path;
    var query = new URLSearchParams();
    var inputs = document.querySelectorAll('#request [name]');
    for (var i = 0; i < inputs.length; i++) {
      var input = inputs[i];
      var name = input.getAttribute('name');
      var value = input.value.trim();
      if (name.indexOf('path:') === 0) {
        path = path.replace('{' + name.slice(5) + '}', encodeURIComponent(value));
      } else if (name.indexOf('query:') === 0 && value) {
        var key = name.slice(6);
        var kind = input.getAttribute('data-kind');
        if (kind === 'list') value.split(/\n+/).forEach(function (v) { if (v.trim()) query.append(key, v.trim()); });
        else if (kind === 'time') query.append(key, new Date(value).toISOString());
        else query.append(key, value);
      }
    }
    var q = query.toString();
    return path + '.' + $('format').value + (q ? '?' + q : '');
  }

  function curlOf(method, url, body) {
    var line = 'curl -g -X ' + method + ' -H "X-Api-Key: $NEW_RELIC_API_KEY" \'' + location.origin + url + '\'';
    if (body) line += " -H 'Content-Type: application/json' -d '" + body.replace(/'/g, "'\\''") + "'";
    return line;
  }

  function pretty(text, type) {
    if (/json/.test(type || '')) { try { return JSON.stringify(JSON.parse(text), null, 2); } catch (e) { return text; } }
    return text;
  }

  function links(header) {
    var out = [];
    (header || '').split(/,\s*(?=<)/).forEach(function (part) {
      var m = /^<([^>]+)>;\s*rel="(\w+)"/.exec(part.trim());
      if (!m) return;
      var target = new URL(m[1], location.href);
      if (target.origin === location.origin) out.push([m[2], target.pathname + target.search]);
    });
    return out;
  }

  function show(res, text, url, method, body) {
    $('response').hidden = false;
    $('status').textContent = res.status + ' ' + res.statusText;
    $('status').className = res.ok ? 'ok' : 'bad';
    var headers = $('headers');
    headers.textContent = '';
    res.headers.forEach(function (value, name) { headers.appendChild(el('li', {}, name + ': ' + value)); });
    var nav = $('links');
    nav.textContent = '';
    links(res.headers.get('link')).forEach(function (pair) {
      var a = el('button', { type: 'button', class: 'link', 'data-rel': pair[0] }, pair[0] + ' page');
      a.addEventListener('click', function () { send('GET', pair[1], ''); });
      nav.appendChild(a);
    });
    $('body-out').textContent = pretty(text, res.headers.get('content-type'));
    $('curl').textContent = curlOf(method, url, body);
  }

  function explained(text) {
    var plan;
    try { plan = JSON.parse(text).explain; } catch (e) { return text; }
    var queries = [];
    (plan.nerdgraph || []).forEach(function (sent) { queries = queries.concat(sent.nrql || []); });
    var head = queries.length ? 'NRQL:\n' + queries.join('\n') + '\n\n' : '';
    return head + JSON.stringify(plan, null, 2);
  }

  function explain(method, url, body) {
    var pane = $('explain');
    if (!state.op || state.op.answer !== 'served') { pane.textContent = 'Not translated by v2bridge: nothing to explain.'; return; }
    var headers = { 'X-Api-Key': state.key, 'X-V2bridge-Explain': '1' };
    if (body) headers['Content-Type'] = 'application/json';
    fetch(url.replace(/\.xml(\?|$)/, '.json$1'), { method: method, headers: headers, body: body || undefined })
      .then(function (res) { return res.text().then(function (t) { pane.textContent = res.ok ? explained(t) : 'Explain answered ' + res.status + ': ' + t; }); })
      .catch(function (e) { pane.textContent = 'Explain failed: ' + e.message; });
  }

  function send(method, url, body) {
    $('status').textContent = 'Sending…';
    var headers = { 'X-Api-Key': state.key };
    if (body) headers['Content-Type'] = 'application/json';
    fetch(url, { method: method, headers: headers, body: body || undefined, credentials: 'omit' })
      .then(function (res) { return res.text().then(function (text) { show(res, text, url, method, body); }); })
      .catch(function (e) { $('status').textContent = 'Request failed: ' + e.message; });
    explain(method, url, body);
  }

  $('authorize').addEventListener('submit', function (event) {
    event.preventDefault();
    state.key = $('key').value.trim();
    $('key').value = '';
    if (state.key) sessionStorage.setItem('v2bridge.key', state.key);
    else sessionStorage.removeItem('v2bridge.key');
    keyShown();
  });
  $('request').addEventListener('submit', function (event) {
    event.preventDefault();
    var body = $('body-field').hidden ? '' : $('body').value.trim();
    send(state.op.method, buildUrl(), body);
  });
  keyShown();
  fetch('/explorer/catalog', { credentials: 'omit' })
    .then(function (res) { return res.json(); })
    .then(function (ops) { state.ops = ops; catalog(ops); });
})();
`
