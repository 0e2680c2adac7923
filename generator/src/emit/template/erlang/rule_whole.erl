
%% This scheme hashes the whole key: no hashtag, whatever the key.
explicit(_Key) -> none.

%% The key of the slot: this scheme hashes the whole key, so it is the tag alone.
%% Refused: a slot out of range, a prefix or suffix that is not empty.
-spec key_for_slot(key(), slot(), key()) -> {ok, binary()} | {error, reason()}.
key_for_slot(Prefix, Slot, Suffix) ->
    Affixes = {to_binary(Prefix), to_binary(Suffix)},
    case tag_for_slot(Slot) of
        {ok, Tag} when Affixes =:= {<<>>, <<>>} -> {ok, Tag};
        {ok, _} -> {error, whole_key_hashed};
        Error -> Error
    end.
