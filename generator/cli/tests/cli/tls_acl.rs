//! How a command connects, without a real server: the TLS options and where the password
//! comes from (refused when they cannot apply, exit 2), the password's sources reaching
//! `AUTH` and never the output, and `NOPERM` refusals in plain words, from a fake server that
//! answers canned replies in turn. Real TLS clusters and ACL users: `tests/tests/it/
//! cluster_tls.rs`.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::common::{slotgen, slotgen_with_stdin, Run};

fn run(args: &[&str]) -> Run {
    slotgen(args).into()
}

#[test]
fn connection_options_that_cannot_apply_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::write(&empty, "\n").unwrap();
    let empty = empty.to_str().unwrap();
    let socket = format!("unix://{}", dir.path().join("s.sock").display());
    for (args, code, needle) in [
        (
            &["nodes", "--redis", "redis://127.0.0.1:1", "--cacert", "ca.pem"][..],
            2,
            "--cacert applies to TLS only: give --tls, or a `rediss://` URL",
        ),
        (
            &["keys", "--redis", "redis://127.0.0.1:1", "--count", "1", "--sni", "a", "--insecure"],
            2,
            "--sni, --insecure apply to TLS only",
        ),
        (
            &["nodes", "--redis", "rediss://127.0.0.1:1", "--cert", "c.pem"],
            2,
            "--key <FILE>",
        ),
        (
            &["nodes", "--redis", "redis://:pw@127.0.0.1:1", "--password-file", empty],
            2,
            "--password-file and a password in the URL: give the password once",
        ),
        (
            &["nodes", "--redis", "redis://127.0.0.1:1", "--askpass", "--password-file", empty],
            2,
            "cannot be used with",
        ),
        (
            &["placement", "--redis", "redis://127.0.0.1:1", "--askpass"],
            2,
            "--askpass reads standard input, which holds the keys here: give --password-file FILE, or set REDISCLI_AUTH",
        ),
        (
            &["verify", "--redis", "redis://127.0.0.1:1", "--keys", "-", "--askpass"],
            2,
            "which holds the keys of `--keys -` here",
        ),
        (&["placement", "--cacert", "ca.pem"], 2, "--redis <URL>"),
        // AUTH is sent only with a password: a user without one would silently be `default`
        (
            &["nodes", "--redis", "redis://127.0.0.1:1", "--user", "app"],
            2,
            "user `app` needs a password, or the server takes the connection as user `default`: give --askpass, --password-file FILE or REDISCLI_AUTH",
        ),
        // one word before the `@`: redis-cli's password, the client's user; the word, maybe
        // a password, not printed
        (
            &["keys", "--redis", "redis://app@127.0.0.1:1", "--count", "1"],
            2,
            "`redis://***@127.0.0.1:1` is not a server URL (its user info has no `:`, which clients read two ways: redis-cli as the password (of user `default`), the `redis` client as an ACL user without one; write `default:PASSWORD@` for a password",
        ),
        (
            &["verify", "--redis", "redis://:pw@127.0.0.1:1/3"],
            2,
            "the URL names database `/3`, but slotgen works on every database of a cluster (database 0 on Redis, each of `cluster-databases` on Valkey 9): remove `/3`",
        ),
        // two users: the flag overrode the URL's silently
        (
            &["nodes", "--redis", "redis://alice:pw@127.0.0.1:1", "--user", "bob"],
            2,
            "--user `bob` and the user `alice` in the URL: give the user once",
        ),
        // the `redis` client reads `?db=` on `unix://` only: on TCP it was taken silently
        (
            &["verify", "--redis", "redis://127.0.0.1:1?db=1"],
            2,
            "the URL names database `?db=1`, but slotgen works on every database of a cluster",
        ),
        (
            &["nodes", "--redis", "unix:///tmp/none.sock?db=2"],
            2,
            "the URL names database `?db=2`, but slotgen works on every database of a cluster (database 0 on Redis, each of `cluster-databases` on Valkey 9): remove `?db=2`",
        ),
        (
            &["nodes", "--redis", "127.0.0.1:7000"],
            2,
            "`127.0.0.1:7000` is not a server URL (it has no scheme: `redis://127.0.0.1:7000` names that address): give `redis://HOST:PORT`, `rediss://HOST:PORT` (TLS) or `unix:///PATH/TO/SOCKET`",
        ),
        (
            &["verify", "--redis", "https://127.0.0.1:7000"],
            2,
            "(the scheme `https` is not one of them)",
        ),
        (
            &["nodes", "--redis", "rediss://127.0.0.1:1", "--cacert", "/nonexistent/ca.pem"],
            1,
            "the CA certificate file `/nonexistent/ca.pem` cannot be used: ",
        ),
        (
            &["nodes", "--redis", &socket, "--tls"],
            2,
            "TLS applies to TCP connections, not to a unix socket",
        ),
        (
            &["nodes", "--redis", "redis://127.0.0.1:1", "--password-file", "/nonexistent/pw"],
            1,
            "cannot read --password-file /nonexistent/pw",
        ),
        (
            &["nodes", "--redis", "redis://127.0.0.1:1", "--password-file", empty],
            1,
            "gives an empty password",
        ),
    ] {
        let run = run(args);
        if args.contains(&"--askpass") && args.contains(&"--password-file")
            || args == ["placement", "--cacert", "ca.pem"]
            || args.contains(&"--cert")
        {
            // clap's own refusal, several lines
            run.exits(code, needle);
        } else {
            run.fails_with_code(code, needle);
        }
    }
}

