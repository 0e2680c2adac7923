for {name, m} <- [{"a", A}, {"b", B}] do
  hex = &Base.encode16(&1, case: :lower)
  IO.puts(Enum.join(["pair", name, m.slot("123456789"), hex.(m.tag_for_slot!(1)),
    hex.(m.tag_for_slot!(m.slots() - 1))], "\t"))
end
IO.puts(:stderr, "seed\t#{A.slot("123456789")}\t#{A.slot("emq:{orders}:pending")}")
