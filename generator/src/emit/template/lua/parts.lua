<# What the Lua module and the server-side Lua share, each unindented (the server's is
   indented by the caller): the key rule (explicit(key), M.key_for_slot; for a scheme that
   hashes the whole key, the frame solver over crc_of(key, first, last)) and the surface
   (M.hashtag, the lookup's tag_bytes, M.tag_for_slot, M.tags_for_slot, M.same_slot,
   M.shared_hashtag), over the M, floor, char, find, sub, unpack, xor_byte(a, b),
   value_of(slot) and constants of the code around them. #>
<% from "reduction.jinja" import infix %>
<# The slot of the CRC `crc` as a comment writes it, in the infix operators of C. #>
<% macro slot_formula() %>{{ infix(reduction, "crc", reduction.mask | hex) }}<% endmacro %>
<# The slot of the number `crc` in arithmetic for Lua 5.1, which has no bitwise operators:
   `floor(crc / 65536)` for the shift, `value % 32768` for the mask. #>
<% macro slot_of(crc) %>{{ infix(reduction, crc, reduction.mask + 1, band="%", shifted="floor(" ~ crc ~ " / " ~ 2 ** reduction.shift ~ ")" if reduction.shift else crc) }}<% endmacro %>
<% macro key_rule() %>

-- Why M.key_for_slot refuses a prefix or suffix that is no string: the first such, by
-- name, and one not given (nil) as missing.
local function affix_error(prefix, suffix)
    local name, value = "prefix", prefix
    if type(prefix) == "string" then
        name, value = "suffix", suffix
    end
    if value == nil then
        return name .. " is missing: give a string (\"\" for none)"
    end
    return name .. " must be a string, not a " .. type(value)
end
<% if rule.whole %>

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
local ALPHABET_OFFSET = {{alphabet.offset | hex(2)}}
local ALPHABET_BASIS = { {{alphabet.basis | map("hex", 2) | join(", ")}} }
-- The bits of a symbol's index: #ALPHABET_BASIS.
local SYMBOL_BITS = {{alphabet.symbol_bits}}
-- The low value bits a tag is solved for, and 2^SOLVED_BITS: a key of the slot has
-- slot - FIRST_SLOT there.
local SOLVED_BITS, SOLVED_MODULUS = {{tags.solved_bits}}, {{2 ** tags.solved_bits}}
-- How many solved frames are kept.
local KEPT_FRAMES = 16
-- The solved frames, keyed by #prefix .. ":" .. prefix .. suffix, and their count.
local frames, kept = {}, 0

