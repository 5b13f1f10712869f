// The pages `foliowatch-server export` writes, served from its folder by a
// plain static web server on loopback (file:// would block axe-core's own
// stylesheet requests), in headless Debian chromium:
// one page of each type at desktop and phone widths in light and dark colour
// schemes (stylesheet applied through its relative link, nothing overflows
// outside a scroll container, axe-core finds no serious or critical
// violation, screenshot), then every other exported page in axe-core at
// desktop width in both schemes; no console errors or failed loads. Prints TAP.
// usage: node export-pages.js EXPORT_DIR BASE_URL SHOT_DIR  (BASE_URL serves EXPORT_DIR)
'use strict';
const fs = require('fs');
const path = require('path');
const { launch, close } = require('./chromium');
const { ok, done } = require('./tap');
const { overflowing, axe } = require('./page-checks');

const [dir, base, shotDir] = process.argv.slice(2);
const WIDTHS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
// Page types by the file names of server/ui-links.c's export mode (first match wins).
const TYPES = [
  ['index', /^index\.html$/], ['regressions', /^regressions\.html$/], ['regressions-filter', /^regressions-/],
  ['compare', /^s-.*-compare\.html$/], ['series-vs-base', /^s-.*-vs-base\.html$/], ['commit', /^s-.*-c-.*\.html$/],
  ['metric', /^s-.*-m-.*\.html$/], ['series', /^s-[A-Za-z0-9_]*-[0-9a-f]{12}\.html$/],
];

async function load(page, file, vp, scheme) {
  await page.setViewportSize(vp);
  await page.emulateMedia({ colorScheme: scheme, media: 'screen' });
  const resp = await page.goto(`${base}/${file}`, { waitUntil: 'load' });
  return resp && resp.status();
}

(async () => {
  const browser = await launch();
  try {
    fs.mkdirSync(shotDir, { recursive: true });
    const page = browser.ctx.pages()[0] || await browser.ctx.newPage();
    const errors = [], failed = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('requestfailed', (r) => failed.push(r.url()));
    page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });

    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.html')).sort();
    const first = {};
    for (const f of files) {
      const t = TYPES.find(([, re]) => re.test(f));
      if (t && !first[t[0]]) first[t[0]] = f;
    }
    const missing = TYPES.map(([t]) => t).filter((t) => !first[t]);
    ok(missing.length === 0, `a page of every type exported (${files.length} pages)`, `missing: ${missing.join(', ')}`);
    for (const [type, file] of Object.entries(first)) {
      for (const [wname, vp] of Object.entries(WIDTHS)) {
        for (const scheme of ['light', 'dark']) {
          const status = await load(page, file, vp, scheme);
          const tag = `${type} (${file}) ${wname} ${scheme}`;
          ok(status === 200, `${tag}: loads`, status);
          const bg = await page.evaluate(() => getComputedStyle(document.querySelector('header')).backgroundColor);
          ok(bg === 'rgb(19, 38, 59)', `${tag}: stylesheet applied`, bg);
          const ov = await overflowing(page);
          ok(ov.scroll <= ov.vw + 1 && ov.bad.length === 0, `${tag}: nothing overflows the viewport outside a scroll container`, JSON.stringify(ov));
          const v = await axe(page);
          ok(v.length === 0, `${tag}: axe-core finds no serious or critical violation`, v.join('\n'));
          await page.screenshot({ path: path.join(shotDir, `export-${type}-${wname}-${scheme}.png`), fullPage: true });
        }
      }
    }
    const rest = files.filter((f) => !Object.values(first).includes(f));
    const bad = [];
    for (const f of rest) {
      for (const scheme of ['light', 'dark']) {
        await load(page, f, WIDTHS.desktop, scheme);
        for (const v of await axe(page)) bad.push(`${f} ${scheme}: ${v}`);
      }
    }
    ok(rest.length > 0 && bad.length === 0, `the other ${rest.length} exported pages: axe-core finds no serious or critical violation`, bad.slice(0, 10).join('\n'));
    ok(errors.length === 0, 'no console errors', errors.join('\n'));
    ok(failed.length === 0, 'no failed loads (every stylesheet, plot and icon is in the folder)', failed.join('\n'));
  } catch (e) {
    ok(false, 'browser run', e.stack || e);
  } finally {
    await close(browser);
  }
  done();
})();
