-- KEYS: control log, control base. ARGV: n, the control state changes 1..n led to (a `compacted`
-- change, JSON). The log's changes up to n are replaced by that state, unless the base is at n
-- or past it already (another compaction, or a reset or snapshot since). Returns the number the
-- log starts after now.
local n = tonumber(ARGV[1])
local base = tonumber(redis.call('HGET', KEYS[2], 'n') or '0')
if base >= n then return base end
redis.call('HSET', KEYS[2], 'n', n, 'c', ARGV[2])
redis.call('XTRIM', KEYS[1], 'MINID', (n + 1) .. '-0')
return n
