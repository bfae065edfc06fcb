-- KEYS: topics, last-page, page-floor. ARGV: prefix, channel, replica, contents (JSON:
-- {lastPage, topics: [{id, page, next, messages: [{seq, v}]}]}, v as JSON text), retention.
-- Replaces every topic with these (after lib/forget-all.lua) and announces it.
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
return last
