-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A helper added to `string` through a local (`local str = string`): the servers keep the
-- global tables read-only, whatever name reaches them.
local str = string
str.trim = function(s) return (s:gsub('^%s+', '')) end
return redis.call('SET', KEYS[1], str.trim('  v'))
