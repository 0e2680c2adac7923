fn main() {
    let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
    println!("{} {:04x?} {:?} {:?}", d.base_slot(), d.inverse, d.kernel, d.pivots);
    let t = d.table();
    for s in [0u16, 1, 5461, 8192, 10922, 16383] { println!("{s} {}", t.tag_for_slot(s).unwrap()); }
    let r = slotgen::verify(&d);
    println!("{:?} {} {}", r.failures.first(), r.slots_checked, r.tags_checked);
}
