<# The Erlang module: one file, every part chosen here. #>
<% from "reduction.jinja" import infix %>
<# The slot of the CRC `Crc`, in Erlang's operators: `bsr`, `band`, `rem`, hex as `16#3fff`. #>
<% macro slot_of(crc) %>{{ infix(reduction, crc, reduction.mask | erl_hex, shr="bsr", band="band", rem="rem") }}<% endmacro %>
<% macro crc_update() %>
<% if crc.refin %>
    crc(Rest, (Crc bsr 8) bxor element(((Crc bxor Byte) band 16#ff) + 1, ?CRC_TABLE));
<% else %>
    crc(Rest, ((Crc bsl 8) band {{crc.mask | erl_hex}}) bxor element((((Crc bsr {{crc.top_shift}}) bxor Byte) band 16#ff) + 1, ?CRC_TABLE));
<% endif %>
<% endmacro %>
<# The register's finish as one expression: its reflection when refin != refout, the xor
   with xorout. #>
<% macro crc_finish() %><% set reflected = "reflect(Crc)" if crc.reflect_out else "Crc" %><% if crc.xorout %>{{reflected}} bxor {{crc.xorout | erl_hex}}<% else %>{{reflected}}<% endif %><% endmacro %>
{{header}}%%
%% Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
%% O(1); the scheme of {{systems}}. One Erlang module (OTP 24 and later, kernel and stdlib
%% only), for eredis_cluster and ered users. Keys, hashtags and tags are binaries; a key
%% given as a list is taken as Unicode text and encoded as UTF-8 first. A slot is an
%% integer from first_slot() to last_slot().
%%
%%   {{module}}:slot(<<"123456789">>)  =:= {{examples.check_slot}}
%%   {{module}}:tag_for_slot({{module}}:first_slot())  -> {ok, the bytes of "{{examples.tag}}"}
%%   {{module}}:key_for_slot(<<{{examples.prefix}}>>, {{module}}:first_slot(), <<{{examples.suffix}}>>)  -> {ok, the bytes of "{{examples.key}}"}
%%   {{module}}:tags_for_slot({{module}}:first_slot())  -> {ok, Tags}, Tags a lazy list, that tag first
%%
%% A lazy list is a fun of no arguments that returns [Tag | Next], Next being the lazy list
%% of the tags after Tag, or [] after the last tag (a slot may have 2^50 tags and more).
%% A refused call returns {error, Reason}: {slot_out_of_range, Slot}, {{"{frame_not_solvable, Rank}" if rule.whole else "{prefix_has_delimiter, Position}"}};
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

-define(SLOTS, {{slots.count}}).
-define(FIRST_SLOT, {{slots.first}}).
-define(LAST_SLOT, {{slots.last}}).
-define(TAG_LEN, {{tags.len}}).

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
        "into the suffix", [{{rule.open | erl_hex}}, Position]));
format_error({frame_not_solvable, Rank}) ->
    lists:flatten(io_lib:format(
        "inside this prefix and suffix, tags of ~b symbols control only ~b of the ~b value "
        "bits a slot needs: change the prefix or suffix, or emit the module for another tag "
        "length (--tag-len)", [?TAG_LEN, Rank, {{tags.solved_bits}}])).

to_binary(Key) when is_binary(Key) -> Key;
to_binary(Key) when is_list(Key) ->
    case unicode:characters_to_binary(Key) of
        Bytes when is_binary(Bytes) -> Bytes;
        _ -> error(badarg, [Key])
    end.
<% if rule.whole %>

%% This scheme hashes the whole key: no hashtag, whatever the key.
explicit(_Key) -> none.

%% Solving a tag inside a frame: the value of Prefix ++ tag ++ Suffix is affine in the tag's
%% bits (a CRC over keys of one length is), so it is measured at the tag whose symbols all
%% have index 0 and at each single bit flipped, and solved by Gauss-Jordan elimination with
%% pivot columns in ascending order and every free bit zero: the tag `slotgen key --prefix
%% --suffix` gives, with this module's alphabet and tag length. A frame is solved once and
%% kept in the calling process's dictionary (the last one).

%% The alphabet's first symbol, and what bit J of a symbol's index xors into it.
-define(ALPHABET_OFFSET, {{alphabet.offset | erl_hex}}).
-define(ALPHABET_BASIS, [{{alphabet.basis | map("erl_hex") | join(", ")}}]).
%% The low value bits a tag is solved for: a key of the slot has Slot - first_slot() there.
-define(SOLVED_BITS, {{tags.solved_bits}}).

%% The key Prefix ++ tag ++ Suffix of the slot: this scheme hashes the whole key, so the
%% tag is solved inside the frame (the tag alone when both are empty, tag_for_slot's).
%% Refused: a slot out of range, a prefix and suffix inside which tags of tag_len()
%% symbols cannot reach every slot ({frame_not_solvable, Rank}).
-spec key_for_slot(key(), slot(), key()) -> {ok, binary()} | {error, reason()}.
key_for_slot(Prefix, Slot, Suffix) ->
    Head = to_binary(Prefix),
    Tail = to_binary(Suffix),
    case check_slot(Slot) of
        {ok, Value} when Head =:= <<>>, Tail =:= <<>> -> {ok, tag_bytes(tag_of(Value))};
        {ok, Value} -> framed_key(Head, Value, Tail);
        Error -> Error
    end.

framed_key(Head, Value, Tail) ->
    case frame(Head, Tail) of
        {ok, {Base, Pivots}} ->
            Target = Value bxor Base,
            Tag = lists:foldl(
                fun({Flip, Sums}, Flipped) ->
                    case odd_bits(Sums band Target) of
                        true -> Flipped bxor Flip;
                        false -> Flipped
                    end
                end,
                offset_tag(),
                Pivots),
            {ok, <<Head/binary, (tag_bytes(Tag))/binary, Tail/binary>>};
        Error ->
            Error
    end.

%% Whether N has an odd number of set bits.
odd_bits(0) -> false;
odd_bits(N) -> not odd_bits(N band (N - 1)).

%% The tag whose symbols all have index 0, as an integer (byte k of the tag is byte k of
%% the integer, least significant first).
offset_tag() -> binary:decode_unsigned(binary:copy(<<?ALPHABET_OFFSET>>, ?TAG_LEN), little).

%% What flipping each input bit xors into a tag, by column: symbol bit J of tag byte K is
%% column K * length(?ALPHABET_BASIS) + J.
flips() -> [Basis bsl (8 * K) || K <- lists:seq(0, ?TAG_LEN - 1), Basis <- ?ALPHABET_BASIS].

%% The frame's solver, solved or kept: {ok, {Base, Pivots}}, Base the value of its tag
%% whose symbols all have index 0 and Pivots, for each pivot column in ascending order, its
%% flip and the value bits whose sum sets it; or {error, {frame_not_solvable, Rank}}.
frame(Head, Tail) ->
    case get({?MODULE, frame}) of
        {Head, Tail, Solver} ->
            Solver;
        _ ->
            Solver = solve(Head, Tail),
            put({?MODULE, frame}, {Head, Tail, Solver}),
            Solver
    end.

solve(Head, Tail) ->
    Zero = offset_tag(),
    Base = value(Head, Zero, Tail),
    Solved = (1 bsl ?SOLVED_BITS) - 1,
    Flips = flips(),
    Columns = [(value(Head, Zero bxor Flip, Tail) bxor Base) band Solved || Flip <- Flips],
    %% one row a value bit: its columns as the bits of an integer, and the value bits summed
    %% into it
    Rows = [{row_bits(Columns, R, 0, 0), 1 bsl R} || R <- lists:seq(0, ?SOLVED_BITS - 1)],
    Pivots = eliminate(Rows, 0, length(Flips), []),
    case length(Pivots) of
        ?SOLVED_BITS ->
            ByColumn = list_to_tuple(Flips),
            {ok, {Base, [{element(Column + 1, ByColumn), Sums} || {Column, {_, Sums}} <- Pivots]}};
        Rank ->
            {error, {frame_not_solvable, Rank}}
    end.

%% The columns with bit R set, as the bits of an integer: column I is bit I.
row_bits([], _R, _I, Bits) -> Bits;
row_bits([Column | Columns], R, I, Bits) ->
    row_bits(Columns, R, I + 1, Bits bor (((Column bsr R) band 1) bsl I)).

%% Gauss-Jordan elimination from Column on: Rows ({Bits, Sums}) are those without a pivot
%% yet, Pivots ({Column, Row}, the last first) those with one. The first row with the
%% column set becomes its pivot row and is xored into every other row with it set. The
%% pivots, in ascending order of column.
eliminate([], _Column, _Width, Pivots) ->
    lists:reverse(Pivots);
eliminate(_Rows, Width, Width, Pivots) ->
    lists:reverse(Pivots);
eliminate(Rows, Column, Width, Pivots) ->
    case lists:splitwith(fun({Bits, _}) -> (Bits bsr Column) band 1 =:= 0 end, Rows) of
        {_, []} ->
            eliminate(Rows, Column + 1, Width, Pivots);
        {Clear, [Pivot | Others]} ->
            Reduced = [reduce(Row, Column, Pivot) || Row <- Others],
            Kept = [{C, reduce(Row, Column, Pivot)} || {C, Row} <- Pivots],
            eliminate(Clear ++ Reduced, Column + 1, Width, [{Column, Pivot} | Kept])
    end.

%% The row xor the pivot row when it has the column set.
reduce({Bits, Sums}, Column, {PivotBits, PivotSums}) when (Bits bsr Column) band 1 =:= 1 ->
    {Bits bxor PivotBits, Sums bxor PivotSums};
reduce(Row, _Column, _Pivot) ->
    Row.

%% The value of Head ++ the tag ++ Tail: (Crc bsr {{reduction.shift}}) band {{reduction.mask | erl_hex}}, for the CRC
%% that slot/1 computes of a key's hashtag.
value(Head, Tag, Tail) ->
    (crc(<<Head/binary, (tag_bytes(Tag))/binary, Tail/binary>>, {{crc.start | erl_hex}}) bsr {{reduction.shift}}) band {{reduction.mask | erl_hex}}.
<% else %>

%% The bytes that open and close a hashtag.
-define(OPEN, {{rule.open | erl_hex}}).
-define(CLOSE, {{rule.close | erl_hex}}).
%% A hashtag shorter than this hashes the whole key.
-define(MIN_TAG_LEN, {{rule.min_len}}).

%% The hashtag between the key's delimiters, or none when the whole key is hashed. Below
%% 64 bytes by position/3, above by binary:match (a call into C of some 200 ns, which
%% costs more than a short key's search).
explicit(Key) when byte_size(Key) < 64 ->
    case position(Key, ?OPEN, 0) of
        nomatch ->
            none;
        Open ->
            Start = Open + 1,
            <<_:Start/binary, Rest/binary>> = Key,
            case position(Rest, ?CLOSE, 0) of
                Length when is_integer(Length), Length >= ?MIN_TAG_LEN -> binary:part(Key, Start, Length);
                _ -> none
            end
    end;
explicit(Key) ->
    case binary:match(Key, <<?OPEN>>) of
        nomatch ->
            none;
        {Open, 1} ->
            Start = Open + 1,
            case binary:match(Key, <<?CLOSE>>, [{scope, {Start, byte_size(Key) - Start}}]) of
                {Close, 1} when Close - Start >= ?MIN_TAG_LEN -> binary:part(Key, Start, Close - Start);
                _ -> none
            end
    end.

%% Where Byte first is in a binary, counted from At, or nomatch: a loop of matches.
position(<<Byte, _/binary>>, Byte, At) -> At;
position(<<_, Rest/binary>>, Byte, At) -> position(Rest, Byte, At + 1);
position(<<>>, _, _) -> nomatch.

%% The key Prefix ++ open ++ tag ++ close ++ Suffix for the slot. Its hashtag is the
%% tag, so it lands on the slot whatever the suffix holds. Refused: a slot out of range,
%% a prefix that contains the opening delimiter.
-spec key_for_slot(key(), slot(), key()) -> {ok, binary()} | {error, reason()}.
key_for_slot(Prefix, Slot, Suffix) when is_binary(Prefix), is_binary(Suffix),
                                        is_integer(Slot), Slot >= ?FIRST_SLOT,
                                        Slot =< ?LAST_SLOT ->
    % binaries and a slot, checked in the head: no to_binary calls, no {ok, Value} tuple
    delimited_key(Prefix, Slot - ?FIRST_SLOT, Suffix);
key_for_slot(Prefix, Slot, Suffix) ->
    Head = to_binary(Prefix),
    Tail = to_binary(Suffix),
    case check_slot(Slot) of
        {ok, Value} -> delimited_key(Head, Value, Tail);
        Error -> Error
    end.

delimited_key(Head, Value, Tail) ->
    case position(Head, ?OPEN, 0) of
        nomatch ->
            % sized segments (an unsized first one makes a growable binary, 4x the time),
            % the tag from the literal tuple (some 15% faster than from its integer)
            HeadSize = byte_size(Head),
            TailSize = byte_size(Tail),
            {ok, <<Head:HeadSize/binary, ?OPEN, (slot_tag(Value)):?TAG_LEN/binary,
                   ?CLOSE, Tail:TailSize/binary>>};
        Position ->
            {error, {prefix_has_delimiter, Position}}
    end.
<% endif %>

%% The bytes of the key that its slot is computed from: {{rule.doc}}.
-spec hashtag(key()) -> binary().
hashtag(Key) ->
    Bytes = to_binary(Key),
    case explicit(Bytes) of
        none -> Bytes;
        Tag -> Tag
    end.

%% The CRC's lookup table: entry i + 1 is the register after feeding byte i into a zero
%% register<% if crc.refin %>, reflected (the register shifts right)<% endif %>.
-define(CRC_TABLE, {
{{crc.table | erl_table(crc.digits)}}
}).

<% if native %>
%% erlang:crc32/2 computes CRC-32/ISO-HDLC's polynomial in C, from the register bxor
%% 16#ffffffff, and xors its result with 16#ffffffff: this CRC from Crc, with its xorout.
crc(Bytes, Crc) ->
    erlang:crc32(Crc bxor 16#ffffffff, Bytes)<% if native.xor %> bxor {{native.xor | erl_hex}}<% endif %>.
<% else %>
crc(<<Byte, Rest/binary>>, Crc) ->
{{crc_update() | chomp}}
crc(<<>>, Crc) ->
    {{crc_finish()}}.
<% endif %>
<% if crc.reflect_out %>

%% refin != refout: the register's {{crc.width}} bits in reverse order.
reflect(Crc) -> reflect(Crc, {{crc.width}}, 0).

reflect(_Crc, 0, Reflected) -> Reflected;
reflect(Crc, Bits, Reflected) -> reflect(Crc bsr 1, Bits - 1, (Reflected bsl 1) bor (Crc band 1)).
<% endif %>

%% The slot of a key: {{ slot_of("Crc") }}, for the CRC of {{rule.doc}}.
-spec slot(key()) -> slot().
slot(Key) ->
    {{ slot_of("crc(hashtag(Key), " ~ (crc.start | erl_hex) ~ ")") }}.
<% if lookup.split %>

%% A tag as an integer: byte k of the tag is byte k of the integer, least significant
%% first. The tag of a value V is element((V band {{lookup.low_mask | erl_hex}}) + 1, LOW) bxor
%% element((V bsr {{lookup.low_bits}}) + 1, HIGH): LOW holds whole tags (the tag of value 0 folded in),
%% HIGH the bytes that the value's high bits flip. The tag of a slot is the tag of the
%% value Slot - first_slot().
-define(LOW, {
{{lookup.low | erl_ints}}
}).
-define(HIGH, {
{{lookup.high | erl_ints}}
}).

tag_of(Value) ->
    element((Value band {{lookup.low_mask | erl_hex}}) + 1, ?LOW) bxor element((Value bsr {{lookup.low_bits}}) + 1, ?HIGH).
<% else %>

%% A tag as an integer: byte k of the tag is byte k of the integer, least significant
%% first. The tag of a value V is ZERO_TAG bxor the columns of the set bits of V: column i
%% flips bit i of the tag's value (the CRC's value after the shift and mask), and ZERO_TAG
%% is the tag of value 0. The tag of a slot is the tag of the value Slot - first_slot().
-define(ZERO_TAG, {{tags.zero | erl_int}}).
-define(COLUMNS, [
{{tags.columns | erl_ints}}
]).

tag_of(Value) -> combine(Value, ?COLUMNS, ?ZERO_TAG).
<% endif %>

%% A basis of the kernel: xored into a tag, any combination keeps its value.
-define(KERNEL, [
{{tags.kernel | erl_ints}}
]).
%% The last of a value's 2^{{tags.kernel_len}} combinations of the kernel.
-define(LAST_COMBINATION, {{last_combination}}).
%% Tags reach the values below this; a slot's are Slot - first_slot() + K * slots().
-define(VALUE_LIMIT, {{tags.value_limit}}).

check_slot(Slot) when is_integer(Slot), Slot >= ?FIRST_SLOT, Slot =< ?LAST_SLOT ->
    {ok, Slot - ?FIRST_SLOT};
check_slot(Slot) ->
    {error, {slot_out_of_range, Slot}}.

tag_bytes(Tag) -> <<Tag:?TAG_LEN/little-unit:8>>.

<% if tags.ready %>
%% Every slot's tag, a binary, by slot - first_slot() + 1: a literal tuple, so that
%% tag_for_slot/1 is a guard and an element/2 (a binary made from tag_of/1 at each call
%% cost three times the lookup).
-define(TAGS, {
{{tags.zero | erl_slot_tags(tags.columns, slots.count)}}
}).

<% if not rule.whole %>
%% The tag of the value Slot - first_slot(), from the literal tuple: for key_for_slot/3,
%% which comes before the macro.
slot_tag(Value) -> element(Value + 1, ?TAGS).
<% endif %>
<% elif not rule.whole %>
%% The tag of the value Slot - first_slot(), made at each call: a literal of every slot's
%% tag would make this module's source as large as its slot count.
slot_tag(Value) -> tag_bytes(tag_of(Value)).
<% endif %>

%% A tag (tag_len() bytes of the alphabet) whose key lands on the slot.
-spec tag_for_slot(slot()) -> {ok, binary()} | {error, reason()}.
tag_for_slot(Slot) when is_integer(Slot), Slot >= ?FIRST_SLOT, Slot =< ?LAST_SLOT ->
<% if tags.ready %>
    % the check in the head (check_slot's {ok, Value} would add a tuple and a call), the
    % tuple without a call (the literal is one in the module, however many use it)
    {ok, element(Slot - ?FIRST_SLOT + 1, ?TAGS)};
<% else %>
    % the check in the head: check_slot's {ok, Value} would add a tuple and a call
    {ok, tag_bytes(tag_of(Slot - ?FIRST_SLOT))};
<% endif %>
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
<% if rule.whole %>

%% The one hashtag every key has between its delimiters: none, always, as this scheme
%% hashes the whole key.
-spec shared_hashtag([key()]) -> none.
shared_hashtag(Keys) when is_list(Keys) -> none.
<% else %>

%% The one hashtag every key has between its delimiters; none when a key has none (its
%% whole key is hashed), two keys have different ones, or there are none. Keys that share
%% a hashtag land on one slot whatever the slot count.
-spec shared_hashtag([key()]) -> binary() | none.
shared_hashtag([]) ->
    none;
shared_hashtag([Key | Keys]) ->
    case explicit(to_binary(Key)) of
        none ->
            none;
        Tag ->
            case lists:all(fun(Other) -> explicit(to_binary(Other)) =:= Tag end, Keys) of
                true -> Tag;
                false -> none
            end
    end.
<% endif %>

