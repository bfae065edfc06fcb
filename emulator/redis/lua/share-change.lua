-- KEYS: control log, control number, fault counts, fault ids, control base. ARGV: channel,
-- replica, change (JSON). Numbers the change, logs it and announces it. A reset starts the log
-- again (with itself) and forgets every rule's counters; clearing or removing rules forgets
-- theirs. A snapshot's control part replaces them all: the log starts again with it, every
-- rule's counters are the saved ones, and rule ids handed out later exceed the restored ones.
-- Either leaves no compacted state, and refuses one compacted from before it. Returns its number.
local change = cjson.decode(ARGV[3])
local n = redis.call('INCR', KEYS[2])
if change.op == 'reset' or change.op == 'restoreControl' then
  redis.call('DEL', KEYS[1], KEYS[3], KEYS[5])
  redis.call('HSET', KEYS[5], 'n', n - 1)
end
if change.op == 'restoreControl' then
  local last = tonumber(redis.call('GET', KEYS[4]) or '0')
  for _, fault in ipairs(change.control.faults) do
    local id = fault.id
    redis.call('HSET', KEYS[3], id .. ':m', fault.matched, id .. ':f', fault.fired, id .. ':d', fault.delivered or 0)
    last = math.max(last, tonumber(string.sub(id, 2)))
  end
  redis.call('SET', KEYS[4], last)
elseif change.op == 'clearFaults' then
  redis.call('DEL', KEYS[3])
elseif change.op == 'removeFault' then
  redis.call('HDEL', KEYS[3], change.id .. ':m', change.id .. ':f', change.id .. ':d')
end
redis.call('XADD', KEYS[1], n .. '-1', 'r', ARGV[2], 'c', ARGV[3])
redis.call('PUBLISH', ARGV[1], '{"k":"o","from":' .. cjson.encode(ARGV[2]) .. ',"n":' .. n .. ',"c":' .. ARGV[3] .. '}')
return n
