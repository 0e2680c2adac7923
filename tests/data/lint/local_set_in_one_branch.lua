-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A local declared without a value and given one in one branch only: it is nil on the
-- other way (`SET nil 1`, refused: "Lua redis lib command arguments must be strings or
-- integers"), so the lint never says `runs`.
local k
if ARGV[1] == '' then
  k = KEYS[1] .. ':x'
end
return redis.call('SET', k, 1)
