import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkEndToEnd } from '../../emulator/exam/end-to-end.js';
import { messageFormat, messageOf, printedNumbers } from '../../emulator/exam/messages.js';
import { ExamPlanError, parsePlan, planFor, standardPlan } from '../../emulator/exam/plan.js';
import { listRules } from '../../emulator/exam/command.js';
import { clientRules } from '../../judge/catalogue.js';

const published = (count: number) => Array.from({ length: count }, (_, i) => ({ n: i + 1, at: (i + 1) * 100 }));
const base = { pageChangesAt: [], tokenLostAt: null };

describe('the end-to-end check', () => {
  it('reads only the lines that are exam messages', () => {
    expect(printedNumbers(['exam message 3', 'hello', '  exam message 4  ', 'exam message x'])).toEqual([3, 4]);
  });
  it('passes every message printed once in order, excusing what came before the first one printed', () => {
    const result = checkEndToEnd({ ...base, published: published(5), printed: [2, 3, 4, 5] });
    expect(result).toMatchObject({ passed: true, excused: 1, missing: [] });
  });
  it('names what is missing, printed twice or out of order', () => {
    const result = checkEndToEnd({ ...base, published: published(6), printed: [1, 2, 2, 4, 3, 6] });
    expect(result).toMatchObject({ passed: false, missing: [5], duplicated: [2], outOfOrder: [3] });
  });
  it('excuses the tail of a page a page change took, and what followed a token the client lost', () => {
    // Published 1..6 (at 100..600); the page changed at 350 before the client had 3; the token was lost at 550.
    const result = checkEndToEnd({
      published: published(6),
      printed: [1, 2, 4, 5],
      pageChangesAt: [350],
      tokenLostAt: 550,
    });
    expect(result).toMatchObject({ passed: true, excused: 2 });
    const careless = checkEndToEnd({ ...base, published: published(4), printed: [1, 2, 4], pageChangesAt: [450] });
    expect(careless.missing).toEqual([3]);
  });
  it('is not exercised when the command printed no message', () => {
    expect(checkEndToEnd({ ...base, published: published(3), printed: [] })).toMatchObject({
      exercised: false,
      passed: true,
    });
  });
});

describe('exam plans', () => {
  it('spreads the standard gauntlet over the duration, with a quiet stretch longer than the long-poll timeout', () => {
    const plan = standardPlan(20_000);
    expect(plan.steps.map((s) => s.kind)).toEqual([
      'drop-waiting',
      'throttle',
      'page-change',
      'outage',
      'token-expiry',
    ]);
    expect(plan.steps.every((s) => s.atMs < plan.publishUntilMs)).toBe(true);
    expect(plan.quiet[0]!.toMs - plan.quiet[0]!.fromMs).toBeGreaterThan(plan.longPollTimeoutMs);
  });
  it('reads a scenario file with an exam member, and names what is wrong in one', () => {
    const plan = parsePlan(
      'name: mine\nlimits: { enabled: true }\nexam:\n  publishEveryMs: 50\n  steps:\n    - { kind: outage, atMs: 100, durationMs: 500 }\n',
      'mine.yaml',
      3000,
    );
    expect(plan).toMatchObject({
      name: 'mine',
      durationMs: 3000,
      publishEveryMs: 50,
      scenario: { limits: { enabled: true } },
    });
    expect(plan.steps).toEqual([{ kind: 'outage', atMs: 100, durationMs: 500 }]);
    expect(() => parsePlan('exam: { steps: [{ kind: flood, atMs: 1 }] }', 'bad.yaml')).toThrow(ExamPlanError);
    expect(() => parsePlan('exam: { steps: [{ kind: outage }] }', 'bad.yaml')).toThrow(/needs atMs/);
    expect(() => parsePlan('colour: red', 'bad.yaml')).toThrow(/colour/);
    expect(() => parsePlan('exam: { publishEveryMs: often }', 'bad.yaml')).toThrow(
      'bad.yaml: exam.publishEveryMs must be a whole number of milliseconds, at least 1',
    );
    expect(() => parsePlan('exam: [1]', 'bad.yaml')).toThrow('bad.yaml: exam must be an object');
  });
  it('lists every rule with its level and sentence', () => {
    const listed = listRules();
    for (const rule of clientRules) expect(listed).toContain(`${rule.id} (${rule.level})\n`);
  });
});

describe('the messages an exam publishes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'exam-messages-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hold "exam message <n>" in every form, and are found wherever a client prints them', async () => {
    expect(messageOf({ kind: 'text' }, 7)).toBe('exam message 7');
    expect(JSON.parse(messageOf(await messageFormat('json'), 7))).toEqual({ n: 7, text: 'exam message 7' });
    const file = join(dir, 'template.json');
    writeFileSync(file, '{"id":{{n}},"body":"{{text}}"}');
    expect(messageOf(await messageFormat(file), 12)).toBe('{"id":12,"body":"exam message 12"}');
    expect(
      printedNumbers([
        "got { n: 3, text: 'exam message 3' }",
        '{"text":"exam message 4"} and exam message 5',
        'exam message 56x',
      ]),
    ).toEqual([3, 4, 5, 56]);
  });

  it('refuses a template without {{text}}, one too large for a message, and what is not a readable file', async () => {
    const plain = join(dir, 'plain.txt');
    writeFileSync(plain, 'no placeholder');
    await expect(messageFormat(plain)).rejects.toThrow(/must hold \{\{text\}\}/);
    const large = join(dir, 'large.txt');
    writeFileSync(large, `{{text}}${'x'.repeat(4080)}`); // fits as a file, not once {{text}} is filled in
    await expect(messageFormat(large)).rejects.toThrow(/a message would be \d+ bytes; at most 4096/);
    await expect(messageFormat(dir)).rejects.toThrow(/is not a regular file/);
    await expect(messageFormat(join(dir, 'missing'))).rejects.toThrow(/takes text, json or a template file/);
  });
});

describe('an exam plan by name', () => {
  it('suggests the built-in plan nearest a name that is neither one nor a file', async () => {
    await expect(planFor('compat')).rejects.toThrow(/did you mean compact\?/);
    await expect(planFor('no-such-plan.yaml')).rejects.toThrow(/--scenario takes standard, compact or a file/);
  });

  it('names an unknown member of the exam or of a step', () => {
    expect(() => parsePlan('exam: { durationMs: 60000, burst: 3 }', 'p.yaml')).toThrow(/exam has no member burst/);
    expect(() => parsePlan('exam: { steps: [{ kind: outage, atMs: 1, during: 5 }] }', 'p.yaml')).toThrow(
      /exam\.steps\[0\] has no member during/,
    );
  });
});
