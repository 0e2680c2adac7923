//! The one reader of a small file the user names (a CA certificate, a client certificate
//! or key, a password): bounded in size and in time, so that `/dev/zero`, `/dev/urandom`,
//! a FIFO with no writer or a writer that never writes gives a clear error, not an
//! allocator abort or a hang.
//!
//! A regular file is refused by its size before it is read. Anything else (a pipe such as
//! the `/dev/fd/63` of a shell's `<(...)`, a FIFO, a device) is read on a thread of its own
//! for at most [`WAIT`]; a read still blocked then is left to end with the process.

use std::io::Read;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

/// How long a file that is not a regular one (a pipe, a FIFO, a device) may take to give
/// its bytes and its end: 5 seconds.
pub const WAIT: Duration = Duration::from_secs(5);

/// The most bytes of a certificate or key file: 1 MiB (a system's whole CA bundle is about
/// 200 KiB).
pub const MAX_PEM_BYTES: u64 = 1 << 20;

/// Why a small file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FileError {
    /// The operating system refused: its reason, as [`crate::text::os_reason`] gives it.
    #[error("{0}")]
    Os(String),
    /// The file holds more than the limit.
    #[error("it holds more than {limit} bytes, more than such a file ever does: give the file itself, not a device such as `/dev/zero`")]
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The file did not give its bytes and its end within the time allowed.
    #[error("it gave no end within {} s (a FIFO or a pipe whose writer waits, or a device): give a regular file, or write the whole of it to the pipe at once", .waited.as_secs_f64())]
    TooSlow {
        /// The time waited.
        waited: Duration,
    },
}

/// The bytes of the file at `path`, at most `limit` of them, read within `wait`.
///
/// # Errors
///
/// [`FileError::Os`] when the file cannot be opened or read, [`FileError::TooLarge`] when
/// it holds more than `limit` bytes, [`FileError::TooSlow`] when it is not a regular file
/// and does not end within `wait`.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use slotgen::user_file::{read_small, FileError};
///
/// let error = read_small("/dev/zero".as_ref(), 1024, Duration::from_secs(5)).unwrap_err();
/// assert_eq!(error, FileError::TooLarge { limit: 1024 });
/// ```
pub fn read_small(path: &Path, limit: u64, wait: Duration) -> Result<Vec<u8>, FileError> {
    let os = |e: &std::io::Error| FileError::Os(crate::text::os_reason(e));
    // `metadata` neither opens the file nor blocks on a FIFO
    let regular = std::fs::metadata(path).map_err(|e| os(&e))?.is_file();
    if regular {
        return read_bounded(path, limit);
    }
    let (send, receive) = mpsc::channel();
    let owned = path.to_owned();
    std::thread::Builder::new()
        .name("slotgen-read-file".to_owned())
        .spawn(move || {
            // the receiver may have given up; nobody is left to tell
            let _ = send.send(read_bounded(&owned, limit));
        })
        .map_err(|e| os(&e))?;
    receive
        .recv_timeout(wait)
        .unwrap_or(Err(FileError::TooSlow { waited: wait }))
}

/// Opens and reads `path`, refusing it past `limit` bytes.
fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let os = |e: &std::io::Error| FileError::Os(crate::text::os_reason(e));
    let file = std::fs::File::open(path).map_err(|e| os(&e))?;
    if file
        .metadata()
        .is_ok_and(|m| m.is_file() && m.len() > limit)
    {
        return Err(FileError::TooLarge { limit });
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| os(&e))?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge { limit });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_are_bounded_and_files_read_whole() {
        let wait = Duration::from_secs(5);
        assert_eq!(
            read_small("/dev/zero".as_ref(), 100, wait),
            Err(FileError::TooLarge { limit: 100 })
        );
        assert_eq!(
            read_small("/dev/urandom".as_ref(), 100, wait),
            Err(FileError::TooLarge { limit: 100 })
        );
        assert_eq!(read_small("/dev/null".as_ref(), 100, wait), Ok(Vec::new()));
        let dir = std::env::temp_dir().join(format!("slotgen-user-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("f");
        std::fs::write(&file, b"0123456789").unwrap();
        assert_eq!(read_small(&file, 10, wait).unwrap(), b"0123456789");
        assert_eq!(
            read_small(&file, 9, wait),
            Err(FileError::TooLarge { limit: 9 })
        );
        assert!(matches!(
            read_small(&dir.join("absent"), 9, wait),
            Err(FileError::Os(reason)) if reason == "No such file or directory"
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
