
%% This scheme hashes the whole key: no hashtag, whatever the key.
explicit(_Key) -> none.

%% Solving a tag inside a frame: the value of Prefix ++ tag ++ Suffix is affine in the tag's
%% bits (a CRC over keys of one length is), so it is measured at the tag whose symbols all
%% have index 0 and at each single bit flipped, and solved by Gauss-Jordan elimination with
%% pivot columns in ascending order and every free bit zero: the tag `slotgen key --prefix
%% --suffix` gives, with this module's alphabet and tag length. A frame is solved once and
%% kept in the calling process's dictionary (the last one).

%% The alphabet's first symbol, and what bit J of a symbol's index xors into it.
-define(ALPHABET_OFFSET, {{alphabet_offset}}).
-define(ALPHABET_BASIS, [{{alphabet_basis}}]).
%% The low value bits a tag is solved for: a key of the slot has Slot - first_slot() there.
-define(SOLVED_BITS, {{solved_bits}}).

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

%% The value of Head ++ the tag ++ Tail: (Crc bsr {{shift}}) band {{value_mask}}, for the CRC
%% that slot/1 computes of a key's hashtag.
value(Head, Tag, Tail) ->
    (crc(<<Head/binary, (tag_bytes(Tag))/binary, Tail/binary>>, {{crc_start}}) bsr {{shift}}) band {{value_mask}}.
