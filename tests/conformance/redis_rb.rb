require "redis"
command = Redis::Cluster::Command.allocate # extract_hash_tag needs no server details
STDIN.each_line { |l| k = [l.chomp].pack("H*"); t = command.send(:extract_hash_tag, k); puts Redis::Cluster::KeySlotConverter.convert(t.empty? ? k : t) }
