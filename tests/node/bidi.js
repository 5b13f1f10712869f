// Bidirectional text in names stays inside the name: loads the index page in
// headless Debian chromium and checks, by where the characters are drawn,
// that the delta after a series name holding U+202E (right-to-left override)
// or Arabic letters still reads left to right ("+" left of "%").
// usage: node bidi.js BASE_URL  (prints TAP)
'use strict';
const { launch, close } = require('./chromium');
const { ok, done } = require('./tap');

const [base] = process.argv.slice(2);

(async () => {
  const browser = await launch();
  const ctx = browser.ctx;
  try {
    const page = ctx.pages()[0] || await ctx.newPage();
    const resp = await page.goto(base + '/', { waitUntil: 'load' });
    ok(resp && resp.status() === 200, 'index loads');
    // For each regression line: x of the first and last character of the delta.
    const lines = await page.evaluate(() => [...document.querySelectorAll('li')].filter(
      (li) => li.querySelector('span.worse')).map((li) => {
      const t = li.querySelector('span.worse').firstChild;
      const at = (i) => { const r = document.createRange(); r.setStart(t, i); r.setEnd(t, i + 1);
        return r.getBoundingClientRect().left; };
      return { text: li.textContent, plus: at(0), pct: at(t.length - 1) };
    }));
    ok(lines.length >= 2, 'two regression lines (names with U+202E and with Arabic)', JSON.stringify(lines));
    for (const l of lines)
      ok(l.plus < l.pct, `delta reads left to right after ${JSON.stringify(l.text.slice(0, 12))}...`,
        JSON.stringify(l));
  } catch (e) {
    ok(false, 'browser run', e.stack);
  } finally {
    await close(browser);
  }
  done();
})();
