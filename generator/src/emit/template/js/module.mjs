{{header}}//
// Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
// O(1). An ES module for Node 18 and later. Keys are Uint8Array or Buffer bytes, or
// strings, which are encoded as UTF-8 first (U+1F480 hashes as its 4 bytes); a slot is an
// integer number from FIRST_SLOT to LAST_SLOT. Tags come back as Uint8Array, and keys as
// Uint8Array{{key_string_note}}.
// What each function returns, by what it is given:
//   slot, sameSlot                 a number (sameSlot: or null), for string or bytes keys
//   keyForSlot                     {{key_return_table}}
//   hashtag, sharedHashtag         a Uint8Array (a copy; sharedHashtag: or null), for
//                                  string or bytes keys
//   tagForSlot, tagsForSlot        a Uint8Array, a generator of Uint8Array
//
//   import { slot, tagForSlot, keyForSlot, tagsForSlot, FIRST_SLOT } from "./slotgen.mjs";
//   slot("123456789");                 // {{check_slot}}
//   tagForSlot(FIRST_SLOT);            // the bytes of "{{tag}}"
//   keyForSlot({{example_prefix}}, FIRST_SLOT, {{example_suffix}}); // {{key_example}}
//   tagsForSlot(FIRST_SLOT).next();    // the same tag first, from a lazy iterator
//
// Refused calls throw a SlotgenError whose `code` is SLOT_OUT_OF_RANGE or
// {{key_code}}; slots that are not integer numbers, keys of another type, and one key
// given to sameSlot or sharedHashtag in place of an iterable of keys, throw a TypeError.

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

const encoder = new TextEncoder();
{{decoder}}
function toBytes(value, what) {
  if (typeof value === "string") {
    return encoder.encode(value);
  }
  if (value instanceof Uint8Array) {
    return value; // a Buffer is a Uint8Array too
  }
  throw new TypeError(`${what} must be a Uint8Array, a Buffer or a string`);
}

// A value's type as a message names it: typeof, but "null" for null.
function typeName(value) {
  return value === null ? "null" : typeof value;
}

// The keys of sameSlot and sharedHashtag. A string or a Uint8Array is iterable too, over
// its characters or byte values: refuse it here rather than answer for its characters.
function checkKeys(keys, name) {
  if (typeof keys === "string" || keys instanceof Uint8Array) {
    throw new TypeError(`${name} takes an iterable of keys, not one key: write ${name}([key])`);
  }
  if (keys == null || typeof keys[Symbol.iterator] !== "function") {
    throw new TypeError(`${name} takes an iterable of keys, got ${typeName(keys)}`);
  }
  return keys;
}
{{rule}}
// The range that `hashed` sets, made once rather than per key; each caller reads it at once.
const range = [0, 0];

/**
 * The bytes of the key that its slot is computed from:
 * {{rule_doc}}.
 * @param {Uint8Array | string} key
 * @returns {Uint8Array} a copy
 */
export function hashtag(key) {
  const bytes = toBytes(key, "key");
  hashed(bytes, range);
  return bytes.slice(range[0], range[1]);
}

// The CRC's lookup table: entry i is the register after feeding byte i into a zero
// register{{reflected_note}}.
const CRC_TABLE = {{crc_array}}.of(
{{crc_table}}
);

// The CRC of bytes[start .. end], as an unsigned number. The bitwise operators work on
// 32-bit signed integers: `>>> 0` reads the register as unsigned.
function crc(bytes, start, end) {
  let crc = {{crc_start}};
  for (let i = start; i < end; i++) {
    const byte = bytes[i];
{{crc_update}}
  }
  return finish(crc);
}

// The CRC from the register after the last byte, as an unsigned number.
function finish(crc) {
{{crc_finish}}  return crc >>> 0;
}

// The register after one more byte (crc's step, which V8 inlines).
function step(crc, byte) {
{{crc_update}}
  return crc;
}

// The CRC of the UTF-8 bytes of text[start .. end] (as TextEncoder encodes a string: a
// lone surrogate as U+FFFD's bytes), each byte made as the loop reads its UTF-16 code
// unit, so that no byte array is made: as an unsigned number.
function crcText(text, start, end) {
  let crc = {{crc_start}};
  for (let i = start; i < end; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      crc = step(crc, c);
      continue;
    }
    if (c < 0x800) {
      crc = step(step(crc, 0xc0 | (c >>> 6)), 0x80 | (c & 0x3f));
      continue;
    }
    if ((c & 0xfc00) === 0xd800 && i + 1 < end && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      c = 0x10000 + ((c & 0x3ff) << 10) + (text.charCodeAt(++i) & 0x3ff);
      crc = step(step(crc, 0xf0 | (c >>> 18)), 0x80 | ((c >>> 12) & 0x3f));
    } else {
      if ((c & 0xf800) === 0xd800) {
        c = 0xfffd; // a lone surrogate
      }
      crc = step(crc, 0xe0 | (c >>> 12));
    }
    crc = step(step(crc, 0x80 | ((c >>> 6) & 0x3f)), 0x80 | (c & 0x3f));
  }
  return finish(crc);
}
{{crc_reflect}}
/**
 * The slot of a key: {{slot_formula}}, for the CRC of
 * {{rule_doc}}.
 * @param {Uint8Array | string} key
 * @returns {number}
 */
