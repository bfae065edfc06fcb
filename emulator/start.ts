import type { FastifyInstance } from 'fastify';
import { buildApp } from './http/app.js';
import { openCore } from './core.js';
import { sdkEndpoint, sdkKey, signingKeyBytes, tokenEndpoint } from './auth/tokens.js';
import { Clock } from './clock.js';
import { shuttingDown } from './errors.js';
import type { EmulatorContext } from './context.js';
import type { GrpcControls, GrpcDoor } from './grpc/server.js';
import { registerGrpcWeb, type GrpcWebTarget } from './grpc/web.js';
import { Reachability } from './grpc/reachability.js';
import type { TestAdminPort } from './grpc/test-admin.js';
import type { HttpsPort } from './tls/https-port.js';
import { checkControlPlaneExposure } from './control/admin-key.js';
import { controlApi, type EmulatorControlApi } from './control/api.js';
import { ScenarioError } from './scenario/load.js';
import { loadStateFile, StateFileError, writeStateFile } from './snapshot/state-file.js';
import { SettingsError, type EmulatorSettings } from './settings.js';

/**
 * A running emulator. Besides its address it has the control plane's operations as methods
 * (reset, state, issueToken, expireToken, resetTopic, setClock, addFault, setLimits,
 * startChaos, applyScenario, requests, countRequests, clients, ...): the same as /_emulator/
 * (openapi/control.yaml), checked against the same schemas, throwing EmulatorError (with `code` and `status`) on bad input.
 */
export interface RunningEmulator extends EmulatorControlApi {
  /** Base URL, e.g. http://127.0.0.1:4545 (no trailing slash). */
  url: string;
  /** momento-local's test-admin port (GET /block, /unblock), when `testAdminPort` is set. */
  testAdminPort?: number;
  /** The gRPC door for the provider's SDKs, when `grpcPort` is set: `host:port` (plaintext). */
  grpcEndpoint?: string;
  /** The gRPC door over TLS, when `grpcTlsPort` is set: the host:port its JWTs name for the SDKs (e.g. 127.0.0.1:4548). */
  grpcTlsEndpoint?: string;
  /**
   * The first API key in the form the provider's SDKs take from MOMENTO_API_KEY, when `grpcTlsPort`
   * is set: a JWT naming the gRPC TLS door, which authenticates as the key (auth/tokens.ts sdkKey).
   */
  sdkKey?: string;
  /** The same service over TLS, when `httpsPort` is set: e.g. https://localhost:4547. */
  httpsUrl?: string;
  /** The local certificate authority's certificate (PEM) behind `httpsUrl`, for clients to trust; none with your own certificate. */
  tlsAuthority?: string;
  /** The first configured API key (full access). */
  apiKey: string;
  settings: EmulatorSettings;
  /** The underlying fastify instance, for `inject()` in tests. */
  app: FastifyInstance;
  context: EmulatorContext;
  /**
   * Answers every waiting subscriber with `{"items":[]}` and resolves once the answers have left
   * (bounded); the server keeps its sockets. A process about to exit needs nothing more.
   */
  drain(): Promise<void>;
  /**
   * Drains, then stops listening and closes every socket. Safe to call twice. With a state file,
   * drain and close write it (and reject when it cannot be written).
   */
  close(): Promise<void>;
}

/**
 * The gRPC door, when its port is set: listened on at once, loaded at its first connection
 * (grpc/lazy-listener.ts). Its streams are subscriptions in the core's registry: a reset or a
 * loaded snapshot ends them as it answers a waiting long-poll; the SDKs resubscribe.
 */
async function startGrpc(
  context: EmulatorContext,
  controls: GrpcControls,
  host: string,
  port: number,
  web: GrpcWebTarget,
): Promise<GrpcListener> {
  const { listenLazily } = await import('./grpc/lazy-listener.js');
  let opening: Promise<GrpcDoor> | undefined;
  const open = async () => {
    opening ??= import('./grpc/server.js').then(({ startGrpcDoor }) => startGrpcDoor(context, controls));
    return (await opening).port;
  };
  const listener = await listenLazily(host, port, open, {
    reachability: web.reachability,
    silentMs: context.settings.grpcIdleTimeoutMs,
  });
  web.internalPort = open;
  return {
    port: listener.port,
    close: async () => {
      // The door first: its streams end with a status that reaches the clients, then the port.
      // A door still loading is closed once it has started.
      await (await opening?.catch(() => undefined))?.close();
      await listener.close();
    },
  };
}

