import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parse } from 'yaml';
import { ENV_PREFIX, settingKeys, settingsTable } from '../../emulator/settings-table.js';

// The deployment examples for several replicas (docker/replicas/) are not run here (no image
// registry); they are parsed, and their names checked against the settings table.

const dir = new URL('../../docker/replicas/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, dir), 'utf8');
const settingEnvs = new Set(settingKeys.map((key) => `${ENV_PREFIX}${settingsTable[key].env}`));
/** What every replica must share to serve one emulator. */
const SHARED = ['store', 'storePrefix', 'caches', 'apiKeys', 'signingKey', 'adminKey'] as const;
const sharedEnvs = SHARED.map((key) => `${ENV_PREFIX}${settingsTable[key].env}`);

/** Names in `env` that are not settings: a misspelt variable is silently ignored by the emulator. */
const unknownNames = (names: string[]) => names.filter((name) => !settingEnvs.has(name));

type Compose = { services: Record<string, { build?: unknown; environment?: Record<string, string>; image?: string }> };

describe('docker/replicas/compose.yaml', () => {
  const compose = parse(read('compose.yaml')) as Compose;
  const replicas = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);

  it('runs two replicas built from the Dockerfile with the same settings, all of them known', () => {
    expect(replicas.map(([name]) => name)).toEqual(['emulator-1', 'emulator-2']);
    for (const [, service] of replicas) {
      expect(service.build).toBe('../..');
      expect(service.environment).toEqual(replicas[0]![1].environment);
      expect(unknownNames(Object.keys(service.environment!))).toEqual([]);
      expect(Object.keys(service.environment!)).toEqual(expect.arrayContaining(sharedEnvs));
    }
  });

  it('points the store at its Valkey service and the load balancer at both replicas', () => {
    const store = replicas[0]![1].environment![`${ENV_PREFIX}${settingsTable.store.env}`]!;
    expect(Object.keys(compose.services)).toContain(new URL(store).hostname);
    const nginx = read('nginx.conf');
    for (const [name] of replicas) expect(nginx).toMatch(new RegExp(`server ${name}:4545;`));
    expect(compose.services.nginx!.image).toMatch(/^nginx:/);
  });
});

describe('docker/replicas/kubernetes.yaml', () => {
  const [deployment, service] = parseAllDocuments(read('kubernetes.yaml')).map((d) => d.toJS()) as [any, any];

  it('is a Deployment of two replicas with known settings and a Service that selects them', () => {
    expect(deployment.kind).toBe('Deployment');
    expect(deployment.spec.replicas).toBe(2);
    const [container] = deployment.spec.template.spec.containers;
    const names: string[] = container.env.map((e: { name: string }) => e.name);
    expect(unknownNames(names)).toEqual([]);
    // The rest of what must be shared comes from one Secret, named in the file's instructions.
    const secret = read('kubernetes.yaml');
    for (const name of sharedEnvs)
      expect(names.includes(name) || secret.includes(`--from-literal=${name}=`)).toBe(true);
    expect(service.kind).toBe('Service');
    expect(service.spec.selector).toEqual(deployment.spec.template.metadata.labels);
    expect(container.ports[0].containerPort).toBe(service.spec.ports[0].targetPort);
  });
});
