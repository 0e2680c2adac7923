//! A picture of where the load lands, in the order an operator reads it ([`SlotMap`]):
//! first each primary's share against its fair share (one bar per primary, its length its
//! load over its fair share, with the fair share and the target skew as lines), then the
//! 16384 hash slots as a grid of 128 x 128 cells (slot `s` at row `s / 128`, column
//! `s % 128`), one colour per primary, each cell shaded by its slot's value against the mean
//! load per slot, and every hot slot marked and labelled by number, share and (when known)
//! its top hashtag (and so is any other slot of [`HEAVY_SHARE`] of the total or more). [`side_by_side`] puts two maps next to each other (a rebalance's before
//! and predicted after). Pure: it returns SVG text.
//!
//! The geometry is fixed, in SVG user units (one pixel when rendered at 100%): a map is a
//! panel [`PANEL_W`] wide; the bar of primary `i` is [`BAR_H`] high with its top at
//! [`bar_y`]`(i)` and starts at [`BAR_X`], [`BAR_W`] standing for the largest of the
//! ratios, the target and 1 (times 1.05); a cell is [`CELL`] wide and high, the grid's top
//! left corner at [`grid_origin`]`(primaries)`; hot slot labels stand right of the grid, from
//! [`LABEL_X`]. Hot and heavy slots whose marks would touch are one mark around their cells,
//! labelled once by their runs of slots (`slots 0-7, 128-129: ...`) and their owner (`8 slots
//! on ADDRESS`, or `on N primaries`). Under the grid, one line a hot slot says what to do
//! about it ([`SlotMap::remedies`]: the split of its hashtag and the skew it gives), the
//! whole remedy with its commands in the line's tooltip.
//!
//! Every text is cut to the room it has, by [`CHAR_W`], a bound of a character's advance,
//! with [`ELLIPSIS`] where it is cut and the whole text in a `<title>` (a tooltip): a long
//! hashtag in its label is cut in its middle, keeping its start and its end (what tells
//! `tenant:acme:eu-west` from `tenant:acme:us-east`), and its `: N% of it`. The target's and the floor's labels share the
//! bars' header row, pushed apart and kept off the columns' header. A skew and a floor are
//! printed by [`crate::skew_text`], as the notes on standard error print them.
//!
//! Shading ([`shade`]): a cell of value `v`, where the mean over the 16384 slots is `m`, is
//! its primary's colour mixed with white, the colour's part being `0.5 + log2(v / m) / 6`
//! within 0.14 to 1 (0.06 for an empty slot): a slot at the mean is half-tone, one at 8x the
//! mean or more in the full colour, one at 1/8 of it or less a pale tint. A primary that
//! carries 1.7x its share over evenly loaded slots looks darker than one at 0.65x. A slot that
//! no primary owns is [`UNOWNED`].

use std::fmt::Write;

use std::collections::HashMap;

use crate::skew_text::{floor_text, skew_text};
use crate::slot_range::ranges_of;
use crate::text::{field_cut, xml, xml_text};

/// The side of a slot's cell.
pub const CELL: u32 = 4;
/// Cells per row and rows.
pub const SIDE: u32 = 128;
/// The margin around a panel's content.
pub const MARGIN: u32 = 16;
/// The top of the bars' header line.
const BARS_Y: u32 = 56;
/// The height of one primary's row of the bars.
const ROW: u32 = 22;
/// The height of a bar (and a legend swatch).
pub const BAR_H: u32 = 14;
/// The left edge of the bars (the addresses stand left of it).
pub const BAR_X: u32 = MARGIN + 168;
/// The length of a bar at the bars' scale.
pub const BAR_W: u32 = 340;
/// The left edge of the hot slots' labels, right of the grid.
pub const LABEL_X: u32 = MARGIN + SIDE * CELL + 28;
/// The height of one hot slot's label.
const LABEL_H: u32 = 34;
/// A panel's width: the grid, its labels, the margins.
pub const PANEL_W: u32 = LABEL_X + 330;
/// The colour of a slot that no primary owns.
pub const UNOWNED: [u8; 3] = [0xd9, 0xd9, 0xd9];
/// The part of the total from which a slot that is not hot is marked and labelled too, as
/// heavy: 5%.
pub const HEAVY_SHARE: f64 = 0.05;
/// The side of the square that marks a hot slot, centred on its cell.
pub const MARK: u32 = 12;
/// The font size of every text but the title, in SVG user units.
pub const FONT: u32 = 12;
/// The title's font size.
pub const TITLE_FONT: u32 = 15;
/// The advance of one character of the pictures' monospace font at [`FONT`], at most:
/// DejaVu Sans Mono (what `monospace` is on most systems) advances 0.602 em, Liberation Mono
/// and Courier 0.6 em; 0.625 em bounds them with room. Each text is cut to the room it has by
/// this width ([`text_width`]).
pub const CHAR_W: f64 = 7.5;
/// The mark of a text cut to its room, the whole text then in a `<title>`.
pub const ELLIPSIS: char = '\u{2026}';
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

/// The top edge of the bar (and swatch) of primary `i`.
#[must_use]
pub fn bar_y(i: usize) -> u32 {
    BARS_Y + 24 + ROW * rows(i)
}

/// `n` as a count of rows, bounded so that the geometry cannot overflow.
fn rows(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX).min(1 << 16)
}

/// The top left corner of the grid of slots under the bars of `primaries` primaries.
#[must_use]
pub fn grid_origin(primaries: usize) -> (u32, u32) {
    (MARGIN, bar_y(primaries) + 40)
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

/// The part of a primary's colour (the rest white) in the cell of a slot of `value` when the
/// mean over the slots is `mean`: `0.5 + log2(value / mean) / 6`, within 0.14 to 1; 0.06
/// for an empty slot (or a mean of 0).
///
/// # Examples
///
/// ```
/// use slotgen_cluster::slot_map::shade;
///
/// assert_eq!(shade(10, 10.0), 0.5);
/// assert_eq!(shade(80, 10.0), 1.0);
/// assert!(shade(17, 10.0) > shade(6, 10.0));
/// ```
#[must_use]
pub fn shade(value: u64, mean: f64) -> f64 {
    if value == 0 || mean <= 0.0 {
        return 0.06;
    }
    (0.5 + (value as f64 / mean).log2() / 6.0).clamp(0.14, 1.0)
}

/// `c` mixed with white, `part` of it `c`.
fn tint(c: [u8; 3], part: f64) -> [u8; 3] {
    c.map(|c| (255.0 - part * (255.0 - f64::from(c))).round() as u8)
}

/// One primary in the bars.
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

/// A hot slot, as its label tells it.
#[derive(Clone, Debug, PartialEq)]
pub struct HotLabel {
    /// The slot, in 0..16384.
    pub slot: u16,
    /// Its part of the total, 0 to 1.
    pub share: f64,
    /// The hashtag that carries most of it, as the keys hold it (the bytes between `{` and
    /// `}`, escaped once when drawn, as [`xml`] escapes), with its part of the slot's load, 0
    /// to 1; `None` when not known.
    pub hashtag: Option<(Vec<u8>, f64)>,
}

/// What to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct SlotMap {
    /// The title, slotgen's own text such as `cpu (µs) per slot, from CLUSTER SLOT-STATS`
    /// (drawn with XML entities, [`xml_text`], its characters kept).
    pub title: String,
    /// The metric's name in labels (`keys`, `cpu`), slotgen's own text.
    pub metric: String,
    /// 16384 values, indexed by slot.
    pub values: Vec<u64>,
    /// 16384 owners, indexed by slot: an index into `primaries`, or `None`.
    pub owners: Vec<Option<usize>>,
    /// The primaries, in the order of their colours.
    pub primaries: Vec<LegendEntry>,
    /// The skew: the largest ratio of a primary's load to its fair share; `None` when not
    /// measured (drawn as `-`).
    pub skew: Option<f64>,
    /// The target skew, drawn as a dashed line across the bars; `None`: none.
    pub target: Option<f64>,
    /// The floor: the least skew of any slot plan while the hot slots stay whole
    /// ([`HotSlot::floor`](crate::HotSlot::floor)), drawn as a dotted line across the bars;
    /// `None`: no slot is hot.
    pub floor: Option<f64>,
    /// The hot slots, largest first: each marked on the grid; as many as fit labelled, the
    /// rest listed by number.
    pub hot: Vec<HotLabel>,
    /// What to do about the hot slots, one line each, drawn under the grid: `(shown, full)`,
    /// slotgen's text with the bytes from outside in it escaped as text already; `shown`
    /// is drawn (cut to the panel's width), `full` (the whole remedy, with its commands) is
    /// its tooltip. At most [`REMEDY_LINES`] are drawn, then how many more.
    pub remedies: Vec<(String, String)>,
}

