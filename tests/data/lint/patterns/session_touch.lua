-- a session refreshed: its hash and the user's index of sessions, the session id from ARGV
local session = KEYS[1] .. ':' .. ARGV[1]
if redis.call('EXISTS', session) == 0 then
  return 0
end
redis.call('PEXPIRE', session, ARGV[2])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1
