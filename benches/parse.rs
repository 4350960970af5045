//! Order-reading speed (criterion): a realistic 34-unit order mail with the
//! noise players put around orders. Run with `cargo bench --bench parse`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use zinejudge::orders::mail::find_orders;
use zinejudge::orders::parse::OrderParser;
use zinejudge::variant::{self, PhaseKind};

/// A GM's copy of a whole board's orders, 34 units, in mixed styles.
const MAIL: &str = "Hello everyone,

Orders for Fall 1905 below, as received. Please check your own.

England:
1. F(Lon)-ENG
2. F North Sea convoys A Yorkshire - Norway
3. A Yor-Nwy via convoy
4. F(Nwy) S A(Swe)-StP
5. F Edi -> NWG

France:
* A Par - Bur; A Mar S A(Par)-Bur
* F Bre-MAO, F(Spa/sc)-WES
* A Gascony holds

Germany:
A(Mun)-Tyr. A(Ber) S A(Mun)-Tyr. F Kie-Hel.
A Hol - Bel
A Ruh S A Hol-Bel

Russia:
- A Swe - StP
- A War - Gal
- A Mos S A War-Gal
- F Sev-Bla
- F St Petersburg north coast - Barents Sea
- A Ukr S A War-Gal

Austria:
A(Vie)-Boh, A(Bud)-Rum, F(Tri)-Adr, A(Ser) S A(Bud)-Rum

Italy:
F(Nap)-ION
A(Rom)-Apu
F Tunis holds
A(Ven) S A(Mun)-Tyr

Turkey:
F(Ank)-BLA; A(Con)-Bul; A(Smy)-Arm; A(Bul) S A(Ser)
F(Gre) H

Deadline is Sunday as usual.

> Previous results follow.
> A(Par)-Gas bounced
-- 
The GM
";

fn mail(c: &mut Criterion) {
    let v = variant::builtin("standard").expect("ships").expect("loads");
    let parser = OrderParser::new(&v.map);
    let found = find_orders(&parser, MAIL, Some(PhaseKind::Movement));
    assert_eq!(found.len(), 34, "the mail holds 34 orders");
    assert!(found.iter().all(|f| f.result.is_ok()), "all orders read");
    c.bench_function("parse/mail_34_units", |b| {
        b.iter(|| find_orders(&parser, black_box(MAIL), Some(PhaseKind::Movement)))
    });
}

criterion_group!(benches, mail);
criterion_main!(benches);
