-- call: keys=2
-- rsmq's popMessage: KEYS[2] is no key but ZRANGEBYSCORE's max (rsmq passes a timestamp
-- there). A key name there is no float: every server refuses it ("min or max is not a
-- float"), and on two slots CROSSSLOT comes first; the fix is to pass it in ARGV, not to
-- put a hashtag into it.
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', KEYS[2], 'LIMIT', 0, 1)
