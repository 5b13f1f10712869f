// TAP for the node helper scripts: ok(cond, desc, extra) and done() (plan, exit status).
'use strict';
let n = 0, failed = 0;
function ok(cond, desc, extra) {
  n++;
  if (!cond) failed++;
  console.log(`${cond ? '' : 'not '}ok ${n} - ${desc}`);
  if (!cond && extra) console.log('# ' + String(extra).split('\n').join('\n# '));
  return cond;
}
function done() {
  console.log(`1..${n}`);
  process.exit(failed ? 1 : 0);
}
module.exports = { ok, done };
