
%% A tag as an integer: byte k of the tag is byte k of the integer, least significant
%% first. The tag of a value V is element((V band {{low_mask}}) + 1, LOW) bxor
%% element((V bsr {{low_bits}}) + 1, HIGH): LOW holds whole tags (the tag of value 0 folded in),
%% HIGH the bytes that the value's high bits flip. The tag of a slot is the tag of the
%% value Slot - first_slot().
-define(LOW, {
{{low_ints}}
}).
-define(HIGH, {
{{high_ints}}
}).

tag_of(Value) ->
    element((Value band {{low_mask}}) + 1, ?LOW) bxor element((Value bsr {{low_bits}}) + 1, ?HIGH).
