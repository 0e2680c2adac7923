-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- redis.acl_check_cmd of a command no server has (without a module giving it): refused.
redis.call('GET', KEYS[1])
return redis.acl_check_cmd('NOSUCH')
