
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
const ALPHABET_OFFSET = {{alphabet_offset}};
const ALPHABET_BASIS = [{{alphabet_basis}}];
// The low value bits a tag is solved for: a key of the slot has slot - FIRST_SLOT there.
const SOLVED_BITS = {{solved_bits}};
// How many solved frames are kept.
const KEPT_FRAMES = 16;

// The solved frames, the oldest first, keyed by the hex of the prefix, `:`, the hex of the
// suffix: each { base, pivots }, base the value of its tag whose symbols all have index 0,
// and pivots for each pivot column (an input bit: symbol bit j of tag byte k is column
// k * ALPHABET_BASIS.length + j), ascending, [column, the value bits whose sum sets it].
const frames = new Map();

// The value of a key, unsigned: (crc >>> {{shift}}) & {{value_mask}}, for the CRC that slot()
// computes of a key's hashtag.
function keyValue(bytes) {
  return ((crc(bytes, 0, bytes.length) >>> {{shift}}) & {{value_mask}}) >>> 0;
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
 * is solved inside the frame (the tag alone when both are empty, tagForSlot's){{key_string_doc}}.
 * @param {Uint8Array | string} prefix
 * @param {number} slot
 * @param {Uint8Array | string} suffix
 * @returns {{key_return_jsdoc}}
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
{{key_return}}
}
