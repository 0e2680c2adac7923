%% The harness's driver for the Erlang module (the protocol: tests/src/harness.rs). One VM
%% runs every case: for each, the arguments are the module's name and the file to write its
%% answers to, then the protocol's eight.
%%
%% Usage: erl -noshell -pa DIR -run driver main
%%            MODULE OUT KEYS GROUPS FEW DEEP PREFIX SUFFIX BAD_PREFIX BAD_SUFFIX [MODULE OUT ...]
-module(driver).
-export([main/1]).

-spec main([string()]) -> no_return().
main(Args) ->
    Status =
        try
            run(Args),
            0
        catch
            Class:Reason:Stack ->
                io:format(standard_error, "~p:~p~n~p~n", [Class, Reason, Stack]),
                1
        end,
    halt(Status).

run([]) ->
    ok;
run([Module, Out, Keys, Groups, Few, Deep, Prefix, Suffix, BadPrefix, BadSuffix | Rest]) ->
    Answers = answers(
        list_to_atom(Module),
        Keys,
        Groups,
        list_to_integer(Few),
        list_to_integer(Deep),
        [unhex(list_to_binary(A)) || A <- [Prefix, Suffix, BadPrefix, BadSuffix]]
    ),
    ok = file:write_file(Out, Answers),
    run(Rest).

answers(M, KeysPath, GroupsPath, Few, Deep, [Prefix, Suffix, BadPrefix, BadSuffix]) ->
    First = M:first_slot(),
    Last = M:last_slot(),
    Slots = lists:seq(First, Last),
    Keys = [unhex(Line) || Line <- lines(KeysPath)],
    GroupLines = lines(GroupsPath),
    Groups = lists:zip(lists:seq(0, length(GroupLines) - 1), [group(L) || L <- GroupLines]),
    [
        line(["const", int(First), int(Last), int(M:slots()), int(M:tag_len())]),
        [line(["tag", int(S), hex(ok(M:tag_for_slot(S)))]) || S <- Slots],
        [line(["tags", int(S), hexes(M, S, Few)]) || S <- Slots],
        [line(["deep", int(S), hexes(M, S, Deep)]) || S <- [First, Last]],
        [line(["key", int(S), hex(ok(M:key_for_slot(Prefix, S, Suffix)))]) || S <- Slots],
        [line(["slot", hex(K), int(M:slot(K))]) || K <- Keys],
        [line(["str", hex(K), int(M:slot(T))]) || K <- Keys, T <- [text(K)], T =/= none],
        [line(["hashtag", hex(K), hex(M:hashtag(K))]) || K <- Keys],
        [line(["same", int(I), none_or(M:same_slot(G), fun int/1)]) || {I, G} <- Groups],
        [line(["shared", int(I), none_or(M:shared_hashtag(G), fun hex/1)]) || {I, G} <- Groups],
        refusal(M, "tag_above", M:tag_for_slot(Last + 1)),
        refusal(M, "tag_below", M:tag_for_slot(First - 1)),
        refusal(M, "tags_above", M:tags_for_slot(Last + 1)),
        refusal(M, "key_above", M:key_for_slot(Prefix, Last + 1, Suffix)),
        refusal(M, "key_rule", M:key_for_slot(BadPrefix, First, BadSuffix)),
        refusal(M, "float_slot", M:tag_for_slot(1.0))
    ].

%% The lines of a file, the last newline ending the last line (an empty line is the empty
%% key).
lines(Path) ->
    {ok, Text} = file:read_file(Path),
    lists:droplast(binary:split(Text, <<"\n">>, [global])).

group(Line) ->
    [Count, Listed] = binary:split(Line, <<":">>),
    Keys = [unhex(H) || H <- binary:split(Listed, <<",">>, [global])],
    lists:sublist(Keys, binary_to_integer(Count)).

%% The first N tags of the slot, from its lazy list.
hexes(M, Slot, N) ->
    lists:join(",", [hex(Tag) || Tag <- take(N, ok(M:tags_for_slot(Slot)))]).

take(0, _Tags) ->
    [];
take(N, Tags) ->
    case Tags() of
        [] -> [];
        [Tag | Next] -> [Tag | take(N - 1, Next)]
    end.

%% The key as text (a list of code points) when its bytes are UTF-8, else none.
text(Key) ->
    case unicode:characters_to_list(Key) of
        Text when is_list(Text) ->
            case unicode:characters_to_binary(Text) of
                Key -> Text;
                _ -> none
            end;
        _ ->
            none
    end.

refusal(M, Case, {error, Reason}) ->
    line(["refused", Case, M:format_error(Reason)]);
refusal(_M, Case, {ok, Value}) ->
    line(["accepted", Case, io_lib:format("~p", [Value])]).

ok({ok, Value}) -> Value.

none_or(none, _Show) -> "-";
none_or(Value, Show) -> Show(Value).

line(Fields) -> [lists:join("\t", Fields), "\n"].

int(N) -> integer_to_list(N).

hex(Bytes) -> <<<<(digit(D))>> || <<D:4>> <= Bytes>>.

digit(D) when D < 10 -> $0 + D;
digit(D) -> $a + D - 10.

unhex(Hex) -> <<<<(binary_to_integer(Byte, 16))>> || <<Byte:2/binary>> <= Hex>>.
