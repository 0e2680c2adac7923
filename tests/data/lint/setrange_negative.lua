-- call: keys=1 decided
-- An offset below 0: every server refuses SETRANGE's ("offset is out of range"), where
-- GETRANGE's -1 is the last byte.
redis.call('SET', KEYS[1], 'abc')
redis.call('GETRANGE', KEYS[1], '-1', '-1')
return redis.call('SETRANGE', KEYS[1], '-1', 'x')
