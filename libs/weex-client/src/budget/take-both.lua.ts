/**
 * Takes an operation's IP and UID weights in one step, or neither: nothing while either budget is paused, nothing if
 * either window is too full. With a lease asked (WeightCredit), takes it too when both windows stay at most half
 * used with it; else takes the weights alone. The keys and counts are the ones the windows' rate-limiter-flexible
 * limiters read (usage) and write (pauses), so both see the same numbers.
 * KEYS: IP pause, UID pause, IP window, UID window. ARGV: IP points, UID points, IP limit, UID limit, IP and UID
 * window key lifetimes in ms, IP and UID lease points. Answers {pause ms left, IP refused (0|1), UID refused (0|1),
 * lease taken (0|1)}.
 */
export const TAKE_BOTH_LUA = `
local pause = math.max(redis.call('pttl', KEYS[1]), redis.call('pttl', KEYS[2]), 0)
if pause > 0 then return {pause, 0, 0, 0} end
local refused = {0, 0}
local used = {0, 0}
for i = 1, 2 do
  local points = tonumber(ARGV[i])
  used[i] = tonumber(redis.call('get', KEYS[i + 2]) or '0')
  if points > 0 and used[i] + points > tonumber(ARGV[i + 2]) then refused[i] = 1 end
end
if refused[1] == 1 or refused[2] == 1 then return {0, refused[1], refused[2], 0} end
local leased = 1
if tonumber(ARGV[7]) + tonumber(ARGV[8]) == 0 then leased = 0 end
for i = 1, 2 do
  local lease = tonumber(ARGV[i + 6])
  if lease > 0 and used[i] + tonumber(ARGV[i]) + lease > math.floor(tonumber(ARGV[i + 2]) / 2) then leased = 0 end
end
for i = 1, 2 do
  local points = tonumber(ARGV[i]) + leased * tonumber(ARGV[i + 6])
  if points > 0 then
    local fresh = redis.call('pttl', KEYS[i + 2]) < 0
    redis.call('incrby', KEYS[i + 2], points)
    if fresh then redis.call('pexpire', KEYS[i + 2], ARGV[i + 4]) end
  end
end
return {0, 0, 0, leased}
`;
