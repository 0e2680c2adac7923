-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- An EVAL script whose helper is a global function (a forgotten `local`).
function touch(key)
  return redis.call('SET', key, 'v')
end
return touch(KEYS[1])
