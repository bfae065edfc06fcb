import { describe, expect, it } from 'vitest';
import controlDocument from '../../openapi/generated/control.json' with { type: 'json' };
import { cursorText, decidedByText, isFailure, itemsText, recordLines } from '../../dashboard/journal.js';
import { requestsPath as requestPath } from '../../dashboard/views/requests.js';
import { controlAjv } from '../../emulator/control/validation.js';
import { clientList, requestList, retriedAtOnce, throttledPoll } from './journal-fixtures.js';

// The Requests view's reading of journal entries, and the fixtures the browser suite serves as
// the journal's answers.

const noFilters = { operation: '', status: '', topic: '', client: '', protocol: '' as const, failed: false };

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

  it("reads a cursor, the items delivered and every fact of a record; failures are the journal's own", () => {
    expect(cursorText(throttledPoll)).toMatch(/^\d+@\d+$|^\(none\)$/);
    expect(cursorText({ ...retriedAtOnce, operation: 'publish' })).toBe('');
    expect(itemsText({ ...throttledPoll, status: 200, items: [3, 4, 5], page: 1795333926, discontinuity: null })).toBe(
      '3–5 on 1795333926',
    );
    expect(itemsText({ ...throttledPoll, status: 200, items: [], page: null, discontinuity: null })).toBe('none');
    const lines = Object.fromEntries(recordLines(throttledPoll));
    expect(lines['decided by']).toBe('fault f1');
    expect(lines['status']).toBe('429');
    expect(lines['credential']).toMatch(/never recorded/);
    expect(Object.values(lines).join(' ')).not.toMatch(/topics-emulator-dev-key/);
    expect(isFailure({ status: null })).toBe(true);
    expect(isFailure({ status: 204 })).toBe(false);
    expect(requestPath({ ...noFilters, status: '42', failed: true })).toBe('/_emulator/requests?failed=true');
    expect(requestPath({ ...noFilters, status: '429', topic: ' orders ', protocol: 'grpc' })).toBe(
      '/_emulator/requests?status=429&topic=orders&protocol=grpc',
    );
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
