// The pages of the demo's own documents (issue 56), at 1400x900 and 390x844:
// every page kind: the index, the series page (against the parent and the
// base), every commit's page, the compare page of the series' last commit
// against its base, a metric page, the lru patch's profile page and the
// regressions page. No horizontal overflow outside a
// scroll container, no text under 11 px (plots included), and on the series
// and commit pages every decided regression and improvement on a summary line
// inside the first viewport. Screenshots to SHOT_DIR (demo-*.png).
// usage: node demo-pages.js BASE_URL SERIES_NAME SHOT_DIR
'use strict';
const fs = require('fs');
const path = require('path');
const { launch, close } = require('./chromium');
const { ok, done } = require('./tap');
const { overflowing, smallText } = require('./page-checks');

const [base, series, shotDir] = process.argv.slice(2);
const WIDTHS = { desktop: { width: 1400, height: 900 }, phone: { width: 390, height: 844 } };

// The decided rows' summary lines (the series page's #moved, a commit page's #verdicts) and where they end.
async function firstScreen(page, sel) {
  return page.evaluate((sel) => ({ vh: window.innerHeight,
    rows: [...document.querySelectorAll(`${sel} ul.moved li:not(.muted)`)].map((li) => Math.round(li.getBoundingClientRect().bottom)) }), sel);
}

(async () => {
  const browser = await launch();
  try {
    fs.mkdirSync(shotDir, { recursive: true });
    const page = browser.ctx.pages()[0] || await browser.ctx.newPage();
    const s = base + '/series/' + encodeURIComponent(series);
    await page.goto(s, { waitUntil: 'load' });
    const commits = await page.locator('table#commits tbody tr th a, table#commits tbody tr td a[href*="/commit/"]')
      .evaluateAll((as) => [...new Set(as.map((a) => a.href).filter((h) => /\/commit\//.test(h)))]);
    const metric = await page.locator('a[href*="/metric/"]').first().getAttribute('href');
    const last = commits[commits.length - 1].split('/commit/')[1], first = commits[0].split('/commit/')[1];
    ok(commits.length >= 2, `the demo's commits (${commits.length})`);
    const lru = commits[1].split('/commit/')[1];  // the lru patch: profiled, its mthp rows decided
    const pages = [['index', base + '/', null], ['series', s, '#moved'], ['series-vs-base', s + '?vs=base', '#moved'],
      ['compare', `${s}/compare?base=${first}&head=${last}`, null], ['metric', new URL(metric, s).href, null],
      ['profile', `${s}/profile?head=${lru}&workload=mthp`, null], ['regressions', base + '/regressions', null]]
      .concat(commits.map((c, i) => [`commit-${i}`, c, '#verdicts']));
    for (const [name, url, summary] of pages) {
      for (const [wname, vp] of Object.entries(WIDTHS)) {
        await page.setViewportSize(vp);
        const resp = await page.goto(url, { waitUntil: 'load' });
        const tag = `demo ${name} ${wname}`;
        ok(resp && resp.status() === 200, `${tag}: loads`);
        const ov = await overflowing(page);
        ok(ov.scroll <= ov.vw + 1 && ov.bad.length === 0, `${tag}: nothing overflows the viewport outside a scroll container`, JSON.stringify(ov));
        const small = await smallText(page, 11);
        ok(small.length === 0, `${tag}: no text under 11 px, the plots' included`, small.slice(0, 5).join('; '));
        if (summary) {
          const f = await firstScreen(page, summary);
          ok(f.rows.every((b) => b <= f.vh), `${tag}: every decided row's line in the first viewport (${f.rows.length})`, JSON.stringify(f));
        }
        await page.screenshot({ path: path.join(shotDir, `demo-${name}-${wname}.png`), fullPage: false });
      }
    }
  } catch (e) {
    ok(false, 'browser run', e.stack || e);
  } finally {
    await close(browser);
  }
  done();
})();