export function slot(key) {
  if (typeof key === "string" && TEXT_RULE) {
    hashedText(key, range);
    return {{text_slot_expression}};
  }
  return {{slot_expression}};
}

// A tag as TAG_WORDS 32-bit words: byte k of the tag is bits 8 * (k & 3) onwards of word
// k >> 2, and the bytes past the tag are zero. So a word's hex digits, two at a time from the
// right, are the tag's bytes in order: the first word of the tag of value 0 is {{first_word}},
// "{{first_tag}}". Entry v of a table is its TAG_WORDS words from v * TAG_WORDS on.
const TAG_WORDS = {{tag_words}};

{{lookup}}
// A basis of the kernel, TAG_WORDS words an entry: xored into a tag, any combination keeps
// its value.
const KERNEL = Int32Array.of(
{{kernel_words}}
);
const KERNEL_LEN = {{kernel_len}};
// Tags reach the values below this; a slot's are slot - FIRST_SLOT + k * SLOTS.
const VALUE_LIMIT = {{value_limit}};

// The tag of the words, TAG_LEN bytes.
function tagOfWords(words) {
  const tag = new Uint8Array(TAG_LEN);
  for (let k = 0; k < TAG_LEN; k++) {
    tag[k] = words[k >> 2] >>> ((k & 3) << 3);
  }
  return tag;
}

function checkSlot(slot) {
  if (!Number.isInteger(slot)) {
    throw new TypeError(
      (typeof slot === "number"
        ? `slot ${String(slot)} is not an integer`
        : `slot must be a number, got ${typeName(slot)}`) +
        `: a slot is an integer from ${FIRST_SLOT} to ${LAST_SLOT}`,
    );
  }
  if (slot < FIRST_SLOT || slot > LAST_SLOT) {
    throw new SlotgenError(
      "SLOT_OUT_OF_RANGE",
      `slot ${String(slot)} is out of range: the slots are ${FIRST_SLOT} to ${LAST_SLOT}, ` +
        `so a slot is an integer number from ${FIRST_SLOT} to ${LAST_SLOT}`,
    );
  }
  return slot - FIRST_SLOT;
}

// tagForSlot's words, made once.
const tagForSlotWords = new Int32Array(TAG_WORDS);

/**
 * A tag (TAG_LEN bytes of the alphabet) whose key lands on the slot.
 * @param {number} slot
 * @returns {Uint8Array}
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE unless slot is from FIRST_SLOT to LAST_SLOT
 */
export function tagForSlot(slot) {
  tagWords(checkSlot(slot), tagForSlotWords);
  return tagOfWords(tagForSlotWords);
}

/**
 * Every tag of TAG_LEN symbols that lands on the slot, lazily: for each value
 * slot - FIRST_SLOT + k * SLOTS below VALUE_LIMIT, ascending, the value's tag xor each
 * combination of KERNEL entries, in binary counting order; the tagForSlot tag first. The
 * slot is checked at once, the tags are made as they are iterated.
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
  const base = new Int32Array(TAG_WORDS);
  const combined = new Int32Array(TAG_WORDS);
  for (; value < VALUE_LIMIT; value += SLOTS) {
    tagWords(value, base);
    for (let n = 0n; n < count; n++) {
      combined.set(base);
      for (let entry = 0, rest = n; rest > 0n; entry += TAG_WORDS, rest >>= 1n) {
        if ((rest & 1n) === 1n) {
          for (let w = 0; w < TAG_WORDS; w++) {
            combined[w] ^= KERNEL[entry + w];
          }
        }
      }
      yield tagOfWords(combined);
    }
  }
}

/**
 * The slot every key lands on, as a multi-key command or a script's keys need; null when
 * two keys land on different slots (the server answers CROSSSLOT) or there are none.
 * @param {Iterable<Uint8Array | string>} keys
 * @returns {number | null}
 * @throws {TypeError} when keys is one key (a string or a Uint8Array), not an iterable of keys
 */
export function sameSlot(keys) {
  let found = null;
  for (const key of checkKeys(keys, "sameSlot")) {
    const here = slot(key);
    if (found === null) {
      found = here;
    } else if (here !== found) {
      return null;
    }
  }
  return found;
}

/**
 * The one hashtag every key has between its delimiters; null when a key has none (its
 * whole key is hashed), two keys have different ones, or there are none. Keys that share a
 * hashtag land on one slot whatever the slot count.
 * @param {Iterable<Uint8Array | string>} keys
 * @returns {Uint8Array | null} a copy
 * @throws {TypeError} when keys is one key (a string or a Uint8Array), not an iterable of keys
 */
export function sharedHashtag(keys) {
  let found = null;
  for (const key of checkKeys(keys, "sharedHashtag")) {
    const bytes = toBytes(key, "key");
    if (!hashed(bytes, range)) {
      return null; // the whole key is hashed
    }
    const tag = bytes.subarray(range[0], range[1]);
    if (found === null) {
      found = tag;
    } else if (found.length !== tag.length || found.some((b, i) => b !== tag[i])) {
      return null;
    }
  }
  return found === null ? null : found.slice();
}
