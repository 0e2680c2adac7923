//! The one rule of hiding a password a server echoes: [`holds`] (the password whole, or a
//! part of it of 4 bytes), [`hide`] (a server's error reply: its code alone) and
//! [`hide_sent`] (words that quote an answer, where this process sent a password). A leaf:
//! the errors of every module show a server's words through it.

use std::sync::Mutex;

/// The fewest bytes of the password that, found in a server's words, count as a copy of it
/// ([`holds`]): a server may echo part of it (a reply cut short, a prefix), and 8 of 10
/// letters tell the rest.
const PART: usize = 4;

/// Whether `text` holds `password` or a part of it: the whole password, or any [`PART`]
/// bytes of it in a row, in any case of ASCII letters (an echo may change the case). A
/// password shorter than [`PART`] counts only whole.
pub(crate) fn holds(password: &[u8], text: &[u8]) -> bool {
    let lower = |b: &[u8]| b.to_ascii_lowercase();
    let (password, text) = (lower(password), lower(text));
    if password.is_empty() || text.len() < password.len().min(PART) {
        return false;
    }
    if password.len() <= PART {
        return text.windows(password.len()).any(|w| w == password);
    }
    let parts: std::collections::HashSet<&[u8]> = password.windows(PART).collect();
    text.windows(PART).any(|w| parts.contains(w))
}

/// `text`, a server's words, where they hold `password` or a part of it ([`holds`]): only
/// their first word (the reply's code) and slotgen's note that the rest is left out. A
/// server may echo the password (`AUTH <password> called without any password configured`,
/// `MIGRATE`'s error that repeats its `AUTH`, a port that is no server quoting the request),
/// and no message prints a secret; nor may it tell one by what is left: `***` in the place
/// of `pass` in `username-password` read `username-***word`, and in the place of `invalid`
/// in the server's well-known `WRONGPASS invalid username-password pair` told the password
/// as well. The one rule of hiding: [`hide_sent`] applies it to whole messages.
pub(crate) fn hide(password: Option<&[u8]>, text: &str) -> String {
    let Some(p) = password.filter(|p| holds(p, text.as_bytes())) else {
        return text.to_owned();
    };
    let left_out =
        "the rest of the server's words is left out: it holds the letters of the password sent";
    match text.split(' ').next() {
        Some(code) if !holds(p, code.as_bytes()) => format!("{code} ({left_out})"),
        _ => format!("({left_out})"),
    }
}

/// The passwords this process sent in `AUTH` ([`sent`]), which [`hide_sent`] hides.
static SENT: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());

/// Notes `password` as sent in `AUTH`, before it is, so that whatever a server answers is
/// hidden from then on ([`hide_sent`]).
pub(crate) fn sent(password: &[u8]) {
    if let Ok(mut sent) = SENT.lock() {
        if !sent.iter().any(|p| p == password) {
            sent.push(password.to_vec());
        }
    }
}

/// `message`, words that quote a server's answer (why it is malformed: a `CLUSTER NODES`
/// line, a field of `CLUSTER SHARDS`), with every word (between spaces) that holds a
/// password this process sent, or a part of it (`holds`), as `***`; where a part spans
/// words, the whole is left out. The words of a server's error replies are cut to their code
/// instead (`hide`). Not for slotgen's whole messages: a password `pass` would hide their
/// word `password`.
///
/// # Examples
///
/// ```
/// use slotgen_cluster::transport::hide_sent;
///
/// // nothing sent by this process: the line as it is
/// assert_eq!(hide_sent("the line `S3cr3tPw` has no id"), "the line `S3cr3tPw` has no id");
/// ```
#[must_use]
pub fn hide_sent(message: &str) -> String {
    let Ok(sent) = SENT.lock() else {
        return message.to_owned();
    };
    let held = |text: &str| sent.iter().any(|p| holds(p, text.as_bytes()));
    if !held(message) {
        return message.to_owned();
    }
    let words: Vec<&str> = message
        .split(' ')
        .map(|word| if held(word) { "***" } else { word })
        .collect();
    let hidden = words.join(" ");
    if held(&hidden) {
        "(the message is left out: it holds letters of the password sent)".to_owned()
    } else {
        hidden
    }
}

#[cfg(test)]
mod hide_tests {
    use super::hide;

    /// Where the server's words hold the password, only their code is kept: a newcomer read
    /// `username-***word` and knew the password was `pass`, and `WRONGPASS ***` that it was
    /// `invalid`.
    #[test]
    fn a_password_is_hidden_without_telling_its_letters() {
        let wrongpass = "WRONGPASS invalid username-password pair or user is disabled.";
        let auth = "ERR AUTH s3cret called without any password configured for the default user";
        let left_out =
            "(the rest of the server's words is left out: it holds the letters of the password sent)";
        for (password, text, code) in [
            // the code too holds `pass`, in another case: left out with the rest
            (&b"pass"[..], wrongpass, ""),
            (b"password", wrongpass, ""),
            (b"invalid", wrongpass, "WRONGPASS "),
            (b"s3cret", auth, "ERR "),
            (b"WRONGPASS", "WRONGPASS invalid", ""),
        ] {
            assert_eq!(hide(Some(password), text), format!("{code}{left_out}"));
        }
        assert_eq!(hide(None, wrongpass), wrongpass);
        assert_eq!(hide(Some(b"x7"), wrongpass), wrongpass);
    }

    /// A part of the password (8 of 10 letters, 4 in a row, another case) is hidden as the
    /// whole is: a break28 server answered `-ERR S3cr3tP` to `AUTH S3cr3tPw!x`.
    #[test]
    fn a_part_of_the_password_is_hidden() {
        let left_out =
            "(the rest of the server's words is left out: it holds the letters of the password sent)";
        for text in [
            "ERR S3cr3tP",
            "ERR Target instance replied with error: S3cr3tPw failed",
            "ERR s3CR",
            "ERR xxtPw!x",
        ] {
            assert_eq!(
                hide(Some(b"S3cr3tPw!x"), text),
                format!("ERR {left_out}"),
                "{text}"
            );
        }
        // three letters in a row tell little, and are common
        assert_eq!(hide(Some(b"S3cr3tPw!x"), "ERR S3c r3t"), "ERR S3c r3t");
        assert!(super::holds(b"abc", b"xxABCxx"));
        assert!(!super::holds(b"", b"anything"));
    }
}
