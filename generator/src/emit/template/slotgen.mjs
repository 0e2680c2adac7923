{{header}}//
// Redis Cluster style hash slots for this spec, both ways: the slot of a key, and a key
// for a slot in O(1). An ES module for Node 18 and later. Keys are Uint8Array or Buffer
// bytes, or strings, which are encoded as UTF-8 first (U+1F480 hashes as its 4 bytes);
// tags come back as Uint8Array, and keys as Uint8Array{{key_string_note}}.
//
//   import { slot, tagForSlot, keyForSlot, tagsForSlot } from "./slotgen.mjs";
//   slot("123456789");                  // {{check_slot}}
//   tagForSlot(0);                      // the bytes of "{{tag}}"
//   keyForSlot("user:", 0, ":profile"); // {{key_example}}
//   [...tagsForSlot(0)].length;         // {{tags_per_slot}}, from a lazy iterator
//
// Refused calls throw a SlotgenError whose `code` is SLOT_OUT_OF_RANGE or
// PREFIX_HAS_BRACE; slots that are not integer numbers, and keys of another type, throw a
// TypeError.

/** The number of hash slots; a slot is an integer in [0, SLOTS). */
export const SLOTS = {{slots}};
/** Symbols (bytes) per tag. */
export const TAG_LEN = {{tag_len}};
/** How many tags land on each slot (a bigint when it is above 2^53). */
export const TAGS_PER_SLOT = {{tags_per_slot_literal}};
/** The slot of the tag whose symbols all have index 0. */
export const BASE_SLOT = {{base_slot}};

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
const CRC_TABLE = Uint16Array.of(
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

function crc16(bytes, start, end) {
  let crc = {{start}};
  for (let i = start; i < end; i++) {
{{crc_update}}
  }
{{crc_finish}}  return crc;
}

/**
 * The hash slot of a key: the CRC of its hashtag, the bytes between the first `{` and the
 * next `}` when there are any, else of the whole key.
 * @param {Uint8Array | string} key
 * @returns {number}
 */
export function slot(key) {
  const bytes = toBytes(key, "key");
  let start = 0;
  let end = bytes.length;
  const open = bytes.indexOf(0x7b);
  if (open >= 0) {
    const close = bytes.indexOf(0x7d, open + 1);
    if (close > open + 1) {
      start = open + 1;
      end = close;
    }
  }
  return crc16(bytes, start, end) & {{slot_mask}};
}

// A tag as TAG_WORDS 32-bit words: byte k of the tag is bits 8 * (k & 3) onwards of word
// k >> 2, and the bytes past the tag are zero. So a word's hex digits, two at a time from the
// right, are the tag's bytes in order: LOW[0] is {{first_word}}, "{{first_tag}}". Entry v of a table is
// its TAG_WORDS words from v * TAG_WORDS on. The tag of a slot is entry slot & {{low_mask}} of LOW
// xor entry slot >> {{low_bits}} of HIGH, word by word: the entries of LOW are tags, those of HIGH byte
// differences of two tags (the base slot and the base tag are folded in).
const TAG_WORDS = {{tag_words}};
const LOW = Int32Array.of(
{{low}}
);
const HIGH = Int32Array.of(
{{high}}
);
// A basis of the kernel, one entry each: byte differences that, xored into a tag, do not move
// the slot.
const KERNEL = Int32Array.of(
{{kernel}}
);

function checkSlot(slot) {
  if (!Number.isInteger(slot)) {
    throw new TypeError(
      `slot must be an integer number in [0, ${SLOTS}), not ${typeof slot} ` +
        `${JSON.stringify(String(slot))}`,
    );
  }
  if (slot < 0 || slot >= SLOTS) {
    throw new SlotgenError(
      "SLOT_OUT_OF_RANGE",
      `slot ${String(slot)} is out of range: this table has ${SLOTS} slots, ` +
        `so a slot is an integer in [0, ${SLOTS})`,
    );
  }
}

/**
 * A tag (TAG_LEN bytes of the alphabet) whose key lands on the slot.
 * @param {number} slot
 * @returns {Uint8Array}
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE unless slot is an integer in [0, SLOTS)
 */
export function tagForSlot(slot) {
  checkSlot(slot);
  const low = (slot & {{low_mask}}) * TAG_WORDS;
  const high = (slot >> {{low_bits}}) * TAG_WORDS;
  const tag = new Uint8Array(TAG_LEN);
  for (let k = 0; k < TAG_LEN; k++) {
    tag[k] = (LOW[low + (k >> 2)] ^ HIGH[high + (k >> 2)]) >>> ((k & 3) << 3);
  }
  return tag;
}

/**
 * The key prefix + "{" + tag + "}" + suffix for the slot. Its hashtag is the tag, so it
 * lands on the slot whatever the suffix holds{{key_string_doc}}.
 * @param {Uint8Array | string} prefix
 * @param {number} slot
 * @param {Uint8Array | string} suffix
 * @returns {{key_return_jsdoc}}
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE, or PREFIX_HAS_BRACE when the prefix contains `{`
 */
export function keyForSlot(prefix, slot, suffix) {
  const head = toBytes(prefix, "prefix");
  const tail = toBytes(suffix, "suffix");
  const tag = tagForSlot(slot);
  const brace = head.indexOf(0x7b);
  if (brace >= 0) {
    throw new SlotgenError(
      "PREFIX_HAS_BRACE",
      `prefix contains \`{\` at byte ${brace}: the key's hashtag would start there instead ` +
        "of at the tag; remove the `{` from the prefix or move that part into the suffix",
    );
  }
  const key = new Uint8Array(head.length + TAG_LEN + 2 + tail.length);
  key.set(head, 0);
  key[head.length] = 0x7b;
  key.set(tag, head.length + 1);
  key[head.length + 1 + TAG_LEN] = 0x7d;
  key.set(tail, head.length + TAG_LEN + 2);
{{key_return}}
}

/**
 * Every tag that lands on the slot, lazily: TAGS_PER_SLOT of them, the tagForSlot tag
 * first, then that tag xor each nonzero combination of KERNEL entries, in binary counting
 * order. The slot is checked at once, the tags are made as they are iterated.
 * @param {number} slot
 * @returns {Generator<Uint8Array, void, undefined>}
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE unless slot is an integer in [0, SLOTS)
 */
export function tagsForSlot(slot) {
  checkSlot(slot);
  return tagsOf((slot & {{low_mask}}) * TAG_WORDS, (slot >> {{low_bits}}) * TAG_WORDS);
}

// The tags of the LOW entry at `low` and the HIGH entry at `high`, counted in a bigint so
// that every count is exact.
function* tagsOf(low, high) {
  const count = BigInt(TAGS_PER_SLOT);
  const words = new Int32Array(TAG_WORDS);
  for (let n = 0n; n < count; n++) {
    for (let w = 0; w < TAG_WORDS; w++) {
      words[w] = LOW[low + w] ^ HIGH[high + w];
    }
    for (let entry = 0, rest = n; rest > 0n; entry += TAG_WORDS, rest >>= 1n) {
      if ((rest & 1n) === 1n) {
        for (let w = 0; w < TAG_WORDS; w++) {
          words[w] ^= KERNEL[entry + w];
        }
      }
    }
    const tag = new Uint8Array(TAG_LEN);
    for (let k = 0; k < TAG_LEN; k++) {
      tag[k] = words[k >> 2] >>> ((k & 3) << 3);
    }
    yield tag;
  }
}

/**
 * The slot every key lands on, as a multi-key command or a script's keys need; null when
 * two keys land on different slots (the server answers CROSSSLOT) or there are none.
 * @param {Iterable<Uint8Array | string>} keys
 * @returns {number | null}
 */
export function sameSlot(keys) {
  let found = null;
  for (const key of keys) {
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
 * The one non-empty hashtag every key has; null when a key has none (the whole key is
 * hashed: no `{`, no `}` after it, or `{}`), two keys have different ones, or there are
 * none. Keys that share a hashtag land on one slot under every CRC and slot count.
 * @param {Iterable<Uint8Array | string>} keys
 * @returns {Uint8Array | null}
 */
export function sharedHashtag(keys) {
  let found = null;
  for (const key of keys) {
    const bytes = toBytes(key, "key");
    const open = bytes.indexOf(0x7b);
    const close = open >= 0 ? bytes.indexOf(0x7d, open + 1) : -1;
    if (close <= open + 1) {
      return null;
    }
    const tag = bytes.subarray(open + 1, close);
    if (found === null) {
      found = tag;
    } else if (found.length !== tag.length || found.some((b, i) => b !== tag[i])) {
      return null;
    }
  }
  return found;
}
