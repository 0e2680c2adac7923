// A scheme that hashes the whole key: no delimiters, and a key's tag is solved inside its
// prefix and suffix.

import * as m from "./slotgen.mjs";
import type { SlotgenErrorCode } from "./slotgen.mjs";

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
const framed: Uint8Array = m.keyForSlot(new TextEncoder().encode("order-"), m.LAST_SLOT, ":eu");
const text: string | Uint8Array = m.keyForSlot("order-", m.LAST_SLOT, ":eu");
if (m.slot(framed) !== m.LAST_SLOT || m.slot(text) !== m.LAST_SLOT) {
  throw new Error("the key of a prefix and suffix lands on its slot");
}
const unsolvable: SlotgenErrorCode = "FRAME_NOT_SOLVABLE";
// @ts-expect-error a prefix is no longer refused as such
const refused: SlotgenErrorCode = "WHOLE_KEY_HASHED";
if (unsolvable === refused) {
  throw new Error("two codes");
}
