-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `SELECT '00'`: the servers read a database as an integer without a leading zero, and
-- refuse `00` ("value is not an integer or out of range") before any cluster rule.
redis.call('select', '00')
return redis.call('INCR', KEYS[1])
