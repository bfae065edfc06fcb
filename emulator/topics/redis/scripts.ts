// The Lua scripts that change a Redis store: each runs atomically in Redis and announces its
// change on the channel, so every replica applies the changes in the order Redis made them.
// Channel messages are JSON objects: {k:'n'|'p'|'c'|'r'|'l', ...} (created, published, page
// changed, reset, loaded).

// Creates the topic when it does not exist: `page` is the proposal (epoch seconds, from the
// replica's page source), raised above the floor a reset or restore left. Sets `page` and
// `created` for what follows.
const ENSURE = `
local page = tonumber(redis.call('HGET', KEYS[1], 'page'))
local created = false
if not page then
  page = math.max(tonumber(ARGV[2]), tonumber(redis.call('GET', KEYS[5]) or '0') + 1)
  redis.call('HSET', KEYS[1], 'page', page, 'next', 1)
  redis.call('SADD', KEYS[3], ARGV[1])
  if page > tonumber(redis.call('GET', KEYS[4]) or '0') then redis.call('SET', KEYS[4], page) end
  created = true
end
`;

/** KEYS: hash, stream, topics, last-page, page-floor. ARGV: id, proposed page, channel. Returns the page. */
export const CREATE = `${ENSURE}
if created then
  redis.call('PUBLISH', ARGV[3], '{"k":"n","id":' .. ARGV[1] .. ',"page":' .. string.format('%d', page) .. '}')
end
return page`;

/**
 * KEYS: hash, stream, topics, last-page, page-floor. ARGV: id, proposed page, channel, retention,
 * value (JSON). Numbers the message, retains it (trimmed to the retention), announces it.
 * Returns [page, number].
 */
export const PUBLISH = `${ENSURE}
local seq = redis.call('HINCRBY', KEYS[1], 'next', 1) - 1
redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[4], seq .. '-1', 'v', ARGV[5])
redis.call('PUBLISH', ARGV[3], '{"k":"p","id":' .. ARGV[1] .. ',"page":' .. string.format('%d', page) .. ',"seq":' .. seq .. ',"v":' .. ARGV[5] .. '}')
return {page, seq}`;

/**
 * KEYS: hash, stream, topics, last-page, page-floor. ARGV: id, proposed page, channel.
 * A new, greater page; numbering from 1; the old page's messages dropped. Returns the page.
 */
export const CHANGE_PAGE = `
local current = tonumber(redis.call('HGET', KEYS[1], 'page') or '0')
local page = math.max(tonumber(ARGV[2]), current + 1, tonumber(redis.call('GET', KEYS[5]) or '0') + 1)
redis.call('HSET', KEYS[1], 'page', page, 'next', 1)
redis.call('SADD', KEYS[3], ARGV[1])
redis.call('DEL', KEYS[2])
if page > tonumber(redis.call('GET', KEYS[4]) or '0') then redis.call('SET', KEYS[4], page) end
redis.call('PUBLISH', ARGV[3], '{"k":"c","id":' .. ARGV[1] .. ',"page":' .. string.format('%d', page) .. '}')
return page`;

// Forgets every topic; the floor keeps later pages above every page handed out.
const FORGET_ALL = `
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  redis.call('DEL', ARGV[1] .. 't:' .. id, ARGV[1] .. 's:' .. id)
end
redis.call('DEL', KEYS[1])
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
redis.call('SET', KEYS[3], last)
`;

/** KEYS: topics, last-page, page-floor. ARGV: prefix, channel, replica. */
export const RESET = `${FORGET_ALL}
redis.call('PUBLISH', ARGV[2], '{"k":"r","from":' .. cjson.encode(ARGV[3]) .. ',"last":' .. string.format('%d', last) .. '}')
return last`;

/**
 * KEYS: topics, last-page, page-floor. ARGV: prefix, channel, replica, contents (JSON:
 * {lastPage, topics: [{id, page, next, messages: [{seq, v}]}]}, v as JSON text), retention.
 * Replaces every topic with these.
 */
export const RESTORE = `${FORGET_ALL}
local loaded = cjson.decode(ARGV[4])
last = math.max(last, loaded.lastPage)
for _, t in ipairs(loaded.topics) do
  redis.call('HSET', ARGV[1] .. 't:' .. t.id, 'page', t.page, 'next', t.next)
  redis.call('SADD', KEYS[1], t.id)
  for _, m in ipairs(t.messages) do
    redis.call('XADD', ARGV[1] .. 's:' .. t.id, 'MAXLEN', ARGV[5], string.format('%d', m.seq) .. '-1', 'v', m.v)
  end
  last = math.max(last, t.page)
end
redis.call('SET', KEYS[2], last)
redis.call('SET', KEYS[3], last)
redis.call('PUBLISH', ARGV[2], '{"k":"l","from":' .. cjson.encode(ARGV[3]) .. '}')
return last`;

/**
 * KEYS: generation, last-page, page-floor. ARGV: a new generation, the one this replica saw last
 * ('' at its start), the greatest page it saw. A Redis without the generation this replica saw
 * has lost its state (restarted without persistence, flushed): pages given later exceed every
 * page the replica saw. Returns [generation, the greatest page given or floor].
 */
export const RESUME = `
local generation = redis.call('GET', KEYS[1])
if not generation then
  generation = ARGV[1]
  redis.call('SET', KEYS[1], generation)
end
local seen = tonumber(ARGV[3])
if ARGV[2] ~= '' and generation ~= ARGV[2] then
  for i = 2, 3 do
    if seen > tonumber(redis.call('GET', KEYS[i]) or '0') then redis.call('SET', KEYS[i], ARGV[3]) end
  end
end
local last = math.max(tonumber(redis.call('GET', KEYS[2]) or '0'), tonumber(redis.call('GET', KEYS[3]) or '0'))
return {generation, string.format('%d', last)}`;
