
%% The one hashtag every key has between its delimiters: none, always, as this scheme
%% hashes the whole key.
-spec shared_hashtag([key()]) -> none.
shared_hashtag(Keys) when is_list(Keys) -> none.
