[keys_path] = System.argv()
for k <- keys_path |> File.read!() |> String.split("\n") |> Enum.drop(-1) do
  key = Base.decode16!(k, case: :lower)
  IO.puts("slot\t#{k}\t#{Seed.slot(key)}")
  IO.puts("hashtag\t#{k}\t#{Base.encode16(Seed.hashtag(key), case: :lower)}")
end
