// Debian's chromium for the browser tests, headless, in a throwaway profile,
// with no background networking: launch() gives { ctx, profile }, close() ends it.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

async function launch() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-chromium-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
  return { ctx, profile };
}

async function close({ ctx, profile }) {
  await ctx.close();
  fs.rmSync(profile, { recursive: true, force: true });
}

module.exports = { launch, close };
