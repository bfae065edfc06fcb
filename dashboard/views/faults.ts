import { chaosKinds, faultCodes, faultStatuses, operations } from '../../openapi/generated/control-enums.js';
import type { Chaos, ChaosInput, Fault, FaultRuleInput } from '../../openapi/generated/control-types.js';
import { control } from '../api.js';
import { timeOf } from '../format.js';
import { html } from '../html.js';
import { definedOnly, Empty, fieldsOf, numberField, onSubmit, Panel, type ViewProps, Table } from './common.js';

// Fault rules (what each matches and does, with its counters), the form that injects one (every
// field of FaultRuleInput, its choices from the control document's enums), and seeded chaos.

export function ruleSummary(rule: FaultRuleInput): string {
  const where = [rule.cache ?? '*', rule.topic ?? (rule.topicPrefix ? `${rule.topicPrefix}*` : '*')].join('/');
  const effect = [
    rule.status !== undefined ? `${rule.status}${rule.code ? ` ${rule.code}` : ''}` : undefined,
    rule.drop ? 'drop' : undefined,
    rule.delayMs !== undefined ? `delay ${rule.delayMs} ms` : undefined,
  ].filter(Boolean);
  const when = [
    rule.tokenId !== undefined ? `token ${rule.tokenId}` : undefined,
    rule.afterItems !== undefined ? `after ${rule.afterItems} items` : undefined,
    rule.whileWaiting ? `while waiting${rule.waitedMs !== undefined ? ` ${rule.waitedMs} ms` : ''}` : undefined,
    rule.skip !== undefined ? `skip ${rule.skip}` : undefined,
    rule.probability !== undefined ? `p=${rule.probability}` : undefined,
    rule.count !== undefined ? `count ${rule.count}` : undefined,
  ].filter(Boolean);
  return `${rule.operation ?? 'any'} ${where} → ${effect.join(' + ')}${when.length ? ` (${when.join(', ')})` : ''}`;
}

function ruleFrom(form: HTMLFormElement): FaultRuleInput {
  const f = fieldsOf(form);
  const n = (name: string) => numberField(f, name);
  return definedOnly({
    operation: f.operation,
    cache: f.cache,
    topic: f.topic,
    topicPrefix: f.topicPrefix,
    tokenId: f.tokenId,
    status: n('status') as FaultRuleInput['status'],
    code: f.code as FaultRuleInput['code'],
    message: f.message,
    retryAfterSeconds: n('retryAfterSeconds'),
    drop: f.drop === 'on' ? true : undefined,
    delayMs: n('delayMs'),
    afterItems: n('afterItems'),
    whileWaiting: f.whileWaiting === 'on' ? true : undefined,
    waitedMs: n('waitedMs'),
    skip: n('skip'),
    count: n('count'),
    probability: n('probability'),
    seed: n('seed'),
    startAfterMs: n('startAfterMs'),
    durationMs: n('durationMs'),
  }) as FaultRuleInput;
}

function FaultRow({ fault, run }: { fault: Fault; run: ViewProps['run'] }) {
  return html`<tr data-fault=${fault.id}>
    <td><code>${fault.id}</code></td>
    <td>${ruleSummary(fault.rule)}</td>
    <td class="opt">${fault.armed ? 'armed' : 'not yet'}</td>
    <td class="num opt">${fault.matched}</td>
    <td class="num">${fault.fired}</td>
    <td class="num">${fault.remaining ?? '∞'}</td>
    <td>
      <button
        type="button"
        class="small"
        aria-label=${`Remove fault ${fault.id}`}
        onClick=${() => run('Remove fault', () => control('DELETE', `/_emulator/faults/${encodeURIComponent(fault.id)}`))}
      >
        Remove
      </button>
    </td>
  </tr>`;
}

const operationSelect = html`<label
  >Operation
  <select name="operation">
    <option value="">any</option>
    ${operations.filter((o) => o !== 'any').map((o) => html`<option>${o}</option>`)}
  </select></label
>`;
const input = (name: string, label: string, attrs: Record<string, unknown> = {}) =>
  html`<label>${label} <input name=${name} ...${attrs} /></label>`;
const numberInput = (name: string, label: string, min = 0, max?: number, step: number | 'any' = 1) =>
  input(name, label, { type: 'number', min, ...(max !== undefined ? { max } : {}), step });

