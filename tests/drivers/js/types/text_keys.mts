// An ASCII alphabet: the key of string parts is a string, the bytes' key decoded.

import * as m from "./slotgen.mjs";

const text: string = m.keyForSlot("", m.FIRST_SLOT, "");
const bytes: Uint8Array = m.keyForSlot(new Uint8Array(), m.FIRST_SLOT, new Uint8Array());
if (typeof text !== "string" || text !== new TextDecoder().decode(bytes)) {
  throw new Error(`the key of strings is the string of the bytes' key, got ${text}`);
}