/// The most remedy lines drawn under the grid ([`SlotMap::remedies`]); one more line says
/// how many are left out.
pub const REMEDY_LINES: usize = 4;

/// The height of a remedy line under the grid.
const REMEDY_H: u32 = 16;

/// The start of an SVG document `width` x `height`, white.
fn document(svg: &mut String, width: u32, height: u32) {
    let _ = writeln!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="12">"##
    );
    let _ = writeln!(
        svg,
        r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##
    );
}

/// Two maps side by side (a rebalance's before and predicted after), `left` at x 0 and
/// `right` at x [`PANEL_W`], each laid out as [`SlotMap::render`] lays out one.
#[must_use]
pub fn side_by_side(left: &SlotMap, right: &SlotMap) -> String {
    let height = left.height().max(right.height());
    let mut svg = String::with_capacity(1024 * 1024);
    document(&mut svg, 2 * PANEL_W, height);
    left.panel(&mut svg, 0);
    right.panel(&mut svg, PANEL_W);
    // a rule between the two
    let _ = writeln!(
        svg,
        r##"<line x1="{PANEL_W}" y1="8" x2="{PANEL_W}" y2="{}" stroke="#999999"/>"##,
        height - 8
    );
    svg.push_str("</svg>\n");
    svg
}

impl SlotMap {
    /// The SVG document of this map alone, [`PANEL_W`] wide. Every text from outside (node
    /// ids, addresses, hashtags) is escaped for XML ([`xml`]), the title takes XML entities
    /// only ([`xml_text`]); a slot beyond `values` or `owners` counts as 0 and unowned.
    #[must_use]
    pub fn render(&self) -> String {
        let mut svg = String::with_capacity(512 * 1024);
        document(&mut svg, PANEL_W, self.height());
        self.panel(&mut svg, 0);
        svg.push_str("</svg>\n");
        svg
    }

    /// The panel's height: the grid's bottom and a margin.
    fn height(&self) -> u32 {
        grid_origin(self.primaries.len()).1
            + SIDE * CELL
            + 2 * MARGIN
            + REMEDY_H * self.remedy_lines()
    }

    /// The remedy lines drawn: each up to [`REMEDY_LINES`], and one that counts the rest.
    fn remedy_lines(&self) -> u32 {
        let n = self.remedies.len();
        rows(n.min(REMEDY_LINES) + usize::from(n > REMEDY_LINES))
    }

    /// The mean of the values over the 16384 slots.
    fn mean(&self) -> f64 {
        let slots = (SIDE * SIDE) as usize;
        let total: f64 = self.values.iter().take(slots).map(|&v| v as f64).sum();
        total / slots as f64
    }

    /// Draws the panel with its left edge at `x0`.
    fn panel(&self, svg: &mut String, x0: u32) {
        let at = |x: u32| x0 + x;
        let right = f64::from(at(PANEL_W - MARGIN));
        let x = f64::from(at(MARGIN));
        line(
            svg,
            (x, 22),
            r#" font-size="15""#,
            &self.title,
            right - x,
            TITLE_FONT,
        );
        let skew = self
            .skew
            .map_or_else(|| "-".to_owned(), |s| skew_text(s, self.target, self.floor));
        let target = self
            .target
            .map_or_else(String::new, |t| format!(", target {t:.2}"));
        let floor = self.floor.map_or_else(String::new, |f| {
            format!(", floor {}", floor_text(f, self.target))
        });
        let said = format!(
            "skew {skew}{target}{floor}: the fullest primary's {} over its fair share",
            self.metric
        );
        line(svg, (x, 40), "", &said, right - x, FONT);
        self.bars(svg, x0);
        self.grid(svg, x0);
        self.labels(svg, x0);
        self.remedy_text(svg, x0);
    }

    /// The remedies, under the grid: one line each, the whole remedy in its tooltip.
    fn remedy_text(&self, svg: &mut String, x0: u32) {
        let (gx, gy) = grid_origin(self.primaries.len());
        let x = f64::from(x0 + gx);
        let room = f64::from(PANEL_W - 2 * MARGIN);
        let top = gy + SIDE * CELL + MARGIN;
        for (i, (shown, full)) in self.remedies.iter().take(REMEDY_LINES).enumerate() {
            let y = top + REMEDY_H * rows(i) + 12;
            line_as(svg, (x, y), "", (shown, full), room, FONT);
        }
        if let Some(more) = self
            .remedies
            .len()
            .checked_sub(REMEDY_LINES)
            .filter(|&n| n > 0)
        {
            let y = top + REMEDY_H * rows(REMEDY_LINES) + 12;
            let shown = format!(
                "and {more} more hot {}: their remedies in the text output (`--format tsv`)",
                if more == 1 { "slot" } else { "slots" }
            );
            line(svg, (x, y), "", &shown, room, FONT);
        }
    }

