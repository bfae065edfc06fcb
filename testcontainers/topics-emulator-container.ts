import { randomBytes } from 'node:crypto';
import { extname } from 'node:path';
import { AbstractStartedContainer, GenericContainer, Wait } from 'testcontainers';
import type { StartedTestContainer } from 'testcontainers';
import type {
  ClientList,
  ClockInput,
  Fault,
  FaultRuleInput,
  IssuedToken,
  RequestCount,
  RequestList,
  RequestMatcher,
  Snapshot,
  TokenRequest,
  TopicMessages,
  TopicResetInput,
} from '../openapi/generated/control-types.js';

// The emulator as a testcontainers module, shaped like the @testcontainers/* modules: fluent
// with*() options on the container, connection details and the control plane on the started one.

/** The port the image listens on (its TOPICS_EMULATOR_PORT). */
export const TOPICS_EMULATOR_PORT = 4545;
/** The gRPC door for the provider's SDKs (plaintext), as the image sets it. */
export const TOPICS_EMULATOR_GRPC_PORT = 4546;
/** momento-local's test-admin port (GET /block, /unblock), when started withTestAdmin(). */
export const TOPICS_EMULATOR_TEST_ADMIN_PORT = 9090;
/** The same service over TLS when HTTPS is on (withHttps()), as the image sets it. */
export const TOPICS_EMULATOR_HTTPS_PORT = 4547;
/** The image `docker build -t topics-emulator .` makes from this repository. */
export const DEFAULT_TOPICS_EMULATOR_IMAGE = 'topics-emulator:latest';
/** The emulator's default API key: full access to every cache. */
export const DEFAULT_API_KEY = 'topics-emulator-dev-key';
/** The header the control plane reads the admin key from. */
export const ADMIN_KEY_HEADER = 'X-Emulator-Admin-Key';

const SCENARIO_DIR = '/tmp/topics-emulator';

/** The query filters of GET /_emulator/requests. */
export interface RequestFilters {
  plane?: 'service' | 'control';
  operation?: string;
  cache?: string;
  topic?: string;
  status?: number;
  client?: string;
  /** A date-time or clock milliseconds. */
  since?: string | number;
  afterId?: number;
  limit?: number;
}

/** A scenario: a path to a YAML or JSON file on this machine, or the scenario itself as an object. */
export type ScenarioSource = string | Record<string, unknown>;

// The control plane's shapes are the ones generated from openapi/control.yaml; the emulator
// validates every body (400 invalid_body names what is wrong).

/** A fault rule (POST /_emulator/faults), e.g. `{ operation: 'publish', status: 429, count: 1 }`. */
export type FaultRule = FaultRuleInput;

/** When a topic reset happens: now (no schedule), after message K, or after some clock time. */
export type TopicResetSchedule = TopicResetInput;

export type ClockChange = ClockInput;

export type { Fault, IssuedToken, TokenRequest };

export type ControlAnswer = Record<string, unknown>;

export class TopicsEmulatorContainer extends GenericContainer {
  private apiKey = DEFAULT_API_KEY;
  private https = false;
  private testAdmin = false;
  // A fresh key per container: the control plane needs one when the emulator listens beyond loopback.
  private adminKey = randomBytes(18).toString('base64url');

  constructor(image = DEFAULT_TOPICS_EMULATOR_IMAGE) {
    super(image);
  }

  /** The caches the emulator serves (default: default-cache). */
  public withCaches(...caches: string[]): this {
    if (caches.length === 0) throw new TypeError('withCaches needs at least one cache name');
    for (const cache of caches) {
      // The environment variable is a comma-separated list.
      if (cache.length === 0 || cache.includes(',')) throw new TypeError(`invalid cache name '${cache}'`);
    }
    return this.withEnvironment({ TOPICS_EMULATOR_CACHES: caches.join(',') });
  }

  /** The API key the emulator accepts (replacing the default dev key); getApiKey() returns it. */
  public withApiKey(apiKey: string): this {
    if (apiKey.length === 0 || apiKey.includes(',')) throw new TypeError('invalid API key');
    this.apiKey = apiKey;
    return this.withEnvironment({ TOPICS_EMULATOR_API_KEYS: apiKey });
  }

  /** The control plane's admin key (default: a random one per container). */
  public withAdminKey(adminKey: string): this {
    if (adminKey.length === 0) throw new TypeError('invalid admin key');
    this.adminKey = adminKey;
    return this;
  }

  /**
   * The same service over TLS on 4547, with a certificate for localhost, *.localhost and
   * api.cache.localhost signed by the container's own local authority (getTlsAuthority()).
   */
  public withHttps(): this {
    this.https = true;
    return this.withEnvironment({ TOPICS_EMULATOR_HTTPS_PORT: String(TOPICS_EMULATOR_HTTPS_PORT) });
  }

