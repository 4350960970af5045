//! Round trip: any order printed in canonical zine notation reads back as
//! the same order.

use proptest::prelude::*;
use std::sync::OnceLock;
use zinejudge::map::{ProvinceId, UnitKind};
use zinejudge::orders::parse::OrderParser;
use zinejudge::orders::{
    AdjustCommand, AnyCommand, MainCommand, Place, RetreatCommand, UnitRef, format_order,
};
use zinejudge::variant::{self, PhaseKind, Variant};

fn standard() -> &'static Variant {
    static V: OnceLock<Variant> = OnceLock::new();
    V.get_or_init(|| variant::builtin("standard").unwrap().unwrap())
}

fn place() -> impl Strategy<Value = Place> {
    let v = standard();
    let n = v.map.provinces().len();
    (0..n, any::<bool>()).prop_map(move |(i, with_coast)| {
        let p = ProvinceId(i as u16);
        let regions = &v.map.province(p).regions;
        let coast = if with_coast && regions.len() > 1 {
            v.map.region(regions[1 + (i % (regions.len() - 1))]).coast
        } else {
            None
        };
        Place { province: p, coast }
    })
}

fn kind() -> impl Strategy<Value = UnitKind> {
    prop_oneof![Just(UnitKind::Army), Just(UnitKind::Fleet)]
}

fn unit() -> impl Strategy<Value = UnitRef> {
    (kind(), place()).prop_map(|(k, at)| UnitRef { kind: Some(k), at })
}

fn main_command() -> impl Strategy<Value = MainCommand> {
    prop_oneof![
        Just(MainCommand::Hold),
        (place(), any::<bool>(), prop::collection::vec(place(), 0..3)).prop_map(
            |(to, via, route)| {
                MainCommand::Move {
                    to,
                    via_convoy: via || !route.is_empty(),
                    route: route.into_iter().map(|p| p.province).collect(),
                }
            }
        ),
        unit().prop_map(|u| MainCommand::SupportHold { unit: u }),
        (unit(), place()).prop_map(|(u, to)| MainCommand::SupportMove { unit: u, to }),
        (unit(), place()).prop_map(|(u, to)| MainCommand::Convoy {
            unit: u,
            to: Place::province(to.province)
        }),
    ]
}

fn order() -> impl Strategy<Value = (AnyCommand, PhaseKind)> {
    prop_oneof![
        (unit(), main_command()).prop_map(|(u, c)| (AnyCommand::Main(u, c), PhaseKind::Movement)),
        (unit(), place()).prop_map(|(u, to)| (
            AnyCommand::Retreat(u, RetreatCommand::Move { to }),
            PhaseKind::Retreat
        )),
        unit().prop_map(|u| (
            AnyCommand::Retreat(u, RetreatCommand::Disband),
            PhaseKind::Retreat
        )),
        (kind(), place()).prop_map(|(k, at)| (
            AnyCommand::Adjust(AdjustCommand::Build { kind: Some(k), at }),
            PhaseKind::Adjustment
        )),
        unit().prop_map(|u| (
            AnyCommand::Adjust(AdjustCommand::Remove { unit: u }),
            PhaseKind::Adjustment
        )),
        Just((
            AnyCommand::Adjust(AdjustCommand::Waive),
            PhaseKind::Adjustment
        )),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn canonical_notation_reads_back_as_the_same_order((cmd, phase) in order()) {
        let v = standard();
        let text = format_order(&v.map, &cmd);
        let parsed = OrderParser::new(&v.map).parse(&text, Some(phase));
        prop_assert!(parsed.is_ok(), "`{}` did not parse: {:?}", text, parsed);
        prop_assert_eq!(parsed.unwrap().command, cmd, "`{}`", text);
    }
}

#[test]
fn coasts_print_and_read_back() {
    let v = standard();
    let stp = match v.map.lookup("stp").unwrap() {
        zinejudge::map::Named::Province(p) => p,
        _ => unreachable!(),
    };
    let nc = v.map.lookup_coast("nc").unwrap();
    let cmd = AnyCommand::Main(
        UnitRef {
            kind: Some(UnitKind::Fleet),
            at: Place {
                province: stp,
                coast: Some(nc),
            },
        },
        MainCommand::Hold,
    );
    let text = format_order(&v.map, &cmd);
    assert_eq!(text, "F(StP/nc) H");
    let back = OrderParser::new(&v.map)
        .parse(&text, Some(PhaseKind::Movement))
        .unwrap();
    assert_eq!(back.command, cmd);
}
