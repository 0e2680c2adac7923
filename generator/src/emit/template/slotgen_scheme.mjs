{{header}}//
// Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot. An ES
// module for Node 18 and later. Keys are Uint8Array or Buffer bytes, or strings, which are
// encoded as UTF-8 first; tags come back as Uint8Array, and keys as Uint8Array{{key_string_note}}.
// A slot is an integer from FIRST_SLOT to LAST_SLOT.
//
//   import { slot, tagForSlot, keyForSlot, tagsForSlot, FIRST_SLOT } from "./slotgen.mjs";
//   slot("123456789");                 // {{check_slot}}
//   tagForSlot(FIRST_SLOT);            // the bytes of "{{tag}}"
//   keyForSlot({{example_prefix}}, FIRST_SLOT, {{example_suffix}}); // {{key_example}}
//   tagsForSlot(FIRST_SLOT).next();    // the same tag first, from a lazy iterator
//
// Refused calls throw a SlotgenError whose `code` is SLOT_OUT_OF_RANGE or {{key_code}};
// slots that are not integer numbers, and keys of another type, throw a TypeError.

/** The number of slots. */
export const SLOTS = {{slots}};
/** The first slot; slots are FIRST_SLOT to LAST_SLOT. */
export const FIRST_SLOT = {{first_slot}};
/** The last slot. */
export const LAST_SLOT = {{last_slot}};
/** Symbols (bytes) per tag. */
export const TAG_LEN = {{tag_len}};

/** A call this module refuses; `code` says which rule it breaks. */
export class SlotgenError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "SlotgenError";
    this.code = code;
  }
}

// The CRC's lookup table: entry i is the register after feeding byte i into a zero
// register{{reflected_note}}.
const CRC_TABLE = Uint32Array.of(
{{crc_table}}
);

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function toBytes(value, what) {
  if (typeof value === "string") {
    return encoder.encode(value);
  }
  if (value instanceof Uint8Array) {
    return value; // a Buffer is a Uint8Array too
  }
  throw new TypeError(`${what} must be a Uint8Array, a Buffer or a string`);
}

// The CRC of the bytes, as an unsigned number. The bitwise operators work on 32-bit
// signed integers: `>>> 0` reads the register as unsigned.
function crc(bytes) {
  let crc = {{crc_start}};
  for (let i = 0; i < bytes.length; i++) {
{{crc_update}}
  }
{{crc_finish}}  return crc >>> 0;
}
{{rule}}
/**
 * The slot of a key: ((crc >> {{shift}}) & {{value_mask}}) % SLOTS + FIRST_SLOT, for the CRC of
 * {{rule_doc}}.
 * @param {Uint8Array | string} key
 * @returns {number}
 */
export function slot(key) {
  const value = ((crc(hashed(toBytes(key, "key"))) >>> {{shift}}) & {{value_mask}}) >>> 0;
  return (value % SLOTS) + FIRST_SLOT;
}

// The tag of a value v is ZERO_TAG xor the rows i of COLUMNS (TAG_LEN bytes each) over the
// set bits i of v: row i flips bit i of the tag's value (the CRC's value after the shift
// and mask), and ZERO_TAG is the tag of value 0. The tag of a slot is the tag of the value
// slot - FIRST_SLOT.
const ZERO_TAG = Uint8Array.of(
{{zero_tag}}
);
const COLUMNS = Uint8Array.of(
{{columns}}
);
// A basis of the kernel, one row each: xored into a tag, any combination keeps its value.
const KERNEL = Uint8Array.of(
{{kernel}}
);
const KERNEL_LEN = {{kernel_len}};
// Tags reach the values below this; a slot's are slot - FIRST_SLOT + k * SLOTS.
const VALUE_LIMIT = {{value_limit}};

function checkSlot(slot) {
  if (!Number.isInteger(slot)) {
    throw new TypeError(
      `slot must be an integer number from ${FIRST_SLOT} to ${LAST_SLOT}, not ` +
        `${typeof slot} ${JSON.stringify(String(slot))}`,
    );
  }
  if (slot < FIRST_SLOT || slot > LAST_SLOT) {
    throw new SlotgenError(
      "SLOT_OUT_OF_RANGE",
      `slot ${String(slot)} is out of range: this scheme's slots are ${FIRST_SLOT} to ` +
        `${LAST_SLOT}`,
    );
  }
  return slot - FIRST_SLOT;
}

// The tag of a value below VALUE_LIMIT.
function tagOf(value) {
  const tag = ZERO_TAG.slice();
  for (let row = 0; value > 0; row += TAG_LEN, value = Math.floor(value / 2)) {
    if (value % 2 === 1) {
      for (let i = 0; i < TAG_LEN; i++) {
        tag[i] ^= COLUMNS[row + i];
      }
    }
  }
  return tag;
}

/**
 * A tag (TAG_LEN bytes of the alphabet) whose key lands on the slot.
 * @param {number} slot
 * @returns {Uint8Array}
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE unless slot is from FIRST_SLOT to LAST_SLOT
 */
export function tagForSlot(slot) {
  return tagOf(checkSlot(slot));
}

/**
 * Every tag of TAG_LEN symbols that lands on the slot, lazily: for each value
 * slot - FIRST_SLOT + k * SLOTS below VALUE_LIMIT, ascending, the value's tag xor each
 * combination of KERNEL rows, in binary counting order; the tagForSlot tag first. The slot
 * is checked at once, the tags are made as they are iterated.
 * @param {number} slot
 * @returns {Generator<Uint8Array, void, undefined>}
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE unless slot is from FIRST_SLOT to LAST_SLOT
 */
export function tagsForSlot(slot) {
  return tagsOf(checkSlot(slot));
}

// The kernel's combinations are counted in a bigint, so that every count is exact.
function* tagsOf(value) {
  const count = 1n << BigInt(KERNEL_LEN);
  for (; value < VALUE_LIMIT; value += SLOTS) {
    const tag = tagOf(value);
    for (let n = 0n; n < count; n++) {
      const combined = tag.slice();
      for (let row = 0, rest = n; rest > 0n; row += TAG_LEN, rest >>= 1n) {
        if ((rest & 1n) === 1n) {
          for (let i = 0; i < TAG_LEN; i++) {
            combined[i] ^= KERNEL[row + i];
          }
        }
      }
      yield combined;
    }
  }
}
