{{header}}%%
%% Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
%% O(1); the scheme of {{systems}}. One Erlang module (OTP 24 and later, kernel and stdlib
%% only), for eredis_cluster and ered users. Keys, hashtags and tags are binaries; a key
%% given as a list is taken as Unicode text and encoded as UTF-8 first. A slot is an
%% integer from first_slot() to last_slot().
%%
%%   {{module}}:slot(<<"123456789">>)  =:= {{check_slot}}
%%   {{module}}:tag_for_slot({{module}}:first_slot())  -> {ok, the bytes of "{{tag}}"}
%%   {{module}}:key_for_slot(<<{{example_prefix}}>>, {{module}}:first_slot(), <<{{example_suffix}}>>)  -> {ok, the bytes of "{{key}}"}
%%   {{module}}:tags_for_slot({{module}}:first_slot())  -> {ok, Tags}, Tags a lazy list, that tag first
%%
%% A lazy list is a fun of no arguments that returns [Tag | Next], Next being the lazy list
%% of the tags after Tag, or [] after the last tag (a slot may have 2^50 tags and more).
%% A refused call returns {error, Reason}: {slot_out_of_range, Slot}, {{key_error}};
%% format_error(Reason) says the rule and the way out.
-module({{module}}).

-export([slots/0, first_slot/0, last_slot/0, tag_len/0]).
-export([slot/1, hashtag/1, tag_for_slot/1, key_for_slot/3, tags_for_slot/1]).
-export([same_slot/1, shared_hashtag/1, format_error/1]).
-export_type([key/0, slot/0, lazy_tags/0, reason/0]).

-type key() :: binary() | unicode:chardata().
-type slot() :: integer().
-type lazy_tags() :: fun(() -> nonempty_improper_list(binary(), lazy_tags()) | []).
-type reason() :: {slot_out_of_range, term()} | {prefix_has_delimiter, non_neg_integer()}
    | {frame_not_solvable, non_neg_integer()}.

-define(SLOTS, {{slots}}).
-define(FIRST_SLOT, {{first_slot}}).
-define(LAST_SLOT, {{last_slot}}).
-define(TAG_LEN, {{tag_len}}).

%% The number of slots.
-spec slots() -> pos_integer().
slots() -> ?SLOTS.

%% The first slot; slots are first_slot() to last_slot().
-spec first_slot() -> slot().
first_slot() -> ?FIRST_SLOT.

%% The last slot.
-spec last_slot() -> slot().
last_slot() -> ?LAST_SLOT.

%% Symbols (bytes) per tag.
-spec tag_len() -> pos_integer().
tag_len() -> ?TAG_LEN.

%% The message of a refusal's reason: the rule and the way out.
-spec format_error(reason()) -> string().
format_error({slot_out_of_range, Slot}) ->
    lists:flatten(io_lib:format(
        "slot ~tp is out of range: the slots are the integers ~b to ~b",
        [Slot, ?FIRST_SLOT, ?LAST_SLOT]));
format_error({prefix_has_delimiter, Position}) ->
    lists:flatten(io_lib:format(
        "prefix contains the hashtag's opening byte 16#~2.16.0b at byte ~b: the key's hashtag "
        "would start there instead of at the tag; remove it from the prefix or move that part "
        "into the suffix", [{{open}}, Position]));
format_error({frame_not_solvable, Rank}) ->
    lists:flatten(io_lib:format(
        "inside this prefix and suffix, tags of ~b symbols control only ~b of the ~b value "
        "bits a slot needs: change the prefix or suffix, or emit the module for another tag "
        "length (--tag-len)", [?TAG_LEN, Rank, {{solved_bits}}])).

to_binary(Key) when is_binary(Key) -> Key;
to_binary(Key) when is_list(Key) ->
    case unicode:characters_to_binary(Key) of
        Bytes when is_binary(Bytes) -> Bytes;
        _ -> error(badarg, [Key])
    end.
{{rule}}
%% The bytes of the key that its slot is computed from: {{rule_doc}}.
-spec hashtag(key()) -> binary().
hashtag(Key) ->
    Bytes = to_binary(Key),
    case explicit(Bytes) of
        none -> Bytes;
        Tag -> Tag
    end.

