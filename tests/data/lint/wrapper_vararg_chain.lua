-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A wrapper of a wrapper, in a script without a shebang: each call is the command, run in
-- the body of the inner wrapper (the line the servers name); the ARGV key runs where it is
-- on the node of KEYS[1].
local function rcall(...)
  return redis.call(...)
end
local write = function(...) return rcall(...) end
write('SET', KEYS[1], 'v')
return write('SET', ARGV[1], 'v')
