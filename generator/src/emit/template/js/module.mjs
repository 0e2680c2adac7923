<# The ES module: one file, every part chosen here. #>
<% from "reduction.jinja" import infix %>
<# The slot of the CRC `crc`: JavaScript's bitwise operators give signed 32-bit numbers, so
   the shift is `>>>` (shifting in zeros), and a mask of all 32 bits is `>>> 0`. #>
<% macro slot_of(crc) %>
<% set whole = reduction.mask == 4294967295 %>
{{ infix(reduction, crc, "0" if whole else reduction.mask | hex, shr=">>>", band=">>>" if whole else "&") }}<% endmacro %>
<% macro crc_update() %>
<% if crc.refin %>
    crc = (crc >>> 8) ^ CRC_TABLE[(crc ^ byte) & 0xff];
<% else %>
    crc = ((crc << 8) & {{crc.mask | hex}}) ^ CRC_TABLE[(crc >>> {{crc.top_shift}}) ^ byte];
<% endif %>
<% endmacro %>
<% macro crc_finish() %>
<% if crc.reflect_out %>
  crc = reflect(crc);
<% endif %>
<% if crc.xorout %>
  crc ^= {{crc.xorout | hex}};
<% endif %>
<% endmacro %>
{{header}}//
// Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
// O(1). An ES module for Node 18 and later. Keys are Uint8Array or Buffer bytes, or
// strings, which are encoded as UTF-8 first (U+1F480 hashes as its 4 bytes); a slot is an
// integer number from FIRST_SLOT to LAST_SLOT. Tags come back as Uint8Array, and keys as
// Uint8Array<% if alphabet.ascii %>, or as a string when prefix and suffix are both strings<% else %> (the alphabet is not ASCII, so a key does not decode exactly)<% endif %>.
// What each function returns, by what it is given:
//   slot, sameSlot                 a number (sameSlot: or null), for string or bytes keys
<% if alphabet.ascii %>
//   keyForSlot                     string in, string out: a string for string prefix and suffix;
//                                  bytes in, bytes out: a Uint8Array otherwise
<% else %>
//   keyForSlot                     a Uint8Array, for string or bytes prefix and suffix
<% endif %>
//   hashtag, sharedHashtag         a Uint8Array (a copy; sharedHashtag: or null), for
//                                  string or bytes keys
//   tagForSlot, tagsForSlot        a Uint8Array, a generator of Uint8Array
//
//   import { slot, tagForSlot, keyForSlot, tagsForSlot, FIRST_SLOT } from "./slotgen.mjs";
//   slot("123456789");                 // {{examples.check_slot}}
//   tagForSlot(FIRST_SLOT);            // the bytes of "{{examples.tag}}"
//   keyForSlot({{examples.prefix}}, FIRST_SLOT, {{examples.suffix}}); // {{"\"" ~ examples.key ~ "\"" if alphabet.ascii else "the bytes of \"" ~ examples.key ~ "\""}}
//   tagsForSlot(FIRST_SLOT).next();    // the same tag first, from a lazy iterator
//
// Refused calls throw a SlotgenError whose `code` is SLOT_OUT_OF_RANGE or
// {{"FRAME_NOT_SOLVABLE" if rule.whole else "PREFIX_HAS_DELIMITER"}}; slots that are not integer numbers, keys of another type, and one key
// given to sameSlot or sharedHashtag in place of an iterable of keys, throw a TypeError.

/** The number of slots. */
export const SLOTS = {{slots.count}};
/** The first slot; slots are FIRST_SLOT to LAST_SLOT. */
export const FIRST_SLOT = {{slots.first}};
/** The last slot. */
export const LAST_SLOT = {{slots.last}};
/** Symbols (bytes) per tag. */
export const TAG_LEN = {{tags.len}};

/** A call this module refuses; `code` says which rule it breaks. */
export class SlotgenError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "SlotgenError";
    this.code = code;
  }
}

const encoder = new TextEncoder();
<% if alphabet.ascii %>
const decoder = new TextDecoder();
<% endif %>

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
<% if rule.whole %>

// Sets bytes[range[0] .. range[1]] to the bytes of a key that its slot is computed from:
// this scheme has no hashtag, so the whole key. Returns false: it is no hashtag.
function hashed(bytes, range) {
  range[0] = 0;
  range[1] = bytes.length;
  return false;
}

// The CRC of the bytes that hashed() finds: the whole key's.
function crcHashed(bytes) {
  return crc(bytes, 0, bytes.length);
}

// A string key's slot is computed from its characters, encoded as the CRC reads them.
const TEXT_RULE = true;

