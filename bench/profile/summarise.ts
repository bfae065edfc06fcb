import { readFileSync } from 'node:fs';

// Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time per function and per area
// (a package in node_modules, a file of ours, node's internals, GC), largest first.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Cost {
  name: string;
  selfMs: number;
  /** Share of the busy time (idle excluded). */
  share: number;
}

export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  functions: Cost[];
  areas: Cost[];
  /** Self plus callees, for the project's own functions (dist/ and bench/baselines/). */
  ownInclusive: Cost[];
}

function areaOf(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)') return 'V8/native (program)';
  if (url === '') return `native: ${functionName || '(anonymous)'}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg?.[1] !== undefined) return pkg[1];
  if (url.startsWith('node:')) return 'node internals';
  const ours = /\/(dist\/[^?#]+|bench\/[^?#]+)$/.exec(url);
  return ours?.[1] ?? url;
}

function shortUrl(url: string): string {
  const pkg = /node_modules\/(.+)$/.exec(url);
  if (pkg?.[1] !== undefined) return pkg[1];
  const ours = /\/((?:dist|bench)\/.+)$/.exec(url);
  return ours?.[1] ?? url;
}

function ranked(costs: Map<string, number>, busyMs: number, top: number): Cost[] {
  return [...costs]
    .map(([name, selfMs]) => ({ name, selfMs, share: busyMs > 0 ? selfMs / busyMs : 0 }))
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, top);
}

function nameOf(frame: ProfileNode['callFrame']): string {
  const where = frame.url === '' ? '' : ` ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
  return `${frame.functionName || '(anonymous)'}${where}`;
}

/** Inclusive time of the project's own functions, counting a function once per stack (recursion). */
function ownInclusive(profile: CpuProfile, selfUs: Map<number, number>): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const isOwn = (url: string): boolean => /\/dist\/emulator\/|\/bench\/baselines\//.test(url);
  const totals = new Map<string, number>();
  const walk = (id: number, open: Set<string>): number => {
    const node = byId.get(id) as ProfileNode;
    const name = isOwn(node.callFrame.url) ? nameOf(node.callFrame) : undefined;
    const entered = name !== undefined && !open.has(name);
    if (entered) open.add(name);
    let us = selfUs.get(id) ?? 0;
    for (const child of node.children ?? []) us += walk(child, open);
    if (entered) {
      open.delete(name);
      totals.set(name, (totals.get(name) ?? 0) + us / 1000);
    }
    return us;
  };
  const root = profile.nodes[0];
  if (root !== undefined) walk(root.id, new Set());
  return totals;
}

export function summariseProfile(path: string, top = 20): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const functions = new Map<string, number>();
  const areas = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  for (const [id, us] of selfUs) {
    const frame = (byId.get(id) as ProfileNode).callFrame;
    const ms = us / 1000;
    totalMs += ms;
    if (frame.functionName === '(idle)') {
      idleMs += ms;
      continue;
    }
    const name = nameOf(frame);
    functions.set(name, (functions.get(name) ?? 0) + ms);
    const area = areaOf(frame.url, frame.functionName);
    areas.set(area, (areas.get(area) ?? 0) + ms);
  }
  const busyMs = totalMs - idleMs;
  return {
    totalMs,
    idleMs,
    functions: ranked(functions, busyMs, top),
    areas: ranked(areas, busyMs, top),
    ownInclusive: ranked(ownInclusive(profile, selfUs), busyMs, top),
  };
}

export function formatSummary(summary: ProfileSummary): string {
  const line = (cost: Cost): string =>
    `| ${(cost.share * 100).toFixed(1).padStart(5)}% | ${cost.selfMs.toFixed(0).padStart(6)} ms | ${cost.name} |`;
  return [
    `busy ${(summary.totalMs - summary.idleMs).toFixed(0)} ms of ${summary.totalMs.toFixed(0)} ms profiled`,
    '',
    '| self (share of busy) | self | function |',
    '|---:|---:|---|',
    ...summary.functions.map(line),
    '',
    '| self (share of busy) | self | area |',
    '|---:|---:|---|',
    ...summary.areas.map(line),
    '',
    '| inclusive (share of busy) | inclusive | own function, with what it calls |',
    '|---:|---:|---|',
    ...summary.ownInclusive.map(line),
  ].join('\n');
}