    /// Each primary's bar: its load over its fair share, with the fair share, the target and
    /// the floor.
    fn bars(&self, svg: &mut String, x0: u32) {
        let at = |x: u32| x0 + x;
        let largest = self
            .primaries
            .iter()
            .filter_map(|p| p.ratio)
            .chain(self.target)
            .chain(self.floor)
            .fold(1.0, f64::max);
        let scale = largest * 1.05;
        let x_of = |ratio: f64| f64::from(at(BAR_X)) + f64::from(BAR_W) * ratio / scale;
        let text_x = f64::from(at(BAR_X + BAR_W + 8));
        let (left, right) = (f64::from(at(MARGIN)), f64::from(at(PANEL_W - MARGIN)));
        // the addresses' room: up to the bars, a character short
        let addr_room = f64::from(BAR_X - MARGIN) - CHAR_W;
        let header = BARS_Y + 12;
        line(svg, (left, header), "", "primary", addr_room, FONT);
        line(
            svg,
            (text_x, header),
            "",
            "share  load/fair  node",
            right - text_x,
            FONT,
        );
        for (i, p) in self.primaries.iter().enumerate() {
            let y = bar_y(i);
            let ratio = p.ratio.unwrap_or(0.0);
            let shown = p
                .ratio
                .map_or_else(|| "-".to_owned(), |r| format!("{r:.2}x"));
            let id: String = p.node.chars().take(8).collect();
            let addr = field_cut(p.addr.as_bytes());
            line(svg, (left, y + BAR_H - 2), "", &addr, addr_room, FONT);
            let _ = writeln!(
                svg,
                r##"<rect x="{}" y="{y}" width="{:.1}" height="{BAR_H}" fill="{}"><title>{} {}</title></rect>"##,
                at(BAR_X),
                x_of(ratio) - f64::from(at(BAR_X)),
                hex(color(i)),
                xml(p.node.as_bytes()),
                xml(p.addr.as_bytes()),
            );
            let row = format!(
                "{:.1}%  {shown}  {}",
                100.0 * p.share,
                field_cut(id.as_bytes())
            );
            line(svg, (text_x, y + BAR_H - 2), "", &row, right - text_x, FONT);
        }
        let (top, bottom) = (bar_y(0) - 4, bar_y(self.primaries.len()));
        let fair = x_of(1.0);
        let _ = writeln!(
            svg,
            r##"<line x1="{fair:.1}" y1="{top}" x2="{fair:.1}" y2="{bottom}" stroke="#000000" stroke-width="1.5"/><text x="{fair:.1}" y="{}" text-anchor="middle">fair share</text>"##,
            bottom + 12
        );
        // the target's and the floor's lines, their labels in the header's row between
        // `primary` and the columns' header: the higher one's after its line, the other's
        // before its own, then pushed apart where they would touch (in the order of their
        // lines) and into the row
        let mut marks: Vec<(f64, String, &str, &str)> = Vec::new();
        if let Some(t) = self.target {
            marks.push((x_of(t), format!("target {t:.2}"), "#c00000", "4 3"));
        }
        if let Some(f) = self.floor {
            let shown = format!("floor {}", floor_text(f, self.target));
            marks.push((x_of(f), shown, "#7b3294", "1 2"));
        }
        marks.sort_by(|a, b| a.0.total_cmp(&b.0));
        let lo = left + text_width("primary".len(), FONT) + CHAR_W;
        let hi = text_x - CHAR_W;
        let widths: Vec<f64> = marks
            .iter()
            .map(|m| text_width(m.1.chars().count(), FONT))
            .collect();
        let last = marks.len().saturating_sub(1);
        let mut lefts: Vec<f64> = Vec::with_capacity(marks.len());
        for (i, (x, _, _, _)) in marks.iter().enumerate() {
            let want = if i == last {
                x + 3.0
            } else {
                x - 3.0 - widths[i]
            };
            let free = lefts.last().map_or(lo, |&l| l + widths[i - 1] + CHAR_W);
            lefts.push(want.max(free));
        }
        let mut limit = hi;
        for (l, w) in lefts.iter_mut().zip(&widths).rev() {
            *l = l.min(limit - w).max(lo);
            limit = *l - CHAR_W;
        }
        for ((x, shown, colour, dashes), l) in marks.iter().zip(&lefts) {
            let _ = writeln!(
                svg,
                r##"<line x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{bottom}" stroke="{colour}" stroke-width="1.5" stroke-dasharray="{dashes}"/>"##
            );
            line(
                svg,
                (*l, header),
                &format!(r#" fill="{colour}""#),
                shown,
                hi - l,
                FONT,
            );
        }
    }

    /// The grid of slots, shaded against the mean.
    fn grid(&self, svg: &mut String, x0: u32) {
        let (gx, gy) = grid_origin(self.primaries.len());
        let gx = x0 + gx;
        let mean = self.mean();
        let key = if mean > 0.0 {
            format!(
                "16384 slots, slot s at row s/128, column s%128; shade: value / mean per slot ({mean:.3}), from 1/8 (pale) to 8 (full)"
            )
        } else {
            "16384 slots: every slot is 0, the map is empty".to_owned()
        };
        let room = f64::from(x0 + PANEL_W - MARGIN - gx);
        line(svg, (f64::from(gx), gy - 10), "", &key, room, FONT);
        let _ = writeln!(svg, r#"<g shape-rendering="crispEdges">"#);
        for row in 0..SIDE {
            // runs of one colour in a row, one rectangle each
            let mut run: Option<(u32, [u8; 3])> = None;
            for col in 0..=SIDE {
                let fill = (col < SIDE).then(|| self.fill((row * SIDE + col) as usize, mean));
                match (run, fill) {
                    (Some((_, c)), Some(f)) if c == f => {}
                    _ => {
                        if let Some((start, c)) = run {
                            let _ = writeln!(
                                svg,
                                r##"<rect x="{}" y="{}" width="{}" height="{CELL}" fill="{}"/>"##,
                                gx + start * CELL,
                                gy + row * CELL,
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
    }

    /// The slots marked: the hot ones and the heavy ones ([`Self::heavy`]), in groups whose
    /// marks would touch ([`group`]), in slot order.
    fn groups(&self) -> Vec<Group> {
        let heavy = self.heavy();
        let marked: Vec<(HotLabel, bool)> = self
            .hot
            .iter()
            .map(|h| (h.clone(), true))
            .chain(heavy.into_iter().map(|h| (h, false)))
            .filter(|(h, _)| u32::from(h.slot) < SIDE * SIDE)
            .collect();
        group(marked)
    }

    /// Every hot or heavy slot marked on the grid, slots whose marks would touch in one mark
    /// around their cells ([`group`]); as many marks as fit labelled right of the grid, in
    /// the order of their rows (so that the leader lines do not cross), the rest listed.
    fn labels(&self, svg: &mut String, x0: u32) {
        let (gx, gy) = grid_origin(self.primaries.len());
        let fit = (SIDE * CELL / LABEL_H) as usize;
        let groups = self.groups();
        let label_x = f64::from(x0 + LABEL_X);
        let room = f64::from(PANEL_W - LABEL_X - MARGIN);
        // the marks labelled: those with a hot slot first, then the largest
        let mut ranked: Vec<&Group> = groups.iter().collect();
        ranked.sort_by(|a, b| b.hot.cmp(&a.hot).then(b.share.total_cmp(&a.share)));
        let (labelled, rest) = if ranked.len() > fit {
            ranked.split_at(fit - 1)
        } else {
            (&ranked[..], &[][..])
        };
        let mut labelled = labelled.to_vec();
        labelled.sort_by_key(|g| (g.rows.0 + g.rows.1, g.cols.0));
        if groups.is_empty() {
            line(
                svg,
                (label_x, gy + 12),
                "",
                "no hot slot: none alone",
                room,
                FONT,
            );
            line(
                svg,
                (label_x, gy + 26),
                "",
                "holds more than a fair share",
                room,
                FONT,
            );
        }
        let mark = |g: &Group| {
            let pad = (MARK - CELL) / 2;
            let x = x0 + gx + g.cols.0 * CELL - pad;
            let y = gy + g.rows.0 * CELL - pad;
            let w = (g.cols.1 - g.cols.0 + 1) * CELL + 2 * pad;
            let h = (g.rows.1 - g.rows.0 + 1) * CELL + 2 * pad;
            (x, y, w, h)
        };
        // each label beside its mark's middle where it can be, below the one before, the
        // last within the grid's height (above the list of the others, where there is one)
        let mut tops: Vec<u32> = Vec::with_capacity(labelled.len());
        for g in &labelled {
            let (_, y, _, h) = mark(g);
            let want = (y + h / 2).saturating_sub(8);
            let free = tops.last().map_or(gy, |&t| t + LABEL_H);
            tops.push(want.max(free));
        }
        let mut limit = if rest.is_empty() {
            gy + SIDE * CELL
        } else {
            gy + rows(fit - 1) * LABEL_H
        };
        for top in tops.iter_mut().rev() {
            *top = (*top).min(limit - LABEL_H);
            limit = *top;
        }
        for (g, &ly) in labelled.iter().zip(&tops) {
            let (x, y, w, h) = mark(g);
            let _ = writeln!(
                svg,
                r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#000000" stroke-width="0.8"/>"##,
                x + w,
                y + h / 2,
                x0 + LABEL_X - 4,
                ly + 8
            );
            let (first, second, whole) = self.label(g, room);
            let weight = if g.hot { "bold" } else { "normal" };
            line(
                svg,
                (label_x, ly + 12),
                &format!(r#" font-weight="{weight}""#),
                &first,
                room,
                FONT,
            );
            line_as(svg, (label_x, ly + 26), "", (&second, &whole), room, FONT);
        }
        if !rest.is_empty() {
            let names: Vec<String> = rest.iter().map(|g| g.name()).collect();
            let max = chars_in(room, FONT);
            // as many names as fit, with the count of the others
            let listed = (0..=names.len())
                .rev()
                .map(|n| {
                    let more = names.len() - n;
                    let tail = if more > 0 {
                        format!(" and {more} more")
                    } else {
                        String::new()
                    };
                    format!("marked too: {}{tail}", names[..n].join(", "))
                })
                .find(|t| t.chars().count() <= max)
                .unwrap_or_else(|| format!("marked too: {} more", names.len()));
            line(
                svg,
                (label_x, gy + rows(fit - 1) * LABEL_H + 12),
                "",
                &listed,
                room,
                FONT,
            );
        }
        // the marks last, over the grid and the lines: one slot's a square in its owner's
        // colour, several slots' a white box with their cells in their owners' colours
        for g in &groups {
            let (x, y, w, h) = mark(g);
            let colour = |slot: u16| {
                let owner = self.owners.get(usize::from(slot)).copied().flatten();
                hex(owner.map_or(UNOWNED, color))
            };
            if let [one] = &g.members[..] {
                let kind = if g.hot { "hot" } else { "heavy" };
                let _ = writeln!(
                    svg,
                    r##"<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{}" stroke="#000000" stroke-width="1.5"><title>{kind} slot {}</title></rect>"##,
                    colour(one.0.slot),
                    one.0.slot
                );
                continue;
            }
            let each: Vec<String> = g
                .members
                .iter()
                .map(|(m, hot)| {
                    let kind = if *hot { "hot" } else { "heavy" };
                    let tag = m.hashtag.as_ref().map_or_else(String::new, |(tag, part)| {
                        format!(
                            ", top hashtag {{{}}}: {:.0}% of it",
                            field_cut(tag),
                            100.0 * part
                        )
                    });
                    format!("{kind} slot {}: {:.1}%{tag}", m.slot, 100.0 * m.share)
                })
                .collect();
            let _ = writeln!(
                svg,
                r##"<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="#ffffff" stroke="#000000" stroke-width="1.5"><title>{}</title></rect>"##,
                xml_text(&each.join("\n"))
            );
            for (m, _) in &g.members {
                let s = u32::from(m.slot);
                let _ = writeln!(
                    svg,
                    r##"<rect x="{}" y="{}" width="{CELL}" height="{CELL}" fill="{}"/>"##,
                    x0 + gx + (s % SIDE) * CELL,
                    gy + (s / SIDE) * CELL,
                    colour(m.slot)
                );
            }
        }
    }

    /// The two lines of `g`'s label, the second as drawn and whole (its hashtag cut to
    /// `room`): one slot's number, share and kind, then its top hashtag or its owner; several
    /// slots' numbers (runs as ranges), their share and kind, then their count and their
    /// range of shares.
    fn label(&self, g: &Group, room: f64) -> (String, String, String) {
        let metric = &self.metric;
        let kind = if g.hot { "hot" } else { "heavy" };
        if let [(h, _)] = &g.members[..] {
            let first = format!(
                "slot {}: {:.1}% of {metric}, {kind}",
                h.slot,
                100.0 * h.share
            );
            let (second, whole) = match &h.hashtag {
                Some((tag, part)) => {
                    let (head, tail) = ("top hashtag {", format!("}}: {:.0}% of it", 100.0 * part));
                    let tag = field_cut(tag);
                    let budget = chars_in(room, FONT).saturating_sub(head.len() + tail.len());
                    (
                        format!("{head}{}{tail}", fit_middle(&tag, budget.max(2))),
                        format!("{head}{tag}{tail}"),
                    )
                }
                None => {
                    let on = self.on(self.owners.get(usize::from(h.slot)).copied().flatten());
                    (on.clone(), on)
                }
            };
            return (first, second, whole);
        }
        let first = format!(
            "slots {}: {:.1}% of {metric}, {kind}",
            g.name(),
            100.0 * g.share
        );
        let (low, high) = g
            .members
            .iter()
            .map(|(m, _)| m.share)
            .fold((f64::MAX, 0.0f64), |(l, h), s| (l.min(s), h.max(s)));
        let (low, high) = (
            format!("{:.1}%", 100.0 * low),
            format!("{:.1}%", 100.0 * high),
        );
        let each = if low == high {
            low
        } else {
            format!("{low} to {high}")
        };
        let mut owners: Vec<Option<usize>> = g
            .members
            .iter()
            .map(|(m, _)| self.owners.get(usize::from(m.slot)).copied().flatten())
            .collect();
        owners.sort_unstable();
        owners.dedup();
        let on = match owners[..] {
            [one] => self.on(one),
            _ => format!("on {} primaries", owners.len()),
        };
        let mut second = format!("{} slots {on}, {each} each", g.members.len());
        let hot: Vec<String> = g
            .members
            .iter()
            .filter(|(_, hot)| *hot)
            .map(|(m, _)| m.slot.to_string())
            .collect();
        if !hot.is_empty() {
            second += &format!("; hot: {}", hot.join(", "));
        }
        (first, second.clone(), second)
    }

    /// Where a slot of `owner` is: `on ADDRESS`, or `no owner`.
    fn on(&self, owner: Option<usize>) -> String {
        owner.and_then(|o| self.primaries.get(o)).map_or_else(
            || "no owner".to_owned(),
            |p| format!("on {}", field_cut(p.addr.as_bytes())),
        )
    }

    /// The slots that are not hot but hold [`HEAVY_SHARE`] of the total or more, largest
    /// first (ties by slot): marked and labelled beside the hot ones.
    fn heavy(&self) -> Vec<HotLabel> {
        let total: u64 = self
            .values
            .iter()
            .take((SIDE * SIDE) as usize)
            .fold(0u64, |sum, &v| sum.saturating_add(v));
        if total == 0 {
            return Vec::new();
        }
        let mut heavy: Vec<(u16, u64)> = self
            .values
            .iter()
            .take((SIDE * SIDE) as usize)
            .enumerate()
            .filter(|&(_, &v)| v as f64 >= HEAVY_SHARE * total as f64)
            .map(|(slot, &v)| (u16::try_from(slot).expect("16384 slots"), v))
            .filter(|(slot, _)| !self.hot.iter().any(|h| h.slot == *slot))
            .collect();
        heavy.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        heavy
            .into_iter()
            .map(|(slot, v)| HotLabel {
                slot,
                share: v as f64 / total as f64,
                hashtag: None,
            })
            .collect()
    }

    fn fill(&self, slot: usize, mean: f64) -> [u8; 3] {
        let Some(owner) = self.owners.get(slot).copied().flatten() else {
            return UNOWNED;
        };
        let v = self.values.get(slot).copied().unwrap_or(0);
        tint(color(owner), shade(v, mean))
    }
}

/// Marked slots whose marks would touch ([`group`]): drawn as one mark around their cells
/// and labelled once.
#[derive(Debug)]
struct Group {
    /// The slots, in slot order, each with whether it is hot (else heavy).
    members: Vec<(HotLabel, bool)>,
    /// Whether a slot of it is hot.
    hot: bool,
    /// The members' shares, summed.
    share: f64,
    /// The first and the last column of its cells.
    cols: (u32, u32),
    /// The first and the last row of its cells.
    rows: (u32, u32),
}

impl Group {
    /// Its slots, runs of consecutive ones as ranges: `0-7, 128, 300-301`.
    fn name(&self) -> String {
        let slots: Vec<u16> = self.members.iter().map(|(m, _)| m.slot).collect();
        ranges_of(&slots)
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// `marked` (each slot with whether it is hot; a slot given twice counts once, hot where
/// either says so) in groups: two slots whose marks ([`MARK`] wide, centred on cells
/// [`CELL`] wide) would touch or overlap, their columns and their rows each within
/// `MARK / CELL` of the other's, are in one group, and so on from slot to slot. Groups in the
/// order of their first slot.
fn group(mut marked: Vec<(HotLabel, bool)>) -> Vec<Group> {
    marked.sort_by(|a, b| a.0.slot.cmp(&b.0.slot).then(b.1.cmp(&a.1)));
    marked.dedup_by_key(|(h, _)| h.slot);
    let cell = |slot: u16| (u32::from(slot) % SIDE, u32::from(slot) / SIDE);
    let at: HashMap<(u32, u32), usize> = marked
        .iter()
        .enumerate()
        .map(|(i, (h, _))| (cell(h.slot), i))
        .collect();
    // union-find over the marked slots, each joined to every marked neighbour within reach
    let mut parent: Vec<usize> = (0..marked.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let reach = MARK / CELL;
    for (i, (h, _)) in marked.iter().enumerate() {
        let (c, r) = cell(h.slot);
        for rr in r.saturating_sub(reach)..=(r + reach).min(SIDE - 1) {
            for cc in c.saturating_sub(reach)..=(c + reach).min(SIDE - 1) {
                if let Some(&j) = at.get(&(cc, rr)) {
                    let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                    parent[a.max(b)] = a.min(b);
                }
            }
        }
    }
    let mut groups: Vec<Group> = Vec::new();
    let mut index: HashMap<usize, usize> = HashMap::new();
    for (i, (h, hot)) in marked.into_iter().enumerate() {
        let r = root(&mut parent, i);
        let (c, row) = cell(h.slot);
        let g = *index.entry(r).or_insert_with(|| {
            groups.push(Group {
                members: Vec::new(),
                hot: false,
                share: 0.0,
                cols: (c, c),
                rows: (row, row),
            });
            groups.len() - 1
        });
        let g = &mut groups[g];
        g.hot |= hot;
        g.share += h.share;
        g.cols = (g.cols.0.min(c), g.cols.1.max(c));
        g.rows = (g.rows.0.min(row), g.rows.1.max(row));
        g.members.push((h, hot));
    }
    groups
}

/// The width of `chars` characters at font size `size`, at most ([`CHAR_W`]).
#[must_use]
pub fn text_width(chars: usize, size: u32) -> f64 {
    chars as f64 * CHAR_W * f64::from(size) / f64::from(FONT)
}

/// How many characters at font size `size` fit in `room` ([`text_width`]).
fn chars_in(room: f64, size: u32) -> usize {
    (room.max(0.0) / text_width(1, size)).floor() as usize
}

/// `shown`'s units: an escape (`\xNN`, `\\`) is one, kept whole by a cut; any other
/// character is one.
fn units(shown: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = shown;
    while let Some(c) = rest.chars().next() {
        let len = match (c, rest.as_bytes().get(1)) {
            ('\\', Some(b'x')) if rest.len() >= 4 && rest.is_char_boundary(4) => 4,
            ('\\', Some(b'\\')) => 2,
            _ => c.len_utf8(),
        };
        out.push(&rest[..len]);
        rest = &rest[len..];
    }
    out
}

/// How many of `units`, taken in their order, fit in `max` characters.
fn units_in(units: impl Iterator<Item = usize>, max: usize) -> usize {
    units
        .scan(0, |used, n| {
            *used += n;
            (*used <= max).then_some(())
        })
        .count()
}

/// `shown` cut to at most `max` characters: whole where it fits, else as many of its first
/// [`units`] as fit before [`ELLIPSIS`].
fn fit(shown: &str, max: usize) -> String {
    if shown.chars().count() <= max {
        return shown.to_owned();
    }
    let units = units(shown);
    let head = units_in(
        units.iter().map(|u| u.chars().count()),
        max.saturating_sub(1),
    );
    let mut out = units[..head].concat();
    out.push(ELLIPSIS);
    out
}

/// `shown` cut to at most `max` characters in its middle: whole where it fits, else its
/// first and its last [`units`] (as many of each as fit, the first getting the odd one)
/// around [`ELLIPSIS`]. For a hashtag, where what tells two apart is as often at the end
/// (`tenant:acme-corporation:eu-west`) as at the start.
fn fit_middle(shown: &str, max: usize) -> String {
    if shown.chars().count() <= max {
        return shown.to_owned();
    }
    let units = units(shown);
    let room = max.saturating_sub(1);
    let tail = units_in(units.iter().rev().map(|u| u.chars().count()), room / 2);
    let head = units_in(
        units[..units.len() - tail]
            .iter()
            .map(|u| u.chars().count()),
        room - units[units.len() - tail..]
            .iter()
            .map(|u| u.chars().count())
            .sum::<usize>(),
    );
    let mut out = units[..head].concat();
    out.push(ELLIPSIS);
    out.push_str(&units[units.len() - tail..].concat());
    out
}

/// One line of text at `(x, y)` (its start, its baseline), `attrs` added to the element:
/// `text` (slotgen's text, the bytes from outside in it escaped as text already), XML-escaped,
/// cut to `room` ([`fit`]) at font size `size`, and then whole in a `<title>` (a tooltip).
fn line(svg: &mut String, at: (f64, u32), attrs: &str, text: &str, room: f64, size: u32) {
    line_as(svg, at, attrs, (text, text), room, size);
}

/// As [`line`], drawing `shown` (cut already where it has to be, as a hashtag in its label)
/// and giving `full` in a `<title>` where what is drawn is not all of it.
fn line_as(
    svg: &mut String,
    (x, y): (f64, u32),
    attrs: &str,
    (shown, full): (&str, &str),
    room: f64,
    size: u32,
) {
    let drawn = fit(shown, chars_in(room, size));
    if drawn == full {
        let _ = writeln!(
            svg,
            r#"<text x="{x:.1}" y="{y}"{attrs}>{}</text>"#,
            xml_text(&drawn)
        );
    } else {
        let _ = writeln!(
            svg,
            r#"<text x="{x:.1}" y="{y}"{attrs}><title>{}</title>{}</text>"#,
            xml_text(full),
            xml_text(&drawn)
        );
    }
}

fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(values: Vec<u64>, owners: Vec<Option<usize>>, hot: Vec<HotLabel>) -> SlotMap {
        SlotMap {
            title: "t".to_owned(),
            metric: "keys".to_owned(),
            values,
            owners,
            primaries: vec![LegendEntry {
                node: "<id>&\"".to_owned(),
                addr: "a\x1bb".to_owned(),
                share: 1.0,
                ratio: Some(1.0),
            }],
            skew: None,
            target: Some(1.1),
            floor: None,
            hot,
            remedies: Vec::new(),
        }
    }

    #[test]
    fn cells_runs_labels_and_escaping() {
        let mut values = vec![0u64; 16384];
        values[5] = 16384;
        let owners: Vec<Option<usize>> = (0..16384).map(|s| (s < 8192).then_some(0)).collect();
        let hot = vec![HotLabel {
            slot: 5,
            share: 1.0,
            hashtag: Some((b"<t>".to_vec(), 0.5)),
        }];
        let svg = map(values, owners, hot).render();
        let (gx, gy) = grid_origin(1);
        // the mean is 1: slot 5 at 16384x it, in the full colour, alone in its run
        assert!(svg.contains(&format!(
            r##"<rect x="{}" y="{gy}" width="4" height="4" fill="#4e79a7"/>"##,
            gx + 20
        )));
        // row 64 on is unowned: one run a row
        assert!(svg.contains(&format!(
            r##"<rect x="{gx}" y="{}" width="512" height="4" fill="#d9d9d9"/>"##,
            gy + 256
        )));
        assert!(svg.contains("&lt;id&gt;&amp;&quot;"));
        assert!(svg.contains(r"a\x1bb"));
        assert!(!svg.contains('\x1b'));
        assert!(svg.contains("slot 5: 100.0% of keys, hot</text>"));
        assert!(svg.contains("top hashtag {&lt;t&gt;}: 50% of it</text>"));
        assert!(svg.contains("<title>hot slot 5</title>"));
        assert!(svg.contains("target 1.10"));
        assert!(!svg.contains("floor"), "no floor given, none drawn");
    }

    /// The remedies under the grid: each drawn with its whole text as the tooltip, XML
    /// escaped, the panel taller by one line each; past [`REMEDY_LINES`], one line counts
    /// the rest.
    #[test]
    fn remedies_under_the_grid() {
        let owners = vec![Some(0); 16384];
        let mut m = map(vec![1; 16384], owners, Vec::new());
        let bare = m.height();
        m.remedies = (0..6)
            .map(|i| {
                (
                    format!("slot {i}: split {{<a>}}"),
                    format!("whole {i} & more"),
                )
            })
            .collect();
        assert_eq!(m.height(), bare + 5 * REMEDY_H);
        let svg = m.render();
        let (_, gy) = grid_origin(1);
        let first = gy + SIDE * CELL + MARGIN + 12;
        assert!(svg.contains(&format!(
            r#"<text x="16.0" y="{first}"><title>whole 0 &amp; more</title>slot 0: split {{&lt;a&gt;}}</text>"#
        )), "{svg}");
        assert!(svg.contains("slot 3: split"));
        assert!(!svg.contains("slot 4: split"));
        assert!(svg.contains("and 2 more hot slots: their remedies in the text output"));
        m.remedies.truncate(1);
        assert_eq!(m.height(), bare + REMEDY_H);
    }

    /// A hashtag's bytes are escaped once: the text escape of what is not printable ASCII
    /// (`\xNN`, and `\` as `\\` so that a `\xNN` in the bytes reads apart from an escape),
    /// then XML's entities, and no backslash before a `"` (the report's hostile hashtag
    /// showed `\\\"x\\xff`, the output's escape escaped again).
    #[test]
    fn a_hashtag_is_escaped_once() {
        let tag = b"<b>&\"x\xff\xe2\x80\xae\n]]>\\".to_vec();
        let hot = vec![HotLabel {
            slot: 5,
            share: 0.6,
            hashtag: Some((tag, 1.0)),
        }];
        let svg = map(vec![1; 16384], vec![Some(0); 16384], hot).render();
        let whole = r"<title>top hashtag {&lt;b&gt;&amp;&quot;x\xff\xe2\x80\xae\x0a]]&gt;\\}: 100% of it</title>";
        assert!(svg.contains(whole), "{svg}");
        // drawn cut to its room, an escape kept whole
        assert!(
            svg.contains(
                "</title>top hashtag {&lt;b&gt;&amp;&quot;x\u{2026}]]&gt;\\\\}: 100% of it"
            ),
            "{svg}"
        );
        assert!(!svg.contains(r"\\x") && !svg.contains(r"\&quot;"), "{svg}");
    }

    /// The floor, where a slot is hot: a line across the bars labelled, and in the skew's
    /// line, as `skew_text` prints it (the figure of the notes on stderr); a skew at the floor
    /// reads as the floor.
    #[test]
    fn the_floor_is_drawn_as_the_notes_print_it() {
        let mut m = map(vec![0u64; 16384], vec![None; 16384], Vec::new());
        for (floor, target, shown) in [
            (1.4159, Some(1.1), "1.4159"),
            (1.41, Some(1.1), "1.41"),
            (9.0 / 7.0, Some(1.1), "1.2857"),
            (1.1049, Some(1.1), "1.1049"),
            (1.1049, Some(1.2), "1.10"),
            (1.3954, None, "1.395"),
        ] {
            (m.floor, m.target, m.skew) = (Some(floor), target, Some(floor));
            let svg = m.render();
            assert_eq!(shown, floor_text(floor, target));
            assert!(shown.parse::<f64>().unwrap() <= floor);
            assert!(svg.contains(&format!(">floor {shown}</text>")), "{svg}");
            assert!(svg.contains(&format!("skew {shown}, ")), "{svg}");
            assert!(svg.contains(&format!(", floor {shown}: ")), "{svg}");
            assert!(svg.contains(r##"stroke="#7b3294""##));
        }
    }

    #[test]
    fn the_title_keeps_its_characters_and_an_empty_map_says_so() {
        let mut m = map(vec![0u64; 16384], vec![None; 16384], Vec::new());
        m.title = "cpu (µs) per slot <&>".to_owned();
        let svg = m.render();
        assert!(
            svg.contains(">cpu (µs) per slot &lt;&amp;&gt;</text>"),
            "{svg}"
        );
        assert!(svg.contains("every slot is 0, the map is empty</text>"));
        assert!(svg.contains("no hot slot"));
    }

    #[test]
    fn shades_grow_with_the_value_against_the_mean() {
        let mean = 100.0;
        let values = [0, 1, 12, 50, 65, 100, 170, 400, 800, 5000];
        let shades: Vec<f64> = values.iter().map(|&v| shade(v, mean)).collect();
        assert!(shades.windows(2).all(|w| w[0] <= w[1]), "{shades:?}");
        assert!(shade(170, mean) > shade(65, mean) + 0.2);
        assert_eq!(shade(100, mean), 0.5);
        assert_eq!(shade(5000, mean), 1.0);
        assert_eq!(shade(7, 0.0), 0.06);
    }

    #[test]
    fn two_maps_stand_side_by_side() {
        let mut values = vec![0u64; 16384];
        values[300] = 50;
        let owners = vec![Some(0); 16384];
        let left = map(values.clone(), owners.clone(), Vec::new());
        let mut right = map(values, owners, Vec::new());
        right.title = "after".to_owned();
        let svg = side_by_side(&left, &right);
        let (gx, gy) = grid_origin(1);
        assert!(svg.starts_with(&format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" "#,
            2 * PANEL_W
        )));
        // slot 300 (row 2, column 44), heavy, in both panels
        for x0 in [0, PANEL_W] {
            assert!(svg.contains(&format!(
                r##"<rect x="{}" y="{}" width="4" height="4" fill="#4e79a7"/>"##,
                x0 + gx + 44 * CELL,
                gy + 2 * CELL
            )));
        }
        assert_eq!(
            svg.matches("slot 300: 100.0% of keys, heavy</text>")
                .count(),
            2
        );
        assert_eq!(svg.matches("</svg>").count(), 1);
    }

    #[test]
    fn colours_beyond_the_palette_differ() {
        let colours: std::collections::BTreeSet<[u8; 3]> = (0..40).map(color).collect();
        assert_eq!(colours.len(), 40);
        assert_eq!(hsl(0.0, 1.0, 0.5), [255, 0, 0]);
        assert_eq!(hsl(120.0, 1.0, 0.5), [0, 255, 0]);
    }

    /// Slots whose marks would touch are one mark, named by their runs; slots one cell
    /// further apart are two.
    #[test]
    fn marks_that_would_touch_are_one() {
        let names = |slots: &[u16]| -> Vec<String> {
            let marked = slots
                .iter()
                .map(|&slot| {
                    let h = HotLabel {
                        slot,
                        share: 0.05,
                        hashtag: None,
                    };
                    (h, slot == 3)
                })
                .collect();
            group(marked).iter().map(Group::name).collect()
        };
        assert_eq!(
            names(&[256, 0, 1, 2, 3, 4, 5, 6, 7, 128, 129]),
            ["0-7, 128-129, 256"]
        );
        assert_eq!(names(&(16369..16384).collect::<Vec<_>>()), ["16369-16383"]);
        assert_eq!(names(&[0, 3]), ["0, 3"]);
        assert_eq!(names(&[0, 4]), ["0", "4"]);
        assert_eq!(names(&[0, 384]), ["0, 384"]);
        assert_eq!(names(&[0, 512]), ["0", "512"]);
        // not across the grid's edge: column 127 of row 0 and column 0 of row 1 are far
        assert_eq!(names(&[127, 128]), ["127", "128"]);
        assert_eq!(names(&[5, 5]), ["5"]);
        // a hot slot among heavy ones: its share and hashtag in the mark's tooltip
        let mut m = map(vec![0; 16384], vec![Some(0); 16384], Vec::new());
        for s in 0..4 {
            m.values[s] = 100;
        }
        m.hot = vec![HotLabel {
            slot: 1,
            share: 0.25,
            hashtag: Some((b"<t>".to_vec(), 0.5)),
        }];
        let svg = m.render();
        assert!(
            svg.contains(
                "heavy slot 0: 25.0%\nhot slot 1: 25.0%, top hashtag {&lt;t&gt;}: 50% of it\n"
            ),
            "{svg}"
        );
        assert!(
            svg.contains(">slots 0-3: 100.0% of keys, hot</text>"),
            "{svg}"
        );
        // the group's owner, escaped once, as a single slot's label gives it
        assert!(
            svg.contains(r">4 slots on a\x1bb, 25.0% each; hot: 1</text>"),
            "{svg}"
        );
        // slots of two primaries: how many, not one of them; cut to its room at the end,
        // whole in its title
        m.primaries.push(m.primaries[0].clone());
        m.owners[2] = Some(1);
        let svg = m.render();
        assert!(
            svg.contains(
                "<title>4 slots on 2 primaries, 25.0% each; hot: 1</title>4 slots on 2 primaries, 25.0% each; hot:\u{2026}</text>"
            ),
            "{svg}"
        );
    }

    /// A text cut to its room keeps an escape whole and ends in the ellipsis.
    #[test]
    fn a_cut_keeps_escapes_whole() {
        assert_eq!(fit("abc", 3), "abc");
        assert_eq!(fit("abcd", 3), "ab\u{2026}");
        assert_eq!(fit(r"a\xffb", 4), "a\u{2026}");
        assert_eq!(fit(r"a\xffb", 5), "a\u{2026}");
        assert_eq!(fit(r"a\xffbc", 6), "a\\xff\u{2026}");
        assert_eq!(fit(r"a\\b", 3), "a\u{2026}");
        // in the middle: the first units get the odd one, an escape stays whole
        assert_eq!(fit_middle("abcdefgh", 8), "abcdefgh");
        assert_eq!(fit_middle("abcdefgh", 7), "abc\u{2026}fgh");
        assert_eq!(fit_middle("abcdefgh", 6), "abc\u{2026}gh");
        assert_eq!(fit_middle("abcdefgh", 2), "a\u{2026}");
        assert_eq!(fit_middle(r"a\xffbcd\xfe", 10), "a\\xff\u{2026}\\xfe");
        assert_eq!(fit_middle(r"a\xffbcd\xfe", 9), "a\u{2026}\\xfe");
    }

    /// One `<text>` element as drawn: its box from its attributes and the characters it
    /// shows (entities read back, its `<title>` left out), by the layout's bound of a
    /// character's advance and a glyph's height (ascent 0.76 em, descent 0.24 em).
    #[derive(Debug)]
    struct Drawn {
        text: String,
        x: (f64, f64),
        y: (f64, f64),
    }

    fn texts(svg: &str) -> Vec<Drawn> {
        let attr = |tag: &str, name: &str| -> Option<String> {
            let i = tag.find(&format!(" {name}=\""))? + name.len() + 3;
            Some(tag[i..i + tag[i..].find('"')?].to_owned())
        };
        let mut out = Vec::new();
        let mut rest = svg;
        while let Some(i) = rest.find("<text ") {
            let open_end = i + rest[i..].find('>').unwrap();
            let tag = &rest[i..open_end];
            let close = open_end + rest[open_end..].find("</text>").unwrap();
            let mut inner = rest[open_end + 1..close].to_owned();
            if let (Some(a), Some(b)) = (inner.find("<title>"), inner.find("</title>")) {
                inner.replace_range(a..b + "</title>".len(), "");
            }
            assert!(!inner.contains('<'), "markup in a text: {inner}");
            let text = inner
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&apos;", "'")
                .replace("&amp;", "&");
            let size: f64 = attr(tag, "font-size").map_or(12.0, |s| s.parse().unwrap());
            let x: f64 = attr(tag, "x").unwrap().parse().unwrap();
            let y: f64 = attr(tag, "y").unwrap().parse().unwrap();
            let w = text.chars().count() as f64 * CHAR_W * size / 12.0;
            let x = match attr(tag, "text-anchor").as_deref() {
                Some("end") => (x - w, x),
                Some("middle") => (x - w / 2.0, x + w / 2.0),
                _ => (x, x + w),
            };
            out.push(Drawn {
                text,
                x,
                y: (y - 0.76 * size, y + 0.24 * size),
            });
            rest = &rest[close..];
        }
        out
    }

    /// The maps that crowd a picture: a long hashtag (the report's 26 bytes, and 300 hostile
    /// ones), the floor near the largest bar and near the target, heavy slots side by side
    /// (0-7, 128, 129, 256, and 16369-16383), more marks than labels fit, long addresses.
    fn crowded() -> Vec<SlotMap> {
        let owners: Vec<Option<usize>> = (0..16384).map(|s| Some(s * 3 / 16384)).collect();
        let primaries = |addr: &dyn Fn(usize) -> String| -> Vec<LegendEntry> {
            (0..3)
                .map(|i| LegendEntry {
                    node: format!("{i:0>40}"),
                    addr: addr(i),
                    share: [0.619, 0.191, 0.19][i],
                    ratio: Some([1.857, 0.573, 0.57][i]),
                })
                .collect()
        };
        let hot = |slot: u16, tag: &[u8]| HotLabel {
            slot,
            share: 0.429,
            hashtag: Some((tag.to_vec(), 1.0)),
        };
        let base = SlotMap {
            title: "before: keys per slot".to_owned(),
            metric: "keys".to_owned(),
            values: vec![1; 16384],
            owners,
            primaries: primaries(&|i| format!("127.0.0.1:716{i}")),
            skew: Some(1.857),
            target: Some(1.1),
            floor: Some(9.0 / 7.0),
            hot: vec![hot(298, b"queue:emails:priority-high")],
            remedies: Vec::new(),
        };
        let mut maps = vec![base.clone()];
        // the floor at the largest bar, the target just under it
        let mut m = base.clone();
        m.primaries[0].ratio = Some(9.0 / 7.0);
        m.skew = Some(9.0 / 7.0);
        m.target = Some(1.28);
        m.hot = vec![hot(16383, &b"<b>&\"x\xff\xe2\x80\xae\n]]>".repeat(30))];
        maps.push(m);
        // heavy slots side by side, with a hot one among them; and a run at the grid's end
        let mut m = base.clone();
        m.values = vec![0; 16384];
        for s in (0..8).chain([128, 129, 256]) {
            m.values[s] = 100;
        }
        m.values[3] = 700;
        m.hot = vec![hot(3, b"t")];
        m.primaries = primaries(&|i| format!("node-{i}.{}.example:7000", "long".repeat(20)));
        maps.push(m.clone());
        m.values = vec![0; 16384];
        for s in 16369..16384 {
            m.values[s] = 100;
        }
        m.hot = Vec::new();
        maps.push(m);
        // marks far apart, more than labels fit
        let mut m = base;
        m.values = vec![0; 16384];
        for k in 0..19 {
            m.values[k * 860] = 100;
        }
        m.hot = Vec::new();
        m.floor = None;
        maps.push(m);
        maps
    }

    /// No text is drawn over another, and each stays in its panel: every text's box, by
    /// the bound of a character's advance, apart from every other's and within its panel
    /// less the margin; and the marks of the grid apart from one another.
    #[test]
    fn no_text_overlaps_another_and_each_stays_in_its_panel() {
        for m in crowded() {
            let svg = side_by_side(&m, &m);
            let drawn = texts(&svg);
            assert!(drawn.len() > 20, "{drawn:?}");
            // the target's and the floor's labels whole, apart from the columns' header
            let whole = |text: &str| drawn.iter().filter(|d| d.text == text).count() == 2;
            if let Some(f) = m.floor {
                assert!(
                    whole(&format!("floor {}", floor_text(f, m.target))),
                    "{svg}"
                );
            }
            if let Some(t) = m.target {
                assert!(whole(&format!("target {t:.2}")), "{svg}");
            }
            for (i, a) in drawn.iter().enumerate() {
                let x0 = if a.x.0 >= f64::from(PANEL_W) {
                    f64::from(PANEL_W)
                } else {
                    0.0
                };
                assert!(
                    a.x.0 >= x0 + f64::from(MARGIN) - 8.0
                        && a.x.1 <= x0 + f64::from(PANEL_W - MARGIN) + 0.01,
                    "{a:?} leaves its panel"
                );
                for b in &drawn[i + 1..] {
                    let apart =
                        a.x.1 <= b.x.0 || b.x.1 <= a.x.0 || a.y.1 <= b.y.0 || b.y.1 <= a.y.0;
                    assert!(apart, "{a:?} over {b:?}");
                }
            }
            let marks: Vec<[f64; 4]> = svg
                .lines()
                .filter(|l| l.starts_with("<rect") && l.contains(r##"stroke="#000000""##))
                .map(|l| {
                    let v = |n: &str| -> f64 {
                        let i = l.find(&format!(" {n}=\"")).unwrap() + n.len() + 3;
                        l[i..i + l[i..].find('"').unwrap()].parse().unwrap()
                    };
                    [v("x"), v("y"), v("x") + v("width"), v("y") + v("height")]
                })
                .collect();
            assert!(!marks.is_empty());
            for (i, a) in marks.iter().enumerate() {
                for b in &marks[i + 1..] {
                    let apart = a[2] < b[0] || b[2] < a[0] || a[3] < b[1] || b[3] < a[1];
                    assert!(apart, "marks {a:?} and {b:?} touch");
                }
            }
        }
    }

    /// A long hashtag is cut in its label with an ellipsis, and given whole in the label's
    /// `<title>`; its `: N% of it` stays.
    #[test]
    fn a_long_hashtag_is_cut_in_its_panel_and_whole_in_its_title() {
        let m = &crowded()[0];
        let svg = m.render();
        let label = texts(&svg)
            .into_iter()
            .find(|d| d.text.starts_with("top hashtag"))
            .unwrap();
        let room = f64::from(PANEL_W - LABEL_X - MARGIN);
        assert!(label.text.chars().count() as f64 * CHAR_W <= room);
        // cut in its middle: both ends of the hashtag, which tell tenants' tags apart
        let (head, tail) = label.text.split_once('\u{2026}').expect("cut");
        assert!(
            head.starts_with("top hashtag {queue:") && tail.ends_with("-high}: 100% of it"),
            "{label:?}"
        );
        assert!(svg.contains("<title>top hashtag {queue:emails:priority-high}: 100% of it</title>"));
    }
}