// The range of characters whose UTF-8 bytes are hashed: all of them.
function hashedText(text, range) {
  range[0] = 0;
  range[1] = text.length;
}

// Solving a tag inside a frame: the value of prefix + tag + suffix is affine in the tag's
// bits (a CRC over keys of one length is), so it is measured at the tag whose symbols all
// have index 0 and at each single bit flipped, and solved by Gauss-Jordan elimination with
// pivot columns in ascending order and every free bit zero: the tag `slotgen key --prefix
// --suffix` gives, with this module's alphabet and tag length. A frame is solved once and
// kept (the last KEPT_FRAMES).

// The alphabet's first symbol, and what bit j of a symbol's index xors into it.
const ALPHABET_OFFSET = {{alphabet.offset | hex(2)}};
const ALPHABET_BASIS = [{{alphabet.basis | map("hex", 2) | join(", ")}}];
// The low value bits a tag is solved for: a key of the slot has slot - FIRST_SLOT there.
const SOLVED_BITS = {{tags.solved_bits}};
// How many solved frames are kept.
const KEPT_FRAMES = 16;

// The solved frames, the oldest first, keyed by the hex of the prefix, `:`, the hex of the
// suffix: each { base, pivots }, base the value of its tag whose symbols all have index 0,
// and pivots for each pivot column (an input bit: symbol bit j of tag byte k is column
// k * ALPHABET_BASIS.length + j), ascending, [column, the value bits whose sum sets it].
const frames = new Map();

// The value of a key, unsigned: (crc >>> {{reduction.shift}}) & {{reduction.mask | hex}}, for the CRC that slot()
// computes of a key's hashtag.
function keyValue(bytes) {
  return ((crc(bytes, 0, bytes.length) >>> {{reduction.shift}}) & {{reduction.mask | hex}}) >>> 0;
}

// The bytes as lowercase hex, for a frame's name.
function hex(bytes) {
  let text = "";
  for (const b of bytes) {
    text += (b < 0x10 ? "0" : "") + b.toString(16);
  }
  return text;
}

// The frame's solver (see `frames`), solved or kept. Throws a SlotgenError
// FRAME_NOT_SOLVABLE when the tags reach fewer value bits than SOLVED_BITS inside this
// prefix and suffix.
function frame(head, tail) {
  const name = `${hex(head)}:${hex(tail)}`;
  const kept = frames.get(name);
  if (kept !== undefined) {
    return kept;
  }
  const bits = ALPHABET_BASIS.length;
  const width = TAG_LEN * bits;
  const key = new Uint8Array(head.length + TAG_LEN + tail.length);
  key.set(head, 0);
  key.fill(ALPHABET_OFFSET, head.length, head.length + TAG_LEN);
  key.set(tail, head.length + TAG_LEN);
  const base = keyValue(key);
  // one row a value bit: its columns as the bits of a bigint, and the value bits summed
  // into it (at most 32, a number's bits)
  const rows = [];
  for (let r = 0; r < SOLVED_BITS; r++) {
    rows.push({ columns: 0n, sums: 1 << r });
  }
  for (let k = 0; k < TAG_LEN; k++) {
    for (let j = 0; j < bits; j++) {
      key[head.length + k] ^= ALPHABET_BASIS[j];
      const column = keyValue(key) ^ base;
      key[head.length + k] ^= ALPHABET_BASIS[j];
      const bit = 1n << BigInt(k * bits + j);
      for (let r = 0; r < SOLVED_BITS; r++) {
        if (((column >>> r) & 1) === 1) {
          rows[r].columns |= bit;
        }
      }
    }
  }
  const pivots = [];
  for (let column = 0; column < width; column++) {
    const rank = pivots.length;
    const bit = 1n << BigInt(column);
    let found = rank;
    while (found < SOLVED_BITS && (rows[found].columns & bit) === 0n) {
      found++;
    }
    if (found === SOLVED_BITS) {
      continue;
    }
    [rows[rank], rows[found]] = [rows[found], rows[rank]];
    const pivot = rows[rank];
    for (let r = 0; r < SOLVED_BITS; r++) {
      if (r !== rank && (rows[r].columns & bit) !== 0n) {
        rows[r].columns ^= pivot.columns;
        rows[r].sums ^= pivot.sums;
      }
    }
    pivots.push(column);
  }
  if (pivots.length < SOLVED_BITS) {
    throw new SlotgenError(
      "FRAME_NOT_SOLVABLE",
      `inside this prefix and suffix, tags of ${TAG_LEN} symbols control only ` +
        `${pivots.length} of the ${SOLVED_BITS} value bits a slot needs: change the prefix ` +
        "or suffix, or emit the module for another tag length (--tag-len)",
    );
  }
  const solved = { base, pivots: pivots.map((column, r) => [column, rows[r].sums]) };
  if (frames.size >= KEPT_FRAMES) {
    frames.delete(frames.keys().next().value);
  }
  frames.set(name, solved);
  return solved;
}

