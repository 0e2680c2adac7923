#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `local ok, err = pcall(function() ... end)` keeps the error and returns it: the three
-- servers run the script in every placement (the reply is no error); the lint does not
-- follow the error's value, and says depends.
redis.call('SET', KEYS[1], 'v')
local ok, err = pcall(function() return redis.call('SET', ARGV[1], 'v') end)
return err
