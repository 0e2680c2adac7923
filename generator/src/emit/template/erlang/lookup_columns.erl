
%% A tag as an integer: byte k of the tag is byte k of the integer, least significant
%% first. The tag of a value V is ZERO_TAG bxor the columns of the set bits of V: column i
%% flips bit i of the tag's value (the CRC's value after the shift and mask), and ZERO_TAG
%% is the tag of value 0. The tag of a slot is the tag of the value Slot - first_slot().
-define(ZERO_TAG, {{zero_int}}).
-define(COLUMNS, [
{{column_ints}}
]).

tag_of(Value) -> combine(Value, ?COLUMNS, ?ZERO_TAG).
