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
//! [`LABEL_X`].
//!
//! Shading ([`shade`]): a cell of value `v`, where the mean over the 16384 slots is `m`, is
//! its primary's colour mixed with white, the colour's part being `0.5 + log2(v / m) / 6`
//! within 0.14 to 1 (0.06 for an empty slot): a slot at the mean is half-tone, one at 8x the
//! mean or more in the full colour, one at 1/8 of it or less a pale tint. A primary that
//! carries 1.7x its share over evenly loaded slots looks darker than one at 0.65x. A slot that
//! no primary owns is [`UNOWNED`].

use std::fmt::Write;

use crate::text::{xml, xml_text};

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
}

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
        grid_origin(self.primaries.len()).1 + SIDE * CELL + 2 * MARGIN
    }

    /// The floor `f` as its label gives it: rounded down (no plan goes below it), to two
    /// decimals, or three where two would read as the target (a floor of 1.104 beside a
    /// target of 1.10).
    fn floor_text(&self, f: f64) -> String {
        let down = |decimals: i32| {
            let scale = 10f64.powi(decimals);
            format!("{:.*}", decimals as usize, (f * scale).floor() / scale)
        };
        match self.target {
            Some(t) if f > t && down(2) == format!("{t:.2}") => down(3),
            _ => down(2),
        }
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
        let _ = writeln!(
            svg,
            r##"<text x="{}" y="22" font-size="15">{}</text>"##,
            at(MARGIN),
            xml_text(&self.title)
        );
        let skew = self
            .skew
            .map_or_else(|| "-".to_owned(), |s| format!("{s:.2}"));
        let target = self
            .target
            .map_or_else(String::new, |t| format!(", target {t:.2}"));
        let floor = self
            .floor
            .map_or_else(String::new, |f| format!(", floor {}", self.floor_text(f)));
        let _ = writeln!(
            svg,
            r##"<text x="{}" y="40">skew {skew}{target}{floor}: the fullest primary's {} over its fair share</text>"##,
            at(MARGIN),
            xml_text(&self.metric)
        );
        self.bars(svg, x0);
        self.grid(svg, x0);
        self.labels(svg, x0);
    }

    /// Each primary's bar: its load over its fair share, with the fair share and the target.
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
        let x_of = |ratio: f64| at(BAR_X) as f64 + f64::from(BAR_W) * ratio / scale;
        let text_x = at(BAR_X + BAR_W + 8);
        let _ = writeln!(
            svg,
            r##"<text x="{}" y="{}">primary</text><text x="{text_x}" y="{}">share  load/fair  node</text>"##,
            at(MARGIN),
            BARS_Y + 12,
            BARS_Y + 12
        );
        for (i, p) in self.primaries.iter().enumerate() {
            let y = bar_y(i);
            let ratio = p.ratio.unwrap_or(0.0);
            let shown = p
                .ratio
                .map_or_else(|| "-".to_owned(), |r| format!("{r:.2}x"));
            let id: String = p.node.chars().take(8).collect();
            let _ = writeln!(
                svg,
                r##"<text x="{}" y="{}">{}</text><rect x="{}" y="{y}" width="{:.1}" height="{BAR_H}" fill="{}"><title>{} {}</title></rect><text x="{text_x}" y="{}">{:.1}%  {shown}  {}</text>"##,
                at(MARGIN),
                y + BAR_H - 2,
                xml(p.addr.as_bytes()),
                at(BAR_X),
                x_of(ratio) - f64::from(at(BAR_X)),
                hex(color(i)),
                xml(p.node.as_bytes()),
                xml(p.addr.as_bytes()),
                y + BAR_H - 2,
                100.0 * p.share,
                xml(id.as_bytes())
            );
        }
        let (top, bottom) = (bar_y(0) - 4, bar_y(self.primaries.len()));
        let fair = x_of(1.0);
        let _ = writeln!(
            svg,
            r##"<line x1="{fair:.1}" y1="{top}" x2="{fair:.1}" y2="{bottom}" stroke="#000000" stroke-width="1.5"/><text x="{fair:.1}" y="{}" text-anchor="middle">fair share</text>"##,
            bottom + 12
        );
        // the label of the higher of the target and the floor after its line, the other's
        // before its own: apart however near the two are
        let floor_higher = match (self.target, self.floor) {
            (Some(t), Some(f)) => f > t,
            _ => true,
        };
        let label = |x: f64, after: bool| {
            if after {
                format!(r#"x="{:.1}""#, x + 3.0)
            } else {
                format!(r#"x="{x:.1}" text-anchor="end""#)
            }
        };
        if let Some(t) = self.target {
            let x = x_of(t);
            let _ = writeln!(
                svg,
                r##"<line x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{bottom}" stroke="#c00000" stroke-width="1.5" stroke-dasharray="4 3"/><text {} y="{}" fill="#c00000">target {t:.2}</text>"##,
                label(x, !floor_higher),
                BARS_Y + 12
            );
        }
        if let Some(f) = self.floor {
            let x = x_of(f);
            let _ = writeln!(
                svg,
                r##"<line x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{bottom}" stroke="#7b3294" stroke-width="1.5" stroke-dasharray="1 2"/><text {} y="{}" fill="#7b3294">floor {}</text>"##,
                label(x, floor_higher),
                BARS_Y + 12,
                self.floor_text(f)
            );
        }
    }

    /// The grid of slots, shaded against the mean, the hot slots marked.
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
        let _ = writeln!(svg, r##"<text x="{gx}" y="{}">{key}</text>"##, gy - 8);
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

    /// The centre of `slot`'s cell in a panel at `x0`.
    fn centre(&self, x0: u32, slot: u16) -> (u32, u32) {
        let (gx, gy) = grid_origin(self.primaries.len());
        let s = u32::from(slot);
        (
            x0 + gx + (s % SIDE) * CELL + CELL / 2,
            gy + (s / SIDE) * CELL + CELL / 2,
        )
    }

    /// Every hot slot marked on the grid; as many as fit labelled right of it, in slot order
    /// (so that the leader lines do not cross), the rest listed.
    fn labels(&self, svg: &mut String, x0: u32) {
        let (_, gy) = grid_origin(self.primaries.len());
        let fit = (SIDE * CELL / LABEL_H) as usize;
        let heavy = self.heavy();
        let hot: Vec<&HotLabel> = self
            .hot
            .iter()
            .chain(&heavy)
            .filter(|h| u32::from(h.slot) < SIDE * SIDE)
            .collect();
        let (labelled, rest) = if hot.len() > fit {
            hot.split_at(fit - 1)
        } else {
            (&hot[..], &[][..])
        };
        let mut labelled = labelled.to_vec();
        labelled.sort_by_key(|h| h.slot);
        if hot.is_empty() {
            let _ = writeln!(
                svg,
                r##"<text x="{}" y="{}">no hot slot: none alone</text><text x="{}" y="{}">holds more than a fair share</text>"##,
                x0 + LABEL_X,
                gy + 12,
                x0 + LABEL_X,
                gy + 26
            );
        }
        // each label beside its slot's row where it can be, below the one before, the last
        // within the grid's height
        let mut tops: Vec<u32> = Vec::with_capacity(labelled.len());
        for h in &labelled {
            let want = self.centre(x0, h.slot).1.saturating_sub(8);
            let free = tops.last().map_or(gy, |&t| t + LABEL_H);
            tops.push(want.max(free));
        }
        let mut limit = gy + SIDE * CELL;
        for top in tops.iter_mut().rev() {
            *top = (*top).min(limit - LABEL_H);
            limit = *top;
        }
        for (h, &ly) in labelled.iter().zip(&tops) {
            let (cx, cy) = self.centre(x0, h.slot);
            let owner = self.owners.get(usize::from(h.slot)).copied().flatten();
            let _ = writeln!(
                svg,
                r##"<line x1="{}" y1="{cy}" x2="{}" y2="{}" stroke="#000000" stroke-width="0.8"/>"##,
                cx + MARK / 2,
                x0 + LABEL_X - 4,
                ly + 8
            );
            let second = match &h.hashtag {
                Some((tag, part)) => {
                    format!("top hashtag {{{}}}: {:.0}% of it", xml(tag), 100.0 * part)
                }
                None => owner.and_then(|o| self.primaries.get(o)).map_or_else(
                    || "no owner".to_owned(),
                    |p| format!("on {}", xml(p.addr.as_bytes())),
                ),
            };
            let (weight, kind) = if self.hot.iter().any(|x| x.slot == h.slot) {
                ("bold", ", hot")
            } else {
                ("normal", ", heavy")
            };
            let _ = writeln!(
                svg,
                r##"<text x="{}" y="{}" font-weight="{weight}">slot {}: {:.1}% of {}{kind}</text><text x="{}" y="{}">{second}</text>"##,
                x0 + LABEL_X,
                ly + 12,
                h.slot,
                100.0 * h.share,
                xml_text(&self.metric),
                x0 + LABEL_X,
                ly + 26
            );
        }
        if !rest.is_empty() {
            let listed: Vec<String> = rest.iter().take(12).map(|h| h.slot.to_string()).collect();
            let more = rest.len().saturating_sub(12);
            let tail = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            let _ = writeln!(
                svg,
                r##"<text x="{}" y="{}">hot too: {}{tail}</text>"##,
                x0 + LABEL_X,
                gy + rows(fit - 1) * LABEL_H + 12,
                listed.join(", ")
            );
        }
        // the marks last, over the grid and the lines
        for h in &hot {
            let (cx, cy) = self.centre(x0, h.slot);
            let owner = self.owners.get(usize::from(h.slot)).copied().flatten();
            let _ = writeln!(
                svg,
                r##"<rect x="{}" y="{}" width="{MARK}" height="{MARK}" fill="{}" stroke="#000000" stroke-width="1.5"><title>hot slot {}</title></rect>"##,
                cx - MARK / 2,
                cy - MARK / 2,
                hex(owner.map_or(UNOWNED, color)),
                h.slot
            );
        }
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
        let shown = r"{&lt;b&gt;&amp;&quot;x\xff\xe2\x80\xae\x0a]]&gt;\\}: 100% of it</text>";
        assert!(svg.contains(shown), "{svg}");
        assert!(!svg.contains(r"\\x") && !svg.contains(r"\&quot;"), "{svg}");
    }

    /// The floor, where a slot is hot: a line across the bars labelled, and in the skew's
    /// line; rounded down, with a third decimal where two would read as the target.
    #[test]
    fn the_floor_is_drawn_and_never_reads_above_itself() {
        let mut m = map(vec![0u64; 16384], vec![None; 16384], Vec::new());
        m.floor = Some(1.4159);
        let svg = m.render();
        assert!(svg.contains(">floor 1.41</text>"), "{svg}");
        assert!(svg.contains("target 1.10, floor 1.41:"), "{svg}");
        assert!(svg.contains(r##"stroke="#7b3294""##));
        m.floor = Some(1.1049);
        let svg = m.render();
        assert!(svg.contains(">floor 1.104</text>"), "{svg}");
        m.target = Some(1.2);
        let svg = m.render();
        assert!(svg.contains(">floor 1.10</text>"));
        // the target above the floor: its label after its line, the floor's before its own
        // (they were drawn over each other)
        assert!(before_its_line(&svg, ">floor 1.10</text>"), "{svg}");
        assert!(!before_its_line(&svg, ">target 1.20</text>"), "{svg}");
        m.floor = Some(1.4159);
        let svg = m.render();
        assert!(!before_its_line(&svg, ">floor 1.41</text>"), "{svg}");
        assert!(before_its_line(&svg, ">target 1.20</text>"), "{svg}");
    }

    /// Whether the `<text>` element ending in `text` is anchored at its end (drawn before
    /// the line at its `x`).
    fn before_its_line(svg: &str, text: &str) -> bool {
        let i = svg.find(text).unwrap();
        let tag = &svg[svg[..i].rfind("<text").unwrap()..i];
        tag.contains(r#"text-anchor="end""#)
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
}
