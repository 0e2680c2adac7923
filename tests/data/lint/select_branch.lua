-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `SELECT 1` only when the caller asks for database 1 (`ARGV[1] == 'db1'`; here ARGV[1] is
-- a key's name, so the branch does not run and every server runs the script). Taken, Redis
-- 7.0 and Valkey 8.0 refuse SELECT in cluster mode, Valkey 9.1 a database past its
-- `cluster-databases`: the verdict depends on the branch.
if ARGV[1] == 'db1' then
  redis.call('select', 1)
end
return redis.call('INCR', KEYS[1])
