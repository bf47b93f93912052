/**
 * @module explorer/page
 * The explorer's HTML and CSS: a catalog of every v2 operation, a request form, the answer and what
 * it is in NerdGraph. No inline script or style, so the Content-Security-Policy can forbid both.
 */

/** Where the page shows the server's configured NerdGraph region, filled in per request
 * (src/explorer/routes.ts): the page itself is a static file. */
export const regionSlot = '<!--region-->'

/** The page, the same for every request but for {@link regionSlot}. */
export function explorerHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>v2bridge API explorer</title>
<link rel="icon" href="data:,">
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
  <nav id="catalog" aria-label="v2 operations"></nav>
  <section id="work">
    <form id="request" hidden>
      <h2 id="op-title"></h2>
      <p id="op-answer"></p>
      <fieldset><legend>Path</legend><div id="path-params"></div></fieldset>
      <fieldset><legend>Parameters</legend><div id="query-params"></div></fieldset>
      <label class="field" id="body-field"><span>Body (JSON)</span><textarea id="body" rows="6"></textarea></label>
      <label class="field"><span>Format</span><select id="format"><option value="json">JSON</option><option value="xml">XML</option></select></label>
      <button type="submit" id="send">Send</button>
    </form>
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
#authorize input{min-width:16em}
main{display:grid;grid-template-columns:minmax(16em,26em) 1fr;gap:16px;padding:16px}
nav details{margin-bottom:6px}nav summary{font-weight:600;cursor:pointer}
nav ul{list-style:none;margin:4px 0;padding:0}
.op{display:block;width:100%;overflow-wrap:anywhere;text-align:left;margin:2px 0;padding:4px 6px;border:1px solid #d5d9dd;background:#fff;border-radius:4px;font:13px ui-monospace,monospace;cursor:pointer}
.op:focus,button:focus,input:focus,select:focus,textarea:focus{outline:3px solid #0b6acb;outline-offset:1px}
.method{font-weight:700}.badge{display:block;text-align:right;font:12px system-ui;color:#555}
.op.retired,.op.unsupported{color:#666}
.field{display:flex;flex-direction:column;margin:6px 0}.field span{font-weight:600;font-size:13px}
input,select,textarea{font:14px ui-monospace,monospace;padding:4px}
fieldset{border:1px solid #d5d9dd;margin:8px 0}
button{padding:6px 14px;font-weight:600;cursor:pointer}
.panes{display:grid;grid-template-columns:1fr 1fr;gap:12px}
pre{background:#fff;border:1px solid #d5d9dd;padding:8px;overflow:auto;max-height:32em;white-space:pre-wrap;word-break:break-word}
#status.ok{color:#0a7a32}#status.bad{color:#b00020}
.link{margin-right:8px}
@media (max-width:800px){main,.panes{grid-template-columns:1fr}}
`
