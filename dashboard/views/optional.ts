import { useEffect, useState } from 'preact/hooks';
import { ApiError, optional } from '../api.js';
import { html } from '../html.js';
import { Empty, Panel } from './common.js';

// Views built on operations this version of the emulator may not have (the request journal,
// the client findings): a 404 shows "not available" instead of an error.

export type Loaded<T> =
  { kind: 'loading' } | { kind: 'unavailable' } | { kind: 'error'; message: string } | { kind: 'ok'; body: T };

/** GETs `path` now and whenever `version` changes. */
export function useOptional<T>(path: string, version: number): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ kind: 'loading' });
  useEffect(() => {
    let current = true;
    optional<T>(path).then(
      (body) => current && setLoaded(body === undefined ? { kind: 'unavailable' } : { kind: 'ok', body }),
      (error: unknown) =>
        current &&
        setLoaded({
          kind: 'error',
          message: error instanceof ApiError ? `${error.status} ${error.code ?? ''}: ${error.message}` : String(error),
        }),
    );
    return () => {
      current = false;
    };
  }, [path, version]);
  return loaded;
}

/** The panel while its operation has not answered, failed, or is not in this version. */
export function Unavailable({
  title,
  id,
  path,
  loaded,
}: {
  title: string;
  id: string;
  path: string;
  loaded: Loaded<unknown>;
}) {
  const text =
    loaded.kind === 'unavailable'
      ? `Not available in this version of the emulator (GET ${path} answered 404).`
      : loaded.kind === 'error'
        ? loaded.message
        : 'Loading…';
  return html`<${Panel} title=${title} id=${id}><${Empty}>${text}<//><//>`;
}
