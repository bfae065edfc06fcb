// Before any rule: the endpoint answers, accepts the token and has the cache (otherwise the
// run stops with exit code 2 and says which), and the emulator's control plane is detected.
import { ControlPlane, detectControlPlane } from './control.js';
import type { ResolvedOptions } from './options.js';
import type { Secrets } from './secrets.js';
import type { Target } from './target.js';

/** The target could not be reached, or refused the credentials: exit code 2. */
export class ConnectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectionError';
  }
}

/** Checks that the target answers and accepts the token, and detects the control plane. */
export async function preflight(
  options: ResolvedOptions,
  target: Target,
  secrets: Secrets,
): Promise<{ control: ControlPlane | null; reason: string }> {
  const health = await target.control('preflight', 'GET', '/_emulator/health');
  if (health.status === undefined) throw new ConnectionError(`cannot reach ${options.baseUrl}: ${health.error}`);
  const probe = await target.publishText(
    'preflight',
    target.newTopic('preflight'),
    `conformance preflight ${options.runId}`,
  );
  if (probe.status === undefined) throw new ConnectionError(`cannot reach ${options.baseUrl}: ${probe.error}`);
  // Two more round trips, so the rules' waits are derived from more than one (target.pace).
  for (let i = 0; i < 2; i += 1)
    await target.publishText('preflight', target.newTopic('preflight'), `conformance pace ${options.runId} ${i}`);
  if (probe.status === 401 || probe.status === 403)
    throw new ConnectionError(`the token was refused: a publish to cache ${options.cache} answered ${probe.status}`);
  if (probe.status === 404)
    throw new ConnectionError(
      `cache ${options.cache} does not exist (a publish answered 404); pass an existing cache with --cache`,
    );
  if (options.control === 'off') return { control: null, reason: 'switched off with --control off' };
  const plane = new ControlPlane(target, (token) => secrets.addIssued(token));
  if (options.control === 'on') return { control: plane, reason: 'switched on with --control on' };
  const detected = await detectControlPlane(target, 'preflight');
  return { control: detected.available ? plane : null, reason: detected.reason };
}
