#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A local function run only by `pcall(f)`: its refusal is caught, the script goes on.
local function write_other()
  return redis.call('SET', ARGV[1], 'v')
end
local ok = pcall(write_other)
return redis.call('SET', KEYS[1], 'v')
