// Checks shared by the browser tests of the live pages (browser-pages.js) and
// of the exported static pages (export-pages.js): horizontal overflow outside
// a scroll container, words and numbers split across lines in a table cell,
// and axe-core's serious or critical violations.
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

// Words (and numbers) of table cells that wrap onto two lines. A cell wraps at
// spaces and '/' only; a word may break only when it alone is wider than its
// cell (a 64-digit hash on a phone). Text nobody sees is skipped: closed
// details, visually hidden text (.sr, a card table's clipped header).
async function splitWords(page) {
  return page.evaluate(() => {
    const hidden = (el) => {
      for (let p = el; p && p !== document.body; p = p.parentElement) {
        const cs = getComputedStyle(p);
        if (cs.clip !== 'auto' || (cs.overflow === 'hidden' && p.getBoundingClientRect().width <= 1)) return true;
      }
      return !!el.closest('details:not([open])');
    };
    const bad = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement, cell = el && el.closest('td, th');
      if (!cell || hidden(el)) continue;
      const box = cell.clientWidth - parseFloat(getComputedStyle(cell).paddingLeft) - parseFloat(getComputedStyle(cell).paddingRight);
      for (const m of n.data.matchAll(/[^\s/]+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const rects = [...r.getClientRects()].filter((x) => x.width > 0);
        const lines = new Set(rects.map((x) => Math.round(x.top))).size;
        const width = rects.reduce((a, x) => a + x.width, 0);
        if (lines > 1 && width <= box + 1) bad.push(`${m[0]} (${cell.tagName.toLowerCase()}.${cell.className}, ${Math.round(width)} of ${Math.round(box)} px)`);
      }
    }
    return bad;
  });
}

async function axe(page) {
  await page.evaluate(axeSource);  // through the DevTools protocol: the pages' CSP stays on
  const res = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((x) => x.target.join(' ')).join(', ')}`));
  return res;
}

// Text a reader cannot read: visible text nodes whose computed font size is
// under min px, and plots whose text (data-font px at their intrinsic width)
// is drawn under min px once the image is scaled to the page.
async function smallText(page, min) {
  return page.evaluate((min) => {
    const bad = [], seen = new Set(), walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!n.textContent.trim() || seen.has(el)) continue;
      seen.add(el);
      const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
      if (!r.width || cs.visibility === 'hidden' || cs.clip !== 'auto' || el.closest('details:not([open])')) continue;
      const px = parseFloat(cs.fontSize);
      if (px < min) bad.push(`${el.tagName.toLowerCase()}.${el.className} ${px}px: ${n.textContent.trim().slice(0, 30)}`);
    }
    for (const img of document.querySelectorAll('img.plot[data-font]')) {
      const r = img.getBoundingClientRect();
      if (!r.width || !img.naturalWidth) continue;
      const px = parseFloat(img.dataset.font) * r.width / img.naturalWidth;
      if (px < min - 0.05) bad.push(`img.${img.className} text ${px.toFixed(1)}px (${Math.round(r.width)} of ${img.naturalWidth} px)`);
    }
    return bad;
  }, min);
}

module.exports = { smallText, overflowing, splitWords, axe };
