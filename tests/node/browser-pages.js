// Loads foliowatch pages in headless Debian chromium (playwright-core, no
// browser download) and prints TAP: the table and SVG plots are there, every
// request succeeded, the console shows no errors (CSP violations included).
// usage: node browser-pages.js BASE_URL SERIES_PATH SCREENSHOT_DIR
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');
const { ok, done } = require('./tap');

const [base, seriesPath, shotDir] = process.argv.slice(2);

(async () => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-chromium-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
  try {
    fs.mkdirSync(shotDir, { recursive: true });
    const page = ctx.pages()[0] || await ctx.newPage();
    const errors = [], badResponses = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('response', (r) => { if (r.status() >= 400) badResponses.push(`${r.status()} ${r.url()}`); });
    page.on('requestfailed', (r) => badResponses.push(`failed ${r.url()}`));

    let resp = await page.goto(base + '/', { waitUntil: 'load' });
    ok(resp && resp.status() === 200, 'index loads');
    ok(await page.locator('table#series tbody tr').count() >= 1, 'index lists series');
    const css = await page.evaluate(() => getComputedStyle(document.querySelector('header')).backgroundColor);
    ok(css === 'rgb(19, 38, 59)', 'stylesheet applied', css);
    await page.screenshot({ path: path.join(shotDir, 'index.png'), fullPage: true });

    resp = await page.goto(base + seriesPath, { waitUntil: 'load' });
    ok(resp && resp.status() === 200, 'series page loads');
    const rows = await page.locator('table#commits tbody tr').count();
    ok(rows === 2, 'commits table has both commits', `rows=${rows}`);
    ok(await page.locator('table.cover').count() >= 1, 'cover-letter tables present');
    ok(await page.locator('td.worse, td.better').count() >= 1, 'a delta is colored by direction');
    const imgs = await page.locator('img.plot').evaluateAll((els) =>
      els.map((e) => ({ src: e.getAttribute('src'), w: e.naturalWidth, done: e.complete })));
    ok(imgs.length >= 1, 'small trend plots present', JSON.stringify(imgs));
    ok(imgs.every((i) => i.done && i.w > 0), 'every plot image decoded', JSON.stringify(imgs));
    const svg = await page.request.get(base + imgs[0].src);
    ok(svg.status() === 200 && /image\/svg\+xml/.test(svg.headers()['content-type'] || ''), 'plot served as SVG');
    ok(/<svg[\s>]/.test(await svg.text()), 'plot body is SVG');
    await page.screenshot({ path: path.join(shotDir, 'series.png'), fullPage: true });

    await page.locator('section.metric:has(img.plot) h3 a').first().click();
    await page.waitForLoadState('load');
    ok(await page.locator('img.plot.big').count() === 1, 'metric page shows the big plot');
    ok(await page.locator('img.plot.big').evaluate((e) => e.naturalWidth > 0), 'big plot decoded');
    await page.screenshot({ path: path.join(shotDir, 'metric.png'), fullPage: true });

    ok(errors.length === 0, 'no console errors', errors.join('\n'));
    ok(badResponses.length === 0, 'no failed requests', badResponses.join('\n'));
    ok(fs.statSync(path.join(shotDir, 'series.png')).size > 1000, 'screenshot saved');
  } catch (e) {
    ok(false, 'browser run', e.stack || e);
  } finally {
    await ctx.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  done();
})();
