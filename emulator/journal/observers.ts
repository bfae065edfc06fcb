import { unjournalledOperations } from '../documents.js';
import { GRPC_WEB_OPERATION, type ExchangeFacts } from '../exchange.js';
import { DASHBOARD_PATHS } from '../ui/dashboard-route.js';

// Which requests the journal keeps: not those that only observe the emulator (the dashboard's
// files, its event stream and state, a metrics scrape, a snapshot, the journal's own reads, a
// health probe), which a dashboard or a scraper repeats and which would push the client's
// requests out of the ring. The operations are marked in openapi/control.yaml
// (`x-emulator-journalled: false`); the dashboard's files are served beside the document.

/** True for a request that changes something or reaches the service: the journal keeps it. */
export function isJournalled(facts: ExchangeFacts): boolean {
  // A gRPC-web call is journalled by the gRPC door it is passed to, once.
  if (facts.plane === 'service') return facts.operation !== GRPC_WEB_OPERATION;
  return facts.operation === null ? !DASHBOARD_PATHS.has(facts.path) : !unjournalledOperations.has(facts.operation);
}
