-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A typo in a library table: `cjson.encod` for `cjson.encode`.
local doc = cjson.encod({ owner = ARGV[1] })
return redis.call('SET', KEYS[1], doc)
