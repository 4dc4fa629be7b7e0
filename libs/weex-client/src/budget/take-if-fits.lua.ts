/**
 * Replaces rate-limiter-flexible's increment script (its `customIncrTtlLuaScript` option) so that, atomically:
 * - a take that does not fit changes nothing, and answers a count above the limit, which the library reports as a
 *   refusal (its own script adds the points anyway, so refused takes would eat the window);
 * - a give-back (negative points) to a key that has expired changes nothing, rather than creating a negative count.
 * Arguments from the library: KEYS[1] key; ARGV[1] points; ARGV[2] whole seconds; ARGV[3] limit; ARGV[4] duration
 * in seconds (the key's lifetime). Answers {count, ttl in ms}.
 */
export const TAKE_IF_FITS_LUA = `
local points = tonumber(ARGV[1])
local limit = tonumber(ARGV[3])
local lifetimeMs = math.floor(tonumber(ARGV[4]) * 1000)
local ttl = redis.call('pttl', KEYS[1])
if ttl < 0 then
  if points <= 0 or points > limit then return {math.max(points, 0), 0} end
  redis.call('set', KEYS[1], points, 'PX', lifetimeMs)
  return {points, lifetimeMs}
end
local used = tonumber(redis.call('get', KEYS[1]))
if points > 0 and used + points > limit then return {used + points, ttl} end
return {redis.call('incrby', KEYS[1], points), ttl}
`;

/**
 * Takes an operation's IP and UID weights in one step, or neither: nothing while either budget is paused, nothing if
 * either window is too full. The keys and counts are the ones the windows' limiters (with TAKE_IF_FITS_LUA) read and
 * write, so usage, pauses and give-backs see the same numbers.
 * KEYS: IP pause, UID pause, IP window, UID window. ARGV: IP points, UID points, IP limit, UID limit, IP and UID
 * window key lifetimes in ms. Answers {pause ms left, IP refused (0|1), UID refused (0|1)}.
 */
export const TAKE_BOTH_LUA = `
local pause = math.max(redis.call('pttl', KEYS[1]), redis.call('pttl', KEYS[2]), 0)
if pause > 0 then return {pause, 0, 0} end
local refused = {0, 0}
for i = 1, 2 do
  local points = tonumber(ARGV[i])
  if points > 0 and tonumber(redis.call('get', KEYS[i + 2]) or '0') + points > tonumber(ARGV[i + 2]) then refused[i] = 1 end
end
if refused[1] == 1 or refused[2] == 1 then return {0, refused[1], refused[2]} end
for i = 1, 2 do
  local points = tonumber(ARGV[i])
  if points > 0 then
    local fresh = redis.call('pttl', KEYS[i + 2]) < 0
    redis.call('incrby', KEYS[i + 2], points)
    if fresh then redis.call('pexpire', KEYS[i + 2], ARGV[i + 4]) end
  end
end
return {0, 0, 0}
`;