-- The solved bits of the value of any bytes, lowest first, as SOLVED_BITS booleans: of
-- floor(crc / 2^{{reduction.shift}}) % 2^SOLVED_BITS, for the CRC that M.slot computes of a key's
-- hashtag.
local function value_bits(bytes)
    local value = floor(crc_of(bytes, 1, #bytes) / {{2 ** reduction.shift}}) % SOLVED_MODULUS
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
        return nil, affix_error(prefix, suffix)
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
<% else %>

-- The bytes that open and close a hashtag.
local OPEN, CLOSE = char({{rule.open | hex(2)}}), char({{rule.close | hex(2)}})
M.open, M.close = OPEN, CLOSE
-- A hashtag shorter than this hashes the whole key.
local MIN_TAG_LEN = {{rule.min_len}}

-- The hashtag the rule finds in key, as its first and last index: the bytes between the
-- first OPEN and the first CLOSE after it, when there are at least MIN_TAG_LEN of them;
-- nil when there is none.
local function explicit(key)
    local open = find(key, OPEN, 1, true)
    if open then
        local close = find(key, CLOSE, open + 1, true)
        if close and close - open - 1 >= MIN_TAG_LEN then
            return open + 1, close - 1
        end
    end
    return nil
end

-- OPEN .. tag .. CLOSE by slot, made as key_for_slot asks for them (see made_tags).
local made_framed = {}
-- The last prefix key_for_slot found without OPEN, and the last suffix (a string): a
-- caller's keys mostly share them, and comparing strings costs less than find and type()
-- (strings are immutable, so they stay right; "" is both).
local clean_prefix, last_suffix = "", ""

-- The key `prefix .. OPEN .. tag .. CLOSE .. suffix` for the slot. Its hashtag is the tag,
-- so it lands on the slot whatever the suffix holds; a prefix may not contain OPEN.
function M.key_for_slot(prefix, slot, suffix)
    -- the common call first: a slot whose framed tag is made, the last clean prefix and
    -- the last suffix (strings, then); no type() and no find (some 15% faster than a type())
    local framed = made_framed[slot]
    if framed and prefix == clean_prefix and suffix == last_suffix then
        return prefix .. framed .. suffix
    end
    if type(prefix) ~= "string" or type(suffix) ~= "string" then
        return nil, affix_error(prefix, suffix)
    end
    last_suffix = suffix
    if not framed then
        local tag, err = M.tag_for_slot(slot)
        if not tag then
            return nil, err
        end
        framed = OPEN .. tag .. CLOSE
        made_framed[slot] = framed
    end
    if prefix ~= clean_prefix then
        local at = find(prefix, OPEN, 1, true)
        if at then
            return nil, "prefix contains the hashtag's opening byte {{rule.open | hex(2)}} at byte " .. (at - 1)
                .. ": the key's hashtag would start there instead of at the tag; remove it"
                .. " from the prefix or move that part into the suffix"
        end
        clean_prefix = prefix
    end
    return prefix .. framed .. suffix
end
<% endif %>
<% endmacro %>
<% macro surface() %>

-- The bytes of the key that its slot is computed from:
-- {{rule.doc | lua_wrap("-- ")}}.
function M.hashtag(key)
    if type(key) ~= "string" then
        return nil, "key must be a string, not a " .. type(key)
    end
    local first, last = explicit(key)
    if first then
        return sub(key, first, last)
    end
    return key
end

-- Xors into bytes[1..TAG_LEN] the rows of `rows` (TAG_LEN bytes each) at the set bits of
-- `bits`, and returns bytes.
local function xor_rows(bytes, rows, bits)
    local row = 0
    while bits > 0 do
        if bits % 2 == 1 then
            for i = 1, TAG_LEN do
                bytes[i] = xor_byte(bytes[i], rows[row + i])
            end
        end
        bits, row = floor(bits / 2), row + TAG_LEN
    end
    return bytes
end

<% if lookup.split %>
-- A tag as TAG_LEN bytes, first byte first; row r of a table is its entries r * TAG_LEN + 1
-- to r * TAG_LEN + TAG_LEN. The tag of a value v is row v % {{lookup.low_len}} of LOW xor row
-- floor(v / {{lookup.low_len}}) of HIGH, byte by byte: LOW holds whole tags (the tag of value 0 folded
-- in), HIGH the bytes that the value's high bits flip. The tag of a slot is the tag of the
-- value slot - FIRST_SLOT.
local LOW = {
{{lookup.low | byte_rows("    ")}}
}
local HIGH = {
{{lookup.high | byte_rows("    ")}}
}

-- Writes the bytes of the tag of a value below VALUE_LIMIT into bytes[1..TAG_LEN].
local function tag_bytes(value, bytes)
    local l = (value % {{lookup.low_len}}) * TAG_LEN
    local h = floor(value / {{lookup.low_len}}) * TAG_LEN
    for i = 1, TAG_LEN do
        bytes[i] = xor_byte(LOW[l + i], HIGH[h + i])
    end
    return bytes
end
<% else %>
-- The tag of a value v is ZERO_TAG xor the rows i of COLUMNS (TAG_LEN bytes each) over the
-- set bits i of v: row i flips bit i of the tag's value (the CRC's value after the shift
-- and mask), and ZERO_TAG is the tag of value 0. The tag of a slot is the tag of the value
-- slot - FIRST_SLOT.
local ZERO_TAG = {
{{[tags.zero] | byte_rows("    ")}}
}
local COLUMNS = {
{{tags.columns | byte_rows("    ")}}
}

-- Writes the bytes of the tag of a value below VALUE_LIMIT into bytes[1..TAG_LEN].
local function tag_bytes(value, bytes)
    for i = 1, TAG_LEN do
        bytes[i] = ZERO_TAG[i]
    end
    return xor_rows(bytes, COLUMNS, value)
end
<% endif %>

-- A basis of the kernel, one row of TAG_LEN bytes each: xored into a tag, any combination
-- keeps its value.
local KERNEL = {
{{tags.kernel | byte_rows("    ")}}
}
-- 2^{{tags.kernel_len}} (the kernel's rows): the tags of each value.
local TAGS_PER_VALUE = {{tags.per_value}}
-- Tags reach the values below this; a slot's are slot - FIRST_SLOT + k * SLOTS.
local VALUE_LIMIT = {{tags.value_limit}}

<% if tags.ready %>
-- The tags made so far, by slot: a Lua string is immutable, so a tag made once is handed
-- out again, and tag_for_slot is a table lookup (as a table of every tag made up front is)
-- from its second call for a slot on.
local made_tags = {}

<% endif %>
-- A tag (a string of TAG_LEN bytes of the alphabet) whose key lands on the slot.
function M.tag_for_slot(slot)
<% if tags.ready %>
    local tag = made_tags[slot]
    if tag then
        return tag
    end
<% endif %>
    local value, err = value_of(slot)
    if not value then
        return nil, err
    end
<% if tags.ready %>
    tag = char(unpack(tag_bytes(value, {}), 1, TAG_LEN))
    made_tags[slot] = tag
    return tag
<% else %>
    -- made at each call: a table of every slot's tag would grow with the slots asked
    return char(unpack(tag_bytes(value, {}), 1, TAG_LEN))
<% endif %>
end

-- Every tag of TAG_LEN symbols that lands on the slot, lazily: an iterator (`for tag in
-- M.tags_for_slot(s)`) over, for each value slot - FIRST_SLOT + k * SLOTS below
-- VALUE_LIMIT, ascending, the value's tag xor each combination of KERNEL rows, in binary
-- counting order; the tag_for_slot tag first. The slot is checked at once.
function M.tags_for_slot(slot)
    local value, err = value_of(slot)
    if not value then
        return nil, err
    end
    local n = 0
    local base, bytes = tag_bytes(value, {}), {}
    return function()
        if n == TAGS_PER_VALUE then
            if value + SLOTS >= VALUE_LIMIT then
                return nil
            end
            value, n = value + SLOTS, 0
            tag_bytes(value, base)
        end
        for i = 1, TAG_LEN do
            bytes[i] = base[i]
        end
        xor_rows(bytes, KERNEL, n)
        n = n + 1
        return char(unpack(bytes, 1, TAG_LEN))
    end
end

-- The slot every key of the array lands on, as a multi-key command or a script's keys
-- need; nil when two keys land on different slots (the server answers CROSSSLOT) or there
-- are none, or nil and a message when a key is not a string or `keys` is not an array.
function M.same_slot(keys)
    if type(keys) ~= "table" then
        return nil, "same_slot takes an array of keys, not a " .. type(keys) .. ": write same_slot({key})"
    end
    local found
    for i = 1, #keys do
        local here, message = M.slot(keys[i])
        if not here then
            return nil, message
        end
        if found == nil then
            found = here
        elseif here ~= found then
            return nil
        end
    end
    return found
end

-- The one hashtag every key of the array has between its delimiters; nil when a key has
-- none (its whole key is hashed), two keys have different ones, or there are none, or nil
-- and a message when a key is not a string or `keys` is not an array. Keys that share a
-- hashtag land on one slot whatever the slot count.
function M.shared_hashtag(keys)
    if type(keys) ~= "table" then
        return nil, "shared_hashtag takes an array of keys, not a " .. type(keys) .. ": write shared_hashtag({key})"
    end
    local found
    for i = 1, #keys do
        local key = keys[i]
        if type(key) ~= "string" then
            return nil, "key must be a string, not a " .. type(key)
        end
        local first, last = explicit(key)
        if not first then
            return nil
        end
        local tag = sub(key, first, last)
        if found == nil then
            found = tag
        elseif tag ~= found then
            return nil
        end
    end
    return found
end
<% endmacro %>
