%% slotgen's Erlang module against a table-driven CRC-16 slot function written as Erlang's
%% Redis clients write theirs (eredis_cluster's eredis_cluster_hash: the hashtag by
%% binary:match, the CRC by element/2 of a tuple over the binary), in one VM. Keys are
%% binaries.
%%
%%   erlc slotgen.erl bench.erl && erl -noshell -run bench main KEY_DIR ROUNDS -s init stop
%%
%% Prints tab-separated rows: language, function, key type, case, length, code, ns per key
%% (the best of ROUNDS rounds over every key of the case).
-module(bench).
-export([main/1, ready_tag/2, ready_key/4]).

table() ->
    list_to_tuple([lists:foldl(fun(_, C) ->
                                       case C band 16#8000 of
                                           0 -> (C bsl 1) band 16#ffff;
                                           _ -> ((C bsl 1) bxor 16#1021) band 16#ffff
                                       end
                               end, B bsl 8, lists:seq(1, 8)) || B <- lists:seq(0, 255)]).

crc16(Table, <<B, Rest/binary>>, Crc) ->
    crc16(Table, Rest, ((Crc bsl 8) band 16#ffff) bxor element(((Crc bsr 8) bxor B) + 1, Table));
crc16(_, <<>>, Crc) ->
    Crc.

hash_tag(Key) ->
    case binary:match(Key, <<"{">>) of
        {S, 1} ->
            case binary:match(Key, <<"}">>, [{scope, {S + 1, byte_size(Key) - S - 1}}]) of
                {E, 1} when E > S + 1 -> binary:part(Key, S + 1, E - S - 1);
                _ -> Key
            end;
        nomatch ->
            Key
    end.

peer_slot(Table, Key) ->
    crc16(Table, hash_tag(Key), 0) rem 16384.

best(Rounds, Keys, Fun) ->
    Times = [begin
                 Start = erlang:monotonic_time(nanosecond),
                 Sum = lists:foldl(fun(K, S) -> S + Fun(K) end, 0, Keys),
                 {erlang:monotonic_time(nanosecond) - Start, Sum}
             end || _ <- lists:seq(1, Rounds)],
    [{_, Total} | _] = Times,
    true = lists:all(fun({_, S}) -> S =:= Total end, Times),
    {round(lists:min([T || {T, _} <- Times]) / length(Keys)), Total}.

row(Cells) ->
    io:format("~s~n", [lists:join("\t", [io_lib:format("~s", [text(C)]) || C <- Cells])]).

text(C) when is_atom(C) -> atom_to_list(C);
text(C) when is_integer(C) -> integer_to_list(C);
text(C) -> C.

main([KeyDir, RoundsText]) ->
    Rounds = list_to_integer(RoundsText),
    Table = table(),
    lists:foreach(
      fun({Kind, N}) ->
              {ok, Data} = file:read_file(io_lib:format("~s/~s-~b.txt", [KeyDir, Kind, N])),
              Keys = binary:split(Data, <<"\n">>, [global, trim]),
              {Ours, Want} = best(Rounds, Keys, fun slotgen:slot/1),
              row([erlang, slot, binary, Kind, N, slotgen, Ours]),
              {Peer, Got} = best(Rounds, Keys, fun(K) -> peer_slot(Table, K) end),
              Want = Got,
              row([erlang, slot, binary, Kind, N, 'eredis_cluster-style table', Peer])
      end,
      [{Kind, N} || Kind <- ["plain", "tag"], N <- [3, 8, 22, 64, 1024]]),
    Slots = lists:seq(slotgen:first_slot(), slotgen:last_slot()),
    Ready = list_to_tuple([begin {ok, T} = slotgen:tag_for_slot(S), T end || S <- Slots]),
    {TagNs, _} = best(Rounds, Slots, fun(S) -> {ok, T} = slotgen:tag_for_slot(S), byte_size(T) end),
    row([erlang, tag_for_slot, '-', '-', '-', slotgen, TagNs]),
    {ReadyNs, _} = best(Rounds, Slots, fun(S) -> byte_size(element(S + 1, Ready)) end),
    row([erlang, tag_for_slot, '-', '-', '-', 'tuple of tags', ReadyNs]),
    % what a call with the module's answer costs: a remote call returning {ok, element}
    {CallNs, _} = best(Rounds, Slots, fun(S) -> {ok, T} = ?MODULE:ready_tag(Ready, S), byte_size(T) end),
    row([erlang, tag_for_slot, '-', '-', '-', 'a function answering {ok, element}', CallNs]),
    {KeyNs, _} = best(Rounds, Slots, fun(S) -> {ok, K} = slotgen:key_for_slot(<<"user:">>, S, <<":cart">>), byte_size(K) end),
    row([erlang, key_for_slot, binary, '-', '-', slotgen, KeyNs]),
    {ConcatNs, _} = best(Rounds, Slots, fun(S) -> byte_size(<<"user:{", (element(S + 1, Ready))/binary, "}:cart">>) end),
    row([erlang, key_for_slot, binary, '-', '-', 'tuple of tags + concat', ConcatNs]),
    {CallKeyNs, _} = best(Rounds, Slots, fun(S) -> {ok, K} = ?MODULE:ready_key(<<"user:">>, S, <<":cart">>, Ready), byte_size(K) end),
    row([erlang, key_for_slot, binary, '-', '-', 'a function answering {ok, concat}', CallKeyNs]).

%% The baselines of a call: the lookup (and concatenation) in a function of this module,
%% called as slotgen's are (remotely), answering {ok, Value} as slotgen's do.
ready_tag(Ready, S) -> {ok, element(S + 1, Ready)}.

ready_key(Prefix, S, Suffix, Ready) ->
    {ok, <<Prefix/binary, "{", (element(S + 1, Ready))/binary, "}", Suffix/binary>>}.
