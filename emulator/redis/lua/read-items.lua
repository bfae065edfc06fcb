-- KEYS: item-usage (hash: count, bytes), then for each item its key and its cache's meta hash.
-- ARGV: each item's member (its key's bytes in base64url), in the order of KEYS.
-- Returns the items' count and bytes, then for each item: its meta ('' when absent: "version
-- size expiresAt"), its Redis type, and its data as one array (a string: its value; a hash:
-- field, value pairs; a set: its elements; a list: its values; a sorted set: member, score pairs).
local out = { redis.call('HGET', KEYS[1], 'count') or '0', redis.call('HGET', KEYS[1], 'bytes') or '0' }
for i = 1, #ARGV do
  local key, meta = KEYS[2 * i], KEYS[2 * i + 1]
  local kind = redis.call('TYPE', key)['ok']
  local data = {}
  if kind == 'string' then
    data = { redis.call('GET', key) }
  elseif kind == 'hash' then
    data = redis.call('HGETALL', key)
  elseif kind == 'set' then
    data = redis.call('SMEMBERS', key)
  elseif kind == 'list' then
    data = redis.call('LRANGE', key, 0, -1)
  elseif kind == 'zset' then
    data = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')
  end
  out[#out + 1] = redis.call('HGET', meta, ARGV[i]) or ''
  out[#out + 1] = kind
  out[#out + 1] = data
end
return out