interface GrpcListener {
  port: number;
  close(): Promise<void>;
}

/** --grpc-tls-port: the gRPC door's connections, decrypted here with the HTTPS port's certificate. */
async function startGrpcTls(settings: EmulatorSettings, port: number, web: GrpcWebTarget) {
  if (web.internalPort === undefined)
    throw new SettingsError('--grpc-tls-port serves the gRPC door over TLS: it needs the door on (--grpc-port)');
  const [{ listenLazily }, { serverCertificate }] = await Promise.all([
    import('./grpc/lazy-listener.js'),
    import('./tls/https-port.js'),
  ]);
  const { pair, authority } = await serverCertificate(settings);
  const listener = await listenLazily(settings.host, port, web.internalPort, {
    reachability: web.reachability,
    silentMs: settings.grpcIdleTimeoutMs,
    tls: pair,
  });
  return { ...listener, authority };
}

/** How long close() lets long-poll answers flush before it closes their sockets regardless. */
const FLUSH_BOUND_MS = 500;

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * A port setting that could not be listened on: the listen error's `code` (EADDRINUSE, EACCES, ...)
 * and the `setting` it came from go with the message, so the CLI can say which flag to change.
 */
function portError(
  message: string,
  setting: 'httpsPort' | 'grpcPort' | 'grpcTlsPort' | 'testAdminPort',
  error: unknown,
): SettingsError {
  return Object.assign(new SettingsError(`${message}: ${(error as Error).message}`), {
    code: (error as NodeJS.ErrnoException).code,
    setting,
  });
}

/** What to do when the gRPC port is taken: fail the start, or serve without the gRPC door (a warning says so). */
export type GrpcPortTaken = 'fail' | 'serve-without';

/**
 * Starts an emulator in this process on resolved settings (index.ts's `startEmulator` resolves
 * them). `grpcPortTaken`: the CLI's default gRPC port may be taken; the emulator then serves
 * without the door, started once (a scenario applied once, a store opened once).
 */