%% The CRC's lookup table: entry i + 1 is the register after feeding byte i into a zero
%% register{{reflected_note}}.
-define(CRC_TABLE, {
{{crc_table}}
}).

{{crc_bytes}}{{crc_reflect}}
%% The slot of a key: {{slot_formula}}, for the CRC of {{rule_doc}}.
-spec slot(key()) -> slot().
slot(Key) ->
    {{slot_expression}}.
{{lookup}}
%% A basis of the kernel: xored into a tag, any combination keeps its value.
-define(KERNEL, [
{{kernel_ints}}
]).
%% The last of a value's 2^{{kernel_len}} combinations of the kernel.
-define(LAST_COMBINATION, {{last_combination}}).
%% Tags reach the values below this; a slot's are Slot - first_slot() + K * slots().
-define(VALUE_LIMIT, {{value_limit}}).

check_slot(Slot) when is_integer(Slot), Slot >= ?FIRST_SLOT, Slot =< ?LAST_SLOT ->
    {ok, Slot - ?FIRST_SLOT};
check_slot(Slot) ->
    {error, {slot_out_of_range, Slot}}.

tag_bytes(Tag) -> <<Tag:?TAG_LEN/little-unit:8>>.

%% A tag (tag_len() bytes of the alphabet) whose key lands on the slot.
-spec tag_for_slot(slot()) -> {ok, binary()} | {error, reason()}.
tag_for_slot(Slot) when is_integer(Slot), Slot >= ?FIRST_SLOT, Slot =< ?LAST_SLOT ->
    % the check in the head: check_slot's {ok, Value} would add a tuple and a call
    {ok, tag_bytes(tag_of(Slot - ?FIRST_SLOT))};
tag_for_slot(Slot) ->
    check_slot(Slot).

%% Every tag of tag_len() symbols that lands on the slot, as a lazy list (see the top
%% of this module): for each value Slot - first_slot() + K * slots() below the value limit,
%% ascending, the value's tag xor each combination of the kernel, in binary counting order;
%% the tag_for_slot tag first. The slot is checked at once, the tags are made as they are
%% taken.
-spec tags_for_slot(slot()) -> {ok, lazy_tags()} | {error, reason()}.
tags_for_slot(Slot) ->
    case check_slot(Slot) of
        {ok, Value} -> {ok, tags(Value, 0, tag_of(Value))};
        Error -> Error
    end.

%% The tags of Value from combination N on, then those of the next values.
tags(Value, N, Tag) ->
    fun() ->
        Next = case N of
            ?LAST_COMBINATION -> next_value(Value + ?SLOTS);
            _ -> tags(Value, N + 1, Tag)
        end,
        [tag_bytes(combine(N, ?KERNEL, Tag)) | Next]
    end.

next_value(Value) when Value >= ?VALUE_LIMIT -> fun() -> [] end;
next_value(Value) -> tags(Value, 0, tag_of(Value)).

%% Tag xor the kernel rows of the set bits of N.
combine(0, _Kernel, Tag) -> Tag;
combine(N, [Row | Rows], Tag) when N band 1 =:= 1 -> combine(N bsr 1, Rows, Tag bxor Row);
combine(N, [_ | Rows], Tag) -> combine(N bsr 1, Rows, Tag).

%% The slot every key lands on, as a multi-key command or a script's keys need; none
%% when two keys land on different slots (the server answers CROSSSLOT) or there are none.
-spec same_slot([key()]) -> slot() | none.
same_slot([]) ->
    none;
same_slot([Key | Keys]) ->
    Slot = slot(Key),
    case lists:all(fun(Other) -> slot(Other) =:= Slot end, Keys) of
        true -> Slot;
        false -> none
    end.
{{shared_hashtag}}
