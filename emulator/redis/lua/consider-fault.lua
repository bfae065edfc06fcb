-- KEYS: fault counts. ARGV: rule id, skip, count (-1: none), afterItems (-1: none), draw (1: this
-- replica's draw lets it fire), channel. One more matching request of a counted rule: refused
-- when its count is used up or fewer than afterItems items were delivered; else counted as
-- matched, and fired once past the skips when the draw allows. Returns {outcome, m, f, d}.
local m, f, d = fault_counters(KEYS[1], ARGV[1])
local count, after = tonumber(ARGV[3]), tonumber(ARGV[4])
if (count >= 0 and f >= count) or (after >= 0 and d < after) then return {'refused', m, f, d} end
local outcome = 'passed'
m = redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':m', 1)
if m > tonumber(ARGV[2]) and ARGV[5] == '1' then
  f = redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':f', 1)
  outcome = 'fired'
end
announce_counts(ARGV[6], ARGV[1], m, f, d)
return {outcome, m, f, d}