// Whether a 32-bit number has an odd count of set bits.
function odd(bits) {
  bits ^= bits >>> 16;
  bits ^= bits >>> 8;
  bits ^= bits >>> 4;
  bits ^= bits >>> 2;
  bits ^= bits >>> 1;
  return (bits & 1) === 1;
}

/**
 * The key prefix + tag + suffix of the slot: this scheme hashes the whole key, so the tag
 * is solved inside the frame (the tag alone when both are empty, tagForSlot's)<% if alphabet.ascii %>.
 * It is a string when prefix and suffix are strings (the tag is ASCII), else bytes<% endif %>.
 * @param {Uint8Array | string} prefix
 * @param {number} slot
 * @param {Uint8Array | string} suffix
 * @returns {Uint8Array<% if alphabet.ascii %> | string<% endif %>}
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE, or FRAME_NOT_SOLVABLE when tags of TAG_LEN
 *   symbols cannot reach every slot inside this prefix and suffix
 */
export function keyForSlot(prefix, slot, suffix) {
  const head = toBytes(prefix, "prefix");
  const tail = toBytes(suffix, "suffix");
  let key;
  if (head.length === 0 && tail.length === 0) {
    key = tagForSlot(slot);
  } else {
    const value = checkSlot(slot);
    const { base, pivots } = frame(head, tail);
    const target = value ^ base;
    const bits = ALPHABET_BASIS.length;
    key = new Uint8Array(head.length + TAG_LEN + tail.length);
    key.set(head, 0);
    key.fill(ALPHABET_OFFSET, head.length, head.length + TAG_LEN);
    key.set(tail, head.length + TAG_LEN);
    for (const [column, sums] of pivots) {
      if (odd(sums & target)) {
        key[head.length + Math.floor(column / bits)] ^= ALPHABET_BASIS[column % bits];
      }
    }
  }
<% if alphabet.ascii %>
  return typeof prefix === "string" && typeof suffix === "string" ? decoder.decode(key) : key;
<% else %>
  return key;
<% endif %>
}
<% else %>

/** The byte that opens a hashtag. */
export const OPEN = {{rule.open | hex(2)}};
/** The byte that closes a hashtag. */
export const CLOSE = {{rule.close | hex(2)}};
// A hashtag shorter than this hashes the whole key.
const MIN_TAG_LEN = {{rule.min_len}};

// Sets bytes[range[0] .. range[1]] to the bytes of a key that its slot is computed from:
// the hashtag, between the first OPEN and the first CLOSE after it, when it has at least
// MIN_TAG_LEN bytes, else the whole key. Returns whether it is a hashtag. The loops are
// JavaScript's own: a Buffer's indexOf is a call into C++, slower for a short key.
function hashed(bytes, range) {
  const n = bytes.length;
  let open = 0;
  while (open < n && bytes[open] !== OPEN) {
    open++;
  }
  let close = open + 1;
  while (close < n && bytes[close] !== CLOSE) {
    close++;
  }
  if (close < n && close - open > MIN_TAG_LEN) {
    range[0] = open + 1;
    range[1] = close;
    return true;
  }
  range[0] = 0;
  range[1] = n;
  return false;
}

// The CRC of the bytes that hashed() finds, in one pass like the clients' own: the whole
// key's register until OPEN, then the hashtag's until CLOSE; past a missing CLOSE or a short
// hashtag, the whole key's goes on from OPEN. A Buffer or Uint8Array key.
function crcHashed(bytes) {
  const n = bytes.length;
  let whole = {{crc.start | hex(crc.digits)}};
  let i = 0;
  for (; i < n; i++) {
    const byte = bytes[i];
    if (byte === OPEN) {
      break;
    }
    whole = step(whole, byte);
  }
  if (i < n) {
    let tag = {{crc.start | hex(crc.digits)}};
    let j = i + 1;
    for (; j < n; j++) {
      const byte = bytes[j];
      if (byte === CLOSE) {
        break;
      }
      tag = step(tag, byte);
    }
    if (j < n && j - i > MIN_TAG_LEN) {
      return finish(tag);
    }
    for (; i < n; i++) {
      whole = step(whole, bytes[i]);
    }
  }
  return finish(whole);
}

