# frozen_string_literal: true

# The `redis` gem's own slot function against the module: prints `converter <key> <slot>`
# from the gem's path (the hashed bytes of `Redis::Cluster::Command#extract_first_key`,
# then `Redis::Cluster::KeySlotConverter.convert`) and `slot <key> <slot>` from the module
# `Slotgen` in the file ARGV[0], for every hex key of the file ARGV[1].

require "redis"
require "redis/cluster/command"
require "redis/cluster/key_slot_converter"
require File.expand_path(ARGV[0])

command = Redis::Cluster::Command.new({ "get" => { first: 1, flags: ["readonly"] } })
File.readlines(ARGV[1], chomp: true).each do |k|
  key = [k].pack("H*")
  hashed = command.extract_first_key(["get", key])
  puts "converter\t#{k}\t#{Redis::Cluster::KeySlotConverter.convert(hashed)}"
  puts "slot\t#{k}\t#{Slotgen.slot(key)}"
end
