// The harness's driver for the JavaScript module (the protocol: tests/src/harness.rs), with
// keys as Uint8Array (`slot`), string (`str`, the keys that are UTF-8) and Buffer
// (`buffer`).
//
// Usage: node driver.mjs MODULE KEYS GROUPS FEW DEEP PREFIX SUFFIX BAD_PREFIX BAD_SUFFIX

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const m = await import(pathToFileURL(process.argv[2]).href);
const [keysPath, groupsPath, few, deep, prefix, suffix, badPrefix, badSuffix] =
  process.argv.slice(3);
const bytes = (h) => Uint8Array.from(Buffer.from(h, "hex"));
const hex = (b) => Buffer.from(b).toString("hex");
const take = (s, n) => {
  const tags = [];
  for (const tag of m.tagsForSlot(s)) {
    if (tags.length === n) break;
    tags.push(hex(tag));
  }
  return tags.join(",");
};
const noneOr = (value, show) => (value === null ? "-" : show(value));

const out = [`const\t${m.FIRST_SLOT}\t${m.LAST_SLOT}\t${m.SLOTS}\t${m.TAG_LEN}`];
const slots = [];
for (let s = m.FIRST_SLOT; s <= m.LAST_SLOT; s++) slots.push(s);
for (const s of slots) out.push(`tag\t${s}\t${hex(m.tagForSlot(s))}`);
for (const s of slots) out.push(`tags\t${s}\t${take(s, Number(few))}`);
for (const s of [m.FIRST_SLOT, m.LAST_SLOT]) out.push(`deep\t${s}\t${take(s, Number(deep))}`);
// the harness's affixes are ASCII: as strings they are the same bytes
const text = (h) => Buffer.from(h, "hex").toString("latin1");
for (const s of slots) {
  const key = m.keyForSlot(bytes(prefix), s, bytes(suffix));
  const fromText = m.keyForSlot(text(prefix), s, text(suffix));
  const same =
    typeof fromText === "string"
      ? fromText === new TextDecoder().decode(key)
      : hex(fromText) === hex(key);
  if (!same) {
    throw new Error(`keyForSlot of strings must be the bytes' key (a string for ASCII tags), got ${fromText}`);
  }
  out.push(`key\t${s}\t${hex(key)}`);
}

const keys = readFileSync(keysPath, "latin1").split("\n").slice(0, -1);
for (const h of keys) out.push(`slot\t${h}\t${m.slot(bytes(h))}`);
const strict = new TextDecoder("utf-8", { fatal: true });
for (const h of keys) {
  let key;
  try {
    key = strict.decode(Buffer.from(h, "hex"));
  } catch {
    continue;
  }
  out.push(`str\t${h}\t${m.slot(key)}`);
}
for (const h of keys) out.push(`buffer\t${h}\t${m.slot(Buffer.from(h, "hex"))}`);
for (const h of keys) out.push(`hashtag\t${h}\t${hex(m.hashtag(bytes(h)))}`);

// Strings that are no well-formed UTF-16 (lone surrogates, halves around a delimiter) hash
// as TextEncoder encodes them (U+FFFD for a lone surrogate): the module encodes a string as
// it hashes it, and TextEncoder is the reference.
const encoder = new TextEncoder();
for (const text of [
  "\ud800", "a\udc00b", "{\ud83d}x", "x{\udc80}", "\ud83d\ude00{\ud83d", "{\ud800\ud800}",
  "\udbff{\udfff}", "\u00e9{\u0800}\uffff", "{\ud83d\ude00}", "\u007f\u0080\u07ff",
]) {
  if (m.slot(text) !== m.slot(encoder.encode(text))) {
    throw new Error(`slot of the string ${JSON.stringify(text)} is not the slot of its TextEncoder bytes`);
  }
}

const groups = readFileSync(groupsPath, "latin1")
  .split("\n")
  .slice(0, -1)
  .map((line) => {
    const [count, listed] = line.split(":");
    return listed.split(",").slice(0, Number(count)).map(bytes);
  });
// sameSlot and sharedHashtag take any iterable: an array, and an iterator
groups.forEach((g, i) => out.push(`same\t${i}\t${noneOr(m.sameSlot(g.values()), String)}`));
groups.forEach((g, i) => out.push(`shared\t${i}\t${noneOr(m.sharedHashtag(g), hex)}`));

function refusal(name, call) {
  try {
    out.push(`accepted\t${name}\t${call()}`);
  } catch (e) {
    if (e instanceof m.SlotgenError) out.push(`refused\t${name}\t${e.code}: ${e.message}`);
    else if (e instanceof TypeError) out.push(`refused\t${name}\tTypeError: ${e.message}`);
    else throw e;
  }
}
refusal("tag_above", () => m.tagForSlot(m.LAST_SLOT + 1));
refusal("tag_below", () => m.tagForSlot(m.FIRST_SLOT - 1));
refusal("tags_above", () => m.tagsForSlot(m.LAST_SLOT + 1));
refusal("key_above", () => m.keyForSlot(bytes(prefix), m.LAST_SLOT + 1, bytes(suffix)));
refusal("key_rule", () => m.keyForSlot(bytes(badPrefix), m.FIRST_SLOT, bytes(badSuffix)));
refusal("fraction_slot", () => m.tagForSlot(1.5));
refusal("string_slot", () => m.tagForSlot("5"));
refusal("object_slot", () => m.tagForSlot({}));
refusal("number_key", () => m.slot(5));
// one key in place of the iterable of keys: a string and a Buffer are iterable too
refusal("one_key_string", () => m.sameSlot("zz"));
refusal("one_key_buffer", () => m.sameSlot(Buffer.from("zz")));
refusal("one_key_shared", () => m.sharedHashtag("user:{1}:a"));
refusal("number_keys", () => m.sameSlot(5));
process.stdout.write(out.join("\n") + "\n");
