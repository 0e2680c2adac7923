//! The RESP meter: where the bytes read stand in the RESP framing, followed byte by byte
//! as they arrive, so that every value is counted against a [`Budget`] and every string
//! measured at its header, before the `redis` parser builds anything.

use super::{Budget, Limit};

/// Where the bytes read stand in the RESP framing (the RESP2 and RESP3 types that
/// [`redis::Parser`] reads): enough of it to count values and measure strings, and no more;
/// the parser checks the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Frame {
    /// The next byte is a value's type byte.
    Start,
    /// In the line after a type byte, `len` bytes into it (not counting `\r`), up to its
    /// `\n`; `number` is the number the digits so far make, `negative` whether a `-` came.
    Line {
        kind: LineKind,
        len: usize,
        number: u64,
        negative: bool,
    },
    /// In the payload of a bulk string and its CRLF, `left` bytes to go.
    Payload { left: u64 },
}

/// What the line after a type byte is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LineKind {
    /// The value itself: a simple string, error, integer, double, boolean, null, big
    /// number (`+ - : , # _ (`).
    Simple,
    /// The length of a bulk string, verbatim string or bulk error (`$ = !`).
    Bulk,
    /// The count of an aggregate, which holds `per` values for each counted and `extra` more:
    /// arrays, sets and pushes (`* ~ >`) one each, maps (`%`) two, attributes (`|`) two and
    /// the value they describe.
    Aggregate { per: u64, extra: u64 },
}

impl Frame {
    /// Follows the framing of `bytes`, the next bytes read, counting every value that
    /// starts against `left.values`; the bound of `given` that they pass, if one is.
    pub(super) fn feed(
        &mut self,
        bytes: &[u8],
        given: Budget,
        left: &mut Budget,
    ) -> Result<(), Limit> {
        let mut at = 0;
        while at < bytes.len() {
            let (frame, used) = self.next(&bytes[at..], given, left)?;
            *self = frame;
            at += used;
        }
        Ok(())
    }

