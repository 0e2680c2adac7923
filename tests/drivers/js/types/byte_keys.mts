// An alphabet that is not ASCII: every key is bytes.

import * as m from "./slotgen.mjs";

const bytes: Uint8Array = m.keyForSlot("", m.FIRST_SLOT, "");
// @ts-expect-error the key of a non-ASCII alphabet is bytes
const text: string = m.keyForSlot("", m.FIRST_SLOT, "");
if (!(bytes instanceof Uint8Array) || typeof text === "string") {
  throw new Error("the key of strings is bytes");
}
