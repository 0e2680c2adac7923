# frozen_string_literal: true

# The harness's driver for the Ruby module (the protocol: tests/src/harness.rs).
#
# Usage: ruby -w driver.rb MODULE_FILE KEYS GROUPS FEW DEEP PREFIX SUFFIX BAD_PREFIX BAD_SUFFIX

require File.expand_path(ARGV[0])

def hex(bytes) = bytes.unpack1("H*")
def unhex(text) = [text].pack("H*")
def none_or(value) = value.nil? ? "-" : yield(value)

keys_path, groups_path = ARGV[1], ARGV[2]
few, deep = ARGV[3].to_i, ARGV[4].to_i
prefix, suffix, bad_prefix, bad_suffix = ARGV[5, 4].map { |h| unhex(h) }
slots = Slotgen::FIRST_SLOT..Slotgen::LAST_SLOT
take = ->(s, n) { Slotgen.tags_for_slot(s).first(n).map { |t| hex(t) }.join(",") }

out = ["const\t#{Slotgen::FIRST_SLOT}\t#{Slotgen::LAST_SLOT}\t#{Slotgen::SLOTS}\t#{Slotgen::TAG_LEN}"]
slots.each { |s| out << "tag\t#{s}\t#{hex(Slotgen.tag_for_slot(s))}" }
slots.each { |s| out << "tags\t#{s}\t#{take.(s, few)}" }
[Slotgen::FIRST_SLOT, Slotgen::LAST_SLOT].each { |s| out << "deep\t#{s}\t#{take.(s, deep)}" }
slots.each { |s| out << "key\t#{s}\t#{hex(Slotgen.key_for_slot(prefix, s, suffix))}" }
keys = File.readlines(keys_path, chomp: true)
keys.each { |k| out << "slot\t#{k}\t#{Slotgen.slot(unhex(k))}" }
keys.each do |k|
  text = unhex(k).force_encoding(Encoding::UTF_8)
  out << "str\t#{k}\t#{Slotgen.slot(text)}" if text.valid_encoding?
end
keys.each { |k| out << "hashtag\t#{k}\t#{hex(Slotgen.hashtag(unhex(k)))}" }
groups = File.readlines(groups_path, chomp: true).map do |line|
  count, listed = line.split(":", 2)
  hexes = listed.split(",", -1) # "" for the empty key, which split drops
  Array.new(count.to_i) { |i| unhex(hexes.fetch(i, "")) }
end
groups.each_with_index { |g, i| out << "same\t#{i}\t#{none_or(Slotgen.same_slot(g.each), &:to_s)}" }
groups.each_with_index { |g, i| out << "shared\t#{i}\t#{none_or(Slotgen.shared_hashtag(g)) { |t| hex(t) }}" }

def refusal(out, name)
  value = yield
  out << "accepted\t#{name}\t#{value.inspect}"
rescue ArgumentError, TypeError => e
  out << "refused\t#{name}\t#{e.class}: #{e.message}"
end

refusal(out, "tag_above") { Slotgen.tag_for_slot(Slotgen::LAST_SLOT + 1) }
refusal(out, "tag_below") { Slotgen.tag_for_slot(Slotgen::FIRST_SLOT - 1) }
refusal(out, "tags_above") { Slotgen.tags_for_slot(Slotgen::LAST_SLOT + 1) }
refusal(out, "key_above") { Slotgen.key_for_slot(prefix, Slotgen::LAST_SLOT + 1, suffix) }
refusal(out, "key_rule") { Slotgen.key_for_slot(bad_prefix, Slotgen::FIRST_SLOT, bad_suffix) }
refusal(out, "float_slot") { Slotgen.tag_for_slot(1.0) }
refusal(out, "str_slot") { Slotgen.tag_for_slot("5") }
refusal(out, "one_key_str") { Slotgen.same_slot("zz") }
refusal(out, "one_key_shared") { Slotgen.shared_hashtag("user:{1}:a") }
$stdout.write(out.join("\n"), "\n")