    /// The frame after the start of `bytes` (at least one byte), and how many bytes of it
    /// that took; counts a value that starts against `left.values`, or fails with the bound
    /// of `given` that the bytes pass.
    fn next(self, bytes: &[u8], given: Budget, left: &mut Budget) -> Result<(Frame, usize), Limit> {
        let byte = bytes[0];
        let frame = match self {
            Frame::Payload { left: rest } => {
                let used = rest.min(bytes.len() as u64);
                let frame = if used == rest {
                    Frame::Start
                } else {
                    Frame::Payload { left: rest - used }
                };
                // used <= bytes.len()
                return Ok((frame, used as usize));
            }
            Frame::Start => {
                left.values = left
                    .values
                    .checked_sub(1)
                    .ok_or(Limit::Values(given.values))?;
                let kind = match byte {
                    b'$' | b'=' | b'!' => LineKind::Bulk,
                    b'*' | b'~' | b'>' => LineKind::Aggregate { per: 1, extra: 0 },
                    b'%' => LineKind::Aggregate { per: 2, extra: 0 },
                    b'|' => LineKind::Aggregate { per: 2, extra: 1 },
                    _ => LineKind::Simple,
                };
                Frame::Line {
                    kind,
                    len: 0,
                    number: 0,
                    negative: false,
                }
            }
            Frame::Line {
                kind,
                number,
                negative,
                ..
            } if byte == b'\n' => match kind {
                LineKind::Bulk if !negative => {
                    if number > given.string as u64 {
                        return Err(Limit::String(given.string));
                    }
                    Frame::Payload { left: number + 2 }
                }
                LineKind::Aggregate { per, extra } if !negative => {
                    let announced = number.saturating_mul(per).saturating_add(extra);
                    if announced > left.values as u64 {
                        return Err(Limit::Values(given.values));
                    }
                    Frame::Start
                }
                _ => Frame::Start,
            },
            Frame::Line {
                kind,
                len,
                number,
                negative,
            } => {
                if byte == b'\r' {
                    return Ok((self, 1));
                }
                if len >= given.string {
                    return Err(Limit::String(given.string));
                }
                let (number, negative) = match byte {
                    b'0'..=b'9' => (
                        number
                            .saturating_mul(10)
                            .saturating_add(u64::from(byte - b'0')),
                        negative,
                    ),
                    b'-' => (number, true),
                    _ => (number, negative),
                };
                Frame::Line {
                    kind,
                    len: len + 1,
                    number,
                    negative,
                }
            }
        };
        Ok((frame, 1))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use redis::Value;

    use super::*;

    const ROOMY: Budget = Budget {
        bytes: usize::MAX,
        values: usize::MAX,
        string: usize::MAX,
    };

    /// The values that `bytes`, read `chunk` bytes at a time, hold by the meter, or the
    /// bound passed; the bytes must end at a value's end.
    fn metered(bytes: &[u8], budget: Budget, chunk: usize) -> Result<usize, Limit> {
        let mut frame = Frame::Start;
        let mut left = budget;
        for piece in bytes.chunks(chunk) {
            frame.feed(piece, budget, &mut left)?;
        }
        assert_eq!(frame, Frame::Start, "{:?}", String::from_utf8_lossy(bytes));
        Ok(budget.values - left.values)
    }

    /// `value` in RESP, written here from the RESP specification (RESP2 and RESP3).
    fn resp(value: &Value, out: &mut Vec<u8>) {
        let header = |out: &mut Vec<u8>, kind: char, n: usize| {
            out.extend(format!("{kind}{n}\r\n").as_bytes());
        };
        match value {
            Value::Nil => out.extend(b"$-1\r\n"),
            Value::Int(n) => out.extend(format!(":{n}\r\n").as_bytes()),
            Value::Okay => out.extend(b"+OK\r\n"),
            Value::SimpleString(s) => out.extend(format!("+{s}\r\n").as_bytes()),
            Value::Boolean(b) => out.extend(if *b { b"#t\r\n" } else { b"#f\r\n" }),
            Value::BulkString(bytes) => {
                header(out, '$', bytes.len());
                out.extend(bytes);
                out.extend(b"\r\n");
            }
            Value::VerbatimString { text, .. } => {
                header(out, '=', text.len() + 4);
                out.extend(b"txt:");
                out.extend(text.as_bytes());
                out.extend(b"\r\n");
            }
            Value::Array(items) | Value::Set(items) => {
                header(
                    out,
                    if matches!(value, Value::Set(_)) {
                        '~'
                    } else {
                        '*'
                    },
                    items.len(),
                );
                items.iter().for_each(|item| resp(item, out));
            }
            Value::Map(pairs) => {
                header(out, '%', pairs.len());
                for (k, v) in pairs {
                    resp(k, out);
                    resp(v, out);
                }
            }
            other => unreachable!("not generated: {other:?}"),
        }
    }

    /// The values in `value`: itself and every element, at every depth.
    fn count(value: &Value) -> usize {
        1 + match value {
            Value::Array(items) | Value::Set(items) => items.iter().map(count).sum(),
            Value::Map(pairs) => pairs.iter().map(|(k, v)| count(k) + count(v)).sum(),
            _ => 0,
        }
    }

    fn values() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Nil),
            Just(Value::Okay),
            any::<i64>().prop_map(Value::Int),
            any::<bool>().prop_map(Value::Boolean),
            "[a-z0-9 :-]{0,12}"
                .prop_filter("+OK reads as Okay", |s| s != "OK")
                .prop_map(Value::SimpleString),
            // any bytes, CRLF and type bytes among them: a payload is skipped, not read
            proptest::collection::vec(any::<u8>(), 0..40).prop_map(Value::BulkString),
            "[ -~]{0,20}".prop_map(|text| Value::VerbatimString {
                format: redis::VerbatimFormat::Text,
                text,
            }),
        ];
        leaf.prop_recursive(4, 64, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Set),
                proptest::collection::vec((inner.clone(), inner), 0..4).prop_map(Value::Map),
            ]
        })
    }

    proptest! {
        /// The meter counts the values that the `redis` parser builds from the same bytes,
        /// however the bytes are split, and refuses them with one value fewer.
        #[test]
        fn the_meter_counts_what_the_parser_builds(value in values(), chunk in 1usize..9) {
            let mut bytes = Vec::new();
            resp(&value, &mut bytes);
            prop_assert_eq!(&redis::parse_redis_value(&bytes).unwrap(), &value);
            let n = count(&value);
            prop_assert_eq!(metered(&bytes, ROOMY, chunk), Ok(n));
            prop_assert_eq!(metered(&bytes, ROOMY, bytes.len()), Ok(n));
            let short = Budget { values: n - 1, ..ROOMY };
            prop_assert_eq!(metered(&bytes, short, chunk), Err(Limit::Values(n - 1)));
        }
    }

    #[test]
    fn announcements_past_the_budget_are_refused_at_their_header() {
        let map = Budget {
            bytes: usize::MAX,
            values: 573_441,
            string: 1024,
        };
        for (head, limit) in [
            (&b"$1000000000\r\n"[..], Limit::String(1024)),
            (b"*1000000000\r\n", Limit::Values(573_441)),
            (b"%300000\r\n", Limit::Values(573_441)),
            (b"|286720\r\n", Limit::Values(573_441)),
            (b"*2\r\n$1025\r\n", Limit::String(1024)),
        ] {
            let mut frame = Frame::Start;
            let mut left = map;
            assert_eq!(frame.feed(head, map, &mut left), Err(limit), "{head:?}");
        }
        // a line longer than a string may be, before its end
        let mut frame = Frame::Start;
        let mut left = map;
        assert_eq!(
            frame.feed(&[b'+'; 2000], map, &mut left),
            Err(Limit::String(1024))
        );
        // at the bounds: a string of 1024 bytes and an array of all the values left pass
        let mut at_bound = b"*2\r\n$1024\r\n".to_vec();
        at_bound.extend([b'x'; 1024]);
        at_bound.extend(b"\r\n+\r\n");
        assert_eq!(metered(&at_bound, map, 100), Ok(3));
        let all = Budget { values: 3, ..map };
        assert_eq!(metered(b"*2\r\n:1\r\n:2\r\n", all, 1), Ok(3));
        assert_eq!(metered(b"*-1\r\n$-1\r\n", all, 1), Ok(2));
    }
}
