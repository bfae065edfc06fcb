// Counting and cutting the items of a subscribe response body, for "after N items" rules and
// the operations-per-second limit (each delivered item is an operation).
//
// Counting needs no parse: elements are JSON written by the emulator, and inside a string
// value every quote is escaped, so the text `{"item":` appears once per item and nowhere else.

const ITEM_MARK = '{"item":';

export function countItems(body: string): number {
  let n = 0;
  for (let at = body.indexOf(ITEM_MARK); at !== -1; at = body.indexOf(ITEM_MARK, at + ITEM_MARK.length)) n += 1;
  return n;
}

/** The body with its elements kept up to and including the `keep`-th item. */
export function keepItems(body: string, keep: number): string {
  const { items } = JSON.parse(body) as { items: Record<string, unknown>[] };
  const kept: Record<string, unknown>[] = [];
  let seen = 0;
  for (const element of items) {
    if (seen === keep) break;
    kept.push(element);
    if ('item' in element) seen += 1;
  }
  return JSON.stringify({ items: kept });
}
