
%% The bytes that open and close a hashtag.
-define(OPEN, {{open}}).
-define(CLOSE, {{close}}).
%% A hashtag shorter than this hashes the whole key.
-define(MIN_TAG_LEN, {{min_tag_len}}).

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
            % the tag written from its integer (no binary of its own)
            HeadSize = byte_size(Head),
            TailSize = byte_size(Tail),
            {ok, <<Head:HeadSize/binary, ?OPEN, (tag_of(Value)):?TAG_LEN/little-unit:8,
                   ?CLOSE, Tail:TailSize/binary>>};
        Position ->
            {error, {prefix_has_delimiter, Position}}
    end.
