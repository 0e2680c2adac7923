
%% The bytes that open and close a hashtag.
-define(OPEN, {{open}}).
-define(CLOSE, {{close}}).
%% A hashtag shorter than this hashes the whole key.
-define(MIN_TAG_LEN, {{min_tag_len}}).

%% The hashtag between the key's delimiters, or none when the whole key is hashed.
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

%% The key Prefix ++ open ++ tag ++ close ++ Suffix for the slot. Its hashtag is the
%% tag, so it lands on the slot whatever the suffix holds. Refused: a slot out of range,
%% a prefix that contains the opening delimiter.
-spec key_for_slot(key(), slot(), key()) -> {ok, binary()} | {error, reason()}.
key_for_slot(Prefix, Slot, Suffix) ->
    Head = to_binary(Prefix),
    Tail = to_binary(Suffix),
    case tag_for_slot(Slot) of
        {ok, Tag} ->
            case binary:match(Head, <<?OPEN>>) of
                nomatch -> {ok, <<Head/binary, ?OPEN, Tag/binary, ?CLOSE, Tail/binary>>};
                {Position, 1} -> {error, {prefix_has_delimiter, Position}}
            end;
        Error ->
            Error
    end.
