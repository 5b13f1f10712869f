// Loads every foliowatch page type in headless Debian chromium (playwright-core,
// no browser download) at desktop and phone widths, in light and dark colour
// schemes, and prints TAP: page-specific checks (verdict matrix, environment
// names, host selector, plot legend outside the data area, one build per
// config), no horizontal overflow outside a scroll container, axe-core with no
// serious or critical violation, no console errors or failed requests, print
// CSS applied. Screenshots of each page, width and scheme go to SHOT_DIR.
// usage: node browser-pages.js BASE_URL SERIES_NAME SHOT_DIR
'use strict';
const fs = require('fs');
const path = require('path');
const { launch, close } = require('./chromium');
const { ok, done } = require('./tap');
const { overflowing, splitWords, axe, smallText } = require('./page-checks');

const [base, series, shotDir] = process.argv.slice(2);
const WIDTHS = { desktop: { width: 1400, height: 900 }, phone: { width: 390, height: 844 } };
const ENV_NAME = /^vm (icount|tcg), 2 vCPUs$/;
let envFps = [];  // the series' environment fingerprints, from its metric links (?env=)

// The SVG's key texts (titles of the plotted sets) against the bounding box of the plot border.
async function legendCheck(page, svgUrl, titles) {
  const svgPage = await page.context().newPage();
  await svgPage.goto(svgUrl);
  const r = await svgPage.evaluate((titles) => {
    let border = null;
    for (const p of document.querySelectorAll('path')) {
      const b = p.getBBox();
      if (p.getAttribute('stroke') === 'black' && (!border || b.width * b.height > border.width * border.height))
        border = b;
    }
    const keys = [...document.querySelectorAll('text')].filter((t) => titles.includes(t.textContent.trim()));
    const hits = keys.filter((t) => {
      const b = t.getBBox(), m = t.parentNode.transform.baseVal.consolidate();
      const x = b.x + (m ? m.matrix.e : 0), y = b.y + (m ? m.matrix.f : 0);
      return x < border.x + border.width && x + b.width > border.x && y < border.y + border.height && y + b.height > border.y;
    }).map((t) => t.textContent);
    const onattrs = [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name))).length;
    // placed points only (in <defs> the filled diamond gpPt12 is itself a use of the open one, gpPt11)
    const drawn = (id) => document.querySelectorAll(`use[transform][*|href="#${id}"], use[transform][href="#${id}"]`).length;
    const markers = drawn('gpPt12'), opened = drawn('gpPt11');
    const ylabel = [...document.querySelectorAll('text')].map((t) => t.textContent.trim());
    return { keys: keys.length, hits, onattrs, markers, opened, texts: ylabel, border: !!border };
  }, titles);
  await svgPage.close();
  return r;
}

