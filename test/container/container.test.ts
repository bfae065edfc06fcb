import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CredentialProvider, TopicClient, TopicConfigurations, TopicPublish, TopicSubscribe } from '@gomomento/sdk';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  StartedTopicsEmulatorContainer,
  TopicsEmulatorContainer,
  TOPICS_EMULATOR_PORT,
} from '../../testcontainers/index.js';
import { expectRoundTrip, publish } from '../package/topics-round-trip.js';
import { checkFigure, mb } from '../helpers/figures.js';

// The image built from the Dockerfile, started through the testcontainers module, as a user's
// CI would. Run by `npm run test:container` (docker/test-container.sh), which prepares the engine
// and builds the image first. Without a Docker engine these tests FAIL, with the reason: a
// container test that passes without a container proves nothing. This is what docs/docker.md's
// `docker build` and `docker run` and docs/in-your-tests.md's testcontainers example do.

const run = promisify(execFile);
const image = process.env['TOPICS_EMULATOR_IMAGE'] ?? 'topics-emulator:test';

let container: StartedTopicsEmulatorContainer | undefined;
let containerLogs = '';

beforeAll(async () => {
  await run('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 20_000 }).catch(
    (error: { stderr?: string; message: string }) => {
      throw new Error(
        `CONTAINER TESTS FAILED: no Docker engine answers (DOCKER_HOST=${process.env['DOCKER_HOST'] ?? 'default'}): ` +
          `${error.stderr ?? error.message}\nRun them with \`npm run test:container\`, which starts one (docker/ci-setup.sh).`,
      );
    },
  );
  await run('docker', ['image', 'inspect', image], { timeout: 20_000 }).catch(() => {
    throw new Error(`CONTAINER TESTS FAILED: image ${image} is missing; \`npm run test:container\` builds it.`);
  });
  if (process.env['TESTCONTAINERS_RYUK_DISABLED'] !== 'true') {
    throw new Error(
      "CONTAINER TESTS FAILED: set TESTCONTAINERS_RYUK_DISABLED=true (Ryuk's image cannot be pulled here).",
    );
  }

  const startedAt = performance.now();
  try {
    container = await new TopicsEmulatorContainer(image)
      .withCaches('default-cache', 'orders')
      .withAdminKey('container-test-admin-key')
      .withTestAdmin()
      .withScenario({
        name: 'container-test',
        faults: [{ operation: 'publish', cache: 'default-cache', topic: 'scenario-fault', status: 503, count: 1 }],
      })
      .withLogConsumer((stream) => stream.on('data', (chunk: Buffer | string) => (containerLogs += chunk.toString())))
      .start();
  } catch (error) {
    throw new Error(`${(error as Error).message}\ncontainer output:\n${containerLogs}`);
  }
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  console.log(`TopicsEmulatorContainer.start() (create, start, health endpoint answering): ${seconds} s`);
}, 180_000);

afterAll(async () => {
  await container?.stop({ timeout: 10_000 });
});

function started(): StartedTopicsEmulatorContainer {
  if (!container) throw new Error('the container did not start');
  return container;
}

