-- call: keys=1 decided
-- INCRBYFLOAT takes `1e400` (a `long double` holds it) but refuses an infinite increment
-- on every server ("increment would produce NaN or Infinity").
redis.call('INCRBYFLOAT', KEYS[1], '1e400')
return redis.call('INCRBYFLOAT', KEYS[1], '-inf')
