#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A helper declared inside another, each called twice: every call of `outer` is followed
-- into its body, and there every call of `inner` into its own, with the values passed.
local function outer(k)
  local function inner(x)
    return redis.call('SET', x, 'v')
  end
  inner(k)
  return inner(k .. ':b')
end
outer(KEYS[1])
return outer(ARGV[1])
