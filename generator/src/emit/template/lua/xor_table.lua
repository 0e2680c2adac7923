-- XOR[a * 256 + b] is `a xor b` for bytes a and b. Built by doubling: for a, b below
-- 2^k, setting bit k in one of them sets it in the result, setting it in both clears it.
local XOR = { [0] = 0 }
local size = 1
while size < 256 do
    for a = 0, size - 1 do
        for b = 0, size - 1 do
            local x = XOR[a * 256 + b]
            XOR[(a + size) * 256 + b] = x + size
            XOR[a * 256 + b + size] = x + size
            XOR[(a + size) * 256 + b + size] = x
        end
    end
    size = size * 2
end

local function xor_byte(a, b)
    return XOR[a * 256 + b]
end
