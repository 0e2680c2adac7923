//! A picture of where the load lands: [`SlotMap`] draws the 16384 hash slots as a grid of
//! 128 x 128 cells (slot `s` at row `s / 128`, column `s % 128`), one colour per primary,
//! each cell shaded by its slot's value, with a legend (node, address, share, its load over
//! its fair share, the skew) and the hot slots circled. Pure: it returns SVG text.
//!
//! The geometry is fixed, in SVG user units (one pixel when rendered at 100%): a cell is
//! [`CELL`] wide and high, the grid's top left corner is at ([`GRID_X`], [`GRID_Y`]), the
//! legend's swatch of primary `i` is a [`SWATCH`]-wide square whose top left corner is at
//! ([`LEGEND_X`], [`legend_y`]`(i)`).
//!
//! Shading: a cell of value `v` in a map whose largest value is `max` is the primary's
//! colour mixed with white, the colour's part being `0.12 + 0.88 * ln(1 + v) / ln(1 + max)`:
//! the largest slot in the primary's full colour ([`color`]), an empty slot a pale tint. The
//! logarithm keeps slots of a few keys visible beside a slot of millions. A slot that no
//! primary owns is [`UNOWNED`].

use std::fmt::Write;

use crate::text::{xml, xml_text};

/// The side of a slot's cell.
pub const CELL: u32 = 4;
/// The left edge of the grid.
pub const GRID_X: u32 = 16;
/// The top edge of the grid (below the title).
pub const GRID_Y: u32 = 48;
/// Cells per row and rows.
pub const SIDE: u32 = 128;
/// The left edge of the legend.
pub const LEGEND_X: u32 = GRID_X + SIDE * CELL + 24;
/// The side of a legend swatch.
pub const SWATCH: u32 = 14;
/// The colour of a slot that no primary owns.
pub const UNOWNED: [u8; 3] = [0xd9, 0xd9, 0xd9];
/// The colours of the first primaries, in order (Tableau 10, without its grey); later ones
/// by [`color`].
pub const PALETTE: [[u8; 3]; 10] = [
    [0x4e, 0x79, 0xa7],
    [0xf2, 0x8e, 0x2b],
    [0xe1, 0x57, 0x59],
    [0x76, 0xb7, 0xb2],
    [0x59, 0xa1, 0x4f],
    [0xed, 0xc9, 0x48],
    [0xb0, 0x7a, 0xa1],
    [0xff, 0x9d, 0xa7],
    [0x9c, 0x75, 0x5f],
    [0x17, 0xbe, 0xcf],
];

/// The top edge of the legend swatch of primary `i`.
#[must_use]
pub fn legend_y(i: usize) -> u32 {
    GRID_Y + 40 + 22 * u32::try_from(i).unwrap_or(u32::MAX / 64).min(u32::MAX / 64)
}

/// The colour of primary `i`: [`PALETTE`]'s, then hues 137.5° apart at 65% saturation and
/// 50% lightness.
#[must_use]
pub fn color(i: usize) -> [u8; 3] {
    if let Some(c) = PALETTE.get(i) {
        return *c;
    }
    let hue = (i as f64 * 137.508) % 360.0;
    hsl(hue, 0.65, 0.5)
}

fn hsl(h: f64, s: f64, l: f64) -> [u8; 3] {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let x = c * (1.0 - ((h / 60.0) % 2.0 - 1.0).abs());
    let m = l - c / 2.0;
    let (r, g, b) = match h as u32 / 60 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    [r, g, b].map(|v| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8)
}

/// One primary in the legend.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendEntry {
    /// Its node id, as the server gives it (escaped when drawn).
    pub node: String,
    /// Its address, as the server gives it (escaped when drawn).
    pub addr: String,
    /// Its part of the total, 0 to 1.
    pub share: f64,
    /// Its load over its fair share (1.0: exactly its share); `None` when the total is 0.
    pub ratio: Option<f64>,
}

