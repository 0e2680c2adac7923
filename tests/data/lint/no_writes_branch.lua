#!lua flags=no-writes
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A write in a `no-writes` script, only when the caller asks (`ARGV[1] == 'w'`; here
-- ARGV[1] is a key's name, so the branch does not run and every server runs the script).
if ARGV[1] == 'w' then
  redis.call('SET', KEYS[1], 1)
end
return redis.call('GET', KEYS[1])