/// A fake server on loopback: one connection, answered with `replies` in turn, one for each
/// read of a command; what it received is kept.
struct Fake {
    port: u16,
    received: Arc<Mutex<Vec<u8>>>,
}

impl Fake {
    fn start(replies: &[&str]) -> Fake {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&received);
        let replies: Vec<Vec<u8>> = replies.iter().map(|r| r.as_bytes().to_vec()).collect();
        std::thread::spawn(move || {
            let Ok((mut con, _)) = listener.accept() else {
                return;
            };
            let _ = con.set_read_timeout(Some(Duration::from_secs(20)));
            let mut buf = [0u8; 4096];
            for reply in replies {
                match con.read(&mut buf) {
                    Ok(n) if n > 0 => kept.lock().unwrap().extend_from_slice(&buf[..n]),
                    _ => return,
                }
                if con.write_all(&reply).is_err() {
                    return;
                }
            }
        });
        Fake { port, received }
    }

    /// What the client sent, whole.
    fn received(&self) -> Vec<u8> {
        self.received.lock().unwrap().clone()
    }
}

const WRONGPASS: &str = "-WRONGPASS invalid username-password pair or user is disabled.\r\n";

/// `AUTH user password` as the client packs it (RESP), for comparing with what was received.
fn auth(user: &str, password: &[u8]) -> Vec<u8> {
    let mut packed = format!(
        "*3\r\n$4\r\nAUTH\r\n${}\r\n{user}\r\n${}\r\n",
        user.len(),
        password.len()
    )
    .into_bytes();
    packed.extend_from_slice(password);
    packed.extend_from_slice(b"\r\n");
    packed
}