/// What to draw.
#[derive(Clone, Debug)]
pub struct SlotMap<'a> {
    /// The title, slotgen's own text such as `cpu (µs) per slot, from CLUSTER SLOT-STATS`
    /// (drawn with XML entities, [`xml_text`], its characters kept).
    pub title: &'a str,
    /// 16384 values, indexed by slot.
    pub values: &'a [u64],
    /// 16384 owners, indexed by slot: an index into `primaries`, or `None`.
    pub owners: &'a [Option<usize>],
    /// The primaries, in the order of their colours.
    pub primaries: &'a [LegendEntry],
    /// The skew: the largest ratio of a primary's load to its fair share; `None` when not
    /// measured (drawn as `-`).
    pub skew: Option<f64>,
    /// The hot slots, circled; the first 20 also listed in the legend.
    pub hot: &'a [u16],
}

/// Hot slots listed by number in the legend (all are circled).
const HOT_LISTED: usize = 20;

impl SlotMap<'_> {
    /// The SVG document. Every text from outside (node ids, addresses) is escaped for XML
    /// ([`xml`]), the title takes XML entities only ([`xml_text`]); a slot beyond `values` or `owners` counts as 0 and
    /// unowned.
    #[must_use]
    pub fn render(&self) -> String {
        let slots = (SIDE * SIDE) as usize;
        let max = self.values.iter().take(slots).copied().max().unwrap_or(0);
        let legend_bottom = legend_y(self.primaries.len()) + 40;
        let width = LEGEND_X + 640;
        let height = (GRID_Y + SIDE * CELL + 24).max(legend_bottom);
        let mut svg = String::with_capacity(512 * 1024);
        let _ = writeln!(
            svg,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="12">"##
        );
        let _ = writeln!(
            svg,
            r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##
        );
        let _ = writeln!(
            svg,
            r##"<text x="{GRID_X}" y="22" font-size="15">{}</text>"##,
            xml_text(self.title)
        );
        let shade = if max == 0 {
            "every slot is 0: the map is empty".to_owned()
        } else {
            format!("ln(1+value)/ln(1+{max})")
        };
        let _ = writeln!(
            svg,
            r##"<text x="{GRID_X}" y="40">16384 slots: slot s at row s/128, column s%128; shade: {shade}</text>"##
        );
        let _ = writeln!(svg, r#"<g shape-rendering="crispEdges">"#);
        for row in 0..SIDE {
            // runs of one colour in a row, one rectangle each
            let mut run: Option<(u32, [u8; 3])> = None;
            for col in 0..=SIDE {
                let fill = (col < SIDE).then(|| self.fill((row * SIDE + col) as usize, max));
                match (run, fill) {
                    (Some((_, c)), Some(f)) if c == f => {}
                    _ => {
                        if let Some((start, c)) = run {
                            let _ = writeln!(
                                svg,
                                r##"<rect x="{}" y="{}" width="{}" height="{CELL}" fill="{}"/>"##,
                                GRID_X + start * CELL,
                                GRID_Y + row * CELL,
                                (col - start) * CELL,
                                hex(c)
                            );
                        }
                        run = fill.map(|f| (col, f));
                    }
                }
            }
        }
        let _ = writeln!(svg, "</g>");
        for &slot in self.hot {
            let s = u32::from(slot);
            if s >= SIDE * SIDE {
                continue;
            }
            let (cx, cy) = (
                GRID_X + (s % SIDE) * CELL + CELL / 2,
                GRID_Y + (s / SIDE) * CELL + CELL / 2,
            );
            let _ = writeln!(
                svg,
                r##"<circle cx="{cx}" cy="{cy}" r="7" fill="none" stroke="#000000" stroke-width="1.5"><title>hot slot {slot}</title></circle>"##
            );
        }
        let skew = self
            .skew
            .map_or_else(|| "-".to_owned(), |s| format!("{s:.2}"));
        let _ = writeln!(
            svg,
            r##"<text x="{LEGEND_X}" y="{}">skew (max load / fair share): {skew}</text>"##,
            GRID_Y + 12
        );
        let _ = writeln!(
            svg,
            r##"<text x="{LEGEND_X}" y="{}">node  address  share  load/fair</text>"##,
            GRID_Y + 30
        );
        for (i, p) in self.primaries.iter().enumerate() {
            let y = legend_y(i);
            let ratio = p
                .ratio
                .map_or_else(|| "-".to_owned(), |r| format!("{r:.2}"));
            let _ = writeln!(
                svg,
                r##"<rect x="{LEGEND_X}" y="{y}" width="{SWATCH}" height="{SWATCH}" fill="{}"/><text x="{}" y="{}">{}  {}  {:.1}%  {ratio}</text>"##,
                hex(color(i)),
                LEGEND_X + SWATCH + 6,
                y + SWATCH - 2,
                xml(p.node.as_bytes()),
                xml(p.addr.as_bytes()),
                100.0 * p.share
            );
        }
        let listed: Vec<String> = self
            .hot
            .iter()
            .take(HOT_LISTED)
            .map(u16::to_string)
            .collect();
        let more = self.hot.len().saturating_sub(HOT_LISTED);
        let hot = match (listed.is_empty(), more) {
            (true, _) => "none".to_owned(),
            (false, 0) => listed.join(", "),
            (false, more) => format!("{} and {more} more", listed.join(", ")),
        };
        let _ = writeln!(
            svg,
            r##"<text x="{LEGEND_X}" y="{}">hot slots (circled; each alone above a fair share): {hot}</text>"##,
            legend_y(self.primaries.len()) + 16
        );
        svg.push_str("</svg>\n");
        svg
    }

    fn fill(&self, slot: usize, max: u64) -> [u8; 3] {
        let Some(owner) = self.owners.get(slot).copied().flatten() else {
            return UNOWNED;
        };
        let v = self.values.get(slot).copied().unwrap_or(0);
        let t = if max == 0 {
            0.0
        } else {
            (v as f64).ln_1p() / (max as f64).ln_1p()
        };
        let a = 0.12 + 0.88 * t;
        color(owner).map(|c| (255.0 - a * (255.0 - f64::from(c))).round() as u8)
    }
}

fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_runs_and_escaping() {
        let mut values = vec![0u64; 16384];
        values[5] = 100;
        let owners: Vec<Option<usize>> = (0..16384).map(|s| (s < 8192).then_some(0)).collect();
        let primaries = [LegendEntry {
            node: "<id>&\"".to_owned(),
            addr: "a\x1bb".to_owned(),
            share: 1.0,
            ratio: Some(1.0),
        }];
        let svg = SlotMap {
            title: "t",
            values: &values,
            owners: &owners,
            primaries: &primaries,
            skew: None,
            hot: &[5],
        }
        .render();
        // slot 5 in the full colour, alone in its run
        assert!(svg.contains(r##"<rect x="36" y="48" width="4" height="4" fill="#4e79a7"/>"##));
        // row 64 on is unowned: one run a row
        assert!(svg.contains(r##"<rect x="16" y="304" width="512" height="4" fill="#d9d9d9"/>"##));
        assert!(svg.contains("&lt;id&gt;&amp;\\&quot;"));
        assert!(svg.contains(r"a\x1bb"));
        assert!(!svg.contains('\x1b'));
        assert!(svg.contains("hot slots (circled; each alone above a fair share): 5<"));
        assert!(svg.contains("ln(1+value)/ln(1+100)"));
    }

    #[test]
    fn the_title_keeps_its_characters_and_an_empty_map_says_so() {
        let values = vec![0u64; 16384];
        let owners = vec![None; 16384];
        let svg = SlotMap {
            title: "cpu (µs) per slot <&>",
            values: &values,
            owners: &owners,
            primaries: &[],
            skew: None,
            hot: &[],
        }
        .render();
        assert!(
            svg.contains(">cpu (µs) per slot &lt;&amp;&gt;</text>"),
            "{svg}"
        );
        assert!(!svg.contains("ln(1+0)"));
        assert!(svg.contains("shade: every slot is 0: the map is empty</text>"));
    }

    #[test]
    fn colours_beyond_the_palette_differ() {
        let colours: std::collections::BTreeSet<[u8; 3]> = (0..40).map(color).collect();
        assert_eq!(colours.len(), 40);
        assert_eq!(hsl(0.0, 1.0, 0.5), [255, 0, 0]);
        assert_eq!(hsl(120.0, 1.0, 0.5), [0, 255, 0]);
    }
}
