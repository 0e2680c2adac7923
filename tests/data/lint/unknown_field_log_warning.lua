-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `redis.log_warning` for `redis.log(redis.LOG_WARNING, ...)`: no such field, and the fix
-- must not be the constant `redis.LOG_WARNING`, which no server calls either.
redis.log_warning('x')
return redis.call('GET', KEYS[1])
