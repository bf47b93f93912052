/**
 * @module explorer/page
 * The explorer's HTML and CSS: a searchable catalog of every v2 operation, a request form (each
 * parameter with its explorer type and description, ID pickers, time range presets, the v2
 * documentation link), the confirm step of writes and DELETEs, the answer and what it is in
 * NerdGraph; one column on a phone. No inline script or style, so the Content-Security-Policy can
 * forbid both.
 */

/** Where the page shows the server's configured NerdGraph region, filled in per request
 * (src/explorer/routes.ts): the page itself is a static file. */
export const regionSlot = '<!--region-->'

/** Where the demo puts its key (a `<meta name="v2bridge-demo-key">` the script reads); empty
 * anywhere else. */
export const demoSlot = '<!--demo-->'

/** The page, the same for every request but for {@link regionSlot} and {@link demoSlot}. */
export function explorerHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>v2bridge API explorer</title>
<link rel="icon" href="data:,">
${demoSlot}
<link rel="stylesheet" href="/explorer/app.css">
<script src="/explorer/app.js" defer></script>
</head>
<body>
<header>
  <h1>v2bridge API explorer</h1>
  <p>New Relic REST API v2 calls, answered through NerdGraph. Region: <strong id="region">${regionSlot}</strong></p>
  <form id="authorize" autocomplete="off">
    <label for="key">API key</label>
    <input id="key" type="password" placeholder="NRAK-…" autocomplete="off" spellcheck="false">
    <button type="submit">Authorize</button>
    <span id="key-state" role="status"></span>
  </form>
</header>
<main>
  <nav aria-label="v2 operations">
    <input id="search" type="search" placeholder="Search operations (e.g. metric data, DELETE)" aria-label="Search operations" autocomplete="off">
    <p id="search-none" hidden>No operation matches.</p>
    <div id="catalog"></div>
  </nav>
  <section id="work">
    <p id="hint">Pick an operation to call it through v2bridge.</p>
    <form id="request" hidden>
      <h2 id="op-title"></h2>
      <p id="op-answer"></p>
      <p class="docs"><a id="op-docs" target="_blank" rel="noopener noreferrer">v2 documentation</a> · <a href="https://api.newrelic.com/docs/" target="_blank" rel="noopener noreferrer">New Relic's v2 API explorer</a></p>
      <fieldset id="path-set"><legend>Path</legend><div id="path-params"></div></fieldset>
      <fieldset id="query-set"><legend>Parameters</legend><div id="query-params"></div></fieldset>
      <div class="field" id="body-field"><label for="body">Body (JSON) <span class="type" id="body-type"></span></label><textarea id="body" rows="8" spellcheck="false"></textarea><small class="desc" id="body-desc"></small></div>
      <div class="field"><label for="format">Format</label><select id="format"><option value="json">JSON</option><option value="xml">XML</option></select></div>
      <button type="submit" id="send">Send</button>
    </form>
    <div id="confirm" role="alertdialog" aria-labelledby="confirm-title" aria-describedby="confirm-text" hidden>
      <h2 id="confirm-title">Confirm this change</h2>
      <p id="confirm-text"></p>
      <button type="button" id="confirm-send" disabled>Send it</button>
      <button type="button" id="confirm-cancel">Cancel</button>
    </div>
    <section id="response" hidden aria-live="polite">
      <h2>Response <span id="status"></span></h2>
      <div id="links"></div>
      <details><summary>Headers</summary><ul id="headers"></ul></details>
      <div class="panes">
        <div><h3>Body</h3><pre id="body-out"></pre></div>
        <div><h3>NerdGraph (explain)</h3><pre id="explain"></pre></div>
      </div>
      <h3>curl</h3><pre id="curl"></pre>
    </section>
  </section>
</main>
</body>
</html>
`
}

export const explorerCss = `*{box-sizing:border-box}
[hidden]{display:none!important}
body{margin:0;font:15px/1.45 system-ui,sans-serif;color:#1d252c;background:#f6f7f8}
header{padding:12px 20px;background:#1d252c;color:#fff}
header h1{margin:0;font-size:20px}header p{margin:4px 0 8px}
#authorize{display:flex;flex-wrap:wrap;gap:8px;align-items:center}
#authorize input{flex:0 1 20em;min-width:0}
main{display:grid;grid-template-columns:minmax(16em,26em) minmax(0,1fr);gap:16px;padding:16px}
nav{position:sticky;top:8px;align-self:start;max-height:calc(100vh - 16px);overflow:auto}
#search{width:100%;margin-bottom:8px;font:14px system-ui,sans-serif;padding:6px}
nav details{margin-bottom:6px}nav summary{font-weight:600;cursor:pointer}
nav ul{list-style:none;margin:4px 0;padding:0}
.op{display:block;width:100%;overflow-wrap:anywhere;text-align:left;margin:2px 0;padding:4px 6px;border:1px solid #d5d9dd;background:#fff;border-radius:4px;font:13px ui-monospace,monospace;cursor:pointer}
.op[aria-current]{border-color:#0b6acb;background:#e8f1fb}
.op:focus,button:focus,input:focus,select:focus,textarea:focus,a:focus{outline:3px solid #0b6acb;outline-offset:1px}
.method{font-weight:700}.badge{display:block;text-align:right;font:12px system-ui;color:#555}
.op.retired,.op.unsupported{color:#666}
h2,#op-answer,#links{overflow-wrap:anywhere}
.field{display:flex;flex-direction:column;margin:8px 0}.field label{font-weight:600;font-size:13px}
.type{font:12px ui-monospace,monospace;font-weight:400;color:#555;background:#eef0f2;border-radius:3px;padding:0 4px;margin-left:4px}
.desc{color:#444;font-size:13px}
.row{display:flex;flex-wrap:wrap;gap:6px}.row>*{flex:1 1 12em;min-width:0}
input,select,textarea{font:14px ui-monospace,monospace;padding:4px;max-width:100%}
fieldset{border:1px solid #d5d9dd;margin:8px 0;min-width:0}
button{padding:6px 14px;font-weight:600;cursor:pointer}
#confirm{border:2px solid #b00020;background:#fff5f5;padding:8px 14px;margin:12px 0;border-radius:4px}
#confirm h2{margin:0 0 6px;font-size:17px}#confirm-text{white-space:pre-line;overflow-wrap:anywhere}
#confirm-send{background:#b00020;color:#fff;border:1px solid #b00020}
.panes{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:12px}
pre{background:#fff;border:1px solid #d5d9dd;padding:8px;overflow:auto;max-height:32em;white-space:pre-wrap;word-break:break-word}
#status.ok{color:#0a7a32}#status.bad{color:#b00020}
.link{margin-right:8px}
@media (max-width:800px){main,.panes{grid-template-columns:minmax(0,1fr)}main{padding:8px}header{padding:10px}nav{position:static;max-height:45vh}}
`
