-- call: keys=1 decided
-- ZADD's scores come after its options (`NX`, `CH`, `INCR`), in every score-member pair:
-- `nan` as the second pair's score is refused by every server ("value is not a valid
-- float"), after the ZADD before it, whose `-inf` and `1e308` they take.
redis.call('ZADD', KEYS[1], 'NX', 'CH', '-inf', 'a', '1e308', 'b')
return redis.call('ZADD', KEYS[1], 'XX', '1', 'a', 'nan', 'b')
