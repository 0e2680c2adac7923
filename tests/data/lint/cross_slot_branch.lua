#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A log line on another slot, written only when the caller asks (`ARGV[1] == 'log'`; here
-- ARGV[1] is a key's name, so the branch does not run and every server runs the script).
if ARGV[1] == 'log' then
  redis.call('SET', '{log}last', KEYS[1])
end
return redis.call('GET', KEYS[1])