// Whether keyForSlot of string affixes is a string: when the alphabet is ASCII.
const TEXT_KEYS = {{"true" if alphabet.ascii else "false"}};
// OPEN + tag + CLOSE as strings (with TEXT_KEYS, a character a byte), by value, each made
// the first time keyForSlot asks for it.
const framedTexts = [];

function framedText(value) {
  let text = framedTexts[value];
  if (text === undefined) {
    tagWords(value, tagForSlotWords);
    text = OPEN_TEXT + String.fromCharCode(...tagOfWords(tagForSlotWords)) + CLOSE_TEXT;
    framedTexts[value] = text;
  }
  return text;
}

// Whether a string key's slot is computed from its characters without encoding it first:
// when both delimiters are ASCII, the only UTF-8 bytes equal to them are their own
// characters, so hashedText finds the hashtag among the characters.
const TEXT_RULE = {{"true" if rule.open < 128 and rule.close < 128 else "false"}};
const OPEN_TEXT = String.fromCharCode(OPEN);
const CLOSE_TEXT = String.fromCharCode(CLOSE);

// hashed's rule over a string's characters (with TEXT_RULE): the range of characters whose
// UTF-8 bytes are hashed. MIN_TAG_LEN is 0 or 1, so a hashtag's characters count as its
// bytes here.
function hashedText(text, range) {
  const open = text.indexOf(OPEN_TEXT);
  if (open >= 0) {
    const close = text.indexOf(CLOSE_TEXT, open + 1);
    if (close - open > MIN_TAG_LEN) {
      range[0] = open + 1;
      range[1] = close;
      return;
    }
  }
  range[0] = 0;
  range[1] = text.length;
}

/**
 * The key prefix + OPEN + tag + CLOSE + suffix for the slot. Its hashtag is the tag, so it
 * lands on the slot whatever the suffix holds<% if alphabet.ascii %>.
 * It is a string when prefix and suffix are strings (the tag is ASCII), else bytes<% endif %>.
 * @param {Uint8Array | string} prefix
 * @param {number} slot
 * @param {Uint8Array | string} suffix
 * @returns {Uint8Array<% if alphabet.ascii %> | string<% endif %>}
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE, or PREFIX_HAS_DELIMITER when the prefix
 *   contains OPEN
 */
export function keyForSlot(prefix, slot, suffix) {
  if (
    TEXT_KEYS &&
    TEXT_RULE &&
    typeof prefix === "string" &&
    typeof suffix === "string" &&
    prefix.indexOf(OPEN_TEXT) < 0
  ) {
    // the language's own concatenation: the tag's characters are its bytes
    return prefix + framedText(checkSlot(slot)) + suffix;
  }
  const head = toBytes(prefix, "prefix");
  const tail = toBytes(suffix, "suffix");
  const tag = tagForSlot(slot);
  const at = head.indexOf(OPEN);
  if (at >= 0) {
    throw new SlotgenError(
      "PREFIX_HAS_DELIMITER",
      `prefix contains the hashtag's opening byte 0x${OPEN.toString(16)} at byte ${at}: ` +
        "the key's hashtag would start there instead of at the tag; remove it from the " +
        "prefix or move that part into the suffix",
    );
  }
  const key = new Uint8Array(head.length + TAG_LEN + 2 + tail.length);
  key.set(head, 0);
  key[head.length] = OPEN;
  key.set(tag, head.length + 1);
  key[head.length + 1 + TAG_LEN] = CLOSE;
  key.set(tail, head.length + TAG_LEN + 2);
<% if alphabet.ascii %>
  return typeof prefix === "string" && typeof suffix === "string" ? decoder.decode(key) : key;
<% else %>
  return key;
<% endif %>
}
<% endif %>

// The range that `hashed` sets, made once rather than per key; each caller reads it at once.
const range = [0, 0];

/**
 * The bytes of the key that its slot is computed from:
 * {{rule.doc}}.
 * @param {Uint8Array | string} key
 * @returns {Uint8Array} a copy
 */
export function hashtag(key) {
  const bytes = toBytes(key, "key");
  hashed(bytes, range);
  return bytes.slice(range[0], range[1]);
}

// The CRC's lookup table: entry i is the register after feeding byte i into a zero
// register<% if crc.refin %>, reflected (the register shifts right)<% endif %>.
const CRC_TABLE = {{"Uint8Array" if crc.width == 8 else "Uint16Array" if crc.width == 16 else "Uint32Array"}}.of(
{{crc.table | hex_rows(crc.digits, 8, "  ")}}
);

