// Many of the cache service's answers are one of two: found (with fields) or missing. Each has its
// own generated class with `_Found` and `_Missing` inside; this builds any of them from a value
// that is undefined when the item (or collection) is missing.

/** A generated found-or-missing answer class of `cache_client.Scs`. */
interface FoundOrMissingAnswer<Answer, Found, Missing, Fields> {
  new (data: { found: Found } | { missing: Missing }): Answer;
  _Found: new (fields: Fields) => Found;
  _Missing: new () => Missing;
}

/** `Answer` found, with `fieldsOf(value)`, or missing when `value` is undefined. */
export function foundOrMissing<Answer, Found, Missing, Fields, Value>(
  Answer: FoundOrMissingAnswer<Answer, Found, Missing, Fields>,
  value: Value | undefined,
  fieldsOf: (value: Value) => Fields,
): Answer {
  return value === undefined
    ? new Answer({ missing: new Answer._Missing() })
    : new Answer({ found: new Answer._Found(fieldsOf(value)) });
}
