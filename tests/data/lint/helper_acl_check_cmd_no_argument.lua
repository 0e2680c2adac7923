-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- redis.acl_check_cmd() without a command: refused.
redis.call('GET', KEYS[1])
return redis.acl_check_cmd()
