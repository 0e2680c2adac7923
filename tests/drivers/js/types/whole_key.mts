// A scheme that hashes the whole key: no delimiters, and a key is the tag alone.

import * as m from "./slotgen.mjs";

// Every export, as the declarations hold them (a missing or extra one does not compile)
// and as the module has them at run time.
const exports: { [name in keyof typeof m]: true } = {
  SLOTS: true,
  FIRST_SLOT: true,
  LAST_SLOT: true,
  TAG_LEN: true,
  SlotgenError: true,
  slot: true,
  hashtag: true,
  tagForSlot: true,
  keyForSlot: true,
  tagsForSlot: true,
  sameSlot: true,
  sharedHashtag: true,
};
const names = Object.keys(exports).sort().join(" ");
if (Object.keys(m).sort().join(" ") !== names) {
  throw new Error(`the module exports ${Object.keys(m).sort().join(" ")}, declared: ${names}`);
}

const key = new Uint8Array([0x7b, 0x61, 0x7d]);
if (m.hashtag(key).length !== 3 || m.sharedHashtag([key]) !== null) {
  throw new Error("the whole key is hashed, and no key has a hashtag");
}
try {
  m.keyForSlot("user:", m.FIRST_SLOT, "");
  throw new Error("a prefix is refused");
} catch (e) {
  if (!(e instanceof m.SlotgenError) || e.code !== "WHOLE_KEY_HASHED") {
    throw e;
  }
}
