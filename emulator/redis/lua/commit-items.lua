-- KEYS: item-usage (hash: count, bytes), item-version (the last version given), item-caches (set:
-- the caches that hold items), then for each item its key and its cache's meta hash.
-- ARGV: the items channel, the announcement (JSON), the number of items, then for each item, in
-- the order of KEYS, 8 arguments and its data: member (its key's bytes in base64url), cache,
-- the version it was read at ('0': absent; '*': any), action ('check', 'put' or 'del'), Redis
-- type, expiresAt, size (key and value bytes), the number of data arguments, then those (a hash:
-- field, value pairs; a sorted set: score, member pairs).
-- When an item's version is not the one it was read at, changes nothing and returns 0. Else makes
-- every change under one new version (each item's meta: "version size expiresAt"), keeps the
-- usage counts, announces `<version> <announcement>` and returns the version.
local items, at = {}, 4
for i = 1, tonumber(ARGV[3]) do
  local count = tonumber(ARGV[at + 7])
  items[i] = {
    key = KEYS[2 + 2 * i], meta = KEYS[3 + 2 * i], member = ARGV[at], cache = ARGV[at + 1],
    read = ARGV[at + 2], action = ARGV[at + 3], kind = ARGV[at + 4], expires = ARGV[at + 5],
    size = ARGV[at + 6], from = at + 8, to = at + 7 + count,
  }
  at = at + 8 + count
end
for _, item in ipairs(items) do
  local meta = redis.call('HGET', item.meta, item.member)
  item.old = meta and tonumber(string.match(meta, '^%d+ (%d+)'))
  local version = meta and string.match(meta, '^(%d+)') or '0'
  if item.read ~= '*' and item.read ~= version then return 0 end
end
local version = redis.call('INCR', KEYS[2])
for _, item in ipairs(items) do
  if item.action ~= 'check' then
    if item.old then
      redis.call('DEL', item.key)
      redis.call('HDEL', item.meta, item.member)
      redis.call('HINCRBY', KEYS[1], 'count', -1)
      redis.call('HINCRBY', KEYS[1], 'bytes', -item.old)
    end
    if item.action == 'put' then
      if item.kind == 'string' then
        redis.call('SET', item.key, ARGV[item.from])
      else
        local step = (item.kind == 'hash' or item.kind == 'zset') and 2 or 1
        local command = ({ hash = 'HSET', set = 'SADD', list = 'RPUSH', zset = 'ZADD' })[item.kind]
        for j = item.from, item.to, step do
          if step == 2 then redis.call(command, item.key, ARGV[j], ARGV[j + 1])
          else redis.call(command, item.key, ARGV[j]) end
        end
      end
      redis.call('HSET', item.meta, item.member, version .. ' ' .. item.size .. ' ' .. item.expires)
      redis.call('SADD', KEYS[3], item.cache)
      redis.call('HINCRBY', KEYS[1], 'count', 1)
      redis.call('HINCRBY', KEYS[1], 'bytes', item.size)
    end
  end
end
redis.call('PUBLISH', ARGV[1], version .. ' ' .. ARGV[2])
return version
