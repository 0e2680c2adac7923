# frozen_string_literal: true

# Two modules of different specs in one program: prints the `pair` lines of
# tests/src/speakers.rs for the modules `A` (in the file ARGV[0]) and `B` (ARGV[1]).

require File.expand_path(ARGV[0])
require File.expand_path(ARGV[1])

{ "a" => A, "b" => B }.each do |name, m|
  puts ["pair", name, m.slot("123456789"), m.tag_for_slot(1).unpack1("H*"),
        m.tag_for_slot(m::LAST_SLOT).unpack1("H*")].join("\t")
end
