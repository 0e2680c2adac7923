// Uses of the module that hold for every spec and scheme, checked by `tsc --strict` against
// the declarations (slotgen.d.mts) and then run by Node against the module itself
// (tests/tests/emit_js_types.rs); misuses marked `@ts-expect-error` must not compile.

import * as m from "./slotgen.mjs";
import type { Key, SlotgenErrorCode } from "./slotgen.mjs";

function assert(holds: boolean, what: string): void {
  if (!holds) {
    throw new Error(`the module does not do what its declarations say: ${what}`);
  }
}

const numbers: number[] = [m.SLOTS, m.FIRST_SLOT, m.LAST_SLOT, m.TAG_LEN];
assert(numbers.every(Number.isInteger), "the constants are integers");
assert(m.LAST_SLOT - m.FIRST_SLOT + 1 === m.SLOTS, "LAST_SLOT - FIRST_SLOT + 1 is SLOTS");

const key: Key = "123456789";
const fromText: number = m.slot(key);
const fromBytes: number = m.slot(new TextEncoder().encode("123456789"));
assert(fromText === fromBytes, "a string key is its UTF-8 bytes");
const hashed: Uint8Array = m.hashtag("123456789");
assert(hashed instanceof Uint8Array, "hashtag gives bytes");

const tag: Uint8Array = m.tagForSlot(m.FIRST_SLOT);
assert(tag instanceof Uint8Array && tag.length === m.TAG_LEN, "tagForSlot gives TAG_LEN bytes");
const tags: Generator<Uint8Array, void, undefined> = m.tagsForSlot(m.FIRST_SLOT);
const first = tags.next();
assert(!first.done && first.value.length === m.TAG_LEN, "tagsForSlot gives tags");

const bytesKey: Uint8Array = m.keyForSlot(new Uint8Array(), m.LAST_SLOT, new Uint8Array());
assert(bytesKey instanceof Uint8Array, "the key of bytes is bytes");
const mixedKey: Uint8Array = m.keyForSlot("", m.LAST_SLOT, new Uint8Array());
assert(mixedKey instanceof Uint8Array, "the key of a string and bytes is bytes");
assert(m.slot(bytesKey) === m.LAST_SLOT, "the key lands on its slot");

const same: number | null = m.sameSlot([bytesKey, mixedKey]);
assert(same === m.LAST_SLOT, "sameSlot of keys of one slot");
const none: number | null = m.sameSlot([]);
assert(none === null, "sameSlot of no keys is null");
const shared: Uint8Array | null = m.sharedHashtag(new Set<Key>(["a", new Uint8Array([0x61])]));
assert(shared === null, "keys without a hashtag share none");

try {
  m.tagForSlot(m.LAST_SLOT + 1);
  assert(false, "a slot past LAST_SLOT is refused");
} catch (e) {
  assert(e instanceof m.SlotgenError, "a refusal is a SlotgenError");
  if (e instanceof m.SlotgenError) {
    const code: SlotgenErrorCode = e.code;
    const message: string = e.message;
    assert(code === "SLOT_OUT_OF_RANGE" && message.includes("out of range"), "its code");
  }
}

// @ts-expect-error a slot is a number
assert(throws(() => m.tagForSlot("0")), "a string slot is refused");
// @ts-expect-error a key is bytes or a string
assert(throws(() => m.slot(5)), "a number key is refused");
// @ts-expect-error the key of bytes is bytes
const wrong: string = m.keyForSlot(new Uint8Array(), m.FIRST_SLOT, "");
assert(typeof wrong !== "string", "the key of bytes is bytes");
// @ts-expect-error sameSlot takes keys
assert(throws(() => m.sameSlot([1, 2])), "number keys are refused");
// @ts-expect-error one key is not an iterable of keys, though a string is iterable
assert(throws(() => m.sameSlot("zz")), "one key is refused");
// @ts-expect-error the same for sharedHashtag
assert(throws(() => m.sharedHashtag("user:{1}:a")), "one key is refused by sharedHashtag");
// @ts-expect-error the module has no such export
m.TAGS_PER_SLOT;

function throws(call: () => unknown): boolean {
  try {
    call();
  } catch {
    return true;
  }
  return false;
}
