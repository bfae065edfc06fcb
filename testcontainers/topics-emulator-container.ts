import { randomBytes } from 'node:crypto';
import { extname } from 'node:path';
import { AbstractStartedContainer, GenericContainer, Wait } from 'testcontainers';
import type { StartedTestContainer } from 'testcontainers';

// The emulator as a testcontainers module, shaped like the @testcontainers/* modules: fluent
// with*() options on the container, connection details and the control plane on the started one.

/** The port the image listens on (its TOPICS_EMULATOR_PORT). */
export const TOPICS_EMULATOR_PORT = 4545;
/** The image `docker build -t topics-emulator .` makes from this repository. */
export const DEFAULT_TOPICS_EMULATOR_IMAGE = 'topics-emulator:latest';
/** The emulator's default API key: full access to every cache. */
export const DEFAULT_API_KEY = 'topics-emulator-dev-key';
/** The header the control plane reads the admin key from. */
export const ADMIN_KEY_HEADER = 'X-Emulator-Admin-Key';

const SCENARIO_DIR = '/tmp/topics-emulator';

/** A scenario: a path to a YAML or JSON file on this machine, or the scenario itself as an object. */
export type ScenarioSource = string | Record<string, unknown>;

/** A fault rule of the control plane (POST /_emulator/faults); see openapi/control.yaml. */
export interface FaultRule {
  operation?: 'publish' | 'subscribe' | 'any';
  cache?: string;
  topic?: string;
  status?: number;
  retryAfterSeconds?: number;
  count?: number;
  [field: string]: unknown;
}

/** A token request of the control plane (POST /_emulator/tokens). */
export interface TokenRequest {
  permissions: Array<{ role: 'publishsubscribe' | 'subscribeonly' | 'publishonly'; cache: string; topic?: string; topicPrefix?: string }>;
  ttlSeconds?: number;
  tokenId?: string;
  [field: string]: unknown;
}

export interface IssuedToken {
  token: string;
  expiresAt: string;
  [field: string]: unknown;
}

export class TopicsEmulatorContainer extends GenericContainer {
  private apiKey = DEFAULT_API_KEY;
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
    if (this.exposedPorts.length === 0) this.withExposedPorts(TOPICS_EMULATOR_PORT);
    if (this.waitStrategy === undefined) {
      this.withWaitStrategy(Wait.forHttp('/_emulator/health', TOPICS_EMULATOR_PORT).forStatusCode(200));
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

  public getAdminKey(): string {
    return this.adminKey;
  }

  /** Back to a clean start: topics, messages, faults, issued tokens, the clock. */
  public async reset(): Promise<void> {
    await this.control('POST', '/_emulator/reset');
  }

  /** Evicts and recreates a topic now (a new page); returns the control plane's answer. */
  public async resetTopic(cache: string, topic: string): Promise<Record<string, unknown>> {
    return this.control('POST', `/_emulator/topics/${encodeURIComponent(cache)}/${encodeURIComponent(topic)}/reset`);
  }

  /** Adds a fault rule; returns the control plane's answer, which includes the rule's id. */
  public async injectFault(rule: FaultRule): Promise<Record<string, unknown>> {
    return this.control('POST', '/_emulator/faults', rule);
  }

  /** Moves the emulator's virtual clock forward. */
  public async advanceClock(ms: number): Promise<Record<string, unknown>> {
    return this.control('POST', '/_emulator/clock', { advanceMs: ms });
  }

  /** Signs a token with the given permissions. */
  public async issueToken(request: TokenRequest): Promise<IssuedToken> {
    return (await this.control('POST', '/_emulator/tokens', request)) as IssuedToken;
  }

  /** Any other control-plane call: the admin key is sent, JSON in and out. */
  public async control(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
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
    const json = (typeof parsed === 'object' && parsed !== null ? parsed : { value: parsed }) as Record<string, unknown>;
    if (!response.ok) {
      const code = typeof json['code'] === 'string' ? json['code'] : undefined;
      const message = typeof json['message'] === 'string' ? json['message'] : text;
      throw new ControlPlaneError(response.status, code, `${method} ${path} -> ${response.status} ${code ?? ''}: ${message}`);
    }
    return json;
  }
}
