/**
 * Takes an operation's IP and UID weights in one step, or neither: nothing while either budget is paused, nothing if
 * either window is too full. With a lease asked (WeightCredit), takes it too when both windows stay at most half
 * used with it; else takes the weights alone. The keys and counts are the ones the windows' rate-limiter-flexible
 * limiters read (usage) and write (pauses), so both see the same numbers.
 *
 * The IP window is shared by every account of the deployment, and shared fairly (max-min): each account that took IP
 * weight within the last few minutes has a fair share of the window (the limit over those accounts). An account
 * within its fair share may take whatever is left; one beyond it may take only what the others' shares do not hold.
 * An account's share holds what it is expected to use, up to the share: twice what its calls took in the last
 * window, and at least `reserve`, less what they took in this one. In the window's last part (`released`), shares
 * hold nothing: what a light account has not used by then goes to whoever asks. So a flooding account leaves a light
 * one the weight it uses and takes all the rest; an account alone takes all of it; a new one waits at most a window.
 *
 * KEYS: IP pause, UID pause, IP window, UID window, the IP window's weight by account (a hash), the last IP window's,
 * the accounts by the last IP window they took weight in (a sorted set). ARGV: IP points, UID points, IP limit, UID
 * limit, IP and UID window key lifetimes in ms, IP and UID lease points, the account (its UID key), the reserve, the
 * IP window's index, how many windows back an account counts, released (0|1). Answers {pause ms left, IP refused (0,
 * or 1: the window is full, 2: what is left is held for other accounts), UID refused (0|1), lease taken (0|1)}.
 */
export const TAKE_BOTH_LUA = `
local pause = math.max(redis.call('pttl', KEYS[1]), redis.call('pttl', KEYS[2]), 0)
if pause > 0 then return {pause, 0, 0, 0} end
local limit = {tonumber(ARGV[3]), tonumber(ARGV[4])}
local used = {tonumber(redis.call('get', KEYS[3]) or '0'), tonumber(redis.call('get', KEYS[4]) or '0')}
local account, reserve = ARGV[9], tonumber(ARGV[10])
local function byAccount(key)
  local t, kv = {}, redis.call('hgetall', key)
  for i = 1, #kv, 2 do t[kv[i]] = tonumber(kv[i + 1]) end
  return t
end
local now, last = byAccount(KEYS[5]), byAccount(KEYS[6])
local window, horizon = tonumber(ARGV[11]), tonumber(ARGV[12])
redis.call('zremrangebyscore', KEYS[7], '-inf', window - horizon - 1)
local others, seats = {}, 1
for _, k in ipairs(redis.call('zrange', KEYS[7], 0, -1)) do
  if k ~= account then others[k] = true; seats = seats + 1 end
end
local fair = math.floor(limit[1] / seats)
local held = 0
for k in pairs(others) do
  local expected = math.min(fair, math.max(reserve, 2 * (last[k] or 0)))
  held = held + math.max(0, expected - (now[k] or 0))
end
local mine, released = now[account] or 0, ARGV[13] == '1'
-- 0 when the points fit; 1 when the window is full; 2 when what is left is held for other accounts.
local function refusal(i, points)
  if points == 0 then return 0 end
  if used[i] + points > limit[i] then return 1 end
  if i == 2 or released or mine + points <= fair or used[1] + points + held <= limit[1] then return 0 end
  return 2
end
local points = {tonumber(ARGV[1]), tonumber(ARGV[2])}
local refused = {refusal(1, points[1]), refusal(2, points[2])}
if refused[1] > 0 or refused[2] > 0 then return {0, refused[1], refused[2], 0} end
local leased = 1
if tonumber(ARGV[7]) + tonumber(ARGV[8]) == 0 then leased = 0 end
for i = 1, 2 do
  local lease = tonumber(ARGV[i + 6])
  if lease > 0 and (used[i] + points[i] + lease > math.floor(limit[i] / 2) or refusal(i, points[i] + lease) > 0) then leased = 0 end
end
for i = 1, 2 do
  local taken = points[i] + leased * tonumber(ARGV[i + 6])
  if taken > 0 then
    local fresh = redis.call('pttl', KEYS[i + 2]) < 0
    redis.call('incrby', KEYS[i + 2], taken)
    if fresh then redis.call('pexpire', KEYS[i + 2], ARGV[i + 4]) end
    -- An account's use counts its calls, not its lease: weight held ahead must not swell the share kept for it.
    if i == 1 and points[1] > 0 then
      redis.call('hincrby', KEYS[5], account, points[1])
      -- Read again in the next window, as its last one.
      if redis.call('pttl', KEYS[5]) < 0 then redis.call('pexpire', KEYS[5], 2 * tonumber(ARGV[5])) end
      redis.call('zadd', KEYS[7], window, account)
      redis.call('pexpire', KEYS[7], (horizon + 1) * tonumber(ARGV[5]))
    end
  end
end
return {0, 0, 0, leased}
`;

/**
 * Gives weight back to both windows, to keys that still exist only (an ended window's key may have expired).
 * KEYS: IP window, UID window. ARGV: IP points, UID points.
 */
export const GIVE_BACK_LUA = `
for i = 1, 2 do
  local points = tonumber(ARGV[i])
  if points > 0 and redis.call('exists', KEYS[i]) == 1 then redis.call('decrby', KEYS[i], points) end
end
return 0
`;
