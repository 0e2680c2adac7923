// A rule with delimiters: OPEN and CLOSE, and a refused prefix holding OPEN.

import * as m from "./slotgen.mjs";

// Every export, as the declarations hold them (a missing or extra one does not compile)
// and as the module has them at run time.
const exports: { [name in keyof typeof m]: true } = {
  SLOTS: true,
  FIRST_SLOT: true,
  LAST_SLOT: true,
  TAG_LEN: true,
  OPEN: true,
  CLOSE: true,
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

const delimiters: number[] = [m.OPEN, m.CLOSE];
const key = new Uint8Array([0x61, m.OPEN, 0x62, m.CLOSE]);
const tag: Uint8Array = m.hashtag(key);
const shared: Uint8Array | null = m.sharedHashtag([key, key.slice(1)]);
if (tag.length !== 1 || tag[0] !== 0x62 || shared === null || shared[0] !== 0x62) {
  throw new Error(`the hashtag of ${key} is its byte between ${delimiters}`);
}
try {
  m.keyForSlot(new Uint8Array([m.OPEN]), m.FIRST_SLOT, "");
  throw new Error("a prefix holding OPEN is refused");
} catch (e) {
  if (!(e instanceof m.SlotgenError) || e.code !== "PREFIX_HAS_DELIMITER") {
    throw e;
  }
}
