//! The one template engine of the emitters: [minijinja], configured once.
//!
//! - **Delimiters**: `{{ value }}` as usual, but statements are `<% ... %>` and comments
//!   `<# ... #>`, not Jinja's `{% %}` and `{# #}`: Elixir writes `{%{a: 1}, b}` and Lua
//!   `{#list}`, which Jinja's would read as a statement or a comment. No template file holds
//!   `<%`, `%>`, `<#` or `#>` as code of its language (a test checks it), and every emitted
//!   module is byte-identical to what it was before the switch (the snapshot tests).
//! - **Whitespace**: a line that holds only a statement leaves nothing (`trim_blocks`,
//!   `lstrip_blocks`); a template's final newline is kept.
//! - **Strict undefined**: a name no value has is an error, which [`render_source`] turns
//!   into a panic: it is a mistake in an emitter, which its tests exercise.
//! - **Templates by path**: `c/slotgen.h` is `emit/template/c/slotgen.h`, which a template
//!   reaches by `<% include %>` or `<% import %>`; [`FILES`] lists them. `reduction.jinja`,
//!   the one shared by every language, spells the slot (`infix`) in operators each
//!   language's template passes.
//! - **Filters**: what every language spells alike (`hex`), in [`environment`]; a
//!   language's own spellings are filters named after it, which its emitter adds to an
//!   environment of its own ([`with_filters`]), so that the engine imports no emitter.

use std::sync::LazyLock;

use minijinja::syntax::SyntaxConfig;
use minijinja::{Environment, UndefinedBehavior, Value};

/// The template files a template may include or import, by their path under
/// `emit/template/`.
macro_rules! files {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_str!(concat!("template/", $path)))),*]
    };
}

/// Every named template, by its path under `emit/template/`.
pub(crate) static FILES: &[(&str, &str)] = files![
    "c/shortest.h",
    "c/slotgen.h",
    "csharp/module.cs",
    "elixir/module.ex",
    "erlang/module.erl",
    "go/package.go",
    "java/Slotgen.java",
    "js/module.d.mts",
    "js/module.mjs",
    "lua/module.lua",
    "lua/parts.lua",
    "lua/server.lua",
    "lua/shortest.lua",
    "php/module.php",
    "python/module.py",
    "reduction.jinja",
    "ruby/module.rb",
];

/// The environment every render starts from: see the module's docs.
pub(crate) fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_syntax(
        SyntaxConfig::builder()
            .block_delimiters("<%", "%>")
            .comment_delimiters("<#", "#>")
            .trim_blocks(true)
            .lstrip_blocks(true)
            .keep_trailing_newline(true)
            .build()
            .expect("the delimiters are distinct"),
    );
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_loader(|name| {
        Ok(FILES
            .iter()
            .find(|(path, _)| *path == name)
            .map(|(_, text)| (*text).to_owned()))
    });
    env.add_filter("hex", hex);
    env.add_filter("hex_rows", hex_rows);
    env.add_filter("byte_rows", |rows: Vec<Vec<u8>>, indent: &str| {
        byte_rows(&rows, indent)
    });
    env.add_filter("chomp", chomp);
    env.add_filter(
        "quoted",
        |bytes: Option<Vec<u8>>, escapes: &str, none: Option<&str>| match bytes {
            Some(bytes) => quoted(&bytes, escapes),
            None => none.unwrap_or_default().to_owned(),
        },
    );
    env.add_filter("indent_lines", indent_lines);
    env.add_filter("le_int", |row: Vec<u8>| little_endian_hex(&row));
    env.add_filter("le_int_rows", |rows: Vec<Vec<u8>>, indent: &str| {
        int_rows(&rows, indent)
    });
    env
}

