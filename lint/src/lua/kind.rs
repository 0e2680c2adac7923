//! What a script is: an EVAL body, with a shebang or not, or a Functions library and its
//! functions.

use crate::Position;

/// What kind of script a file is, which decides the cross-slot rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScriptKind {
    /// An EVAL body without a shebang: Redis and Valkey run it in compatibility mode, where
    /// it may touch several slots of one node.
    Eval,
    /// An EVAL body with a `#!lua` shebang (its `flags=`).
    Shebang {
        /// The flags, as written.
        flags: Vec<String>,
    },
    /// A Functions library (`#!lua name=...`).
    Library {
        /// The library's name.
        name: String,
        /// Its functions, in the order registered.
        functions: Vec<Function>,
    },
}

/// A function of a Functions library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// Its name (empty when [`Function::name_unread`] is).
    pub name: String,
    /// The name as written when it is no string literal (`register_function(name, f)`,
    /// `function_name = prefix .. 'get'`): the function may have any name.
    pub name_unread: Option<String>,
    /// Its flags (`flags={...}` of `register_function{...}`, or `flags = name` of a local
    /// declared with such a table and not touched after).
    pub flags: Vec<String>,
    /// The flags as written when the lint cannot read them (`flags = t` of a table filled
    /// in later, a call): the function may have any flag.
    pub flags_unread: Option<String>,
    /// The fields of `register_function{...}`'s table that FUNCTION LOAD does not take (it
    /// takes `function_name`, `callback`, `flags` and `description`), as written.
    pub unknown_fields: Vec<String>,
    /// Why FUNCTION LOAD refuses the call that registers it, whatever the values: the
    /// servers' words (Redis 7.0's; Valkey names `server.register_function`) and the fix.
    /// A wrong count of arguments, a callback or flags that are literals of another type, a
    /// table without a callback or name, or with an entry that is no `name = value`.
    pub refused: Vec<(String, &'static str)>,
    /// Where it is registered.
    pub at: Position,
    /// The byte range of its body in the file, to place calls in it.
    pub(super) body: (usize, usize),
}

impl Function {
    /// Its name where the lint reads it: `None` where the name is no string literal
    /// ([`Function::name_unread`]), and the function may have any name.
    #[must_use]
    pub fn known_name(&self) -> Option<&str> {
        self.name_unread.is_none().then_some(self.name.as_str())
    }

    /// Whether `FCALL name` (and `--function name`) calls it: its name is read and is
    /// `name` in any case, as the servers find a function (`FCALL SETPAIR` runs `setpair`;
    /// their function dictionary ignores case). The one place that matching is decided.
    #[must_use]
    pub fn is_called(&self, name: &str) -> bool {
        self.known_name()
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
    }

    /// How a finding names it: ``function `get` ``, or, when the name is not read, ``function
    /// named by `name` `` (the expression that gives it), escaped.
    #[must_use]
    pub fn shown(&self) -> String {
        match &self.name_unread {
            None => format!("function `{}`", slotgen::text::escape(self.name.as_bytes())),
            Some(written) => format!(
                "function named by `{}`",
                slotgen::text::escape(written.as_bytes())
            ),
        }
    }
}
