--[[
  A helper that builds a job's key from a prefix and calls an included helper with it.
]]
--- @include "set_key"

local function touchJob(prefix, id)
  return setKey(prefix .. id, 'v')
end