  /**
   * momento-local's test-admin port on 9090 (GET /block makes the gRPC door unreachable, GET
   * /unblock restores it), for SDK tests that use the SDK's TestAdminClient: getTestAdminPort().
   * It needs the admin key (X-Emulator-Admin-Key), as the control plane does.
   */
  public withTestAdmin(): this {
    this.testAdmin = true;
    return this.withEnvironment({ TOPICS_EMULATOR_TEST_ADMIN_PORT: String(TOPICS_EMULATOR_TEST_ADMIN_PORT) });
  }

  /** A scenario the emulator loads at start: a YAML/JSON file on this machine, or an object. */
  public withScenario(scenario: ScenarioSource): this {
    let target: string;
    if (typeof scenario === 'string') {
      target = `${SCENARIO_DIR}/scenario${extname(scenario) || '.yaml'}`;
      this.withCopyFilesToContainer([{ source: scenario, target, mode: 0o644 }]);
    } else {
      target = `${SCENARIO_DIR}/scenario.json`;
      this.withCopyContentToContainer([{ content: JSON.stringify(scenario), target, mode: 0o644 }]);
    }
    return this.withEnvironment({ TOPICS_EMULATOR_SCENARIO: target });
  }

  protected override async beforeContainerCreated(): Promise<void> {
    this.withEnvironment({ TOPICS_EMULATOR_ADMIN_KEY: this.adminKey });
    if (this.exposedPorts.length === 0)
      this.withExposedPorts(
        TOPICS_EMULATOR_PORT,
        TOPICS_EMULATOR_GRPC_PORT,
        ...(this.https ? [TOPICS_EMULATOR_HTTPS_PORT] : []),
        ...(this.testAdmin ? [TOPICS_EMULATOR_TEST_ADMIN_PORT] : []),
      );
    if (this.waitStrategy === undefined) {
      // abortOnContainerExit: a configuration error ends the container; say so at once, not after the timeout.
      this.withWaitStrategy(
        Wait.forHttp('/_emulator/health', TOPICS_EMULATOR_PORT, { abortOnContainerExit: true }).forStatusCode(200),
      );
    }
    if (this.startupTimeoutMs === undefined) this.withStartupTimeout(60_000);
  }

  public override async start(): Promise<StartedTopicsEmulatorContainer> {
    return new StartedTopicsEmulatorContainer(await super.start(), this.apiKey, this.adminKey);
  }
}

/** Thrown when the control plane answers with an error; carries its status and JSON error code. */
export class ControlPlaneError extends Error {
  override name = 'ControlPlaneError';
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

export class StartedTopicsEmulatorContainer extends AbstractStartedContainer {
  constructor(
    startedTestContainer: StartedTestContainer,
    private readonly apiKey: string,
    private readonly adminKey: string,
  ) {
    super(startedTestContainer);
  }

  public getPort(): number {
    return this.startedTestContainer.getMappedPort(TOPICS_EMULATOR_PORT);
  }

  /** `http://host:port`, no trailing slash: the base URL of the Topics HTTP API. */
  public getBaseUrl(): string {
    return `http://${this.getHost()}:${this.getPort()}`;
  }

  public getApiKey(): string {
    return this.apiKey;
  }

  /**
   * Where the provider's SDKs connect (plaintext gRPC), as `CredentialProvider.forMomentoLocal`
   * takes it: `forMomentoLocal(container.getGrpcEndpoint())`.
   */
  public getGrpcEndpoint(): { hostname: string; port: number } {
    return { hostname: this.getHost(), port: this.startedTestContainer.getMappedPort(TOPICS_EMULATOR_GRPC_PORT) };
  }

  /** The mapped test-admin port (GET /block, /unblock with the admin key), when started withTestAdmin(). */
  public getTestAdminPort(): number {
    return this.startedTestContainer.getMappedPort(TOPICS_EMULATOR_TEST_ADMIN_PORT);
  }

  /** `https://localhost:port` (the mapped HTTPS port), when started withHttps(). */
  public getHttpsUrl(): string {
    return `https://localhost:${this.startedTestContainer.getMappedPort(TOPICS_EMULATOR_HTTPS_PORT)}`;
  }

  /** The container's local certificate authority (PEM), for clients of getHttpsUrl() to trust (`ca`, NODE_EXTRA_CA_CERTS). */
  public async getTlsAuthority(): Promise<string> {
    const response = await fetch(`${this.getBaseUrl()}/_emulator/tls/ca.pem`);
    if (!response.ok) throw new ControlPlaneError(response.status, 'route_not_found', await response.text());
    return response.text();
  }

  public getAdminKey(): string {
    return this.adminKey;
  }

  /** Back to a clean start without a restart: topics, messages, faults, token withdrawals, the clock. */
  public async reset(): Promise<ControlAnswer> {
    return this.control('POST', '/_emulator/reset');
  }

  /** Everything the emulator holds now: topics, waiting subscribers, faults, the clock. */
  public async getState(): Promise<ControlAnswer> {
    return this.control('GET', '/_emulator/state');
  }

