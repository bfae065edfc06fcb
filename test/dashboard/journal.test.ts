import { describe, expect, it } from 'vitest';
import controlDocument from '../../openapi/generated/control.json' with { type: 'json' };
import { decidedByText, entryMatches, isFailure } from '../../dashboard/journal.js';
import { controlAjv } from '../../emulator/control/validation.js';
import { clientList, requestList, retriedAtOnce, throttledPoll } from './journal-fixtures.js';

// The Requests view's reading of journal entries, and the fixtures the browser suite serves as
// the journal's answers.

describe("the dashboard's reading of the request journal", () => {
  it('says what decided an answer: a fault rule, chaos, a limit, a drop, a client gone, or nothing', () => {
    expect(decidedByText(throttledPoll)).toBe('fault f1');
    expect(decidedByText({ ...retriedAtOnce, decidedBy: { kind: 'chaos' } })).toBe('chaos');
    expect(decidedByText({ ...retriedAtOnce, decidedBy: { kind: 'limit', limit: 'operations' } })).toBe(
      'limit: operations',
    );
    expect(decidedByText({ ...retriedAtOnce, status: null, dropped: true })).toBe('dropped');
    expect(decidedByText({ ...retriedAtOnce, status: null, clientGone: true })).toBe('client gone');
    expect(decidedByText(retriedAtOnce)).toBe('');
  });

  it('filters by every word of the filter, and by failures', () => {
    expect(requestList.entries.filter((e) => entryMatches(e, '429 subscribe', false))).toEqual([throttledPoll]);
    expect(requestList.entries.filter((e) => entryMatches(e, 'FAULT f1', false))).toEqual([throttledPoll]);
    expect(requestList.entries.filter((e) => entryMatches(e, 'key:#', false)).map((e) => e.id)).toEqual([2]);
    expect(requestList.entries.filter((e) => entryMatches(e, '', true))).toEqual([throttledPoll]);
    expect([
      entryMatches({ ...retriedAtOnce, protocol: 'grpc' }, 'grpc', false),
      entryMatches(retriedAtOnce, 'grpc', false),
    ]).toEqual([true, false]);
    expect(isFailure({ ...retriedAtOnce, status: null, clientGone: true })).toBe(true);
  });

  // The fixtures must be valid answers of the document (so the views are tested against the real shapes).
  const schemas = controlDocument.components.schemas as Record<string, object>;
  it("the fixtures are valid answers of the document's listRequests and listClients", () => {
    const ajv = controlAjv();
    for (const [name, fixture] of [
      ['RequestList', requestList],
      ['ClientList', clientList],
    ] as const) {
      const valid = ajv.validate(schemas[name]!, structuredClone(fixture));
      expect({ name, errors: valid ? null : ajv.errors }).toEqual({ name, errors: null });
    }
  });
});
