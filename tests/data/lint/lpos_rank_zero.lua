-- call: keys=1 decided
-- LPOS's RANK counts from 1 (or from the end below 0): 0 is refused by every server ("RANK
-- can't be zero: ..."); a COUNT of 0 is taken (every match).
redis.call('LPOS', KEYS[1], 'x', 'RANK', '-1', 'COUNT', '0')
return redis.call('LPOS', KEYS[1], 'x', 'RANK', '0')
