--[[
  A helper of the corpus's includes: SET of the key its caller gives.
]]
local function setKey(key, value)
  return redis.call('SET', key, value)
end