export function FaultsPanel({ state, run }: ViewProps) {
  const submit = onSubmit(
    (form) => void run('Inject fault', () => control('POST', '/_emulator/faults', ruleFrom(form))),
  );
  return html`<${Panel}
    title="Faults"
    id="faults"
    actions=${
      state.faults.length > 0 || state.endedFaults.length > 0
        ? html`<button
            type="button"
            class="small"
            onClick=${() => run('Remove all faults', () => control('DELETE', '/_emulator/faults'))}
          >
            Remove all faults
          </button>`
        : null
    }
  >
    ${
      state.faults.length === 0
        ? html`<${Empty}>No fault rule is active.<//>`
        : html`<${Table}
            columns=${[
              'Id',
              'Rule',
              { label: 'State', className: 'opt' },
              { label: 'Matched', className: 'opt' },
              'Fired',
              'Left',
              { label: 'Actions', hidden: true },
            ]}
          >
            ${state.faults.map((fault) => html`<${FaultRow} key=${fault.id} fault=${fault} run=${run} />`)}
          <//>`
    }
    ${
      state.endedFaults.length === 0
        ? null
        : html`<h3>Ended</h3>
            <${Table}
              columns=${['Id', 'Rule', 'Fired', 'Ended', { label: 'When', className: 'opt' }]}
              className="ended"
            >
              ${state.endedFaults.map(
                (fault) =>
                  html`<tr key=${fault.id} data-ended-fault=${fault.id}>
                    <td><code>${fault.id}</code></td>
                    <td>${ruleSummary(fault.rule)}</td>
                    <td class="num">${fault.fired}</td>
                    <td>${fault.endedBecause ?? ''}</td>
                    <td class="opt time">${fault.endedAt ? timeOf(Date.parse(fault.endedAt)) : ''}</td>
                  </tr>`,
              )}
            <//>`
    }
    <form class="grid-form" onSubmit=${submit} aria-label="Inject a fault">
      <h3>Inject a fault</h3>
      <fieldset>
        <legend>Which requests</legend>
        ${operationSelect} ${input('cache', 'Cache', { list: 'caches', placeholder: 'any' })}
        ${input('topic', 'Topic', { placeholder: 'any' })} ${input('topicPrefix', 'Topic prefix')}
        ${input('tokenId', 'Token id')}
      </fieldset>
      <fieldset>
        <legend>Effect</legend>
        <label
          >Status
          <select name="status">
            <option value="">none</option>
            ${faultStatuses.map((s) => html`<option>${s}</option>`)}
          </select></label
        >
        <label
          >Code
          <select name="code">
            <option value="">default</option>
            ${faultCodes.map((c) => html`<option>${c}</option>`)}
          </select></label
        >
        ${input('message', 'Message', { maxlength: 500 })}
        ${numberInput('retryAfterSeconds', 'Retry-After (s)', 0, 86400)}
        <label class="check"><input type="checkbox" name="drop" /> Drop the connection</label>
        ${numberInput('delayMs', 'Delay (ms)', 1, 60000)}
      </fieldset>
      <fieldset>
        <legend>How often</legend>
        ${numberInput('count', 'Count', 1)} ${numberInput('skip', 'Skip first', 0)}
        ${input('probability', 'Probability', { type: 'number', min: 0, max: 1, step: 'any' })}
        ${numberInput('seed', 'Seed', 0, 4294967295)} ${numberInput('startAfterMs', 'Start after (ms)', 0)}
        ${numberInput('durationMs', 'Duration (ms)', 1)}
      </fieldset>
      <fieldset>
        <legend>Subscribe only</legend>
        ${numberInput('afterItems', 'After items', 1)}
        <label class="check"><input type="checkbox" name="whileWaiting" /> While waiting</label>
        ${numberInput('waitedMs', 'Waited (ms)', 0)}
      </fieldset>
      <div class="row"><button type="submit">Inject fault</button></div>
    </form>
    <datalist id="caches">${state.caches.map((c) => html`<option value=${c} />`)}</datalist>
  <//>`;
}

function chaosFrom(form: HTMLFormElement): ChaosInput {
  const f = fieldsOf(form);
  const kinds = chaosKinds.filter((k) => f[`kind-${k}`] === 'on');
  return definedOnly({
    seed: numberField(f, 'seed') ?? Math.floor(Math.random() * 2 ** 32),
    rate: numberField(f, 'rate'),
    kinds: kinds.length ? kinds : undefined,
    operation: f.operation as ChaosInput['operation'],
    cache: f.cache,
    topic: f.topic,
    maxDelayMs: numberField(f, 'maxDelayMs'),
  }) as ChaosInput;
}

function chaosLine(chaos: Chaos): string {
  const scope = [
    chaos.operation !== 'any' && chaos.operation,
    chaos.cache && `cache ${chaos.cache}`,
    chaos.topic && `topic ${chaos.topic}`,
  ].filter(Boolean);
  return `: seed ${chaos.seed}, rate ${chaos.rate}, kinds ${chaos.kinds?.join(', ')}${scope.length ? `, ${scope.join(', ')}` : ''}.`;
}

export function ChaosPanel({ state, run }: ViewProps) {
  const chaos = state.chaos;
  const submit = onSubmit((form) => void run('Start chaos', () => control('PUT', '/_emulator/chaos', chaosFrom(form))));
  return html`<${Panel} title="Chaos" id="chaos">
    <p class="status-line">
      ${chaos.enabled ? html`<strong class="on">On</strong>` : html`<strong class="off">Off</strong>`}
      ${chaos.enabled ? chaosLine(chaos) : null}
      ${chaos.enabled ? html` <span class="counter">${`${chaos.draws ?? 0} draws, ${chaos.injected ?? 0} injected`}</span>` : null}
    </p>
    <form class="grid-form" onSubmit=${submit} aria-label="Start chaos">
      <fieldset>
        <legend>Seeded chaos</legend>
        ${numberInput('seed', 'Seed', 0, 4294967295)}
        ${input('rate', 'Rate', { type: 'number', min: 0, max: 1, step: 'any', placeholder: '0.1' })} ${operationSelect}
        ${input('cache', 'Cache', { placeholder: 'any' })} ${input('topic', 'Topic', { placeholder: 'any' })}
        ${numberInput('maxDelayMs', 'Max delay (ms)', 1, 60000)}
      </fieldset>
      <fieldset class="kinds">
        <legend>Kinds (none checked: all)</legend>
        ${chaosKinds.map((k) => html`<label class="check"><input type="checkbox" name=${`kind-${k}`} /> ${k}</label>`)}
      </fieldset>
      <div class="row">
        <button type="submit">Start chaos</button>
        <button
          type="button"
          disabled=${!chaos.enabled}
          onClick=${() => run('Stop chaos', () => control('DELETE', '/_emulator/chaos'))}
        >
          Stop chaos
        </button>
      </div>
    </form>
  <//>`;
}
