import fc from 'fast-check';

// The requests the fuzz run sends: every route of both documents (topics and /_emulator/),
// reached with random methods, paths, query strings, headers, credentials and bodies. A case
// is plain data; send.ts decides how it travels (undici, or a bare socket when undici would
// refuse or normalise it).

export type Framing =
  /** Content-Length matches the body. */
  | 'length'
  /** Transfer-Encoding: chunked, chunks of random sizes. */
  | 'chunked'
  /** Content-Length larger than the body, then the client half-closes: a request cut short. */
  | 'short';

export interface FuzzCase {
  method: string;
  /** The request target exactly as sent. */
  target: string;
  headers: [string, string][];
  body: Buffer;
  framing: Framing;
  /** The body is written a few bytes at a time. */
  trickle: boolean;
}

/** Credentials the run knows: the real ones are only ever sent in the places logs must mask. */
export interface Secrets {
  apiKey: string;
  /** Tokens the emulator signed (portable and bare), and forged ones. */
  tokens: string[];
  /** A token that is valid but grants only subscribe on one topic. */
  narrowToken: string;
}

const ROUTE_TEMPLATES = [
  '/topics/{cache}/{topic}',
  '/_emulator/health',
  '/_emulator/reset',
  '/_emulator/state',
  '/_emulator/tokens',
  '/_emulator/tokens/{id}/expire',
  '/_emulator/tokens/{id}/revoke',
  '/_emulator/topics/{cache}/{topic}/reset',
  '/_emulator/clock',
  '/_emulator/faults',
  '/_emulator/faults/{id}',
  '/_emulator/limits',
  '/_emulator/chaos',
  '/_emulator/scenario',
] as const;

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];

const method = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...METHODS) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'get',
      'Post',
      'FOO',
      'M-SEARCH',
      'PROPFIND',
      'TRACE',
      'CONNECT',
      'G\u20acT',
      '',
      'GET GET',
    ),
  },
);

/** A path segment: ordinary, percent-encoded Unicode, raw Unicode, dots, empty, long, or hostile. */
const segment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('default-cache', 'other', 'no-such-cache', 't', 'topic-1', 'a.b-c_d~e') },
  { weight: 3, arbitrary: fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '.',
      '..',
      '%2e%2e',
      '%2E',
      '%2F',
      '%00',
      '%zz',
      '%',
      '%C0%AF',
      '%ED%A0%80',
      'a%2Fb',
      '*',
      '~',
      '+',
      '%20',
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 4000 }).map((n) => 'x'.repeat(n)) },
);

const numberText = fc.oneof(
  fc.nat().map(String),
  fc.integer({ min: -1_000_000, max: -1 }).map(String),
  fc.constantFrom(
    '0',
    '-0',
    '1.5',
    '1.0',
    '1e3',
    '1e400',
    'Infinity',
    'NaN',
    '0x10',
    '0b11',
    ' 1',
    '',
    'abc',
    '9007199254740991',
    '9007199254740992',
    '99999999999999999999999',
    '%31',
    '\u0661',
  ),
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
);

/** One query parameter: the two cursor numbers, the token (wherever the router reads it), or noise. */
function queryParameter(secrets: Secrets) {
  const token = fc.oneof(
    fc.constant(secrets.apiKey),
    fc.constantFrom(...secrets.tokens),
    fc.constant('wrong-token'),
    fc.constant(''),
  );
  return fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom('sequence_number', 'sequence_page'), numberText) },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom('token', 'tok%65n', 'TOKEN', '%74oken'), token.map(encodeURIComponent)),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.string({ maxLength: 6 }).map(encodeURIComponent),
        fc.string({ maxLength: 6 }).map(encodeURIComponent),
      ),
    },
  );
}