  /** Evicts and recreates a topic (a page change), now or when scheduled. */
  public async resetTopic(cache: string, topic: string, schedule?: TopicResetSchedule): Promise<ControlAnswer> {
    return this.control(
      'POST',
      `/_emulator/topics/${encodeURIComponent(cache)}/${encodeURIComponent(topic)}/reset`,
      schedule,
    );
  }

  /** Adds a fault rule; the answer carries its id. */
  public async injectFault(rule: FaultRule): Promise<Fault> {
    return (await this.control('POST', '/_emulator/faults', rule)) as unknown as Fault;
  }

  public async removeFault(id: string): Promise<ControlAnswer> {
    return this.control('DELETE', `/_emulator/faults/${encodeURIComponent(id)}`);
  }

  public async clearFaults(): Promise<ControlAnswer> {
    return this.control('DELETE', '/_emulator/faults');
  }

  /** Moves the emulator's clock forward (waiting long-polls past their timeout are answered at once). */
  public async advanceClock(ms: number): Promise<ControlAnswer> {
    return this.setClock({ advanceMs: ms });
  }

  /** Freezes, sets, advances the clock, or returns it to real time. */
  public async setClock(change: ClockChange): Promise<ControlAnswer> {
    return this.control('POST', '/_emulator/clock', change);
  }

  /** Signs a token with the given permissions. */
  public async issueToken(request: TokenRequest): Promise<IssuedToken> {
    return (await this.control('POST', '/_emulator/tokens', request)) as unknown as IssuedToken;
  }

  /** Every token with this id expires (401 expired_token), now or after `afterMs` of clock time. */
  public async expireToken(tokenId: string, afterMs?: number): Promise<ControlAnswer> {
    return this.control(
      'POST',
      `/_emulator/tokens/${encodeURIComponent(tokenId)}/expire`,
      afterMs === undefined ? undefined : { afterMs },
    );
  }

  /** Every token with this id is revoked (401 invalid_token), now or after `afterMs` of clock time. */
  public async revokeToken(tokenId: string, afterMs?: number): Promise<ControlAnswer> {
    return this.control(
      'POST',
      `/_emulator/tokens/${encodeURIComponent(tokenId)}/revoke`,
      afterMs === undefined ? undefined : { afterMs },
    );
  }

  /** Journalled requests, newest first, with GET /_emulator/requests's filters (countRequests takes the full matcher). */
  public async requests(filters: RequestFilters = {}): Promise<RequestList> {
    const query = new URLSearchParams(Object.entries(filters).map(([key, value]) => [key, String(value)]));
    const suffix = query.size > 0 ? `?${query}` : '';
    return (await this.control('GET', `/_emulator/requests${suffix}`)) as unknown as RequestList;
  }

  /** How many journalled requests the matcher accepts, e.g. "exactly one publish to t". */
  public async countRequests(matcher: RequestMatcher = {}): Promise<number> {
    return ((await this.control('POST', '/_emulator/requests/count', matcher)) as unknown as RequestCount).count;
  }

  /** Every client in the journal, judged by the client rules (GET /_emulator/clients). */
  public async clients(): Promise<ClientList> {
    return (await this.control('GET', '/_emulator/clients')) as unknown as ClientList;
  }

  /** A topic's retained messages, oldest first, as previews (GET /_emulator/topics/{cache}/{topic}/messages). */
  public async topicMessages(cacheName: string, topicName: string): Promise<TopicMessages> {
    const path = `/_emulator/topics/${encodeURIComponent(cacheName)}/${encodeURIComponent(topicName)}/messages`;
    return (await this.control('GET', path)) as unknown as TopicMessages;
  }

  /** The whole state as one document (GET /_emulator/snapshot). */
  public async snapshot(): Promise<Snapshot> {
    return (await this.control('GET', '/_emulator/snapshot')) as unknown as Snapshot;
  }

  /** Replaces the whole state with a snapshot (PUT /_emulator/snapshot). */
  public async restore(snapshot: Snapshot): Promise<ControlAnswer> {
    return this.control('PUT', '/_emulator/snapshot', snapshot);
  }

  /** Any other control-plane call: the admin key is sent, JSON in and out. */
  public async control(method: string, path: string, body?: unknown): Promise<ControlAnswer> {
    const headers: Record<string, string> = { [ADMIN_KEY_HEADER]: this.adminKey };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.getBaseUrl()}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text.length > 0 ? JSON.parse(text) : {};
    } catch {
      parsed = { message: text };
    }
    const json = (typeof parsed === 'object' && parsed !== null ? parsed : { value: parsed }) as ControlAnswer;
    if (!response.ok) {
      const code = typeof json['code'] === 'string' ? json['code'] : undefined;
      const message = typeof json['message'] === 'string' ? json['message'] : text;
      throw new ControlPlaneError(
        response.status,
        code,
        `${method} ${path} -> ${response.status} ${code ?? ''}: ${message}`,
      );
    }
    return json;
  }
}
