// The two Lua scripts a replica runs on Redis for each section (see redis-replica.ts): one takes the lock and
// returns what to apply, the other publishes and lets go. KEYS, in order: lock, log, turn, snapshot, snapshot id.

/** Whether stream id `a` comes after `b` (`ms-seq`), in Lua. */
const AFTER = `local function after(a, b)
  local am, as = string.match(a, '(%d+)-(%d+)')
  local bm, bs = string.match(b, '(%d+)-(%d+)')
  am, as, bm, bs = tonumber(am), tonumber(as), tonumber(bm), tonumber(bs)
  return am > bm or (am == bm and as > bs)
end
`;

/**
 * Takes the lock (ARGV: the section's token, for ttl ms) and returns `{ snapshot id, snapshot, entries }`: the
 * log after the id the replica applied last (ARGV[3]), or, when the log before that was trimmed away, the
 * snapshot and the log after it. A replica that finds the lock taken claims the next turn (ARGV[4], for ARGV[5]
 * ms), so one that is busy does not take the lock again and again while another waits: then `false`.
 */
export const BEGIN = `${AFTER}
local turn = redis.call('GET', KEYS[3])
if turn and turn ~= ARGV[4] then return false end
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  redis.call('SET', KEYS[3], ARGV[4], 'NX', 'PX', ARGV[5])
  return false
end
if turn then redis.call('DEL', KEYS[3]) end
local at = redis.call('GET', KEYS[5])
if at and after(at, ARGV[3]) then
  return {at, redis.call('GET', KEYS[4]), redis.call('XRANGE', KEYS[2], '(' .. at, '+')}
end
return {'', '', redis.call('XRANGE', KEYS[2], '(' .. ARGV[3], '+')}`;

/**
 * Adds the section's changes (ARGV[2], or none: '') to the log, with the id of the entry before it (`p`: a
 * replica applies an entry only onto the one before it); with a snapshot (ARGV[3]) of everything as of that
 * entry (or of ARGV[4], the id applied, when it adds none), keeps it and trims the log before it. Lets go of the
 * lock, only while the section's token (ARGV[1]) still holds it. Returns `{ id added or '', log length }`.
 */
export const COMMIT = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return redis.error_reply('LOST the lock expired') end
local id = ''
if ARGV[2] ~= '' then
  local last = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)[1]
  local before = last and last[1] or redis.call('GET', KEYS[5]) or '0-0'
  id = redis.call('XADD', KEYS[2], '*', 'c', ARGV[2], 'p', before)
end
if ARGV[3] ~= '' then
  local at = id
  if at == '' then at = ARGV[4] end
  redis.call('SET', KEYS[4], ARGV[3])
  redis.call('SET', KEYS[5], at)
  redis.call('XTRIM', KEYS[2], 'MINID', at)
end
redis.call('DEL', KEYS[1])
return {id, redis.call('XLEN', KEYS[2])}`;

/**
 * Lets go of the lock if the token (ARGV[1]) holds it: sent after a section that timed out, whose BEGIN Redis may
 * still run once it answers again (it then takes the lock nobody would let go of).
 */
export const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`;
