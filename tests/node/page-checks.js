// Checks shared by the browser tests of the live pages (browser-pages.js) and
// of the exported static pages (export-pages.js): horizontal overflow outside
// a scroll container, and axe-core's serious or critical violations.
'use strict';
const fs = require('fs');
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

// Elements sticking out of the viewport that no scroll container (overflow auto/scroll) clips.
async function overflowing(page) {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth, bad = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= vw + 1) continue;
      let p = el.parentElement, clipped = false;
      for (; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll' || o === 'hidden') { clipped = true; break; }
      }
      if (!clipped) bad.push(`${el.tagName.toLowerCase()}.${el.className} right=${Math.round(r.right)}`);
    }
    return { scroll: document.documentElement.scrollWidth, vw, bad: bad.slice(0, 5) };
  });
}

async function axe(page) {
  await page.evaluate(axeSource);  // through the DevTools protocol: the pages' CSP stays on
  const res = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((x) => x.target.join(' ')).join(', ')}`));
  return res;
}

module.exports = { overflowing, axe };
