import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { clientList, requestList } from '../dashboard/journal-fixtures.js';
import { startRedis } from '../redis/redis-server.js';
import { byRole, consoleErrors, launch } from './browser.js';

// The dashboard (/_emulator/ui) in headless Chromium, driven as a user would: what curl does
// shows up within a second, and what the dashboard does is answered by the emulator.

const CACHE = 'default-cache';
// The README's picture: written to docs/ with UPDATE_SCREENSHOT=1, else to .tmp/ (no churn in git).
const SCREENSHOT = fileURLToPath(
  new URL(
    process.env.UPDATE_SCREENSHOT === '1' ? '../../docs/dashboard.png' : '../../.tmp/dashboard.png',
    import.meta.url,
  ),
);
let browser: Browser;
let emulator: RunningEmulator;
let page: Page;
let errors: { text: string; url: string }[];

const publish = (e: RunningEmulator, topic: string, body: string | Uint8Array, type = 'text/plain') =>
  fetch(`${e.url}/topics/${CACHE}/${topic}`, {
    method: 'POST',
    headers: { authorization: e.apiKey, 'content-type': type },
    body: body as BodyInit,
  });
const textOf = (selector: string) => page.$eval(selector, (el) => el.textContent ?? '');
const waitForText = (selector: string, text: string, timeout = 2000, on = page) =>
  on.waitForFunction(
    (s: string, t: string) => Array.from(document.querySelectorAll(s)).some((el) => el.textContent?.includes(t)),
    { timeout },
    selector,
    text,
  );
const openTab = async (tab: string, on = page) => {
  await on.click(`[data-tab=${tab}]`);
  await on.waitForSelector(`[data-tab=${tab}][aria-current=page]`);
};

beforeAll(async () => {
  mkdirSync(dirname(SCREENSHOT), { recursive: true });
  emulator = await startEmulator({ port: 0, logLevel: 'silent' });
  browser = await launch();
  page = await browser.newPage();
  errors = consoleErrors(page);
  await page.setViewport({ width: 1280, height: 800 });
});
afterAll(async () => {
  await browser?.close();
  await emulator?.close();
});

