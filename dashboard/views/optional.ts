import { useEffect, useState } from 'preact/hooks';
import { ApiError, optional } from '../api.js';

// Views built on operations this version of the emulator may not have yet (the request journal,
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

/** The list in an answer: the answer itself, or its first array member (e.g. `{requests: [...]}`). */
export function listIn(body: unknown, ...names: string[]): unknown[] {
  if (Array.isArray(body)) return body;
  const record = (body ?? {}) as Record<string, unknown>;
  for (const name of names) if (Array.isArray(record[name])) return record[name] as unknown[];
  return Object.values(record).find(Array.isArray) ?? [];
}
