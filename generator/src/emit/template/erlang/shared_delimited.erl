
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
