-- call: keys=1 decided
-- ZINCRBY's increment is a float read whole: `(1`, an exclusive bound to ZRANGEBYSCORE
-- (which takes it before this), is refused by every server ("value is not a valid float").
redis.call('ZRANGEBYSCORE', KEYS[1], '(1', '+inf')
return redis.call('ZINCRBY', KEYS[1], '(1', 'm')