/// `slotgen nodes` against the fake server at `port` as user `app`, its password `secret`
/// from `source`: `file` (`--password-file file`), `stdin` (`--askpass`, the password
/// written to standard input), `environment` (`REDISCLI_AUTH`) or `url` (`:PASSWORD@` in the
/// URL, `secret` as text); with `REDISCLI_AUTH` unset otherwise. Returns the run's output,
/// and the words a refusal uses for where the password came from.
fn nodes_as_app(
    port: u16,
    source: &str,
    file: &str,
    secret: &[u8],
) -> (std::process::Output, &'static str) {
    let url = match source {
        "url" => format!(
            "redis://app:{}@127.0.0.1:{port}",
            std::str::from_utf8(secret).unwrap()
        ),
        _ => format!("redis://127.0.0.1:{port}"),
    };
    let mut args = vec!["nodes", "--redis", &url, "--timeout", "10"];
    if source != "url" {
        args.extend(["--user", "app"]);
    }
    match source {
        "file" => args.extend(["--password-file", file]),
        "stdin" => args.push("--askpass"),
        _ => {}
    }
    let mut command = Command::new(env!("CARGO_BIN_EXE_slotgen"));
    command.args(&args).env_remove("REDISCLI_AUTH");
    if source == "environment" {
        use std::os::unix::ffi::OsStrExt;
        command.env("REDISCLI_AUTH", std::ffi::OsStr::from_bytes(secret));
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = secret.to_vec();
    line.push(b'\n');
    // read by `--askpass` alone: another run may have ended, its input closed, before this
    // write (a broken pipe under a loaded machine's scheduling)
    let written = child.stdin.take().unwrap().write_all(&line);
    if source == "stdin" {
        written.unwrap();
    }
    let from = match source {
        "file" => "--password-file",
        "stdin" => "--askpass",
        "environment" => "REDISCLI_AUTH",
        _ => "the URL (`:PASSWORD@`)",
    };
    (child.wait_with_output().unwrap(), from)
}

#[test]
fn the_password_reaches_auth_from_every_source_and_is_never_printed() {
    let secret = "s3cret-Zq7";
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pw");
    std::fs::write(&file, format!("{secret}\r\nignored second line\n")).unwrap();
    let file = file.to_str().unwrap().to_owned();
    for source in ["file", "stdin", "environment", "url"] {
        let fake = Fake::start(&[WRONGPASS]);
        let (output, from) = nodes_as_app(fake.port, source, &file, secret.as_bytes());
        let run: Run = output.into();
        run.fails_with("refused the password of user `app` (WRONGPASS");
        // the refusal names where the password came from: a forgotten REDISCLI_AUTH
        let said = format!("; the password sent came from {from}");
        assert!(run.stderr.contains(&said), "{source}: {}", run.stderr);
        assert!(!run.stderr.contains(secret), "{source}: {}", run.stderr);
        assert_eq!(fake.received(), auth("app", secret.as_bytes()), "{source}");
    }
}

/// A server that quotes the password it was given in its refusal (a proxy or a fork may;
/// Redis and Valkey do in `AUTH <password> called without any password configured`): the
/// message keeps the reply's code alone and says the rest is left out, from every source
/// (`***` in its place told a password by the words around it: `username-***word`).
#[test]
fn a_password_the_server_echoes_is_not_printed() {
    let secret = "s3cret-Zq7";
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pw");
    std::fs::write(&file, format!("{secret}\n")).unwrap();
    let file = file.to_str().unwrap().to_owned();
    let echo = format!("-WRONGPASS invalid password '{secret}' for user app\r\n");
    for source in ["file", "stdin", "environment", "url"] {
        let fake = Fake::start(&[&echo]);
        let (output, _) = nodes_as_app(fake.port, source, &file, secret.as_bytes());
        let run: Run = output.into();
        run.fails_with("WRONGPASS (the rest of the server's words is left out: it holds the letters of the password sent)");
        assert!(!run.stderr.contains(secret), "{source}: {}", run.stderr);
        assert!(!run.stdout.contains(secret), "{source}: {}", run.stdout);
    }
}

/// `--askpass` from a pipe reads one line: input with no line end in its first 64 KiB (a
/// file of zero bytes piped in by mistake) is refused, not cut into a password.
#[test]
fn askpass_refuses_input_with_no_line_end() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_slotgen"))
        .args(["nodes", "--redis", "redis://127.0.0.1:1", "--askpass"])
        .env_remove("REDISCLI_AUTH")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // the child stops reading at 64 KiB: a refused write is the child's end, not an error
    let _ = stdin.write_all(&vec![0u8; 200_000]);
    drop(stdin);
    let run: Run = child.wait_with_output().unwrap().into();
    run.fails_with(
        "--askpass: standard input holds no line end within its first 65536 bytes: a password is one line",
    );
}

/// A password that is not UTF-8 (with a tab and an escape besides): servers take any bytes
/// (`ACL SETUSER app >...`, redis-cli's REDISCLI_AUTH), so every source that can hold bytes
/// sends them whole to `AUTH`, and none is printed. A URL cannot hold them (the client reads
/// its user info as text): it is refused saying to give the password another way.
#[test]
fn a_password_of_any_bytes_reaches_auth_whole() {
    let secret: &[u8] = b"s3\xffcr\tet\x1b\xfe-Zq7";
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pw");
    let mut in_file = secret.to_vec();
    in_file.extend_from_slice(b"\nignored second line\n");
    std::fs::write(&file, in_file).unwrap();
    let file = file.to_str().unwrap().to_owned();
    for source in ["file", "stdin", "environment"] {
        let fake = Fake::start(&[WRONGPASS]);
        let (output, from) = nodes_as_app(fake.port, source, &file, secret);
        for shown in [&output.stdout, &output.stderr] {
            assert!(
                !shown.windows(secret.len()).any(|w| w == secret),
                "{source}: the password printed"
            );
        }
        let run: Run = output.into();
        // the server's answer decides: here it refuses, naming the source
        run.fails_with("refused the password of user `app` (WRONGPASS");
        assert!(
            run.stderr
                .contains(&format!("; the password sent came from {from}")),
            "{source}: {}",
            run.stderr
        );
        assert_eq!(
            fake.received(),
            auth("app", secret),
            "{source}: AUTH as sent"
        );
    }
    // percent-encoded in a URL, the same bytes cannot reach the client
    run(&["nodes", "--redis", "redis://app:s3%FFcr@127.0.0.1:1"]).fails_with_code(
        2,
        "(the user info is not UTF-8 once percent-decoded, and the client reads a URL's user and password as text: give the password with --password-file, --askpass or REDISCLI_AUTH, which take any bytes)",
    );
}

