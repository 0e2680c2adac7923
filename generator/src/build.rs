//! The build.rs API: derive a table in a build script and write it as a Rust file for
//! `include!`, in the style of `phf_codegen`.
//!
//! The file is the output of the one Rust emitter
//! ([`emit::rust::table_static`]), formatted with
//! prettyplease, so it holds the same `static` as `slot_table!` and `slotgen emit rust`
//! for the same spec.
//!
//! In `build.rs` (with `slotgen` under `[build-dependencies]`):
//!
//! ```no_run
//! use slotgen::{build::Table, Spec};
//!
//! fn main() -> Result<(), slotgen::Error> {
//!     println!("cargo::rerun-if-changed=build.rs");
//!     Table::new("ORDERS")
//!         .spec(Spec::default().with_crc("CRC-16/MODBUS")?)
//!         .doc("Tags for the orders queue.")
//!         .write_to_out_dir("orders.rs")?;
//!     Ok(())
//! }
//! ```
//!
//! In the crate (with `slotgen-tables` under `[dependencies]`):
//!
//! ```ignore
//! include!(concat!(env!("OUT_DIR"), "/orders.rs"));
//!
//! assert_eq!(ORDERS.crc_name(), "CRC-16/MODBUS");
//! ```

use std::path::{Path, PathBuf};

use crate::{derive, emit, Error, Spec};

/// One table to write: a spec, the name of its `static`, its doc comment and visibility.
///
/// # Examples
///
/// ```
/// use slotgen::build::Table;
///
/// let source = Table::new("CLUSTER").render()?; // Redis Cluster by default
/// assert!(source.contains("pub static CLUSTER: ::slotgen_tables::SlotTable<'static, 4>"));
/// assert!(source.contains("&::slotgen_tables::catalog::CRC_16_XMODEM"));
/// # Ok::<(), slotgen::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Table {
    name: String,
    spec: Spec,
    doc: Option<String>,
    visibility: String,
}

impl Table {
    /// A table named `name` (a Rust identifier, such as `ORDERS`) for
    /// [`Spec::default()`] (Redis Cluster), `pub`, with a doc comment describing the spec.
    #[must_use]
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_owned(),
            spec: Spec::default(),
            doc: None,
            visibility: "pub".to_owned(),
        }
    }

    /// Sets the spec to derive the table for.
    pub fn spec(&mut self, spec: Spec) -> &mut Self {
        self.spec = spec;
        self
    }

    /// Sets the doc comment of the `static`, in place of the generated description of the
    /// spec. Each line becomes one `///` line.
    pub fn doc(&mut self, text: &str) -> &mut Self {
        self.doc = Some(text.to_owned());
        self
    }

    /// Sets the visibility of the `static`, as written in Rust: `pub`, `pub(crate)`, or `""`
    /// for private. The default is `pub`.
    pub fn visibility(&mut self, visibility: &str) -> &mut Self {
        visibility.clone_into(&mut self.visibility);
        self
    }

    /// Derives the table and returns the file's source: an `@generated` header, then the
    /// `static`.
    ///
    /// # Errors
    ///
    /// - [`Error::InvalidName`]: the name is not a Rust identifier, or the visibility is not
    ///   a Rust visibility.
    /// - every error of [`derive()`], for a bad spec.
    pub fn render(&self) -> Result<String, Error> {
        let derivation = derive(&self.spec)?;
        let name: syn::Ident = syn::parse_str(&self.name).map_err(|_| Error::InvalidName {
            name: self.name.clone(),
            what: "name",
        })?;
        let vis: syn::Visibility =
            syn::parse_str(&self.visibility).map_err(|_| Error::InvalidName {
                name: self.visibility.clone(),
                what: "visibility",
            })?;
        let attrs: Vec<syn::Attribute> = self
            .doc
            .iter()
            .flat_map(|doc| doc.lines())
            .map(|line| {
                let line = format!(" {line}");
                syn::parse_quote!(#[doc = #line])
            })
            .collect();
        Ok(emit::rust::file_with(&derivation, &attrs, &vis, &name)
            .expect("the emitter's tokens with doc attributes are an item"))
    }

    /// Writes the file to `path`, replacing it, unless it already holds exactly this
    /// source (so its timestamp only moves when the table changes).
    ///
    /// # Errors
    ///
    /// As [`render`](Self::render), and [`Error::Write`] when the file cannot be written.
    pub fn write(&self, path: impl AsRef<Path>) -> Result<(), Error> {
        let path = path.as_ref();
        let source = self.render()?;
        if std::fs::read_to_string(path).is_ok_and(|old| old == source) {
            return Ok(());
        }
        std::fs::write(path, source).map_err(|e| Error::Write {
            path: path.to_owned(),
            reason: crate::text::os_reason(&e),
        })
    }

    /// Writes the file as `file_name` in the build script's `OUT_DIR` and returns its path,
    /// for `include!(concat!(env!("OUT_DIR"), "/file_name"))`.
    ///
    /// # Errors
    ///
    /// As [`write`](Self::write); [`Error::OutDirPath`] when `file_name` would leave
    /// `OUT_DIR` (it is empty, absolute, or has a component that is not a plain name: `..`,
    /// `.`, a root or a prefix), checked before anything is written; and
    /// [`Error::NoOutDir`] when `OUT_DIR` is not set (cargo sets it only for build scripts).
    pub fn write_to_out_dir(&self, file_name: &str) -> Result<PathBuf, Error> {
        let refuse = |reason| Error::OutDirPath {
            file_name: file_name.to_owned(),
            reason,
        };
        let relative = Path::new(file_name);
        if file_name.is_empty() || relative.components().next().is_none() {
            return Err(refuse("it is empty"));
        }
        if relative.is_absolute() || relative.has_root() {
            return Err(refuse("it is absolute"));
        }
        if !relative
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
            || file_name.ends_with('/')
        {
            return Err(refuse(
                "a component is `..`, `.` or not a plain name, so the path could leave the directory",
            ));
        }
        let dir = std::env::var_os("OUT_DIR").ok_or(Error::NoOutDir)?;
        let path = Path::new(&dir).join(file_name);
        self.write(&path)?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_spec_is_a_typed_error() {
        let spec = Spec {
            alphabet: b"@ABC{".to_vec(),
            ..Spec::default()
        };
        let error = Table::new("T").spec(spec).render().unwrap_err();
        assert_eq!(error, Error::BraceInAlphabet { symbol: b'{' });
    }

    #[test]
    fn bad_name_and_visibility_are_typed_errors() {
        let error = Table::new("not an ident").render().unwrap_err();
        assert!(matches!(error, Error::InvalidName { what: "name", .. }));
        let error = Table::new("T").visibility("public").render().unwrap_err();
        assert!(matches!(
            error,
            Error::InvalidName {
                what: "visibility",
                ..
            }
        ));
    }

    #[test]
    fn unwritable_path_is_a_typed_error() {
        let error = Table::new("T")
            .write("/nonexistent-slotgen-dir/t.rs")
            .unwrap_err();
        assert!(matches!(error, Error::Write { .. }), "{error}");
    }

    #[test]
    fn doc_and_visibility_reach_the_static() {
        let source = Table::new("ORDERS")
            .doc("First line.\nSecond line.")
            .visibility("pub(crate)")
            .render()
            .unwrap();
        assert!(source.starts_with("// @generated by slotgen emit rust"));
        assert!(source.contains(
            "/// First line.\n/// Second line.\npub(crate) static ORDERS: ::slotgen_tables::SlotTable<'static, 4>"
        ));
        assert!(!source.contains("/// Slot table:"));
    }
}