function target(secrets: Secrets) {
  const path = fc
    .tuple(fc.constantFrom(...ROUTE_TEMPLATES), segment, segment, segment)
    .map(([template, cache, topic, id]) =>
      template.replace('{cache}', cache).replace('{topic}', topic).replace('{id}', id),
    );
  const oddPath = fc.oneof(
    path.map((p) => p.replace(/\//g, '//')),
    path.map((p) => `${p}/`),
    path.map((p) => `/x/..${p}`),
    path.map((p) => `http://127.0.0.1${p}`),
    fc.constantFrom(
      '*',
      '/',
      '',
      '/_emulator',
      '/_emulator/',
      '/topics',
      '/topics/default-cache',
      '/%',
      '/favicon.ico',
    ),
  );
  const query = fc
    .array(queryParameter(secrets), { maxLength: 4 })
    .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
  return fc
    .tuple(
      fc.oneof({ weight: 8, arbitrary: path }, { weight: 1, arbitrary: oddPath }),
      query,
      fc.constantFrom('?', '?', '?', '#', '?&', '??'),
    )
    .map(([p, q, separator]) => (q ? `${p}${separator}${q}` : p));
}

/** Authorization: absent, right, wrong, prefixed, huge, repeated with conflicting values. */
function authorization(secrets: Secrets): fc.Arbitrary<[string, string][]> {
  const value = fc.oneof(
    { weight: 4, arbitrary: fc.constant(secrets.apiKey) },
    { weight: 4, arbitrary: fc.constantFrom(...secrets.tokens) },
    { weight: 1, arbitrary: fc.constant(secrets.narrowToken) },
    { weight: 1, arbitrary: fc.constant(`Bearer ${secrets.apiKey}`) },
    { weight: 2, arbitrary: fc.constantFrom('', ' ', 'wrong-key', 'a.b.c', 'e30=', '\u00ff\u00fe') },
    { weight: 1, arbitrary: fc.integer({ min: 1000, max: 20_000 }).map((n) => 'k'.repeat(n)) },
  );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant<[string, string][]>([]) },
    { weight: 6, arbitrary: value.map((v): [string, string][] => [['Authorization', v]]) },
    {
      weight: 1,
      arbitrary: fc.tuple(value, value).map(([a, b]): [string, string][] => [
        ['Authorization', a],
        ['authorization', b],
      ]),
    },
  );
}

const contentType = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'text/plain',
      'text/plain; charset=utf-8',
      'application/octet-stream',
      'application/json',
      'application/x-www-form-urlencoded',
      'application/yaml',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'TEXT/PLAIN; CHARSET="UTF-8"',
      'text/plain; charset=iso-8859-1',
      'text/plain;;;',
      'multipart/form-data; boundary=x',
      'image/png',
      '',
      '*/*',
      'text/',
      'application/json; charset=utf-16',
      'a'.repeat(3000),
    ),
  },
);

/** Other headers: duplicated, huge, contradictory, browser and proxy ones. */
function otherHeaders(secrets: Secrets): fc.Arbitrary<[string, string][]> {
  const header = fc.oneof(
    {
      weight: 8,
      arbitrary: fc.constantFrom<[string, string]>(
        ['X-Emulator-Admin-Key', 'wrong-admin-key'],
        ['X-Emulator-Admin-Key', ''],
        ['Origin', 'http://localhost:3000'],
        ['Origin', 'null'],
        ['Access-Control-Request-Method', 'POST'],
        ['Access-Control-Request-Headers', 'authorization, content-type'],
        ['Accept', 'application/json'],
        ['Accept-Encoding', 'gzip, br'],
        ['Content-Encoding', 'gzip'],
        ['Expect', '100-continue'],
        ['Expect', 'teapot'],
        ['Connection', 'keep-alive, Upgrade'],
        ['Upgrade', 'websocket'],
        ['Cookie', `token=${secrets.apiKey}`],
        ['X-Forwarded-For', '10.0.0.1'],
        ['Host', 'example.com'],
        ['Range', 'bytes=0-1'],
      ),
    },
    {
      weight: 3,
      arbitrary: fc.tuple(
        fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/),
        fc.string({ maxLength: 30 }).map((s) => s.replace(/[\r\n\0]/g, '')),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1000, max: 24_000 }).map((n): [string, string] => ['X-Huge', 'h'.repeat(n)]),
    },
  );
  return fc.array(header, { maxLength: 2 });
}

function body(limit: number) {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(Buffer.alloc(0)) },
    { weight: 4, arbitrary: fc.string({ maxLength: 64 }).map((s) => Buffer.from(s)) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        Buffer.from([0xff, 0xfe]),
        Buffer.from([0xc0, 0xaf]),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('\uFEFFbom'),
        Buffer.from([0x68, 0x80]),
      ),
    },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')) },
    { weight: 1, arbitrary: fc.integer({ min: limit - 2, max: limit * 4 }).map((n) => Buffer.alloc(n, 0x61)) },
  );
}