describe('TopicsEmulatorContainer', () => {
  it('publishes and subscribes through the mapped port', async () => {
    const emulator = started();
    expect(emulator.getBaseUrl()).toBe(`http://${emulator.getHost()}:${emulator.getMappedPort(TOPICS_EMULATOR_PORT)}`);
    expect(emulator.getApiKey()).toBe('topics-emulator-dev-key');
    await expectRoundTrip(emulator.getBaseUrl(), emulator.getApiKey(), 'default-cache', 'round-trip');
  });

  it('serves the provider’s SDK on the mapped gRPC port', async () => {
    const topics = new TopicClient({
      configuration: TopicConfigurations.Default.latest(),
      credentialProvider: CredentialProvider.forMomentoLocal(started().getGrpcEndpoint()),
    });
    const received: string[] = [];
    const subscription = await topics.subscribe('default-cache', 'from-the-sdk', {
      onItem: (item) => received.push(item.valueString()),
      onError: () => {},
    });
    try {
      // The first request waits for the next message: publish until the subscription has one.
      await vi.waitFor(
        async () => {
          await topics.publish('default-cache', 'from-the-sdk', 'hello over gRPC');
          expect(received).toContain('hello over gRPC');
        },
        { timeout: 10_000, interval: 200 },
      );
    } finally {
      if (subscription instanceof TopicSubscribe.Subscription) subscription.unsubscribe();
    }
  });

  it("serves momento-local's test-admin port (withTestAdmin): blocked, the SDK's calls fail; unblocked, they pass", async () => {
    const emulator = started();
    const admin = (path: string) =>
      fetch(`http://${emulator.getHost()}:${emulator.getTestAdminPort()}${path}`, {
        headers: { 'x-emulator-admin-key': 'container-test-admin-key' },
      });
    const topics = new TopicClient({
      configuration: TopicConfigurations.Default.latest(),
      credentialProvider: CredentialProvider.forMomentoLocal(emulator.getGrpcEndpoint()),
    });
    expect(await topics.publish('default-cache', 'test-admin', 'before')).toBeInstanceOf(TopicPublish.Success);
    expect(await (await admin('/block')).json()).toEqual({ blocked: true });
    try {
      expect(await topics.publish('default-cache', 'test-admin', 'blocked')).toBeInstanceOf(TopicPublish.Error);
    } finally {
      expect(await (await admin('/unblock')).json()).toEqual({ blocked: false });
    }
    await vi.waitFor(
      async () =>
        expect(await topics.publish('default-cache', 'test-admin', 'after')).toBeInstanceOf(TopicPublish.Success),
      { timeout: 15_000, interval: 200 },
    );
  });

  it('serves the caches given by withCaches and no others', async () => {
    const emulator = started();
    expect((await publish(emulator.getBaseUrl(), emulator.getApiKey(), 'orders', 'created', 'o-1')).status).toBe(204);
    const missing = await publish(emulator.getBaseUrl(), emulator.getApiKey(), 'no-such-cache', 'created', 'o-1');
    expect(missing.status).toBe(404);
  });

  it('runs as the unprivileged node user', async () => {
    const result = await started().exec(['id', '-u']);
    expect(result.exitCode).toBe(0);
    expect(result.output.trim()).toBe('1000');
  });

  it('refuses control-plane calls without the admin key, since it listens beyond loopback', async () => {
    const url = `${started().getBaseUrl()}/_emulator/reset`;
    const missing = await fetch(url, { method: 'POST', signal: AbortSignal.timeout(10_000) });
    expect(await missing.json(), `logs:\n${containerLogs}`).toMatchObject({ code: 'admin_key_required' });
    expect(missing.status).toBe(401);
    const wrong = await fetch(url, {
      method: 'POST',
      headers: { 'x-emulator-admin-key': 'wrong' },
      signal: AbortSignal.timeout(10_000),
    });
    expect(wrong.status).toBe(403);
  });

  it('answers the next publish with an injected 429, then recovers', async () => {
    const emulator = started();
    const topic = 'fault';
    const rule = await emulator.injectFault({
      operation: 'publish',
      cache: 'default-cache',
      topic,
      status: 429,
      retryAfterSeconds: 1,
      count: 1,
    });
    expect(typeof rule.id).toBe('string');

    const limited = await publish(emulator.getBaseUrl(), emulator.getApiKey(), 'default-cache', topic, 'm1');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    const body = (await limited.json()) as { code?: unknown; message?: unknown };
    expect(typeof body.code).toBe('string');
    expect(typeof body.message).toBe('string');

    const next = await publish(emulator.getBaseUrl(), emulator.getApiKey(), 'default-cache', topic, 'm2');
    expect(next.status).toBe(204);
  });

  it('loads the scenario given as an object: its fault answers the first publish', async () => {
    const emulator = started();
    const first = await publish(emulator.getBaseUrl(), emulator.getApiKey(), 'default-cache', 'scenario-fault', 'm1');
    expect(first.status, containerLogs).toBe(503);
    const second = await publish(emulator.getBaseUrl(), emulator.getApiKey(), 'default-cache', 'scenario-fault', 'm2');
    expect(second.status).toBe(204);
  });

  it('reset() clears topics: numbering restarts at 1 for the next message', async () => {
    const emulator = started();
    expect(
      (await publish(emulator.getBaseUrl(), emulator.getApiKey(), 'default-cache', 'reset-me', 'old')).status,
    ).toBe(204);
    await emulator.reset();
    expect(
      (await publish(emulator.getBaseUrl(), emulator.getApiKey(), 'default-cache', 'reset-me', 'new')).status,
    ).toBe(204);
    // A first request waits for the next message, so read from the start: 1 on page 0.
    const response = await fetch(
      `${emulator.getBaseUrl()}/topics/default-cache/reset-me?sequence_number=1&sequence_page=0`,
      {
        headers: { authorization: emulator.getApiKey() },
        signal: AbortSignal.timeout(10_000),
      },
    );
    const { items } = (await response.json()) as {
      items: Array<{ item?: { topic_sequence_number: number; value: unknown } }>;
    };
    // Numbering restarted: the message published after the reset is number 1 again.
    expect(items.find((element) => element.item)?.item).toMatchObject({
      topic_sequence_number: 1,
      value: { text: 'new' },
    });
  });

  it('verifies requests from the journal, judges clients, and round-trips a snapshot', async () => {
    const emulator = started();
    await emulator.reset();
    expect((await publish(emulator.getBaseUrl(), emulator.getApiKey(), 'default-cache', 'journal', 'x')).status).toBe(
      204,
    );
    expect(await emulator.countRequests({ operation: 'publish', topic: 'journal', status: 204 })).toBe(1);
    const { entries } = await emulator.requests({ operation: 'publish', limit: 5 });
    expect(entries.map((e) => [e.topic, e.status])).toEqual([['journal', 204]]);
    const { clients } = await emulator.clients();
    expect(clients.map((c) => c.counters.publishes)).toEqual([1]);
    const retained = await emulator.topicMessages('default-cache', 'journal');
    expect(retained.messages.map((m) => [m.sequenceNumber, m.value])).toEqual([[1, { text: 'x' }]]);
    const snapshot = await emulator.snapshot();
    await emulator.reset();
    await emulator.restore(snapshot);
    expect((await emulator.snapshot()).topics).toEqual(snapshot.topics);
    await expect(emulator.countRequests({ operation: 'publsh' })).rejects.toThrow(/400 invalid_body/);
  });
});

