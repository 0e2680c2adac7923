-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A helper handed KEYS under another name only reads it (`#t`, `t[1]`), two helpers deep:
-- KEYS[1] read after the calls is the caller's key.
local function first(t)
  return t[1]
end
local function count(t)
  if #t == 0 then
    return 0
  end
  return first(t) and 1
end
count(KEYS)
return redis.call('SET', KEYS[1], 'x')