/** Requests a client of the service could mean to send: publish and subscribe on a few topics. */
function plausibleTarget(secrets: Secrets) {
  const cursor = fc.array(
    fc.tuple(
      fc.constantFrom('sequence_number', 'sequence_page'),
      fc.oneof(fc.nat({ max: 40 }).map(String), numberText),
    ),
    { maxLength: 2 },
  );
  const token = fc.option(
    fc.constantFrom(secrets.apiKey, ...secrets.tokens).map((t): [string, string] => ['token', encodeURIComponent(t)]),
    { freq: 5 },
  );
  return fc
    .tuple(
      fc.constantFrom('default-cache', 'default-cache', 'other', 'no-such-cache'),
      fc.constantFrom('f1', 'f2', 'f3', 'f%204', '%F0%9F%98%80'),
      cursor,
      token,
    )
    .map(([cache, topic, pairs, tokenPair]) => {
      const query = [...pairs, ...(tokenPair ? [tokenPair] : [])].map(([k, v]) => `${k}=${v}`).join('&');
      return `/topics/${cache}/${topic}${query ? `?${query}` : ''}`;
    });
}

export function fuzzCases(secrets: Secrets, payloadLimit: number): fc.Arbitrary<FuzzCase> {
  return fc
    .record({
      method: fc.oneof({ weight: 1, arbitrary: method }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST') }),
      target: fc.oneof({ weight: 1, arbitrary: target(secrets) }, { weight: 1, arbitrary: plausibleTarget(secrets) }),
      auth: authorization(secrets),
      contentType: fc.option(contentType, { freq: 4 }),
      others: otherHeaders(secrets),
      body: body(payloadLimit),
      framing: fc.oneof(
        { weight: 12, arbitrary: fc.constant<Framing>('length') },
        { weight: 2, arbitrary: fc.constant<Framing>('chunked') },
        { weight: 1, arbitrary: fc.constant<Framing>('short') },
      ),
      trickle: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
    })
    .map(({ method, target, auth, contentType, others, body, framing, trickle }) => ({
      method,
      target,
      headers: [
        ...auth,
        ...(contentType === null ? [] : ([['Content-Type', contentType]] as [string, string][])),
        ...others,
      ],
      body: framing === 'short' && body.length === 0 ? Buffer.from('x') : body,
      framing,
      trickle,
    }));
}

/** Control-plane bodies shaped like each operation's input, with random members and values. */
export function controlCases(): fc.Arbitrary<{ method: string; path: string; body: unknown }> {
  const anything = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.integer(),
    fc.double(),
    fc.constantFrom(-1, 0, 1, 1e300, 2 ** 53, '', 'x', null, true, [], {}),
  );
  // Half the bodies use only the operation's members with plausible values (to get past the
  // schema and into the operation); the rest add noise: unknown members, values of any type.
  const shaped = (values: Record<string, fc.Arbitrary<unknown>>) => {
    const plausible = fc.record(values, { requiredKeys: [] });
    const noisy = fc
      .tuple(fc.dictionary(fc.constantFrom(...Object.keys(values), 'unknown'), anything, { maxKeys: 3 }), plausible)
      .map(([base, r]) => ({ ...r, ...base }));
    return fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 1, arbitrary: noisy });
  };
  const name = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('default-cache', 't', 'f1') },
    { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
  );
  const operation = fc.constantFrom('publish', 'subscribe', 'any', 'other');
  const permission = shaped({
    role: fc.constantFrom('publishsubscribe', 'subscribeonly', 'publishonly', 'admin'),
    cache: name,
    topic: name,
    topicPrefix: fc.string({ maxLength: 5 }),
  });
  const tokenRequest = shaped({
    permissions: fc.array(permission, { minLength: 1, maxLength: 3 }),
    ttlSeconds: fc.integer({ min: -5, max: 100_000 }),
    tokenId: fc.string({ maxLength: 70 }),
  });
  const clock = shaped({
    mode: fc.constantFrom('real', 'virtual', 'fast'),
    setTo: fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.integer({ min: -1, max: 8_640_000_000_000_001 }),
      fc.string(),
    ),
    advanceMs: fc.integer({ min: -1, max: 10_000_000 }),
  });
  const fault = shaped({
    operation,
    cache: name,
    topic: name,
    topicPrefix: fc.string({ maxLength: 4 }),
    tokenId: fc.string({ maxLength: 8 }),
    status: fc.constantFrom(400, 401, 403, 404, 429, 500, 503, 200, 418),
    code: fc.constantFrom('limit_exceeded', 'internal_error', 'invalid_token', 'nope'),
    message: fc.string({ maxLength: 20 }),
    retryAfterSeconds: fc.integer({ min: -1, max: 100 }),
    drop: fc.constantFrom(true, false),
    delayMs: fc.integer({ min: -1, max: 50 }),
    afterItems: fc.integer({ min: -1, max: 10 }),
    whileWaiting: fc.constantFrom(true, false),
    waitedMs: fc.integer({ min: -1, max: 1000 }),
    skip: fc.integer({ min: -1, max: 5 }),
    count: fc.integer({ min: -1, max: 5 }),
    probability: fc.double({ min: -0.5, max: 1.5, noNaN: true }),
    seed: fc.integer({ min: -1, max: 2 ** 32 }),
    startAfterMs: fc.integer({ min: -1, max: 10_000 }),
    durationMs: fc.integer({ min: -1, max: 10_000 }),
  });
  const limits = shaped({
    enabled: fc.boolean(),
    operationsPerSecond: fc.integer({ min: 0, max: 2000 }),
    concurrentSubscriptions: fc.integer({ min: 0, max: 2000 }),
  });
  const chaos = shaped({
    seed: fc.integer({ min: -1, max: 2 ** 32 }),
    rate: fc.double({ min: -0.1, max: 1.1, noNaN: true }),
    kinds: fc.array(fc.constantFrom('throttle', 'error', 'outage', 'delay', 'drop', 'pageChange', 'meteor'), {
      maxLength: 3,
    }),
    operation,
    cache: name,
    topic: name,
    maxDelayMs: fc.integer({ min: 0, max: 30 }),
  });
  const topicReset = shaped({
    afterSequenceNumber: fc.integer({ min: 0, max: 100 }),
    afterMs: fc.integer({ min: 0, max: 10_000 }),
  });
  const scenario = shaped({
    name: fc.string({ maxLength: 10 }),
    description: fc.string({ maxLength: 10 }),
    clock,
    limits,
    chaos,
    faults: fc.array(fault, { maxLength: 2 }),
    topicResets: fc.array(
      fc.tuple(topicReset, name, name).map(([r, cache, topic]) => ({ ...(r as object), cache, topic })),
      { maxLength: 2 },
    ),
    tokens: fc.array(tokenRequest, { maxLength: 2 }),
  });
  const id = fc
    .oneof(fc.constantFrom('f1', 'f2', 'f3', 'fuzz', 'x'.repeat(65)), name)
    .map((v) => encodeURIComponent(v) || 'f');
  const post = (path: fc.Arbitrary<string>, body: fc.Arbitrary<unknown>) =>
    fc.record({ method: fc.constant('POST'), path, body });
  return fc.oneof(
    post(fc.constant('/_emulator/reset'), fc.constant(undefined)),
    fc.record({
      method: fc.constant('GET'),
      path: fc.constantFrom(
        '/_emulator/state',
        '/_emulator/clock',
        '/_emulator/faults',
        '/_emulator/limits',
        '/_emulator/chaos',
      ),
      body: fc.constant(undefined),
    }),
    post(fc.constant('/_emulator/tokens'), tokenRequest),
    post(
      fc
        .tuple(fc.constantFrom('expire', 'revoke'), id)
        .map(([what, tokenId]) => `/_emulator/tokens/${tokenId}/${what}`),
      shaped({ afterMs: fc.integer({ min: -1, max: 10_000 }) }),
    ),
    post(
      fc
        .tuple(name, name)
        .map(([c, t]) => `/_emulator/topics/${encodeURIComponent(c) || 'c'}/${encodeURIComponent(t) || 't'}/reset`),
      topicReset,
    ),
    post(fc.constant('/_emulator/clock'), clock),
    post(fc.constant('/_emulator/faults'), fault),
    fc.record({
      method: fc.constantFrom('GET', 'DELETE'),
      path: id.map((v) => `/_emulator/faults/${v}`),
      body: fc.constant(undefined),
    }),
    fc.record({
      method: fc.constant('DELETE'),
      path: fc.constantFrom('/_emulator/faults', '/_emulator/chaos'),
      body: fc.constant(undefined),
    }),
    fc.record({ method: fc.constant('PUT'), path: fc.constant('/_emulator/limits'), body: limits }),
    fc.record({ method: fc.constant('PUT'), path: fc.constant('/_emulator/chaos'), body: chaos }),
    post(fc.constant('/_emulator/scenario'), scenario),
  );
}
