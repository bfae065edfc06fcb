import controlDocument from '../../openapi/generated/control.json' with { type: 'json' };

// A control operation's query string as the document declares it (openapi/control.yaml): only
// the operation's own query parameters, each a string its route's validator has already checked
// against the parameter's pattern; those marked `x-emulator-as: integer` (or `boolean`) as numbers
// (or booleans). Nothing here
// lists a parameter: a new one in the document reaches its operation.

interface QueryParameter {
  name: string;
  in: string;
  'x-emulator-as'?: 'integer' | 'boolean';
}

type Operations = Record<string, Record<string, { operationId?: string; parameters?: QueryParameter[] }>>;

type QueryValue = string | number | boolean;

const readers = new Map<string, (query: unknown) => Record<string, QueryValue>>();

const as = { integer: Number, boolean: (value: string) => value === 'true' };

function parametersOf(operationId: string): QueryParameter[] {
  for (const item of Object.values(controlDocument.paths as unknown as Operations))
    for (const operation of Object.values(item))
      if (operation.operationId === operationId) return (operation.parameters ?? []).filter((p) => p.in === 'query');
  throw new Error(`control.yaml has no operation '${operationId}'`);
}

/** The reader of one operation's query string, built once from the document. */
export function queryOf(operationId: string): (query: unknown) => Record<string, QueryValue> {
  let reader = readers.get(operationId);
  if (reader === undefined) {
    const parameters = parametersOf(operationId);
    reader = (query) => {
      const given = (query ?? {}) as Record<string, unknown>;
      const read: Record<string, QueryValue> = {};
      for (const { name, 'x-emulator-as': type } of parameters) {
        const value = given[name];
        if (typeof value === 'string') read[name] = type === undefined ? value : as[type](value);
      }
      return read;
    };
    readers.set(operationId, reader);
  }
  return reader;
}
