#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A helper called by its name and through a copy of it (`local g = set`, only ever
-- called): each call is followed into its body with its own key.
local function set(k)
  return redis.call('SET', k, 'v')
end
local g = set
set(KEYS[1])
return g(ARGV[1])