describe('the dashboard', () => {
  it('opens from the emulator itself and goes live', async () => {
    const response = await page.goto(`${emulator.url}/_emulator/ui`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    await waitForText('[data-testid=live-status]', 'Live', 5000);
    expect(await page.title()).toBe('topics-emulator dashboard');
    expect(await textOf('main')).toContain(`Cache ${CACHE}`);
  });

  it('shows a message published with a plain HTTP request within a second', async () => {
    const sent = Date.now();
    expect((await publish(emulator, 'orders', 'order 1 created')).status).toBe(204);
    await page.waitForSelector('tr.message[data-sequence="1"]', { timeout: 1000 });
    expect(Date.now() - sent).toBeLessThan(1000);
    expect(await textOf('tr.message[data-sequence="1"]')).toContain('order 1 created');
    // The topic appeared in the topics table when first used.
    await page.waitForSelector(byRole('button', 'Show topic orders'), { timeout: 1000 });
  });

  it('marks the page boundary when the page changes, and shows binary values in hex', async () => {
    await publish(emulator, 'orders', 'order 2 paid');
    await publish(emulator, 'orders', '{"id":3,"state":"shipped"}');
    await page.waitForSelector('tr.message[data-sequence="3"]', { timeout: 1000 });
    // Changing the page asks first: its subscribers get a discontinuity.
    const before = emulator.state().topics.find((t) => t.topic === 'orders')!.page;
    await page.click(byRole('button', 'Change page'));
    await waitForText('[aria-label="Confirm the page change"]', 'Its subscribers get a discontinuity');
    expect(emulator.state().topics.find((t) => t.topic === 'orders')!.page).toBe(before);
    await page.click(byRole('button', 'Confirm page change'));
    await page.waitForSelector('tr.marker[data-marker=page]', { timeout: 1000 });
    const { page: changed } = emulator.state().topics.find((t) => t.topic === 'orders')!;
    expect(await textOf('tr.marker[data-marker=page]')).toContain(`page ${changed} numbers from #1`);
    await publish(emulator, 'orders', 'order 4, first on the new page');
    await waitForText('tr.message', 'order 4, first on the new page', 1000);
    // A page change scheduled after the next message shows in "Right now", then happens.
    await page.type('form[aria-label="Schedule a page change"] input[name=after]', '2');
    await page.click(byRole('button', 'Schedule page change'));
    await waitForText('dl.glance', 'default-cache/orders: after #2');
    expect(emulator.state().scheduled.topicResets).toMatchObject([{ topic: 'orders', afterSequenceNumber: 2 }]);
    await publish(emulator, 'orders', 'order 5, last on its page');
    await waitForText('dl.glance', 'none scheduled');
    await page.waitForFunction(() => document.querySelectorAll('tr.marker[data-marker=page]').length === 2, {
      timeout: 1000,
    });
    const { page: newPage } = emulator.state().topics.find((t) => t.topic === 'orders')!;
    await publish(emulator, 'orders', 'order 6, first on the next page');
    await waitForText('tr.message', 'order 6, first on the next page', 1000);

    await publish(emulator, 'sensors', new Uint8Array([0, 1, 2, 254, 255]), 'application/octet-stream');
    await page.waitForSelector(byRole('button', 'Show topic sensors'), { timeout: 1000 });
    await page.click(byRole('button', 'Show topic sensors'));
    await waitForText('td.value.binary', '00 01 02 fe ff', 1000);
    await page.click(byRole('button', 'Show topic orders'));

    // A subscriber waiting on the topic, for the picture and the waiting view.
    const abort = new AbortController();
    const waiting = fetch(`${emulator.url}/topics/${CACHE}/orders?sequence_number=2&sequence_page=${newPage}`, {
      headers: { authorization: emulator.apiKey },
      signal: abort.signal,
    }).catch(() => undefined);
    await page.waitForFunction(() => document.querySelector('[data-tab=waiting] .count')?.textContent === '1', {
      timeout: 2000,
    });
    // For the picture: a fault rule in force, shown with its counters.
    const rule = emulator.addFault({ operation: 'subscribe', topic: 'sensors', status: 503, count: 3 });
    await waitForText('dl.glance', `${rule.id}`);
    await page.screenshot({ path: SCREENSHOT });
    emulator.removeFault(rule.id);
    await openTab('waiting');
    await waitForText('main', `#2 on ${newPage}`);
    await waitForText('main', 'key:#'); // who waits: the API key's identity, never the key
    expect(await textOf('main')).not.toContain(emulator.apiKey);
    abort.abort();
    await waiting;
    await openTab('topics');
  });

  it("shows a topic's retained messages when it is selected, then the live ones, each once", async () => {
    for (const text of ['backlog 1', 'backlog 2', 'backlog 3'])
      expect((await publish(emulator, 'backlog', text)).status).toBe(204);
    // A tab opened after they were published: only the retained list can show them.
    const tab = await browser.newPage();
    const tabErrors = consoleErrors(tab);
    try {
      await tab.setViewport({ width: 1280, height: 800 });
      await tab.goto(`${emulator.url}/_emulator/ui`);
      await tab.waitForSelector(byRole('button', 'Show topic backlog'), { timeout: 5000 });
      await tab.click(byRole('button', 'Show topic backlog'));
      await waitForText('tr.message[data-sequence="3"]', 'backlog 3', 2000, tab);
      const rows = () =>
        tab.$$eval('tr.message', (trs) => trs.map((tr) => (tr as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));
      expect(await rows()).toEqual([
        expect.stringMatching(/^3 \d+ backlog 3 9 chars retained$/),
        expect.stringMatching(/^2 \d+ backlog 2 9 chars retained$/),
        expect.stringMatching(/^1 \d+ backlog 1 9 chars retained$/),
      ]);
      expect((await publish(emulator, 'backlog', 'backlog 4, live')).status).toBe(204);
      await waitForText('tr.message[data-sequence="4"]', 'backlog 4, live', 1000, tab);
      const [live, ...retained] = await rows();
      expect(live).toMatch(/^4 \d+ backlog 4, live 15 chars \d\d:\d\d:\d\d\.\d{3}$/);
      expect(retained).toHaveLength(3);
      expect(await tab.$$('tr.marker')).toHaveLength(0);
      expect(tabErrors).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  it('injects a fault from the form, and the next publish is answered with it', async () => {
    await openTab('faults');
    const form = 'form[aria-label="Inject a fault"]';
    await page.select(`${form} select[name=operation]`, 'publish');
    await page.select(`${form} select[name=status]`, '503');
    await page.type(`${form} input[name=topic]`, 'orders');
    await page.type(`${form} input[name=count]`, '1');
    await page.click(byRole('button', 'Inject fault'));
    await page.waitForSelector('tr[data-fault]', { timeout: 2000 });
    expect(emulator.faults()).toMatchObject([
      { rule: { operation: 'publish', status: 503, topic: 'orders', count: 1 } },
    ]);
    // The notice shows the call as curl would make it.
    expect(await textOf('[data-testid=notice]')).toContain("curl -i -X POST -H 'Content-Type: application/json'");

    await openTab('topics');
    await page.type('form[aria-label="Publish a message"] textarea[name=message]', 'hit by the fault');
    await page.click(byRole('button', 'Publish'));
    await waitForText('[data-testid=publish-answer]', '503 service_unavailable');
    // It fired once (count 1) and is gone: the next publish goes through.
    expect(emulator.faults()).toEqual([]);
    await page.click(byRole('button', 'Publish'));
    await waitForText('[data-testid=publish-answer]', '204: published to default-cache/orders');
    // The spent rule is listed as ended, with how often it fired, until the rules are cleared.
    const [ended] = emulator.endedFaults();
    await openTab('faults');
    await page.waitForSelector(`tr[data-ended-fault=${ended!.id}]`, { timeout: 2000 });
    expect(await textOf(`tr[data-ended-fault=${ended!.id}]`)).toMatch(/1\s*its count of 1 is used up/);
    await page.click(byRole('button', 'Remove all faults'));
    await page.waitForFunction(() => !document.querySelector('tr[data-ended-fault]'), { timeout: 2000 });
  });

  it('removes a fault rule', async () => {
    await openTab('faults');
    const form = 'form[aria-label="Inject a fault"]';
    await page.select(`${form} select[name=status]`, '429');
    await page.click(`${form} input[name=count]`, { count: 3 });
    await page.keyboard.press('Backspace');
    await page.click(byRole('button', 'Inject fault'));
    await page.waitForSelector('tr[data-fault]', { timeout: 2000 });
    const [rule] = emulator.faults();
    expect(rule!.rule).toMatchObject({ status: 429 });
    expect(rule!.rule.count).toBeUndefined();
    await page.click(byRole('button', `Remove fault ${rule!.id}`));
    await waitForText('main', 'No fault rule is active.');
    expect(emulator.faults()).toEqual([]);
  });

  it('freezes and advances the clock', async () => {
    await openTab('clock');
    await page.click(byRole('button', 'Freeze clock'));
    await waitForText('main', 'Frozen (virtual)');
    const frozen = emulator.clock().nowMs;
    const advanceBy = 'form[aria-label="Advance the clock"] input[name=advanceMs]';
    await page.click(advanceBy, { count: 3 });
    await page.type(advanceBy, '60000');
    await page.click(byRole('button', 'Advance clock'));
    const advanced = new Date(frozen + 60_000).toISOString();
    await page.waitForSelector(`[data-testid=clock-now][datetime="${advanced}"]`, { timeout: 2000 });
    expect(emulator.clock()).toMatchObject({ mode: 'virtual', nowMs: frozen + 60_000 });
  });

  it('toggles the account limits and starts and stops chaos', async () => {
    await openTab('limits');
    await page.click(byRole('button', 'Turn limits on'));
    await page.waitForSelector(byRole('button', 'Turn limits off'), { timeout: 2000 });
    expect(emulator.limits().enabled).toBe(true);
    await page.click(byRole('button', 'Turn limits off'));
    await page.waitForSelector(byRole('button', 'Turn limits on'), { timeout: 2000 });

    await openTab('faults');
    await page.type('form[aria-label="Start chaos"] input[name=seed]', '42');
    await page.click(byRole('button', 'Start chaos'));
    await waitForText('main', 'seed 42');
    expect(emulator.chaos()).toMatchObject({ enabled: true, seed: 42 });
    await page.click(byRole('button', 'Stop chaos'));
    await page.waitForFunction(() => !document.querySelector('main')?.textContent?.includes('seed 42'), {
      timeout: 2000,
    });
    expect(emulator.chaos().enabled).toBe(false);
  });

  it('issues, expires and revokes tokens', async () => {
    await openTab('tokens');
    await page.type('form[aria-label="Issue a token"] input[name=tokenId]', 'client-1');
    await page.click(byRole('button', 'Issue token'));
    const token = await page.waitForSelector('input.token', { timeout: 2000 });
    if (!token) throw new Error('no issued token shown');
    const value = await token.evaluate((el) => el.value);
    expect((await publish({ ...emulator, apiKey: value }, 'orders', 'with the issued token')).status).toBe(204);
    await page.type('form[aria-label="Expire a token"] input[name=tokenId]', 'client-1');
    await page.click(byRole('button', 'Expire token'));
    await waitForText('main', 'client-1 expired');
    expect((await publish({ ...emulator, apiKey: value }, 'orders', 'too late')).status).toBe(401);
    await page.type('form[aria-label="Revoke a token"] input[name=tokenId]', 'client-2');
    await page.click(byRole('button', 'Revoke token'));
    await waitForText('main', 'client-2 revoked');
    // The notice shows its curl line whole, on one line (scrolled sideways, never broken in the URL).
    const curl = await page.$eval('[data-testid=notice] .curl', (el) => ({
      whiteSpace: getComputedStyle(el).whiteSpace,
      height: el.getBoundingClientRect().height,
      lineHeight: parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.4,
    }));
    expect(curl.whiteSpace).toBe('nowrap');
    expect(curl.height).toBeLessThan(curl.lineHeight * 2 + 16);
    // An action's notice belongs to its view: another tab does not show it.
    await openTab('clock');
    expect(await page.$('[data-testid=notice]')).toBeNull();
  });

  it('lists the cache’s items (scalars and collections), sets one by hand and deletes one', async () => {
    const members = Buffer.from('members');
    const byHand = Buffer.from('by-hand');
    await emulator.context.items.run(CACHE, [members], ({ collections }) =>
      collections.setAdd(CACHE, members, [Buffer.from('a'), Buffer.from('b')], { ttlMs: 60_000, refresh: true }),
    );
    await openTab('cache');
    await page.waitForSelector('tr[data-key="bWVtYmVycw=="]', { timeout: 2000 });
    expect(await textOf('tr[data-key="bWVtYmVycw=="]')).toMatch(/members\s*set\s*2\s*2/);
    await page.type('form[aria-label="Set an item"] input[name=key]', 'by-hand');
    await page.type('form[aria-label="Set an item"] input[name=value]', 'hello');
    await page.click(byRole('button', 'Set item'));
    await page.waitForSelector('tr[data-key="YnktaGFuZA=="]', { timeout: 2000 });
    expect((await emulator.context.items.run(CACHE, [byHand], (ops) => ops.cache.get(CACHE, byHand)))?.toString()).toBe(
      'hello',
    );
    expect(await textOf('tr[data-key="YnktaGFuZA=="]')).toMatch(/by-hand\s*scalar\s*5/);
    await page.click('tr[data-key="bWVtYmVycw=="] td:last-child button');
    await page.waitForFunction(() => !document.querySelector('tr[data-key="bWVtYmVycw=="]'), { timeout: 2000 });
    expect(
      await emulator.context.items.run(CACHE, [members], (ops) => ops.collections.setFetch(CACHE, members)),
    ).toBeUndefined();
    await waitForText('[data-testid=cache-usage]', '1 item(s)');
  });

  it('opens an item: a scalar’s value, a sorted set’s members by rank with their scores, a page at a time', async () => {
    const ranks = Buffer.from('ranks');
    const note = Buffer.from('note');
    await emulator.context.items.run(CACHE, [ranks, note], ({ cache, collections }) => {
      cache.set(CACHE, note, Buffer.from('remember me'), 60_000);
      const elements = Array.from({ length: 25 }, (_, i) => [Buffer.from(`m${i + 1}`), i + 1] as [Buffer, number]);
      collections.sortedSetPut(CACHE, ranks, elements, { ttlMs: 60_000, refresh: true });
    });
    // Written behind the dashboard's back (no request): the view reads the items as it opens.
    await openTab('clock');
    await openTab('cache');
    await page.waitForSelector('tr[data-key="cmFua3M="]', { timeout: 2000 });
    await page.click('tr[data-key="bm90ZQ=="] td.key button');
    await waitForText('[data-testid=cache-item-value]', 'remember me');
    await page.click('tr[data-key="cmFua3M="] td.key button');
    await waitForText('[data-testid=cache-item-page]', 'Members 1–20 of 25');
    expect(await textOf('[data-testid=cache-item] tbody tr:first-child')).toMatch(/m1\s*1/);
    await page.click(byRole('button', 'Next'));
    await waitForText('[data-testid=cache-item-page]', 'Members 21–25 of 25');
    expect(await textOf('[data-testid=cache-item] tbody tr:last-child')).toMatch(/m25\s*25/);
    await page.click(byRole('button', 'Close'));
    await page.waitForFunction(() => !document.querySelector('[data-testid=cache-item]'), { timeout: 2000 });
  });

  it('shows every role in the token form whole, at 420 and 1280 pixels wide', async () => {
    for (const width of [420, 1280]) {
      await page.setViewport({ width, height: 900 });
      await openTab('tokens');
      const fits = await page.$eval('form[aria-label="Issue a token"] select[name=role]', (select) => {
        const probe = document.createElement('span');
        probe.style.font = getComputedStyle(select).font;
        probe.style.position = 'absolute';
        probe.textContent = 'publishsubscribe';
        document.body.append(probe);
        const style = getComputedStyle(select);
        const box = ['paddingLeft', 'paddingRight', 'borderLeftWidth', 'borderRightWidth'] as const;
        // The text, the select's own padding and border, and Chromium's arrow (about 20 px).
        const needed = probe.getBoundingClientRect().width + box.reduce((sum, p) => sum + parseFloat(style[p]), 0) + 20;
        probe.remove();
        return { width: select.getBoundingClientRect().width, needed };
      });
      expect(fits.width, `at ${width} px`).toBeGreaterThanOrEqual(fits.needed);
    }
    await page.setViewport({ width: 1280, height: 800 });
  });

  it("shows a topic's next number with each message, not one message behind", async () => {
    await openTab('topics');
    for (let n = 0; n < 3; n++) {
      const { nextSequenceNumber } = emulator.state().topics.find((t) => t.topic === 'orders')!;
      expect((await publish(emulator, 'orders', `next number ${n}`)).status).toBe(204);
      await page.waitForSelector(`tr.message[data-sequence="${nextSequenceNumber}"]`, { timeout: 1000 });
      // The moment the message is listed, its topic's row already shows the number after it.
      const shown = await page.$eval(
        'table.topics tbody tr.selected td:nth-child(3)',
        (cell) => cell.textContent?.trim() ?? '',
      );
      expect(shown).toBe(String(nextSequenceNumber + 1));
    }
  });

  it('shows the request journal and the client findings, or says this version has none', async () => {
    for (const tab of ['requests', 'clients']) {
      await openTab(tab);
      await page.waitForFunction(() => !document.querySelector('main')?.textContent?.includes('Loading'), {
        timeout: 2000,
      });
      const text = await textOf('main');
      const journal = await fetch(`${emulator.url}/_emulator/${tab}`);
      await journal.body?.cancel();
      if (journal.status === 404) expect(text).toContain('Not available in this version of the emulator');
      else expect(text).not.toContain('Not available');
    }
  });

  it('shows the journal and the client findings in the shapes the journal answers', async () => {
    // A second tab whose journal operations answer the fixtures (valid RequestList and
    // ClientList answers: test/dashboard/journal.test.ts), whether or not this emulator has them.
    const tab = await browser.newPage();
    const tabErrors = consoleErrors(tab);
    try {
      await tab.setViewport({ width: 1280, height: 800 });
      await tab.setRequestInterception(true);
      tab.on('request', (request) => {
        const { pathname } = new URL(request.url());
        const answer = { '/_emulator/requests': requestList, '/_emulator/clients': clientList }[pathname];
        if (answer)
          void request.respond({ status: 200, contentType: 'application/json', body: JSON.stringify(answer) });
        else void request.continue();
      });
      await tab.goto(`${emulator.url}/_emulator/ui`);
      await openTab('requests', tab);
      await waitForText('[data-testid=journal-count]', 'The newest 4 of the 4 journalled', 2000, tab);
      const rows = await tab.$$eval('main tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
      expect(rows).toHaveLength(4);
      expect(rows[1]).toMatch(/429 limit_exceeded\s*subscribe\s*default-cache\/orders.*token:reader-1\s*fault f1/);
      expect(await tab.$$eval('main tbody tr.error', (trs) => trs.length)).toBe(1);

      await openTab('clients', tab);
      await waitForText('main', 'token:reader-1', 2000, tab);
      const text = await tab.$eval('main', (el) => el.textContent ?? '');
      expect(text).toContain('1 violation(s)');
      expect(text).toContain('A client that is throttled waits for Retry-After before it tries again.');
      expect(text).toContain('polled again 0 ms after a 429 with Retry-After: 1');
      expect(text).toContain('not exercised');
      expect(text).toContain('2 request(s) showing it');
      expect(await tab.$$eval('ul.findings li.violation', (items) => items.length)).toBe(1);
      expect(tabErrors).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  it('filters the whole journal on the server, not the rows on screen, and opens a row to its whole record', async () => {
    const rule = emulator.addFault({ operation: 'publish', topic: 'journal-filter', status: 429, count: 3 });
    for (let i = 0; i < 3; i++) expect((await publish(emulator, 'journal-filter', `m${i}`)).status).toBe(429);
    // 150 newer requests push the three 429s out of the newest 100 the view lists unfiltered.
    for (let i = 0; i < 150; i++) expect((await publish(emulator, 'journal-filler', `m${i}`)).status).toBe(204);
    await openTab('requests');
    await page.click('[data-filter=topic]');
    await page.type('[data-filter=topic]', 'journal-filter');
    await page.click('[data-filter=failed]');
    await waitForText('[data-testid=journal-count]', 'The newest 3 of the', 3000);
    const rows = await page.$$eval('main tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toMatch(new RegExp(`429 limit_exceeded.*fault ${rule.id}`));
    await page.click('main tbody tr[data-request-id]');
    await page.waitForSelector('[data-testid=request-record]', { timeout: 2000 });
    const record = await textOf('[data-testid=request-record]');
    expect(record).toContain(`decided byfault ${rule.id}`);
    expect(record).toContain('Retry-After1 s');
    expect(record).toContain('never recorded');
    expect(record).not.toContain(emulator.apiKey);
    // Status and door filters go to the server too.
    await page.click('[data-filter=failed]');
    await page.type('[data-filter=status]', '204');
    // Cleared as a user does (select all, delete): one input event, whatever renders meanwhile.
    await page.click('[data-filter=topic]', { count: 3 });
    await page.keyboard.press('Backspace');
    await waitForText('[data-testid=journal-count]', 'The newest 100 of the', 3000);
    expect(await page.$$eval('main tbody tr.error', (trs) => trs.length)).toBe(0);
  });

  it('fits every view at 420×900 and 1280×800: no table wider than its card, no page wider than the window', async () => {
    const rule = emulator.addFault({ operation: 'subscribe', topic: 'sensors', status: 503, count: 3 });
    const abort = new AbortController();
    const waiting = fetch(`${emulator.url}/topics/${CACHE}/orders-with-a-longer-name?sequence_number=9`, {
      headers: { authorization: emulator.apiKey },
      signal: abort.signal,
    }).catch(() => undefined);
    await expect.poll(() => emulator.state().waitingSubscribers.length).toBe(1);
    const seen = new Set<string>();
    try {
      for (const [width, height] of [
        [420, 900],
        [1280, 800],
      ] as const) {
        await page.setViewport({ width, height });
        for (const tab of [
          'topics',
          'waiting',
          'cache',
          'faults',
          'limits',
          'clock',
          'tokens',
          'requests',
          'clients',
        ]) {
          await openTab(tab);
          await page.waitForFunction(() => !document.querySelector('main')?.textContent?.includes('Loading'), {
            timeout: 2000,
          });
          const { cut, tables } = await page.evaluate(() => {
            const found: string[] = [];
            const overflow = document.documentElement.scrollWidth - window.innerWidth;
            if (overflow > 0) found.push(`the page, by ${overflow} px`);
            for (const table of Array.from(document.querySelectorAll('main table'))) {
              const card = table.closest('.table-wrap');
              const room = card?.clientWidth ?? 0;
              if (table.scrollWidth > room)
                found.push(`${table.className || 'a table'}: ${table.scrollWidth} > ${room} px`);
            }
            return { cut: found, tables: document.querySelectorAll('main table').length };
          });
          expect(cut, `${tab} at ${width} px`).toEqual([]);
          seen.add(`${tab}:${tables}`);
        }
      }
      // The views checked had their tables: topics, the waiting subscriber, the fault, the journal.
      for (const tab of ['topics', 'waiting', 'faults', 'requests'])
        expect(
          [...seen].some((s) => s.startsWith(`${tab}:`) && !s.endsWith(':0')),
          tab,
        ).toBe(true);
    } finally {
      abort.abort();
      await waiting;
      emulator.removeFault(rule.id);
      await page.setViewport({ width: 1280, height: 800 });
      await openTab('topics');
    }
  });

  it('resets the emulator after a confirmation', async () => {
    await openTab('topics');
    await page.click(byRole('button', 'Reset emulator'));
    expect(emulator.state().topics.length).toBeGreaterThan(0); // nothing happens before the confirmation
    expect(await textOf('[aria-label="Confirm the reset"]')).toContain('the request journal');
    await page.click(byRole('button', 'Confirm reset'));
    await waitForText('main', 'No topic yet');
    expect(emulator.state()).toMatchObject({ topics: [], clock: { mode: 'real' } });
    await waitForText('.summary', 'Clock real');
    await waitForText('tr.marker', 'Emulator reset');
  });

  it('is usable with the keyboard and on a narrow window', async () => {
    await page.setViewport({ width: 390, height: 800 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const textarea = 'form[aria-label="Publish a message"] textarea[name=message]';
    await page.click(textarea, { count: 3 });
    await page.keyboard.type('typed on a phone');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Publish');
    await page.keyboard.press('Enter');
    await waitForText('tr.message', 'typed on a phone', 2000);
    await page.setViewport({ width: 1280, height: 800 });
  });

  it('logged no console error throughout', () => {
    // Chromium logs every non-2xx answer to fetch as "Failed to load resource"; these are the
    // answers the scenarios asked for (the injected 503; the journal and findings operations
    // where this version has none), not errors of the page.
    const asked = (e: { text: string; url: string }) =>
      (e.text.includes('status of 503') && e.url.endsWith('/topics/default-cache/orders')) ||
      (e.text.includes('status of 404') && /\/_emulator\/(requests|clients)$/.test(e.url));
    expect(errors.filter((e) => !asked(e))).toEqual([]);
    expect(errors.filter(asked).length).toBeGreaterThanOrEqual(1);
  });
});

describe('the dashboard with an admin key', () => {
  it('asks for the key once, keeps it for the tab, and sends it on every control call', async () => {
    const guarded = await startEmulator({ port: 0, logLevel: 'silent', adminKey: 'dashboard-admin-key' });
    const context = await browser.createBrowserContext();
    try {
      const tab = await context.newPage();
      await tab.goto(`${guarded.url}/_emulator/ui`);
      await tab.waitForSelector('form[aria-label="Admin key"]', { timeout: 5000 });
      await tab.type('input[name=adminKey]', 'wrong-admin-key');
      await tab.click(byRole('button', 'Use admin key'));
      await tab.waitForSelector('form[aria-label="Admin key"]', { timeout: 5000 });
      await tab.click('input[name=adminKey]', { count: 3 });
      await tab.type('input[name=adminKey]', 'dashboard-admin-key');
      await tab.click(byRole('button', 'Use admin key'));
      await tab.waitForFunction(() => document.querySelector('[data-testid=live-status]')?.textContent === 'Live', {
        timeout: 5000,
      });
      expect(await tab.$('form[aria-label="Admin key"]')).toBeNull();
      await tab.click('[data-tab=clock]');
      await tab.click(byRole('button', 'Freeze clock'));
      await tab.waitForFunction(() => document.querySelector('main')?.textContent?.includes('Frozen'), {
        timeout: 2000,
      });
      expect(guarded.clock().mode).toBe('virtual');
      // Kept for the tab: a reload does not ask again.
      await tab.reload();
      await tab.waitForFunction(() => document.querySelector('[data-testid=live-status]')?.textContent === 'Live', {
        timeout: 5000,
      });
      expect(await tab.$('form[aria-label="Admin key"]')).toBeNull();
      expect(await tab.evaluate(() => Object.keys(sessionStorage))).toEqual(['topics-emulator.admin-key']);
      expect(await tab.evaluate(() => Object.keys(localStorage))).toEqual([]);
    } finally {
      await context.close();
      await guarded.close();
    }
  });
});

describe('the dashboard across an emulator restart', () => {
  it('reconnects without a reload and shows what the new emulator publishes', async () => {
    let first: RunningEmulator | undefined = await startEmulator({ port: 0, logLevel: 'silent' });
    const port = Number(new URL(first.url).port);
    let second: RunningEmulator | undefined;
    const tab = await browser.newPage();
    try {
      await tab.goto(`${first.url}/_emulator/ui`);
      const status = () => tab.$eval('[data-testid=live-status]', (el) => el.textContent);
      await tab.waitForFunction(() => document.querySelector('[data-testid=live-status]')?.textContent === 'Live', {
        timeout: 5000,
      });
      await first.close();
      first = undefined;
      await tab.waitForFunction(
        () => document.querySelector('[data-testid=live-status]')?.textContent === 'Reconnecting…',
        { timeout: 5000 },
      );
      second = await startEmulator({ port, logLevel: 'silent' });
      await tab.waitForFunction(() => document.querySelector('[data-testid=live-status]')?.textContent === 'Live', {
        timeout: 10_000,
      });
      expect(await status()).toBe('Live');
      await publish(second, 'after-restart', 'hello again');
      await tab.waitForFunction(
        () => Array.from(document.querySelectorAll('tr.message')).some((el) => el.textContent?.includes('hello again')),
        { timeout: 1000 },
      );
    } finally {
      await tab.close();
      await first?.close();
      await second?.close();
    }
  });
});

describe('the dashboard on two replicas of one Redis store', () => {
  it('shows within seconds the requests and the waiting subscribers the other replica serves', async () => {
    const redis = await startRedis();
    const replicas: RunningEmulator[] = [];
    const tab = await browser.newPage();
    const tabErrors = consoleErrors(tab);
    let waiting: Promise<Response> | undefined;
    try {
      for (let i = 0; i < 2; i += 1)
        replicas.push(
          await startEmulator({ port: 0, logLevel: 'silent', store: redis.url, storePrefix: 'dashboard:' }),
        );
      const [a, b] = replicas as [RunningEmulator, RunningEmulator];
      await tab.goto(`${a.url}/_emulator/ui`);
      await waitForText('header .summary', 'shared store', 5000, tab);
      // Requests only b serves send no event to a: the page reads the gathered journal again.
      await openTab('requests', tab);
      const refused = await fetch(`${b.url}/topics/no-such-cache/t`, {
        method: 'POST',
        headers: { authorization: b.apiKey, 'content-type': 'text/plain' },
        body: 'x',
      });
      expect(refused.status).toBe(404);
      await waitForText('main', 'no-such-cache/t', 5000, tab);
      // So do the subscribers waiting on b, in the tab's count and the list.
      await openTab('waiting', tab);
      waiting = fetch(`${b.url}/topics/${CACHE}/quiet-on-b?sequence_number=1`, {
        headers: { authorization: b.apiKey },
      });
      await waitForText('main', 'quiet-on-b', 5000, tab);
      expect(await tab.$eval('[data-tab=waiting]', (el) => el.textContent)).toContain('1');
      expect((await publish(b, 'quiet-on-b', 'wake')).status).toBe(204);
      expect((await waiting).status).toBe(200);
      expect(tabErrors).toEqual([]);
    } finally {
      await tab.close();
      await Promise.all(replicas.map((replica) => replica.close()));
      await redis.stop();
    }
  });
});