describe('TopicsEmulatorContainer.withScenario(file)', () => {
  it('copies a YAML scenario file into the container and loads it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'topics-scenario-'));
    const file = join(dir, 'outage.yaml');
    await writeFile(
      file,
      [
        'name: outage',
        'faults:',
        '  - operation: publish',
        '    topic: from-yaml',
        '    status: 500',
        '    count: 1',
        '',
      ].join('\n'),
    );
    const emulator = await new TopicsEmulatorContainer(image).withScenario(file).start();
    try {
      const first = await publish(emulator.getBaseUrl(), emulator.getApiKey(), 'default-cache', 'from-yaml', 'm1');
      expect(first.status).toBe(500);
      const second = await publish(emulator.getBaseUrl(), emulator.getApiKey(), 'default-cache', 'from-yaml', 'm2');
      expect(second.status).toBe(204);
    } finally {
      await emulator.stop({ timeout: 10_000 });
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('TopicsEmulatorContainer.withHttps()', () => {
  it("serves the same API over TLS on the mapped HTTPS port, trusted through the container's authority", async () => {
    const emulator = await new TopicsEmulatorContainer(image).withHttps().start();
    try {
      const ca = await emulator.getTlsAuthority();
      expect(ca).toContain('BEGIN CERTIFICATE');
      const dispatcher = new Agent({ connect: { ca } });
      const published = await undiciFetch(`${emulator.getHttpsUrl()}/topics/default-cache/over-tls`, {
        method: 'POST',
        headers: { authorization: emulator.getApiKey(), 'content-type': 'text/plain' },
        body: 'hello',
        dispatcher,
      });
      expect(published.status).toBe(204);
      const read = await undiciFetch(
        `${emulator.getHttpsUrl()}/topics/default-cache/over-tls?sequence_number=1&sequence_page=0`,
        { headers: { authorization: emulator.getApiKey() }, dispatcher },
      );
      expect(await read.json()).toMatchObject({ items: [{ item: { value: { text: 'hello' } } }] });
    } finally {
      await emulator.stop({ timeout: 10_000 });
    }
  }, 120_000);
});

describe('the image', () => {
  it('refuses to start beyond loopback with the control plane on and no admin key', async () => {
    // Named, so that the container goes even if the client times out (killing the client leaves it).
    const name = `topics-emulator-no-admin-key-${process.pid}`;
    try {
      const result = await run('docker', ['run', '--rm', '--name', name, image], { timeout: 30_000 }).then(
        ({ stdout, stderr }) => ({ failed: false, output: stdout + stderr }),
        (error: { stdout?: string; stderr?: string; message: string }) => ({
          failed: true,
          output: `${error.stdout ?? ''}${error.stderr ?? ''}` || error.message,
        }),
      );
      expect(result.failed, result.output).toBe(true);
      expect(result.output).toMatch(/admin.key/i);
    } finally {
      await run('docker', ['rm', '-f', name], { timeout: 30_000 }).catch(() => undefined);
    }
  }, 90_000);

  it('reports healthy through its HEALTHCHECK; prints its size and the time from start to healthy', async () => {
    const { stdout: size } = await run('docker', ['image', 'inspect', image, '--format', '{{.Size}}'], {
      timeout: 20_000,
    });
    const { stdout: created } = await run(
      'docker',
      ['create', '-p', `127.0.0.1::${TOPICS_EMULATOR_PORT}`, '-e', 'TOPICS_EMULATOR_ADMIN_KEY=health-test-key', image],
      { timeout: 30_000 },
    );
    const id = created.trim();
    // Docker's own event stream says when the container turns healthy: no polling here. --since
    // replays events from before the subscription took hold, so none is missed.
    const since = Math.floor(Date.now() / 1000 - 1).toString();
    const events = spawn(
      'docker',
      [
        'events',
        '--since',
        since,
        '--filter',
        `container=${id}`,
        '--filter',
        'event=health_status',
        '--format',
        '{{.Status}}',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const healthy = new Promise<number>((resolveTime, reject) => {
        const timer = setTimeout(() => reject(new Error('not healthy within 60 s')), 60_000);
        events.stdout.on('data', (chunk: Buffer) => {
          const text = chunk.toString();
          if (text.includes('health_status: healthy')) {
            clearTimeout(timer);
            resolveTime(performance.now());
          } else if (text.includes('unhealthy')) {
            clearTimeout(timer);
            reject(new Error(`the container reported: ${text.trim()}`));
          }
        });
      });
      await once(events, 'spawn');
      const startedAt = performance.now();
      await run('docker', ['start', id], { timeout: 30_000 });
      const healthyAt = await healthy;
      const { stdout: user } = await run('docker', ['inspect', id, '--format', '{{.Config.User}}'], {
        timeout: 20_000,
      });
      expect(user.trim()).toBe('node');
      // docs/docker.md's figure, written by this measurement (UPDATE_FIGURES=1).
      expect(checkFigure('image-size', Number(size), mb)).toBeUndefined();
      console.log(
        `image ${image}: ${(Number(size) / 1e6).toFixed(1)} MB; docker start to healthy: ${((healthyAt - startedAt) / 1000).toFixed(1)} s ` +
          '(the first health check runs one interval, 5 s, after start)',
      );
    } finally {
      events.kill();
      await run('docker', ['rm', '-f', id], { timeout: 30_000 });
    }
  }, 90_000);
});
