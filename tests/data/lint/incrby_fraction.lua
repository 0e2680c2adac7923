-- call: keys=1
-- INCRBY reads an integer: `1.5` is refused by every server ("value is not an integer or
-- out of range"); INCRBYFLOAT and ZINCRBY take it.
redis.call('INCRBYFLOAT', KEYS[1], '1.5')
redis.call('ZINCRBY', KEYS[1] .. 'z', '1.5', 'm')
return redis.call('INCRBY', KEYS[1], '1.5')
