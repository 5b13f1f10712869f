// Run documents against the JSON Schema in server/openapi.json
// (#/components/schemas/RunDocument), with ajv in its 2020-12 mode.
// usage: node run-schema.js OPENAPI.json check FILE...  TAP: each file is valid
//        node run-schema.js OPENAPI.json paths FILE...  "FILE<TAB>PATH" per file: the
//          first error's field in the server's notation (results[0].colour), or "valid"
'use strict';
const fs = require('fs');
const Ajv2020 = require('ajv/dist/2020');
const { ok, done } = require('./tap');

const [docPath, mode, ...files] = process.argv.slice(2);
const doc = JSON.parse(fs.readFileSync(docPath, 'utf8'));
// strict: false because the document holds OpenAPI keywords around its schemas.
const ajv = new Ajv2020({ strict: false, allErrors: false });
ajv.addSchema(doc, 'openapi.json');
const validate = ajv.getSchema('openapi.json#/components/schemas/RunDocument');

// "/results/0" + additionalProperty "colour" -> "results[0].colour"
function fieldPath(err) {
  let p = '';
  for (const seg of err.instancePath.split('/').slice(1)) {
    const s = seg.replace(/~1/g, '/').replace(/~0/g, '~');
    p += /^[0-9]+$/.test(s) ? `[${s}]` : (p ? '.' : '') + s;
  }
  if (err.keyword === 'additionalProperties') p += (p ? '.' : '') + err.params.additionalProperty;
  if (err.keyword === 'required') p += (p ? '.' : '') + err.params.missingProperty;
  return p;
}

if (!validate) {
  console.error('run-schema.js: no #/components/schemas/RunDocument in ' + docPath);
  process.exit(2);
}
for (const f of files) {
  let valid = false, text;
  try {
    valid = validate(JSON.parse(fs.readFileSync(f, 'utf8')));
  } catch (e) {
    text = String(e);
  }
  if (!text && !valid) text = ajv.errorsText(validate.errors);
  if (mode === 'check') ok(valid, `${f}: valid against RunDocument`, text);
  else console.log(`${f}\t${valid ? 'valid' : validate.errors ? fieldPath(validate.errors[0]) : text}`);
}
if (mode === 'check') done();
