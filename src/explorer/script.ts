/**
 * @module explorer/script
 * The explorer page's script, served as `/explorer/app.js` (same origin, no build step, no CDN).
 * The key lives in the page (sessionStorage) and leaves it only as `X-Api-Key` to this origin; the
 * lists its pickers offer (applications, hosts, instances, metric names) are read with that key
 * through this bridge's own v2 endpoints and kept in memory only. A write or DELETE is sent only
 * after a confirm step naming the account and the entity, found by explaining the call first
 * (explain never sends a write). Plain ES2020 in a string: it runs in the browser, never on the server.
 */
import { userKeyVariable } from '../explain/plan'

export const explorerScript = String.raw`'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, text) => {
    const node = document.createElement(tag);
    Object.keys(attrs || {}).forEach((k) => node.setAttribute(k, attrs[k]));
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const answers = { served: 'served', forwarded: 'forwarded', retired: 'retired (410)', unsupported: 'not supported (501)' };
  // seq: the call the page shows, view: the operation; an answer to an older one is dropped.
  // The demo's page carries its demo key (src/explorer/routes.ts); a key the user gave comes first.
  const demoKey = (document.querySelector('meta[name="v2bridge-demo-key"]') || {}).content || '';
  const state = { ops: [], op: null, seq: 0, view: 0, lists: {}, pending: null, key: sessionStorage.getItem('v2bridge.key') || demoKey };

  // Pickers: which list offers values for a field, read through v2bridge's own v2 endpoints.
  // url(values) answers the path of the list, or '' while a field it needs (application_id) is empty.
  const pickers = {
    application: { what: 'applications', url: () => '/v2/applications.json', key: 'applications', label: (a) => a.name },
    mobile: { what: 'mobile applications', url: () => '/v2/mobile_applications.json', key: 'applications', label: (a) => a.name },
    host: { what: 'hosts', url: (v) => v.application_id ? '/v2/applications/' + enc(v.application_id) + '/hosts.json' : '', key: 'application_hosts', label: (h) => h.host },
    instance: { what: 'instances', url: (v) => v.application_id ? '/v2/applications/' + enc(v.application_id) + '/instances.json' : '', key: 'application_instances', label: (i) => i.host + (i.port ? ':' + i.port : '') },
    metric: { what: 'metric names', url: (v, op) => metricsUrl(op.path, v), key: 'metrics', label: (m) => m.name, value: (m) => m.name },
  };
  const enc = encodeURIComponent;

  function pickerOf(op, name) {
    const p = op.path;
    if (name === 'application_id' || (name === 'id' && /^\/v2\/applications\/\{id\}$/.test(p))) return 'application';
    if (name === 'mobile_application_id' || (name === 'id' && /^\/v2\/mobile_applications\/\{id\}$/.test(p))) return 'mobile';
    if (name === 'host_id' || (name === 'id' && /\/hosts\/\{id\}$/.test(p))) return 'host';
    if (name === 'instance_id' || (name === 'id' && /\/instances\/\{id\}$/.test(p))) return 'instance';
    if (name === 'names[]' && /^\/v2\/(mobile_)?applications\//.test(p)) return 'metric';
    return null;
  }

  // The metric names list beside a metric data path, once its IDs are typed.
  function metricsUrl(path, v) {
    let missing = false;
    const url = path.replace(/\/data$/, '').replace(/\{(\w+)\}/g, (_, name) => {
      if (!v[name]) missing = true;
      return enc(v[name] || '');
    });
    return missing ? '' : url + '.json';
  }

  function keyShown() {
    $('key-state').textContent = !state.key ? 'Not authorized'
      : state.key === demoKey ? 'Authorized with the demo key' : 'Authorized (key kept in this tab only)';
  }

  function catalog(ops) {
    const root = $('catalog');
    const groups = {};
    ops.forEach((op, i) => { (groups[op.resource] = groups[op.resource] || []).push([op, i]); });
    Object.keys(groups).forEach((resource) => {
      const details = el('details', { open: '', 'data-resource': resource });
      details.appendChild(el('summary', {}, resource));
      const list = el('ul');
      groups[resource].forEach((pair) => {
        const op = pair[0];
        const button = el('button', { type: 'button', 'data-op': String(pair[1]), class: 'op ' + op.answer });
        button.setAttribute('data-search', (op.method + ' ' + op.path + ' ' + op.summary + ' ' + op.resource + ' ' + answers[op.answer]).toLowerCase());
        button.appendChild(el('span', { class: 'method' }, op.method));
        button.appendChild(document.createTextNode(' ' + op.path + ' '));
        button.appendChild(el('span', { class: 'badge' }, op.summary + ' · ' + answers[op.answer]));
        button.addEventListener('click', () => choose(pair[1]));
        const item = el('li');
        item.appendChild(button);
        list.appendChild(item);
      });
      details.appendChild(list);
      root.appendChild(details);
    });
  }

  // Every word typed must appear in the operation's method, path, summary, resource or answer.
  function search() {
    const words = $('search').value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    document.querySelectorAll('#catalog details').forEach((group) => {
      let any = false;
      group.querySelectorAll('li').forEach((item) => {
        const text = item.firstChild.getAttribute('data-search');
        const hit = words.every((w) => text.indexOf(w) >= 0);
        item.hidden = !hit;
        if (hit) { any = true; shown++; }
      });
      group.hidden = !any;
      if (words.length && any) group.open = true;
    });
    $('search-none').hidden = shown > 0;
  }

  let fieldCount = 0;
  function field(spec, where, op) {
    const name = spec[0], kind = spec[1], type = spec[2], description = spec[3];
    const id = 'f' + (++fieldCount);
    const wrap = el('div', { class: 'field' });
    const label = el('label', { for: id });
    label.appendChild(el('code', {}, name));
    if (type) label.appendChild(el('span', { class: 'type' }, type));
    wrap.appendChild(label);
    let input;
    if (kind === 'bool') {
      input = el('select', { name: where + name });
      ['', 'true', 'false'].forEach((v) => input.appendChild(el('option', { value: v }, v || '(unset)')));
    } else if (kind === 'list') {
      input = el('textarea', { name: where + name, rows: '3', placeholder: 'one per line' });
    } else {
      input = el('input', { name: where + name, type: kind === 'time' ? 'datetime-local' : 'text', autocomplete: 'off' });
      if (kind === 'time') input.setAttribute('step', '1');
      if (kind === 'number') input.setAttribute('inputmode', 'numeric');
    }
    input.id = id;
    input.setAttribute('data-kind', kind);
    input.setAttribute('data-param', name);
    if (description) {
      input.setAttribute('aria-describedby', id + '-desc');
      wrap.appendChild(input);
      wrap.appendChild(el('small', { class: 'desc', id: id + '-desc' }, description));
    } else wrap.appendChild(input);
    const picker = pickerOf(op, name);
    if (picker) {
      const select = el('select', { class: 'picker', 'data-picker': picker, 'data-for': id, 'aria-label': 'Pick ' + name + ' from this key\'s ' + pickers[picker].what });
      select.addEventListener('change', () => pick(select, input));
      wrap.appendChild(select);
    }
    return wrap;
  }

  function pick(select, input) {
    const value = select.value;
    if (!value) return;
    if (input.getAttribute('data-kind') === 'list') {
      const lines = input.value.split(/\n+/).filter(Boolean);
      if (lines.indexOf(value) < 0) lines.push(value);
      input.value = lines.join('\n');
    } else input.value = value;
    select.value = '';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }

  // Time range presets: they fill from/to (or start_date/end_date) with local times.
  const presets = [['', 'Custom (type from and to)'], ['30', 'Last 30 minutes'], ['60', 'Last hour'], ['180', 'Last 3 hours'], ['360', 'Last 6 hours'], ['1440', 'Last 24 hours'], ['10080', 'Last 7 days']];
  const local = (date) => new Date(date.getTime() - date.getTimezoneOffset() * 60000).toISOString().slice(0, 19);

  function rangeField(fromInput, toInput) {
    const wrap = el('div', { class: 'field' });
    wrap.appendChild(el('label', { for: 'range' }, 'Time range'));
    const select = el('select', { id: 'range' });
    presets.forEach((p) => select.appendChild(el('option', { value: p[0] }, p[1])));
    select.addEventListener('change', () => {
      if (!select.value) return;
      const now = new Date();
      toInput.value = local(now);
      fromInput.value = local(new Date(now.getTime() - Number(select.value) * 60000));
    });
    [fromInput, toInput].forEach((i) => i.addEventListener('input', () => { select.value = ''; }));
    wrap.appendChild(select);
    return wrap;
  }

  function clearAnswer() {
    state.seq++;
    state.pending = null;
    $('confirm').hidden = true;
    $('response').hidden = true;
    ['status', 'links', 'headers', 'body-out', 'explain', 'curl'].forEach((id) => { $(id).textContent = ''; });
  }

  function choose(index) {
    const op = state.ops[index];
    state.op = op;
    state.view++;
    clearAnswer();
    document.querySelectorAll('.op[aria-current]').forEach((b) => b.removeAttribute('aria-current'));
    document.querySelector('.op[data-op="' + index + '"]').setAttribute('aria-current', 'true');
    $('op-title').textContent = op.method + ' ' + op.path + ' (' + op.summary + ')';
    $('op-answer').textContent = 'v2bridge: ' + answers[op.answer] + (op.nerdgraph.length ? ' via ' + op.nerdgraph.join(', ') : '');
    $('op-docs').href = op.docs;
    const pathFields = $('path-params');
    const queryFields = $('query-params');
    pathFields.textContent = '';
    queryFields.textContent = '';
    const specOf = (name) => op.params.find((s) => s[0] === name) || [name, 'text', '', ''];
    const inPath = (op.path.match(/\{\w+\}/g) || []).map((p) => p.slice(1, -1));
    inPath.forEach((name) => pathFields.appendChild(field(specOf(name), 'path:', op)));
    const query = op.params.filter((s) => s[1] !== 'body' && inPath.indexOf(s[0]) < 0);
    query.forEach((spec) => queryFields.appendChild(field(spec, 'query:', op)));
    const times = query.filter((s) => s[1] === 'time').map((s) => queryFields.querySelector('[data-param="' + s[0] + '"]'));
    if (times.length === 2) queryFields.insertBefore(rangeField(times[0], times[1]), times[0].parentNode);
    $('path-set').hidden = inPath.length === 0;
    $('query-set').hidden = query.length === 0;
    const bodySpec = op.params.find((s) => s[1] === 'body');
    const body = $('body');
    body.value = '';
    body.placeholder = op.example ? 'Example (not sent unless typed):\n' + JSON.stringify(op.example, null, 2) : '';
    $('body-type').textContent = bodySpec ? bodySpec[2] : '';
    $('body-desc').textContent = bodySpec ? bodySpec[3] : '';
    $('body-field').hidden = op.method === 'GET' || op.method === 'DELETE';
    $('send').textContent = op.method === 'GET' ? 'Send' : 'Review and send';
    $('hint').hidden = true;
    $('request').hidden = false;
    loadPickers();
    if (window.matchMedia('(max-width: 800px)').matches) $('request').scrollIntoView();
    $('send').focus({ preventScroll: true });
  }

  function values() {
    const v = {};
    document.querySelectorAll('#request [data-param]').forEach((input) => { v[input.getAttribute('data-param')] = input.value.trim(); });
    return v;
  }

  // Reads a list with the key (once per URL and key), for the pickers; never stored beyond the tab.
  function list(url) {
    if (!state.lists[url]) {
      state.lists[url] = fetch(url, { headers: { 'X-Api-Key': state.key }, credentials: 'omit' })
        .then((res) => res.json().then((json) => {
          if (!res.ok) throw new Error(res.status + ' ' + ((json.error && json.error.title) || res.statusText));
          return json;
        }));
      state.lists[url].catch(() => { delete state.lists[url]; });
    }
    return state.lists[url];
  }

  function loadPickers() {
    const op = state.op;
    const view = state.view;
    const v = values();
    document.querySelectorAll('#request select.picker').forEach((select) => {
      const picker = pickers[select.getAttribute('data-picker')];
      const url = picker.url(v, op);
      if (select.getAttribute('data-url') === url && select.options.length > 1) return;
      select.setAttribute('data-url', url);
      select.textContent = '';
      const first = el('option', { value: '' });
      select.appendChild(first);
      select.disabled = true;
      if (!state.key) { first.textContent = 'Authorize to pick from this key\'s ' + picker.what; return; }
      if (!url) { first.textContent = 'Type or pick application_id first'; return; }
      first.textContent = 'Loading ' + picker.what + '…';
      list(url).then((json) => {
        if (view !== state.view || select.getAttribute('data-url') !== url) return;
        const items = json[picker.key] || [];
        first.textContent = items.length ? 'Pick from this key\'s ' + picker.what + ' (' + items.length + ')' : 'No ' + picker.what + ' for this key';
        items.forEach((item) => {
          const value = picker.value ? picker.value(item) : String(item.id);
          select.appendChild(el('option', { value: value }, picker.value ? value : picker.label(item) + ' (' + value + ')'));
        });
        select.disabled = items.length === 0;
      }, (e) => {
        if (view === state.view) first.textContent = 'Could not load ' + picker.what + ': ' + e.message;
      });
    });
  }

  function buildUrl() {
    let path = state.op.path;
    const query = new URLSearchParams();
    document.querySelectorAll('#request [name]').forEach((input) => {
      const name = input.getAttribute('name');
      let value = input.value.trim();
      if (name.indexOf('path:') === 0) {
        path = path.replace('{' + name.slice(5) + '}', enc(value));
      } else if (name.indexOf('query:') === 0 && value) {
        const key = name.slice(6);
        const kind = input.getAttribute('data-kind');
        if (kind === 'list') value.split(/\n+/).forEach((v) => { if (v.trim()) query.append(key, v.trim()); });
        else if (kind === 'time') query.append(key, new Date(value).toISOString());
        else query.append(key, value);
      }
    });
    const q = query.toString();
    return path + '.' + $('format').value + (q ? '?' + q : '');
  }

  function curlOf(method, url, body) {
    let line = 'curl -g -X ' + method + ' -H "X-Api-Key: ${userKeyVariable}" \'' + location.origin + url + '\'';
    if (body) line += " -H 'Content-Type: application/json' -d '" + body.replace(/'/g, "'\\''") + "'";
    return line;
  }

  function pretty(text, type) {
    if (/json/.test(type || '')) { try { return JSON.stringify(JSON.parse(text), null, 2); } catch (e) { return text; } }
    return text;
  }

  function links(header) {
    const out = [];
    (header || '').split(/,\s*(?=<)/).forEach((part) => {
      const m = /^<([^>]+)>;\s*rel="(\w+)"/.exec(part.trim());
      if (!m) return;
      const target = new URL(m[1], location.href);
      if (target.origin === location.origin) out.push([m[2], target.pathname + target.search]);
    });
    return out;
  }

  function show(res, text, url, method, body) {
    $('response').hidden = false;
    $('status').textContent = res.status + ' ' + res.statusText;
    $('status').className = res.ok ? 'ok' : 'bad';
    const headers = $('headers');
    headers.textContent = '';
    res.headers.forEach((value, name) => headers.appendChild(el('li', {}, name + ': ' + value)));
    const nav = $('links');
    nav.textContent = '';
    links(res.headers.get('link')).forEach((pair) => {
      const a = el('button', { type: 'button', class: 'link', 'data-rel': pair[0] }, pair[0] + ' page');
      a.addEventListener('click', () => send('GET', pair[1], ''));
      nav.appendChild(a);
    });
    $('body-out').textContent = pretty(text, res.headers.get('content-type'));
    $('curl').textContent = curlOf(method, url, body);
  }

  function explained(text) {
    let plan;
    try { plan = JSON.parse(text).explain; } catch (e) { return text; }
    let queries = [];
    (plan.nerdgraph || []).forEach((sent) => { queries = queries.concat(sent.nrql || []); });
    const head = queries.length ? 'NRQL:\n' + queries.join('\n') + '\n\n' : '';
    return head + JSON.stringify(plan, null, 2);
  }

  // The plan of a call, never its execution (explain never sends a write).
  function plan(method, url, body) {
    const headers = { 'X-Api-Key': state.key, 'X-V2bridge-Explain': '1' };
    if (body) headers['Content-Type'] = 'application/json';
    return fetch(url.replace(/\.xml(\?|$)/, '.json$1'), { method: method, headers: headers, body: body || undefined, credentials: 'omit' })
      .then((res) => res.text().then((text) => [res, text]));
  }

  function explain(method, url, body, seq) {
    const pane = $('explain');
    if (!state.op || state.op.answer !== 'served') { pane.textContent = 'Not translated by v2bridge: nothing to explain.'; return; }
    plan(method, url, body)
      .then((pair) => { if (seq === state.seq) pane.textContent = pair[0].ok ? explained(pair[1]) : 'Explain answered ' + pair[0].status + ': ' + pair[1]; })
      .catch((e) => { if (seq === state.seq) pane.textContent = 'Explain failed: ' + e.message; });
  }

  function send(method, url, body) {
    const seq = ++state.seq;
    $('response').hidden = false;
    $('status').className = '';
    $('status').textContent = 'Sending…';
    const headers = { 'X-Api-Key': state.key };
    if (body) headers['Content-Type'] = 'application/json';
    fetch(url, { method: method, headers: headers, body: body || undefined, credentials: 'omit' })
      .then((res) => res.text().then((text) => { if (seq === state.seq) show(res, text, url, method, body); }))
      .catch((e) => { if (seq === state.seq) $('status').textContent = 'Request failed: ' + e.message; });
    explain(method, url, body, seq);
  }

  // The account a plan acts on: an accountId variable, or the account in an entity GUID
  // (base64 of account|domain|type|id: newrelic/entity-definitions docs/entities/guid_spec.md).
  function accountsIn(value, found) {
    if (Array.isArray(value)) value.forEach((v) => accountsIn(v, found));
    else if (value && typeof value === 'object') {
      Object.keys(value).forEach((k) => {
        if (k === 'accountId' && typeof value[k] === 'number') found[value[k]] = true;
        else accountsIn(value[k], found);
      });
    } else if (typeof value === 'string' && /^[A-Za-z0-9+/_-]{12,}={0,2}$/.test(value)) {
      try {
        const b64 = value.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
        const parts = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)).split('|');
        if (parts.length === 4 && /^\d{1,10}$/.test(parts[0])) found[parts[0]] = true;
      } catch (e) { /* not a GUID */ }
    }
    return found;
  }

  function accountLine(res, text) {
    if (!res.ok) {
      let title = text;
      try { title = JSON.parse(text).error.title; } catch (e) { /* not JSON */ }
      return 'Account: not known (explain answered ' + res.status + ': ' + title + ')';
    }
    let explainBody = {};
    try { explainBody = JSON.parse(text).explain || {}; } catch (e) { /* not JSON */ }
    if (explainBody.forwarded) return 'Account: the one this key belongs to (forwarded unchanged to REST API v2)';
    const accounts = Object.keys(accountsIn([explainBody.nerdgraph || [], explainBody.lookups || []], {}));
    return accounts.length ? 'Account: ' + accounts.join(', ') : 'Account: the one v2bridge picks for this key (see explain)';
  }

  // The entities a call names: its ID parameters with the name the pickers know, or the body's name.
  function entityLines(body) {
    const lines = [];
    document.querySelectorAll('#request [data-param]').forEach((input) => {
      const name = input.getAttribute('data-param');
      const value = input.value.trim();
      if (!value || !/(^|_)(id|ids|key)$/.test(name)) return;
      const option = input.parentNode.querySelector('select.picker option[value="' + CSS.escape(value) + '"]');
      const label = input.parentNode.querySelector('.desc');
      lines.push((label ? label.textContent : name) + ' (' + name + '): ' + value + (option ? ' — ' + option.textContent.replace(/ \([^()]*\)$/, '') : ''));
    });
    let parsed = null;
    try { parsed = body ? JSON.parse(body) : null; } catch (e) { /* sent as typed */ }
    const inner = parsed && typeof parsed === 'object' ? parsed[Object.keys(parsed)[0]] : null;
    if (inner && typeof inner === 'object' && inner.name) lines.push('Named in the body: ' + inner.name);
    return lines.length ? lines : ['Entity: none named in the path (see the body)'];
  }

  function review(method, url, body) {
    const seq = ++state.seq;
    const pending = { method: method, url: url, body: body, seq: seq };
    state.pending = pending;
    $('response').hidden = true;
    const yes = $('confirm-send');
    yes.disabled = true;
    $('confirm-text').textContent = state.op.summary + ': ' + method + ' ' + url + '\nChecking which account and entity this changes…';
    $('confirm').hidden = false;
    // Cancel has the focus: Enter or Space on a change the user has not read yet does nothing.
    $('confirm-cancel').focus({ preventScroll: true });
    const head = state.op.summary + ': ' + method + ' ' + url;
    const tail = method === 'DELETE' ? 'This deletes data in New Relic.' : 'This writes to New Relic.';
    plan(method, url, body)
      .then((pair) => accountLine(pair[0], pair[1]), (e) => 'Account: not known (' + e.message + ')')
      .then((account) => {
        if (state.pending !== pending) return;
        $('confirm-text').textContent = [head, account].concat(entityLines(body), [tail]).join('\n');
        yes.disabled = false;
      });
  }

  $('confirm-send').addEventListener('click', () => {
    const pending = state.pending;
    if (!pending || pending.seq !== state.seq) return;
    state.pending = null; // sent once: a second click finds nothing pending
    $('confirm-send').disabled = true;
    $('confirm').hidden = true;
    send(pending.method, pending.url, pending.body);
  });
  $('confirm-cancel').addEventListener('click', () => {
    clearAnswer();
    $('send').focus();
  });

  $('authorize').addEventListener('submit', (event) => {
    event.preventDefault();
    state.key = $('key').value.trim();
    $('key').value = '';
    state.lists = {};
    if (state.pending) clearAnswer(); // its account was found with the other key
    if (state.key) sessionStorage.setItem('v2bridge.key', state.key);
    else sessionStorage.removeItem('v2bridge.key');
    keyShown();
    if (state.op) loadPickers();
  });
  $('request').addEventListener('submit', (event) => {
    event.preventDefault();
    const body = $('body-field').hidden ? '' : $('body').value.trim();
    const url = buildUrl();
    if (state.op.method === 'GET') send('GET', url, body);
    else review(state.op.method, url, body);
  });
  // A changed form voids a pending confirm; a changed ID refreshes the pickers that depend on it.
  $('request').addEventListener('input', () => { if (state.pending) clearAnswer(); });
  $('request').addEventListener('change', (event) => { if (event.target.getAttribute('data-param')) loadPickers(); });
  $('search').addEventListener('input', search);
  keyShown();
  fetch('/explorer/catalog', { credentials: 'omit' })
    .then((res) => res.json())
    .then((ops) => { state.ops = ops; catalog(ops); search(); });
})();
`