export async function startWith(
  settings: EmulatorSettings,
  grpcPortTaken: GrpcPortTaken = 'fail',
): Promise<RunningEmulator> {
  checkControlPlaneExposure(settings);
  const clock = new Clock();
  // gRPC-web calls on the HTTP port are passed to the gRPC door, once it is on (startGrpc).
  const grpcWeb: GrpcWebTarget = { internalPort: undefined, reachability: new Reachability() };
  const core = await openCore(settings, clock);
  const { context, controls } = core;
  let app: FastifyInstance | undefined;
  // A start that fails lets go of what it opened: the store's connection, the HTTP server.
  const abandon = async () => {
    await context.store.release();
    await app?.close();
  };
  try {
    app = (await buildApp(core)).app;
    registerGrpcWeb(app, grpcWeb);
  } catch (error) {
    await abandon();
    throw error;
  }
  try {
    await controls.startUp(); // --chaos-seed, --scenario: before the first request can arrive
    // --state-file: the saved state replaces what start-up set (the scenario stays for resets).
    if (settings.stateFile !== undefined && (await loadStateFile(settings.stateFile, (s) => controls.restore(s))))
      context.log.info({ stateFile: settings.stateFile }, `state loaded from ${settings.stateFile}`);
  } catch (error) {
    await abandon();
    throw error instanceof ScenarioError || error instanceof StateFileError ? new SettingsError(error.message) : error;
  }
  await app.listen({ host: settings.host, port: settings.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  const url = `http://${hostForUrl(settings.host)}:${port}`;
  let https: HttpsPort | undefined;
  if (settings.httpsPort !== undefined) {
    try {
      const { startHttpsPort } = await import('./tls/https-port.js');
      https = await startHttpsPort(app.server, { ...settings, httpsPort: settings.httpsPort });
    } catch (error) {
      await abandon();
      throw portError(`Cannot serve HTTPS on ${settings.host}:${settings.httpsPort}`, 'httpsPort', error);
    }
    controls.tlsAuthority = https.authority;
  }
  controls.endpoint = tokenEndpoint(settings.endpoint, settings.host, port, https?.port);
  let grpc: GrpcListener | undefined;
  try {
    if (settings.grpcPort !== undefined)
      grpc = await startGrpc(context, controls, settings.host, settings.grpcPort, grpcWeb);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && grpcPortTaken === 'serve-without') {
      context.log.warn(
        `gRPC port ${settings.grpcPort} is in use: the door for the provider's SDKs is off (choose one with --grpc-port)`,
      );
    } else {
      await https?.close();
      await abandon();
      throw portError(`Cannot listen for gRPC on ${settings.host}:${settings.grpcPort}`, 'grpcPort', error);
    }
  }
  let grpcTls: (GrpcListener & { authority: string | undefined }) | undefined;
  if (settings.grpcTlsPort !== undefined) {
    try {
      grpcTls = await startGrpcTls(settings, settings.grpcTlsPort, grpcWeb);
    } catch (error) {
      await grpc?.close();
      await https?.close();
      await abandon();
      if (error instanceof SettingsError) throw error;
      throw portError(`Cannot serve gRPC over TLS on ${settings.host}:${settings.grpcTlsPort}`, 'grpcTlsPort', error);
    }
    controls.sdkEndpoint = sdkEndpoint(settings.endpoint, settings.host, grpcTls.port);
    controls.tlsAuthority ??= grpcTls.authority;
  }
  let testAdmin: TestAdminPort | undefined;
  if (settings.testAdminPort !== undefined) {
    try {
      const { startTestAdmin } = await import('./grpc/test-admin.js');
      testAdmin = await startTestAdmin(settings.host, settings.testAdminPort, grpcWeb.reachability, {
        adminKey: settings.adminKey,
        log: context.log,
        events: context.events,
        clock: context.clock,
      });
    } catch (error) {
      await grpcTls?.close();
      await grpc?.close();
      await https?.close();
      await abandon();
      throw portError(
        `Cannot listen for test-admin on ${settings.host}:${settings.testAdminPort}`,
        'testAdminPort',
        error,
      );
    }
  }
  // Health says ready only now, with every door serving.
  controls.started = true;
  let closing: Promise<void> | undefined;
  let draining: Promise<void> | undefined;
  const saveState = async (path: string) => {
    try {
      await writeStateFile(path, controls.snapshot());
      context.log.info({ stateFile: path }, `state saved to ${path}`);
    } catch (error) {
      context.log.error({ stateFile: path }, (error as Error).message);
      throw error;
    }
  };
  // Answer every waiting subscriber and let the answers leave (bounded); sockets stay open.
  const drain = () =>
    (draining ??= (async () => {
      // --state-file: the state as it is now, before the stop clears it; written while answers flush.
      const saving = settings.stateFile === undefined ? undefined : saveState(settings.stateFile);
      saving?.catch(() => undefined); // awaited below, after the answers have flushed
      controls.dispose(); // delayed requests and scheduled faults must not hold a stop
      // Long-polls get their empty answer; streams end UNAVAILABLE, which the SDKs retry.
      const answered = context.waiting.answerAll(shuttingDown());
      const grpcClosed = Promise.all([grpcTls?.close(), grpc?.close()]);
      const testAdminClosed = testAdmin?.close();
      const httpsClosed = https?.close();
      const released = context.store.release(); // a shared store keeps its data
      let bound: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(answered.map((s) => s.flushed())),
        new Promise((resolve) => (bound = setTimeout(resolve, FLUSH_BOUND_MS))),
      ]);
      clearTimeout(bound);
      await released;
      await grpcClosed;
      await testAdminClosed;
      await httpsClosed;
      await saving;
    })());
  return {
    url,
    ...(grpc ? { grpcEndpoint: `${hostForUrl(settings.host)}:${grpc.port}` } : {}),
    ...(testAdmin ? { testAdminPort: testAdmin.port } : {}),
    ...(controls.sdkEndpoint !== undefined ? { grpcTlsEndpoint: controls.sdkEndpoint } : {}),
    ...(controls.sdkEndpoint !== undefined && settings.apiKeys[0] !== undefined
      ? { sdkKey: await sdkKey(settings.apiKeys[0], signingKeyBytes(settings.signingKey), controls.sdkEndpoint) }
      : {}),
    ...(https ? { httpsUrl: `https://localhost:${https.port}` } : {}),
    ...(controls.tlsAuthority !== undefined ? { tlsAuthority: controls.tlsAuthority } : {}),
    apiKey: settings.apiKeys[0]!,
    settings,
    app,
    context,
    ...controlApi(controls),
    drain,
    close() {
      closing ??= (async () => {
        try {
          await drain();
        } finally {
          await app.close();
        }
      })();
      return closing;
    },
  };
}
