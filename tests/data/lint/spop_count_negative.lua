-- call: keys=1 decided
-- SPOP's optional count, after the key: 0 is taken, -1 refused by every server ("value is
-- out of range, must be positive"), as LPOP's, RPOP's and ZPOPMIN's.
redis.call('SPOP', KEYS[1], '0')
return redis.call('SPOP', KEYS[1], '-1')