// The CRC of bytes[start .. end], as an unsigned number. The bitwise operators work on
// 32-bit signed integers: `>>> 0` reads the register as unsigned.
function crc(bytes, start, end) {
  let crc = {{crc.start | hex(crc.digits)}};
  for (let i = start; i < end; i++) {
    const byte = bytes[i];
{{crc_update() | chomp}}
  }
  return finish(crc);
}

// The CRC from the register after the last byte, as an unsigned number.
function finish(crc) {
{{crc_finish()}}  return crc >>> 0;
}

// The register after one more byte (crc's step, which V8 inlines).
function step(crc, byte) {
{{crc_update() | chomp}}
  return crc;
}

// The CRC of the UTF-8 bytes of text[start .. end] (as TextEncoder encodes a string: a
// lone surrogate as U+FFFD's bytes), each byte made as the loop reads its UTF-16 code
// unit, so that no byte array is made: as an unsigned number.
function crcText(text, start, end) {
  let crc = {{crc.start | hex(crc.digits)}};
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
<% if crc.reflect_out %>

// The register's {{crc.width}} bits in reverse order: refin != refout.
function reflect(crc) {
  let reflected = 0;
  for (let bit = 0; bit < {{crc.width}}; bit++) {
    reflected = reflected * 2 + (crc & 1);
    crc >>>= 1;
  }
  return reflected;
}
<% endif %>

/**
 * The slot of a key: {{ slot_of("crc") }}, for the CRC of
 * {{rule.doc}}.
 * @param {Uint8Array | string} key
 * @returns {number}
 */
export function slot(key) {
  if (typeof key === "string" && TEXT_RULE) {
    hashedText(key, range);
    return {{ slot_of("crcText(key, range[0], range[1])") }};
  }
  return {{ slot_of("crcHashed(toBytes(key, \"key\"))") }};
}

// A tag as TAG_WORDS 32-bit words: byte k of the tag is bits 8 * (k & 3) onwards of word
// k >> 2, and the bytes past the tag are zero. So a word's hex digits, two at a time from the
// right, are the tag's bytes in order: the first word of the tag of value 0 is {{words.first_word | hex(8)}},
// "{{words.first_tag}}". Entry v of a table is its TAG_WORDS words from v * TAG_WORDS on.
const TAG_WORDS = {{words.count}};

<% if lookup.split %>
// The tag of a value v is entry v & {{lookup.low_mask | hex}} of LOW xor entry v >> {{lookup.low_bits}} of HIGH, word by word:
// the entries of LOW are whole tags (the tag of value 0 folded in), those of HIGH the bytes
// that the value's high bits flip. The tag of a slot is the tag of the value
// slot - FIRST_SLOT.
const LOW = Int32Array.of(
{{lookup.low | js_words(tags.len)}}
);
const HIGH = Int32Array.of(
{{lookup.high | js_words(tags.len)}}
);

// Writes the words of the tag of a value below VALUE_LIMIT into `words`: two loads and a xor
// a word.
function tagWords(value, words) {
  const low = (value & {{lookup.low_mask | hex}}) * TAG_WORDS;
  const high = (value >> {{lookup.low_bits}}) * TAG_WORDS;
  for (let w = 0; w < TAG_WORDS; w++) {
    words[w] = LOW[low + w] ^ HIGH[high + w];
  }
}
<% else %>
// The tag of a value v is ZERO_TAG xor the entries i of COLUMNS over the set bits i of v:
// entry i flips bit i of the tag's value (the CRC's value after the shift and mask), and
// ZERO_TAG is the tag of value 0. The tag of a slot is the tag of the value
// slot - FIRST_SLOT.
const ZERO_TAG = Int32Array.of(
{{[tags.zero] | js_words(tags.len)}}
);
const COLUMNS = Int32Array.of(
{{tags.columns | js_words(tags.len)}}
);

// Writes the words of the tag of a value below VALUE_LIMIT into `words`. The value may pass
// the 32 bits of the bitwise operators: its bits are read by division.
function tagWords(value, words) {
  words.set(ZERO_TAG);
  for (let entry = 0; value > 0; entry += TAG_WORDS, value = Math.floor(value / 2)) {
    if (value % 2 === 1) {
      for (let w = 0; w < TAG_WORDS; w++) {
        words[w] ^= COLUMNS[entry + w];
      }
    }
  }
}
<% endif %>

// A basis of the kernel, TAG_WORDS words an entry: xored into a tag, any combination keeps
// its value.
const KERNEL = Int32Array.of(
{{tags.kernel | js_words(tags.len)}}
);
const KERNEL_LEN = {{tags.kernel_len}};
// Tags reach the values below this; a slot's are slot - FIRST_SLOT + k * SLOTS.
const VALUE_LIMIT = {{tags.value_limit}};

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
