// Checks live answers of a foliowatch server against server/openapi.json with
// ajv in its JSON Schema 2020-12 mode (what OpenAPI 3.1 schemas are) and
// prints TAP. Each case is a request and the status it must get; the answer's
// status must be documented for the operation, its Content-Type among the
// documented ones, its documented headers present and valid, and a JSON body
// valid against the documented schema. Every operation of the document must
// be exercised by some case.
// usage: node openapi-answers.js BASE_URL OPENAPI.json CASES.json
//   CASES.json: [{"method": "GET", "path": "/api/v1/series?x=1", "status": 200,
//                 "headers": {...}?, "body": "..."?}, ...]
'use strict';
const fs = require('fs');
const Ajv2020 = require('ajv/dist/2020');
const { ok, done } = require('./tap');

const [base, docPath, casesPath] = process.argv.slice(2);
const doc = JSON.parse(fs.readFileSync(docPath, 'utf8'));
const cases = JSON.parse(fs.readFileSync(casesPath, 'utf8'));

// strict: false because the document holds OpenAPI keywords around its schemas.
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(doc, 'openapi.json');
const esc = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');
function resolve(obj, pointer) {
  if (!obj || !obj.$ref) return [obj, pointer];
  const ref = obj.$ref.replace(/^#/, '');
  const target = ref.split('/').slice(1).reduce((o, k) => o && o[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  return resolve(target, ref);
}

// The documented path a request path matches; the most literal template wins
// ("/api/v1/series/{name}.csv" before "/api/v1/series/{name}").
function findPath(path) {
  let best = null, bestLen = -1;
  for (const tpl of Object.keys(doc.paths)) {
    const re = new RegExp('^' + tpl.split(/\{[^}]+\}/).map((p) => p.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+') + '$');
    const literal = tpl.replace(/\{[^}]+\}/g, '').length;
    if (re.test(path) && literal > bestLen) {
      best = tpl;
      bestLen = literal;
    }
  }
  return best;
}

async function check(c) {
  const url = new URL(c.path, base);
  const tpl = findPath(url.pathname);
  const name = `${c.method} ${c.path} -> ${c.status}`;
  const method = c.method.toLowerCase();
  if (!ok(tpl && doc.paths[tpl][method], `${name}: a documented operation`)) return null;
  const res = await fetch(url, { method: c.method, headers: c.headers || {}, body: c.body });
  const text = await res.text();
  if (!ok(res.status === c.status, `${name}: status`, `got ${res.status}: ${text.slice(0, 300)}`)) return null;
  const opPtr = `/paths/${esc(tpl)}/${method}`;
  const [resp, respPtr] = resolve(doc.paths[tpl][method].responses[String(c.status)],
    `${opPtr}/responses/${c.status}`);
  if (!ok(resp, `${name}: status documented`)) return null;
  const ctype = (res.headers.get('content-type') || '').split(';')[0].trim();
  const types = Object.keys(resp.content || {});
  ok(types.includes(ctype), `${name}: Content-Type ${ctype} documented`, `documented: ${types}`);
  for (const [h, spec] of Object.entries(resp.headers || {})) {
    const v = res.headers.get(h);
    const validate = ajv.compile(spec.schema);
    ok(v !== null && validate(v), `${name}: header ${h}`, `got ${v}`);
  }
  if (ctype === 'application/json' && types.includes(ctype)) {
    const validate = ajv.getSchema(`openapi.json#${respPtr}/content/application~1json/schema`);
    let body;
    try {
      body = JSON.parse(text);
    } catch (e) {
      body = undefined;
    }
    ok(body !== undefined && validate(body), `${name}: body valid against the document`,
      JSON.stringify(validate.errors, null, 1) + '\n' + text.slice(0, 400));
  }
  return `${method} ${tpl}`;
}

(async () => {
  const seen = new Set();
  for (const c of cases) {
    try {
      const op = await check(c);
      if (op) seen.add(op);
    } catch (e) {
      ok(false, `${c.method} ${c.path}: request`, e.stack);
    }
  }
  for (const [tpl, item] of Object.entries(doc.paths))
    for (const m of Object.keys(item))
      if (['get', 'put', 'post', 'delete', 'patch'].includes(m))
        ok(seen.has(`${m} ${tpl}`), `operation ${m.toUpperCase()} ${tpl} exercised`);
  done();
})();
