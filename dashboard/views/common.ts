import type { State } from '../../openapi/generated/control-types.js';
import { html } from '../html.js';

/** What every view gets: the state, and a way to run an action (its outcome is shown for it). */
export interface ViewProps {
  state: State;
  run: (label: string, action: () => Promise<unknown>) => Promise<boolean>;
}

export type TopicKey = { cache: string; topic: string };

/** A form's fields as strings, the empty ones left out. */
export function fieldsOf(form: HTMLFormElement): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const element of Array.from(form.elements)) {
    if (!(
      element instanceof HTMLInputElement ||
      element instanceof HTMLSelectElement ||
      element instanceof HTMLTextAreaElement
    ))
      continue;
    if (!element.name || (element instanceof HTMLInputElement && element.type === 'checkbox' && !element.checked))
      continue;
    const value = element instanceof HTMLInputElement && element.type === 'checkbox' ? 'on' : element.value.trim();
    if (value !== '') fields[element.name] = value;
  }
  return fields;
}

/** The number a field holds, or undefined when left empty. */
export function numberField(fields: Record<string, string>, name: string): number | undefined {
  return fields[name] === undefined ? undefined : Number(fields[name]);
}

/** The members that are not undefined (an optional member is then absent, not undefined). */
export type DefinedOnly<T> = { [K in keyof T]?: Exclude<T[K], undefined> };

export function definedOnly<T extends object>(value: T): DefinedOnly<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as DefinedOnly<T>;
}

export const onSubmit = (handle: (form: HTMLFormElement) => void) => (event: Event) => {
  event.preventDefault();
  handle(event.currentTarget as HTMLFormElement);
};

export function Empty({ children }: { children: unknown }) {
  return html`<p class="empty">${children}</p>`;
}

export function Panel({
  title,
  id,
  children,
  actions,
}: {
  title: string;
  id: string;
  children: unknown;
  actions?: unknown;
}) {
  return html`<section class="panel" aria-labelledby=${`${id}-title`}>
    <header class="panel-head">
      <h2 id=${`${id}-title`}>${title}</h2>
      ${actions ?? null}
    </header>
    ${children}
  </section>`;
}

/** A column heading: its text, and a class (e.g. `opt` for columns a narrow window hides). */
export type Column = string | { label: string; className?: string; hidden?: boolean };

/** A table of rows under column headings, scrolling sideways on a narrow window. */
export function Table({
  columns,
  children,
  className,
  label,
  wrap = 'table-wrap',
}: {
  columns: Column[];
  children: unknown;
  className?: string;
  label?: string;
  wrap?: string;
}) {
  const heading = (column: Column) => {
    const { label: text, className: cls, hidden } = typeof column === 'string' ? { label: column } : column;
    return html`<th scope="col" class=${cls}>${hidden ? html`<span class="sr-only">${text}</span>` : text}</th>`;
  };
  return html`<div class=${wrap}>
    <table class=${className} aria-label=${label}>
      <thead>
        <tr>
          ${columns.map(heading)}
        </tr>
      </thead>
      <tbody>
        ${children}
      </tbody>
    </table>
  </div>`;
}