async function seriesChecks(page) {
  const cols = await page.locator('#matrix-parent thead tr.metrics th').count();
  const rows = await page.locator('#matrix-parent tbody tr').count();
  const commits = await page.locator('table#commits tbody tr').count();
  ok(rows === commits && rows >= 3, 'matrix: one row per commit', `rows=${rows} commits=${commits}`);
  ok(cols === 4, 'matrix: one column per metric and environment', `cols=${cols}`);
  const groups = await page.locator('#matrix-parent thead tr.envs th.envgroup').allTextContents();
  ok(groups.length === 2 && groups.every((g) => ENV_NAME.test(g)), 'matrix: grouped by environment name', groups.join('|'));
  const cells = await page.locator('#matrix-parent tbody td').evaluateAll((tds) => tds.map((td) => ({
    cls: td.className, text: td.textContent, href: (td.querySelector('a') || {}).getAttribute ? td.querySelector('a').getAttribute('href') : null })));
  ok(cells.length === rows * cols && cells.every((c) => c.href && /\/metric\//.test(c.href)), 'matrix: every cell links its metric page');
  const reg = cells.filter((c) => /v-reg/.test(c.cls));
  ok(reg.length >= 1 && reg.every((c) => /regression/.test(c.text) && /\u2717/.test(c.text) && /^[+-]\d/.test(c.text)),
    'matrix: regression cells say so in text (delta, glyph, word), not colour alone', JSON.stringify(reg));
  ok(cells.some((c) => /v-same/.test(c.cls) && /no change/.test(c.text)), 'matrix: no-change cells too');
  // c4 slows split twelvefold: a four-digit delta keeps its glyph inside its cell
  const clipped = await page.locator('#matrix-parent tbody td a').evaluateAll((as) => as.filter((a) => {
    const g = a.querySelector('span[aria-hidden]'), td = a.parentElement.getBoundingClientRect();
    return a.scrollWidth > a.clientWidth + 1 || (g && g.getBoundingClientRect().right > td.right + 0.5);
  }).map((a) => a.textContent));
  const big = cells.filter((c) => /^[+-]\d{4}/.test(c.text));
  ok(big.length >= 1 && clipped.length === 0, 'matrix: a four-digit delta and its glyph fit the cell', `${big.length} four-digit; clipped: ${clipped.join('|')}`);
  ok(await page.locator('p.legend .v-reg').count() === 1, 'matrix: legend present');
  // What moved comes first: each decided cell of the matrix on a line of its own above it, in a phone's first screen
  const decidedCells = cells.filter((c) => /v-(reg|imp)/.test(c.cls)).length;
  for (const [wname, vp] of Object.entries(WIDTHS)) {
    await page.setViewportSize(vp);
    await page.goto(page.url(), { waitUntil: 'load' });
    const moved = await page.evaluate(() => ({ vh: window.innerHeight,
      matrixAfter: !!document.querySelector('#moved') && (document.querySelector('#moved').compareDocumentPosition(
        document.querySelector('#matrix-parent')) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0,
      rows: [...document.querySelectorAll('#moved ul.moved li:not(.muted)')].map((li) => Math.round(li.getBoundingClientRect().bottom)) }));
    ok(moved.matrixAfter && moved.rows.length === Math.min(decidedCells, 12) && moved.rows.every((b) => b <= moved.vh),
      `series page (${wname}): what moved first, each decided cell on a line in the first viewport`, JSON.stringify({ decidedCells, ...moved }));
  }
  await page.setViewportSize(WIDTHS.desktop);
  await page.goto(page.url(), { waitUntil: 'load' });
  const sticky = await page.evaluate(() => [getComputedStyle(document.querySelector('#matrix-parent thead th')).position,
    getComputedStyle(document.querySelector('#matrix-parent tbody th')).position]);
  ok(sticky[0] === 'sticky' && sticky[1] === 'sticky', 'matrix: sticky header row and first column', sticky.join());
  // Against the page scroll, not only inside the box: scrolled 60 px past the table's top, its header is at the top.
  const stick = await page.evaluate(() => {
    const t = document.querySelector('#matrix-parent'), box = t.parentElement;
    const fit = Number((box.className.match(/\bfit-(\d+)\b/) || [])[1] || 0), w = t.getBoundingClientRect().width;
    window.scrollTo(0, t.getBoundingClientRect().top + window.scrollY + 60);
    const envs = document.querySelector('#matrix-parent thead tr.envs th').getBoundingClientRect().top;
    const metrics = document.querySelector('#matrix-parent thead tr.metrics th').getBoundingClientRect().top;
    const table = t.getBoundingClientRect().top;
    window.scrollTo(0, 0);
    return { fit, w, envs, metrics, table, scrollY: getComputedStyle(box).overflowY };
  });
  ok(stick.table < -50 && Math.abs(stick.envs) <= 1 && stick.metrics > stick.envs,
    'matrix: the header rows stay at the top of the viewport when the page scrolls', JSON.stringify(stick));
  ok(stick.fit > 0 && stick.w <= stick.fit, 'matrix: its width stays within the bound the server put on it', JSON.stringify(stick));
  const names = await page.locator('section.metric h3 .envname').allTextContents();
  ok(names.length === 4 && names.every((x) => ENV_NAME.test(x)), 'metric sections name their environment', names.join('|'));
  await page.click('a#to-base');
  await page.waitForLoadState('load');
  ok(/[?&]vs=base/.test(page.url()) && await page.locator('#matrix-base tbody tr').count() === rows &&
    await page.locator('#matrix-parent').count() === 0 && await page.locator('a#to-parent').count() === 1,
  'the link switches to the matrix against the base (and back)', page.url());
  const c3 = await page.locator('#matrix-base tbody tr:nth-child(4) td.v-reg').count();
  ok(c3 >= 2, 'against the base, c3 still carries the split regressions', `v-reg cells in c3: ${c3}`);
}

async function metricChecks(page) {
  const sel = await page.locator('#envs li').allTextContents();
  ok(sel.length === 2 && sel.every((x) => ENV_NAME.test(x)), 'metric page: host selector lists both environments', sel.join('|'));
  ok(await page.locator('#envs li a').count() === 1 && await page.locator('#envs li strong[aria-current]').count() === 1,
    'metric page: the other environment is a link, this one is marked');
  const caption = await page.locator('p.note').first().textContent();
  const src = await page.locator('img.plot.big').getAttribute('src');
  const regs = await page.locator('#regressions tbody tr').evaluateAll((trs) => trs.map((t) => /all hosts/.test(t.textContent)));
  const nall = regs.filter((a) => a).length, nhost = regs.length - nall;
  const svg = await legendCheck(page, new URL(src, page.url()).href,
    ['samples', 'boot median', 'median', 'regression', 'all-hosts regression', 'interval (vs parent)']);
  ok(svg.border && svg.keys >= 3 && svg.hits.length === 0, 'plot: legend texts do not intersect the data area', JSON.stringify(svg.hits));
  ok(svg.onattrs === 0, 'plot: no on* attributes in the SVG');
  ok(/red diamonds: regressions of this host, open red diamonds: regressions of all hosts/.test(caption) &&
    nhost >= 1 && nall >= 1 && svg.markers === nhost + 1 && svg.opened === nall + 1,
  'plot: one marker per stored regression (+1 each in the key), filled for this host, open for all hosts, as the caption says',
  `filled=${svg.markers} open=${svg.opened} host regressions=${nhost} all-hosts=${nall} caption=${caption}`);
  ok(svg.texts.includes('ms') || svg.texts.includes('MiB/s'), 'plot: y axis carries the unit');
  ok(await page.evaluate(() => { const fps = [...document.querySelectorAll('details.fp .mono')].map((e) => e.textContent);
    return fps.length === 1 && !document.body.innerText.includes(fps[0]); }), 'metric page shows no fingerprint outside its details');
}

async function checkPage(page, name, url, extra) {
  for (const [wname, vp] of Object.entries(WIDTHS)) {
    for (const scheme of ['light', 'dark']) {
      await page.setViewportSize(vp);
      await page.emulateMedia({ colorScheme: scheme, media: 'screen' });
      const resp = await page.goto(url, { waitUntil: 'load' });
      const tag = `${name} ${wname} ${scheme}`;
      ok(resp && resp.status() === 200, `${tag}: loads`);
      const ov = await overflowing(page);
      ok(ov.scroll <= ov.vw + 1 && ov.bad.length === 0, `${tag}: nothing overflows the viewport outside a scroll container`, JSON.stringify(ov));
      const split = await splitWords(page);
      ok(split.length === 0, `${tag}: no word or number of a table cell split across lines`, split.slice(0, 5).join('; '));
      const small = await smallText(page, 11);
      ok(small.length === 0, `${tag}: no text under 11 px, the plots' included`, small.slice(0, 5).join('; '));
      if (wname === 'phone') {
        // A table of comparisons is a card per row on a phone: every cell, the verdict (or for a
        // regression its delta) too, inside the viewport.
        const cards = await page.evaluate(() => [...document.querySelectorAll('table.cards td')]
          .map((td) => ({ right: td.getBoundingClientRect().right, vw: window.innerWidth, label: td.dataset.label || 'title' })));
        const out = cards.filter((c) => c.right > c.vw + 1);
        const key = name === 'regressions' ? 'delta' : 'verdict';
        if (cards.length || ['compare', 'metric', 'regressions'].includes(name))  // these pages must have them
          ok(out.length === 0 && cards.some((c) => c.label === key),
            `${tag}: every card cell, the ${key} too, inside the 390 px viewport (${cards.length} cells)`, JSON.stringify(out.slice(0, 5)));
      }
      // Environments by name everywhere: a fingerprint is only inside a closed details element.
      const shown = await page.evaluate((fps) => fps.filter((fp) => document.body.innerText.includes(fp)), envFps);
      ok(shown.length === 0, `${tag}: no environment fingerprint shown outside its details element`, shown.join());
      const v = await axe(page);
      ok(v.length === 0, `${tag}: axe-core finds no serious or critical violation`, v.join('\n'));
      await page.screenshot({ path: path.join(shotDir, `${name}-${wname}-${scheme}.png`), fullPage: true });
      if (wname === 'desktop' && scheme === 'light' && extra) await extra(page);
    }
  }
}

(async () => {
  const browser = await launch();
  const ctx = browser.ctx;
  try {
    fs.mkdirSync(shotDir, { recursive: true });
    const page = ctx.pages()[0] || await ctx.newPage();
    const errors = [], badResponses = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('response', (r) => { if (r.status() >= 400) badResponses.push(`${r.status()} ${r.url()}`); });
    // A request the browser itself aborts (net::ERR_ABORTED: the test navigated on
    // while it was in flight, as a loaded machine makes likelier) is not the
    // server failing; a reset, an empty or cut answer is, and is counted.
    const aborted = [];
    page.on('requestfailed', (r) => {
      const why = (r.failure() || {}).errorText || '';
      (why === 'net::ERR_ABORTED' ? aborted : badResponses).push(`failed ${r.url()} (${why}, ${r.resourceType()})`);
    });

    const s = base + '/series/' + encodeURIComponent(series);
    await page.goto(s, { waitUntil: 'load' });
    envFps = await page.evaluate(() => [...new Set([...document.querySelectorAll('a[href*="env="]')]
      .map((a) => new URL(a.href).searchParams.get('env')))]);
    ok(envFps.length === 2 && envFps.every((fp) => /^[0-9a-f]{64}$/.test(fp)), 'the two environment fingerprints, from the metric links', envFps.join());
    await checkPage(page, 'index', base + '/', async (p) => {
      ok(await p.locator('table#series tbody tr').count() >= 1, 'index lists series');
      const bg = await p.evaluate(() => getComputedStyle(document.querySelector('header')).backgroundColor);
      ok(bg === 'rgb(19, 38, 59)', 'stylesheet applied', bg);
      ok(await p.locator('a#all-regressions').count() === 1, 'index links the regressions page');
    });
    await checkPage(page, 'series', s, seriesChecks);
    await checkPage(page, 'series-vs-base', s + '?vs=base');
    // Dark mode and print CSS are applied (emulated).
    await page.setViewportSize(WIDTHS.desktop);
    await page.goto(s, { waitUntil: 'load' });
    const bodyBg = async () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'light', media: 'screen' });
    const light = await bodyBg();
    await page.emulateMedia({ colorScheme: 'dark', media: 'screen' });
    const dark = await bodyBg();
    ok(light === 'rgb(255, 255, 255)' && dark !== light, 'prefers-color-scheme: dark background in dark mode', `${light} ${dark}`);
    await page.emulateMedia({ colorScheme: 'dark', media: 'print' });
    const print = await page.evaluate(() => [getComputedStyle(document.querySelector('header')).display,
      getComputedStyle(document.body).backgroundColor, getComputedStyle(document.querySelector('#matrix-parent thead th')).position]);
    ok(print[0] === 'none' && print[1] === 'rgb(255, 255, 255)' && print[2] === 'static', 'print CSS: no header, white, tables not sticky', print.join());
    await page.pdf({ path: path.join(shotDir, 'series-print.pdf') }).catch(() => {});
    await page.emulateMedia({ colorScheme: 'light', media: 'screen' });

    const metricUrl = new URL(await page.locator('#matrix-parent tbody tr:nth-child(3) td.v-reg a').first().getAttribute('href'), s).href;
    await checkPage(page, 'metric', metricUrl, metricChecks);
    await page.goto(s, { waitUntil: 'load' });
    const commitUrl = new URL(await page.locator('#matrix-parent tbody tr:nth-child(3) th a').getAttribute('href'), s).href;
    await checkPage(page, 'commit', commitUrl, async (p) => {
      ok(await p.locator('table.build').count() === 1, 'commit page: one build block for its one kernel config');
      const used = await p.locator('table.build td').allTextContents();
      ok(used.some((t) => /vm icount, 2 vCPUs; vm tcg, 2 vCPUs/.test(t)), 'commit page: the build names the environments that used it', used.join('|'));
      ok(await p.locator('#profiles img.plot.profile').count() >= 1, 'commit page: a bar plot of the kernel functions');
      ok(await p.evaluate(() => { const v = document.querySelector('#verdicts'), b = document.querySelector('table.build');
        return !!v && !!b && (v.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0; }),
        'commit page: what it changed first, before the build');
      for (const [wname, vp] of Object.entries(WIDTHS)) {
        await p.setViewportSize(vp);
        await p.goto(commitUrl, { waitUntil: 'load' });
        const decided = await p.evaluate(() => ({ vh: window.innerHeight,
          n: document.querySelectorAll('#verdicts table.verdicts tbody tr').length,
          rows: [...document.querySelectorAll('#verdicts ul.moved li')].map((li) => Math.round(li.getBoundingClientRect().bottom)) }));
        ok(decided.rows.length >= 1 && decided.rows.length === decided.n && decided.rows.every((b) => b <= decided.vh),
          `commit page (${wname}): every decided row in the first viewport (its summary line)`, JSON.stringify(decided));
      }
      ok(await p.locator('details#boots:not([open])').count() === 1, 'commit page: the raw boots folded');
      ok(await p.evaluate(() => { const fps = [...document.querySelectorAll('details.fp .mono')].map((e) => e.textContent);
        return fps.length > 0 && fps.every((fp) => !document.body.innerText.includes(fp)); }), 'commit page shows no fingerprint outside its details');
    });
    await checkPage(page, 'profile', s + '/profile?head=' + 'c2'.repeat(20) + '&workload=split', async (p) => {
      const first = await p.locator('table.profile tbody tr:first-child td').first().textContent();
      ok(first === '__split_huge_page', 'profile page: the slowed function first', first);
    });
    await checkPage(page, 'compare', s + '/compare', async (p) => {
      const rows = await p.locator('#compare tbody tr').count();
      ok(rows === 4, 'compare page: one row per metric and environment', `rows=${rows}`);
      ok(await p.locator('#compare td.v-reg').count() >= 1, 'compare page: the regression is shown');
      const order = await p.locator('#compare tbody td[data-label=verdict]').evaluateAll((tds) => tds.map((td) => td.className));
      const rank = (c) => ['v-reg', 'v-imp', 'v-unsure', 'v-same', 'v-none'].findIndex((v) => c.includes(v));
      ok(order.length === rows && order.every((c, i) => i === 0 || rank(order[i - 1]) <= rank(c)),
        'compare page: the cards sorted by verdict, what moved first', order.join(' '));
      await p.selectOption('select[name=base]', { index: 1 });
      await p.click('form.filters button');
      await p.waitForLoadState('load');
      ok(/base=/.test(p.url()) && await p.locator('#sides li').first().textContent().then((t) => /c1c1/.test(t)),
        'compare page: the form picks another base (no JavaScript)', p.url());
      await p.click('#base-revisions a');
      await p.waitForLoadState('load');
      const sides = await p.locator('#sides li').allTextContents();
      ok(/base_revision=1/.test(p.url()) && /v1$/.test(sides[0]) && /v2$/.test(sides[1]) &&
        await p.locator('#base-revisions strong[aria-current]').textContent() === 'v1',
      'compare page: a link picks the base revision (v1 against v2)', `${p.url()} ${sides.join('|')}`);
      await p.selectOption('select[name=base]', { index: 1 });
      await p.click('form.filters button');
      await p.waitForLoadState('load');
      const sides2 = await p.locator('#sides li').allTextContents();
      ok(/base_revision=1/.test(p.url()) && /c1c1/.test(sides2[0]) && /v1$/.test(sides2[0]) && /v2$/.test(sides2[1]),
        'compare page: the commit form keeps both revisions', `${p.url()} ${sides2.join('|')}`);
      ok(await p.locator('#compare tbody tr').count() === 4, 'compare page across revisions: every metric matched');
    });
    await checkPage(page, 'regressions', base + '/regressions', async (p) => {
      const all = await p.locator('#regressions tbody tr').count();
      ok(all >= 2, 'regressions page lists stored regressions', `rows=${all}`);
      ok(await p.locator('#regressions tbody tr a[href*="/commit/"]').count() >= all &&
        await p.locator('#regressions tbody tr a[href*="/metric/"]').count() >= 1, 'each links its commit and metric');
      await p.selectOption('select[name=env]', { label: 'vm icount, 2 vCPUs' });
      await p.click('form.filters button');
      await p.waitForLoadState('load');
      const envs = await p.locator('#regressions tbody tr td:nth-child(5)').allTextContents();
      ok(envs.length >= 1 && envs.length < all && envs.every((e) => e === 'vm icount, 2 vCPUs'), 'regressions page: filter by environment', envs.join('|'));
    });

    ok(errors.length === 0, 'no console errors', errors.join('\n'));
    ok(badResponses.length === 0, 'no failed requests', badResponses.concat(aborted.map((a) => `(not counted) ${a}`)).join('\n'));
    if (aborted.length) console.log(`# ${aborted.length} request(s) aborted by navigation, not counted:\n# ${aborted.join('\n# ')}`);
    ok(fs.statSync(path.join(shotDir, 'series-phone-dark.png')).size > 1000, 'screenshots saved');
  } catch (e) {
    ok(false, 'browser run', e.stack || e);
  } finally {
    await close(browser);
  }
  done();
})();