/// [`environment`] with a language's own filters added by `add`: an emitter's
/// environment, made once (`LazyLock::new(|| with_filters(add_filters))`).
pub(crate) fn with_filters(add: fn(&mut Environment<'static>)) -> Environment<'static> {
    let mut env = environment();
    add(&mut env);
    env
}

static ENV: LazyLock<Environment<'static>> = LazyLock::new(environment);

/// `value` as a hex literal of `digits` digits after `0x` (at least, as Rust's `{:#0x}`):
/// `{{ 4129 | hex(4) }}` is `0x1021`.
fn hex(value: u64, digits: Option<usize>) -> String {
    format!("{value:#0w$x}", w = digits.unwrap_or(0) + 2)
}

/// Numbers as hex literals of `digits` digits and `suffix` (`u` in C), `per_line` to a
/// line behind `indent`, each followed by `,`: `{{ crc.table | hex_rows(4, 8, "    ", "u") }}`.
fn hex_rows(
    values: Vec<u64>,
    digits: usize,
    per_line: usize,
    indent: &str,
    suffix: Option<&str>,
) -> String {
    let literals: Vec<String> = values
        .into_iter()
        .map(|v| hex(v, Some(digits)) + suffix.unwrap_or(""))
        .collect();
    super::common::rows(&literals, per_line, indent)
}

/// Byte rows as hex literals (`0x4c`), one row to a line behind `indent`, each byte
/// followed by `,`: `{{ tags.columns | byte_rows("    ") }}`. No final newline; empty for
/// no rows.
pub(crate) fn byte_rows(rows_of: &[Vec<u8>], indent: &str) -> String {
    rows_of
        .iter()
        .map(|row| {
            super::common::rows(
                &super::common::hex(row.iter().map(|&b| u64::from(b)), 2),
                row.len(),
                indent,
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A row of bytes as one little-endian integer in hex (`0x` and two digits a byte, the last
/// byte first), for the languages whose integers have no bound.
pub(crate) fn little_endian_hex(row: &[u8]) -> String {
    let digits: String = row.iter().rev().map(|b| format!("{b:02x}")).collect();
    format!("0x{digits}")
}

/// Rows as little-endian integers ([`little_endian_hex`]), one a line behind `indent`.
pub(crate) fn int_rows(rows_of: &[Vec<u8>], indent: &str) -> String {
    let ints: Vec<String> = rows_of.iter().map(|r| little_endian_hex(r)).collect();
    super::common::rows(&ints, 1, indent)
}

/// Bytes (printable ASCII) as a double-quoted string literal, a backslash before each byte
/// of `escapes`: `{{ tag | quoted("\"\\?") }}` in C, against trigraphs too. As a filter
/// it takes a third argument, the text for none (a gap of a shortest-tag table: `""` in
/// C, `false` in Lua).
fn quoted(bytes: &[u8], escapes: &str) -> String {
    let mut out = String::from("\"");
    for &b in bytes {
        if escapes.as_bytes().contains(&b) {
            out.push('\\');
        }
        out.push(char::from(b));
    }
    out.push('"');
    out
}

/// Text without its one final newline, for a macro's lines placed on a line of their own.
fn chomp(text: String) -> String {
    text.strip_suffix('\n')
        .map_or_else(|| text.clone(), str::to_owned)
}

/// Every line of `text` behind `indent`, but an empty line, which stays empty; every line
/// ends in a newline: a C# class inside its namespace.
fn indent_lines(text: &str, indent: &str) -> String {
    text.lines()
        .map(|line| match line {
            "" => "\n".to_owned(),
            _ => format!("{indent}{line}\n"),
        })
        .collect()
}

/// `source`, a template file's text as an emitter changed it (C's renamed prefix), under
/// the file's `name`, over `context`.
///
/// # Panics
///
/// When the template does not parse or names a value `context` lacks: a mistake in an
/// emitter, which its tests exercise.
pub(crate) fn render_source(name: &str, source: &str, context: &Value) -> String {
    render_source_in(&ENV, name, source, context)
}

/// As [`render_source`], in `env` (an emitter's own, [`with_filters`]).
///
/// # Panics
///
/// As [`render_source`].
pub(crate) fn render_source_in(
    env: &Environment<'static>,
    name: &str,
    source: &str,
    context: &Value,
) -> String {
    env.template_from_named_str(name, source)
        .and_then(|template| template.render(context))
        .unwrap_or_else(|e| panic!("template `{name}` does not render: {e:#}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(source: &str, context: &Value) -> String {
        render_source("test", source, context)
    }

    #[test]
    fn statements_leave_no_line_and_values_are_not_escaped() {
        let context = minijinja::context! { x => "<&\"{{y}}\">", on => true };
        let text = render("a\n  <% if on %>\n{{x}}\n  <% endif %>\nb\n", &context);
        assert_eq!(text, "a\n<&\"{{y}}\">\nb\n");
        // `+%>` keeps the newline after a statement at the end of a line
        let text = render("a<% if on %>!<% endif +%>\nb\n", &context);
        assert_eq!(text, "a!\nb\n");
    }

    #[test]
    fn jinja_delimiters_are_code() {
        let text = render("{%{a: 1}, {#t}} {# c #}\n", &Value::UNDEFINED);
        assert_eq!(text, "{%{a: 1}, {#t}} {# c #}\n");
    }

    #[test]
    #[should_panic(expected = "does not render")]
    fn undefined_values_are_refused() {
        render("{{z}}", &minijinja::context! {});
    }

    #[test]
    fn indent_lines_leaves_empty_lines_empty() {
        assert_eq!(indent_lines("a\n\n  b\n", "    "), "    a\n\n      b\n");
        assert_eq!(chomp("x\n".to_owned()), "x");
    }

    #[test]
    fn hex_pads() {
        assert_eq!(hex(0x1021, Some(4)), "0x1021");
        assert_eq!(hex(0x21, Some(4)), "0x0021");
        assert_eq!(hex(5, None), "0x5");
    }

    /// No template holds the engine's delimiters as code of its language: with every
    /// statement and comment taken out, none is left.
    #[test]
    fn templates_hold_no_stray_delimiters() {
        for (path, text) in FILES {
            let mut code = (*text).to_owned();
            for (open, close) in [("<%", "%>"), ("<#", "#>")] {
                while let Some(start) = code.find(open) {
                    let end = code[start..].find(close).map(|e| start + e + 2);
                    let end = end.unwrap_or_else(|| panic!("{path}: `{open}` unclosed"));
                    code.replace_range(start..end, "");
                }
            }
            for delimiter in ["<%", "%>", "<#", "#>"] {
                assert!(!code.contains(delimiter), "{path}: a stray `{delimiter}`");
            }
        }
    }
}
