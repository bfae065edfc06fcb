import type {
  ClientList,
  RequestCount,
  RequestLimit,
  RequestList,
  RequestMatcher,
} from '../../openapi/generated/control-types.js';
import { judgeClients } from '../../judge/judge.js';
import type { ReplicaLink } from '../backend/replica-link.js';
import { operationIds } from '../documents.js';
import { EmulatorError } from '../errors.js';
import type { RequestJournal } from '../journal/journal.js';
import { gatherClientEntries, gatherCount, gatherRequests } from './gather.js';

// The journal's reads: this replica's journal in memory, every replica's on a shared store
// (gather.ts), so they are asynchronous.

/** Journalled requests, newest first: those the matcher accepts, at most `limit`. */
export async function listRequests(
  journal: RequestJournal,
  replicas: ReplicaLink | undefined,
  matcher: RequestMatcher,
  limit: RequestLimit,
): Promise<RequestList> {
  knownOperation(matcher, 'invalid_parameter');
  return replicas ? gatherRequests(replicas, matcher, limit) : journal.list(matcher, limit);
}

/** How many journalled requests the matcher accepts (e.g. "exactly one publish to t"). */
export async function countRequests(
  journal: RequestJournal,
  replicas: ReplicaLink | undefined,
  matcher: RequestMatcher,
): Promise<RequestCount> {
  knownOperation(matcher, 'invalid_body');
  return { count: replicas ? await gatherCount(replicas, matcher) : journal.count(matcher) };
}

/** Every client in the journal, judged by the client rules (judge/catalogue.ts). */
export async function judgedClients(journal: RequestJournal, replicas: ReplicaLink | undefined): Promise<ClientList> {
  return { clients: judgeClients(replicas ? await gatherClientEntries(replicas) : journal.entries()) };
}

/** A matcher naming an operation no document has would match nothing, silently: a typo is refused. */
function knownOperation(matcher: RequestMatcher, code: 'invalid_parameter' | 'invalid_body'): void {
  const { operation } = matcher;
  if (operation === undefined || operationIds.has(operation)) return;
  throw new EmulatorError(
    code,
    `No operation is called '${operation}': use an operationId of openapi/topics.yaml or control.yaml, such as publish, subscribe or setClock.`,
  );
}
