
-- This scheme hashes the whole key: no key has a hashtag.
local function explicit(_)
    return nil
end

-- Solving a tag inside a frame: the value of prefix .. tag .. suffix is affine in the tag's
-- bits (a CRC over keys of one length is), so it is measured at the tag whose symbols all
-- have index 0 and at each single bit flipped, and solved by Gauss-Jordan elimination with
-- pivot columns in ascending order and every free bit zero: the tag `slotgen key --prefix
-- --suffix` gives, with this module's alphabet and tag length. A frame is solved once and
-- kept (up to KEPT_FRAMES of them, then the store starts afresh). Bitsets are tables of
-- booleans, so that no value needs more than a double's 53 bits.

-- The alphabet's first symbol, and what bit j of a symbol's index xors into it (at
-- ALPHABET_BASIS[j + 1]).
local ALPHABET_OFFSET = {{alphabet_offset}}
local ALPHABET_BASIS = { {{alphabet_basis}} }
-- The bits of a symbol's index: #ALPHABET_BASIS.
local SYMBOL_BITS = {{symbol_bits}}
-- The low value bits a tag is solved for, and 2^SOLVED_BITS: a key of the slot has
-- slot - FIRST_SLOT there.
local SOLVED_BITS, SOLVED_MODULUS = {{solved_bits}}, {{solved_modulus}}
-- How many solved frames are kept.
local KEPT_FRAMES = 16
-- The solved frames, keyed by #prefix .. ":" .. prefix .. suffix, and their count.
local frames, kept = {}, 0

-- The solved bits of the value of any bytes, lowest first, as SOLVED_BITS booleans: of
-- floor(crc / 2^{{shift}}) % 2^SOLVED_BITS, for the CRC that M.slot computes of a key's
-- hashtag.
local function value_bits(bytes)
    local value = floor(crc_of(bytes, 1, #bytes) / {{shift_divisor}}) % SOLVED_MODULUS
    local bits = {}
    for r = 1, SOLVED_BITS do
        bits[r] = value % 2 == 1
        value = floor(value / 2)
    end
    return bits
end

-- Solves the frame head .. tag .. tail: its tag of value 0 (TAG_LEN bytes), and in one
-- table SOLVED_BITS rows of TAG_LEN bytes, row s (entries (s - 1) * TAG_LEN + 1 to
-- s * TAG_LEN) the bytes that flip value bit s; or nil and a message when tags of TAG_LEN
-- symbols reach fewer value bits than SOLVED_BITS inside it. Bits count from 1 here, the
-- value's lowest first.
local function solve(head, tail)
    -- The columns of the matrix: input bit i = (k - 1) * SYMBOL_BITS + j is bit j of the
    -- index of tag byte k.
    local width = TAG_LEN * SYMBOL_BITS
    local zero = {}
    for k = 1, TAG_LEN do
        zero[k] = ALPHABET_OFFSET
    end
    local zeros = char(unpack(zero, 1, TAG_LEN))
    local base = value_bits(head .. zeros .. tail)
    -- One row a value bit r: row[i] whether input bit i flips it, then row[width + s]
    -- whether value bit s is summed into it.
    local rows = {}
    for r = 1, SOLVED_BITS do
        local row = {}
        for i = 1, width + SOLVED_BITS do
            row[i] = false
        end
        row[width + r] = true
        rows[r] = row
    end
    for k = 1, TAG_LEN do
        for j = 1, SYMBOL_BITS do
            local flipped = char(xor_byte(ALPHABET_OFFSET, ALPHABET_BASIS[j]))
            local value = value_bits(head .. sub(zeros, 1, k - 1) .. flipped .. sub(zeros, k + 1)
                .. tail)
            local i = (k - 1) * SYMBOL_BITS + j
            for r = 1, SOLVED_BITS do
                rows[r][i] = value[r] ~= base[r]
            end
        end
    end
    -- Gauss-Jordan: the pivot of column i is the first row from rank + 1 on that has it,
    -- moved to rank + 1 and xored into every other row that has it. A pivot row is false
    -- at every column before its own, so the xor starts there.
    local pivots = {}
    for i = 1, width do
        local rank = #pivots
        local found = rank + 1
        while found <= SOLVED_BITS and not rows[found][i] do
            found = found + 1
        end
        if found <= SOLVED_BITS then
            local pivot = rows[found]
            rows[found], rows[rank + 1] = rows[rank + 1], pivot
            for r = 1, SOLVED_BITS do
                local row = rows[r]
                if r ~= rank + 1 and row[i] then
                    for c = i, width + SOLVED_BITS do
                        row[c] = row[c] ~= pivot[c]
                    end
                end
            end
            pivots[rank + 1] = i
        end
    end
    if #pivots < SOLVED_BITS then
        return nil, "inside this prefix and suffix, tags of " .. TAG_LEN .. " symbols control only "
            .. #pivots .. " of the " .. SOLVED_BITS .. " value bits a slot needs: change the"
            .. " prefix or suffix, or emit the module for another tag length (--tag-len)"
    end
    -- Value bit s flips the pivot bits of the rows that sum it; a free bit stays zero.
    local flips = {}
    for e = 1, SOLVED_BITS * TAG_LEN do
        flips[e] = 0
    end
    for p = 1, SOLVED_BITS do
        local i = pivots[p]
        local k = floor((i - 1) / SYMBOL_BITS) + 1
        local b = ALPHABET_BASIS[(i - 1) % SYMBOL_BITS + 1]
        for s = 1, SOLVED_BITS do
            if rows[p][width + s] then
                local e = (s - 1) * TAG_LEN + k
                flips[e] = xor_byte(flips[e], b)
            end
        end
    end
    -- The tag of value v is zeros xor the flips of the bits of v xor base (the value of
    -- zeros): folding base's flips into zero leaves v's alone to each key.
    for s = 1, SOLVED_BITS do
        if base[s] then
            for k = 1, TAG_LEN do
                zero[k] = xor_byte(zero[k], flips[(s - 1) * TAG_LEN + k])
            end
        end
    end
    return { zero = zero, flips = flips }
end

-- The key `prefix .. tag .. suffix` for the slot: this scheme hashes the whole key, so the
-- tag is solved inside the frame (the tag alone when both are empty, M.tag_for_slot's); or
-- nil and a message when tags of TAG_LEN symbols cannot reach every slot inside it.
function M.key_for_slot(prefix, slot, suffix)
    if type(prefix) ~= "string" or type(suffix) ~= "string" then
        return nil, "prefix and suffix must be strings"
    end
    -- M.tag_for_slot checks the slot
    local tag, err = M.tag_for_slot(slot)
    if not tag then
        return nil, err
    end
    if prefix == "" and suffix == "" then
        return tag
    end
    local name = #prefix .. ":" .. prefix .. suffix
    local frame = frames[name]
    if not frame then
        frame, err = solve(prefix, suffix)
        if not frame then
            return nil, err
        end
        if kept == KEPT_FRAMES then
            frames, kept = {}, 0
        end
        frames[name], kept = frame, kept + 1
    end
    local bytes, flips = {}, frame.flips
    for k = 1, TAG_LEN do
        bytes[k] = frame.zero[k]
    end
    local value, row = tonumber(slot) - FIRST_SLOT, 0
    while value > 0 do
        if value % 2 == 1 then
            for k = 1, TAG_LEN do
                bytes[k] = xor_byte(bytes[k], flips[row + k])
            end
        end
        value, row = floor(value / 2), row + TAG_LEN
    end
    return prefix .. char(unpack(bytes, 1, TAG_LEN)) .. suffix
end
