-- KEYS: topics, last-page, page-floor, then each topic's hash and stream (in the order of its id).
-- ARGV: channel, replica, then each topic's id.
-- Forgets every topic (lib/forget-all.lua) and announces it: returns {1, the greatest page handed
-- out}. When the topics set holds a topic not given, changes nothing: returns {0, those ids}.
local ids, keys = {}, {}
for i = 3, #ARGV do
  ids[#ids + 1] = ARGV[i]
  keys[#keys + 1] = { KEYS[2 * i - 2], KEYS[2 * i - 1] }
end
local last, missing = forget_all(KEYS[1], KEYS[2], KEYS[3], ids, keys)
if not last then return { 0, missing } end
redis.call('PUBLISH', ARGV[1], '{"k":"r","from":' .. cjson.encode(ARGV[2]) .. ',"last":' .. string.format('%d', last) .. '}')
return { 1, last }
