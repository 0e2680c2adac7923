# slotgen's Ruby module against redis-rb's own slot code (Debian's ruby-redis: the hashtag
# rule of Redis::Cluster::Command#extract_hash_tag and Redis::Cluster::KeySlotConverter,
# as redis-rb runs them), in one process.
#
#   ruby bench.rb MODULE_DIR KEY_DIR ROUNDS
#
# Prints tab-separated rows: language, function, key type, case, length, code, ns per key
# (the best of ROUNDS rounds over every key of the case).
module_dir, key_dir, rounds = ARGV
rounds = Integer(rounds)
require File.join(File.expand_path(module_dir), "slotgen")
peer = nil
begin
  require "redis"
  command = Redis::Cluster::Command.allocate # extract_hash_tag needs no server details
  peer = lambda do |k|
    t = command.send(:extract_hash_tag, k)
    Redis::Cluster::KeySlotConverter.convert(t.empty? ? k : t)
  end
rescue LoadError
  warn "skip: redis-rb is not installed (apt-get install ruby-redis)"
end

def best(rounds, keys, &fn)
  min = nil
  total = nil
  rounds.times do
    start = Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
    s = 0
    keys.each { |k| s += fn.call(k) }
    ns = Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond) - start
    raise "rounds disagree" if total && total != s
    total = s
    min = ns if min.nil? || ns < min
  end
  [(min.to_f / keys.size).round, total]
end

def row(*cells) = puts(cells.join("\t"))

%w[plain tag].each do |kind|
  [3, 8, 22, 64, 1024].each do |n|
    keys = File.readlines(File.join(key_dir, "#{kind}-#{n}.txt"), chomp: true).map { |k| k.b.freeze }
    ns, want = best(rounds, keys) { |k| Slotgen.slot(k) }
    row("ruby", "slot", "String", kind, n, "slotgen", ns)
    next unless peer

    ns, got = best(rounds, keys) { |k| peer.call(k) }
    raise "redis-rb disagrees on #{kind}-#{n}" unless got == want

    row("ruby", "slot", "String", kind, n, "redis-rb", ns)
  end
end

slots = (Slotgen::FIRST_SLOT..Slotgen::LAST_SLOT).to_a
ready = slots.map { |s| Slotgen.tag_for_slot(s) }
row("ruby", "tag_for_slot", "-", "-", "-", "slotgen", best(rounds, slots) { |s| Slotgen.tag_for_slot(s).bytesize }[0])
row("ruby", "tag_for_slot", "-", "-", "-", "array of tags", best(rounds, slots) { |s| ready[s].bytesize }[0])
# what a method call costs: one that only indexes the array
module ReadyTags
  def self.tag(ready, slot) = ready[slot]
end
row("ruby", "tag_for_slot", "-", "-", "-", "a method indexing the array",
    best(rounds, slots) { |s| ReadyTags.tag(ready, s).bytesize }[0])
row("ruby", "key_for_slot", "String", "-", "-", "slotgen", best(rounds, slots) { |s| Slotgen.key_for_slot("user:", s, ":cart").bytesize }[0])
row("ruby", "key_for_slot", "String", "-", "-", "array of tags + concat", best(rounds, slots) { |s| "user:{#{ready[s]}}:cart".bytesize }[0])