/// A password holding `#`, `/` or `?` unencoded ends the URL's user info: that rule comes
/// first, before any option that the URL's reading would make right (`--cacert` with a
/// `rediss://` URL is right; the URL is not).
#[test]
fn a_url_cut_by_its_password_is_refused_before_its_options() {
    for url in [
        "rediss://op:ab#cd@127.0.0.1:7501",
        "rediss://op:ab/cd@127.0.0.1:7501",
        "rediss://op:ab?cd@127.0.0.1:7501",
    ] {
        for extra in [&[][..], &["--cacert", "ca.pem"][..], &["--insecure"][..]] {
            let mut args = vec!["nodes", "--redis", url];
            args.extend(extra);
            let run = run(&args);
            run.fails_with_code(
                2,
                "holds `/`, `?` or `#`, which end it: percent-encode them in the password (`%2F`, `%3F`, `%23`",
            );
            assert!(
                !run.stderr.contains("TLS only"),
                "{url} {extra:?}: {}",
                run.stderr
            );
            assert!(
                !run.stderr.contains("cd@"),
                "{url} {extra:?}: {}",
                run.stderr
            );
        }
    }
}

/// `text` as a RESP bulk string.
fn bulk(text: &str) -> String {
    format!("${}\r\n{text}\r\n", text.len())
}

#[test]
fn noperm_names_the_command_and_the_rule_that_grants_it() {
    let info = &bulk("# Cluster\r\ncluster_enabled:1\r\n");
    let cluster_info = &bulk("cluster_state:ok\r\n");
    // CLUSTER SHARDS refused falls back to CLUSTER SLOTS; both refused, both are named
    let fake = Fake::start(&[
        "+OK\r\n",
        info,
        cluster_info,
        "-NOPERM User app has no permissions to run the 'cluster|shards' command\r\n",
        "-NOPERM User app has no permissions to run the 'cluster|slots' command\r\n",
    ]);
    let url = format!("redis://app:pw@127.0.0.1:{}", fake.port);
    run(&["nodes", "--redis", &url])
        .fails_with(
            "user `app` may run neither CLUSTER SHARDS nor CLUSTER SLOTS: grant one with `ACL SETUSER app +cluster|shards` (NOPERM)",
        )
        // every rule the map needs, so that one ACL SETUSER grants them all
        .says("reading a cluster's map needs all of `+info +cluster|info +cluster|shards +cluster|nodes`");
    // verify asks INFO cluster first (Redis 7.0's wording)
    let fake = Fake::start(&[
        "+OK\r\n",
        "-NOPERM this user has no permissions to run the 'info' command\r\n",
    ]);
    let url = format!("redis://app:pw@127.0.0.1:{}", fake.port);
    run(&["verify", "--redis", &url]).fails_with(
        "user `app` may not run INFO cluster: grant it with `ACL SETUSER app +info` (NOPERM)",
    );
    // the default user, no AUTH
    let fake = Fake::start(&[
        info,
        "-NOPERM this user has no permissions to run the 'cluster|info' command\r\n",
    ]);
    let url = format!("redis://127.0.0.1:{}", fake.port);
    let refused = slotgen_with_stdin(&["placement", "--redis", &url], b"k\n");
    Run::from(refused).fails_with(
        "user `default` may not run CLUSTER INFO: grant it with `ACL SETUSER default +cluster|info` (NOPERM)",
    );
}

#[test]
fn a_password_for_a_server_without_one_says_to_drop_it() {
    // Redis 7.0's and Valkey 8.0's answer to AUTH where no password is set
    let no_password = "-ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?\r\n";
    // a password whose letters stand in the server's words (`pass`, `password`) is told
    // the same: the words are read before any hiding of the password
    for (command, secret) in [
        ("nodes", "s3cret"),
        ("verify", "s3cret"),
        ("nodes", "pass"),
        ("nodes", "password"),
    ] {
        let fake = Fake::start(&[no_password]);
        let url = format!("redis://:{secret}@127.0.0.1:{}", fake.port);
        let run = run(&[command, "--redis", &url]);
        run.fails_with(
            "has no password set for user `default`, and refused the one given: connect without a password: remove the password",
        );
        assert!(!run.stderr.contains("s3cret"), "{}", run.stderr);
    }
}

#[test]
fn a_tls_handshake_is_within_the_deadline_and_a_plain_port_is_named() {
    // accepts, then never answers the ClientHello
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("rediss://127.0.0.1:{}", silent.local_addr().unwrap().port());
    let start = std::time::Instant::now();
    run(&["nodes", "--redis", &url, "--timeout", "1", "--insecure"])
        .exits(1, "timed out")
        .says("connecting to rediss://127.0.0.1:")
        .says("over TLS; a plain port stays silent in the TLS handshake: give a `redis://` URL for one");
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    drop(silent);
    // a plain server answers the ClientHello with an error reply, which is no TLS record
    let plain = Fake::start(&["-ERR unknown command\r\n"]);
    let url = format!("rediss://127.0.0.1:{}", plain.port);
    run(&["verify", "--redis", &url, "--insecure"]).exits(
        1,
        "the server does not speak TLS there (its answer is not a TLS record): give a `redis://` URL for a plain port",
    );
}
