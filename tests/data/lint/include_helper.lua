#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key) decided
-- An included helper called with KEYS[1] and with ARGV[1]: each call followed into its body.
--- @include "includes/set_key"
setKey(KEYS[1], 'a')
return setKey(ARGV[1], 'b')
