-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- redis.call and KEYS[1] through locals; the second key comes from ARGV, undeclared.
local rcall = redis.call
local k = KEYS[1]
local other = ARGV[1]
rcall('SET', k, 'v')
return rcall('SET', other, 'v')
