-- KEYS: topics, last-page, page-floor, then each topic's hash and stream (in the order of its id):
-- every topic the set holds and every topic restored. ARGV: channel, replica, contents (JSON:
-- {lastPage, topics: [{id, page, next, messages: [{seq, v}]}]}, v as JSON text), retention, then
-- each topic's id.
-- Replaces every topic with these (after lib/forget-all.lua) and announces it: returns {1, the
-- greatest page handed out}. When the topics set holds a topic not given, changes nothing:
-- returns {0, those ids}.
local ids, keys, at = {}, {}, {}
for i = 5, #ARGV do
  ids[#ids + 1] = ARGV[i]
  keys[#keys + 1] = { KEYS[2 * i - 6], KEYS[2 * i - 5] }
  at[ARGV[i]] = keys[#keys]
end
local last, missing = forget_all(KEYS[1], KEYS[2], KEYS[3], ids, keys)
if not last then return { 0, missing } end
local loaded = cjson.decode(ARGV[3])
last = math.max(last, loaded.lastPage)
for _, t in ipairs(loaded.topics) do
  local hash, stream = at[t.id][1], at[t.id][2]
  redis.call('HSET', hash, 'page', t.page, 'next', t.next)
  redis.call('SADD', KEYS[1], t.id)
  for _, m in ipairs(t.messages) do
    redis.call('XADD', stream, 'MAXLEN', ARGV[4], string.format('%d', m.seq) .. '-1', 'v', m.v)
  end
  last = math.max(last, t.page)
end
redis.call('SET', KEYS[2], last)
redis.call('SET', KEYS[3], last)
redis.call('PUBLISH', ARGV[1], '{"k":"l","from":' .. cjson.encode(ARGV[2]) .. '}')
return { 1, last }
