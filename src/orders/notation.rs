//! Printing orders in the notation of the postal zines: `A(Lon)-Yor`,
//! `F(ENG) C A(Lon)-Bre`, `A(Liv) S A(Fin)-Kar`, `A(Bud) S A(Vie)`.

use super::{AdjustCommand, AnyCommand, MainCommand, Place, RetreatCommand, Step, UnitRef};
use crate::map::{Map, UnitKind};

/// `Lon`, `StP/nc`.
pub fn format_place(map: &Map, p: Place) -> String {
    let abbr = &map.province(p.province).abbr;
    match p.coast {
        Some(c) => format!("{abbr}/{}", map.coast(c).abbr),
        None => abbr.clone(),
    }
}

/// `A(Lon)`, `F(StP/sc)`; a unit of unknown kind prints as its place,
/// `Lon`, as the player wrote it (and as the parser reads it back).
pub fn format_unit(map: &Map, kind: Option<UnitKind>, at: Place) -> String {
    match kind {
        Some(k) => format!("{}({})", k.letter(), format_place(map, at)),
        None => format_place(map, at),
    }
}

fn unit(map: &Map, u: &UnitRef) -> String {
    format_unit(map, u.kind, u.at)
}

/// Canonical zine notation of any order.
pub fn format_order(map: &Map, order: &AnyCommand) -> String {
    match order {
        AnyCommand::Main(u, c) => {
            let head = unit(map, u);
            match c {
                MainCommand::Hold => format!("{head} H"),
                MainCommand::Move {
                    to,
                    via_convoy,
                    route,
                } => {
                    let mut s = head;
                    for r in route {
                        s.push('-');
                        s.push_str(&map.province(*r).abbr);
                    }
                    s.push('-');
                    s.push_str(&format_place(map, *to));
                    if *via_convoy && route.is_empty() {
                        s.push_str(" via convoy");
                    }
                    s
                }
                MainCommand::SupportHold { unit: v } => format!("{head} S {}", unit(map, v)),
                MainCommand::SupportMove { unit: v, to } => {
                    format!("{head} S {}-{}", unit(map, v), format_place(map, *to))
                }
                MainCommand::Convoy { unit: v, to } => {
                    format!("{head} C {}-{}", unit(map, v), format_place(map, *to))
                }
                MainCommand::Board { fleet } => format!("{head} boards {}", unit(map, fleet)),
                MainCommand::Disembark { to, fleet_supports } => {
                    let mut s = format!("{head} disembarks A({})", format_place(map, *to));
                    if *fleet_supports {
                        s.push_str(&format!(" S by F({})", format_place(map, u.at)));
                    }
                    s
                }
                MainCommand::Destroy { target } => format!("{head} destroys {}", unit(map, target)),
                MainCommand::Impulses {
                    stack,
                    steps,
                    double,
                } => {
                    let mut s = if *stack > 1 {
                        format!("{stack}{head}")
                    } else {
                        head
                    };
                    for (i, st) in steps.iter().enumerate() {
                        let sep = if i == 0
                            && matches!(st, Step::SupportHold(_) | Step::SupportMove(..))
                        {
                            " "
                        } else {
                            "-"
                        };
                        s.push_str(sep);
                        s.push_str(&match st {
                            Step::Hold => "hold".to_string(),
                            Step::Move(p) => format_place(map, *p),
                            Step::SupportHold(v) => format!("S {}", unit(map, v)),
                            Step::SupportMove(v, p) => {
                                format!("S {}-{}", unit(map, v), format_place(map, *p))
                            }
                            Step::Convoy(v, p) => {
                                format!("C {}-{}", unit(map, v), format_place(map, *p))
                            }
                        });
                    }
                    if *double {
                        s.push_str(" (x2)");
                    }
                    s
                }
            }
        }
        AnyCommand::Retreat(u, c) => match c {
            RetreatCommand::Move { to } => format!("{}-{}", unit(map, u), format_place(map, *to)),
            RetreatCommand::Disband => format!("Disband {}", unit(map, u)),
        },
        AnyCommand::Adjust(c) => match c {
            AdjustCommand::Build { kind, at } => format!("Build {}", format_unit(map, *kind, *at)),
            AdjustCommand::Remove { unit: u } => format!("Remove {}", unit(map, u)),
            AdjustCommand::Convert { unit: u, to } => {
                format!("{} becomes {}", unit(map, u), to.letter())
            }
            AdjustCommand::Waive => "Build waived".to_string(),
        },
    }
}

/// `St Petersburg (north coast)`, `London`: the long form the judge-style
/// results use.
pub fn format_place_long(map: &Map, p: Place) -> String {
    let name = &map.province(p.province).name;
    match p.coast {
        Some(c) => format!("{name} ({})", map.coast(c).name),
        None => name.clone(),
    }
}

/// `Army London`, `Fleet St Petersburg (south coast)`.
pub fn format_unit_long(map: &Map, kind: Option<UnitKind>, at: Place) -> String {
    format!(
        "{} {}",
        kind.map_or("Unit", |k| k.word()),
        format_place_long(map, at)
    )
}

/// An order in the words of the njudge results, which mapping tools read:
/// `Army London -> York`, `Fleet North Sea CONVOY Army Yorkshire -> Norway`,
/// `Army Wales SUPPORT Army Liverpool -> Yorkshire`, `Fleet Kiel HOLD`.
pub fn format_order_long(map: &Map, order: &AnyCommand) -> String {
    let unit = |u: &UnitRef| format_unit_long(map, u.kind, u.at);
    let place = |p: &Place| format_place_long(map, *p);
    match order {
        AnyCommand::Main(u, c) => {
            let head = unit(u);
            match c {
                MainCommand::Hold => format!("{head} HOLD"),
                MainCommand::Move { to, route, .. } => {
                    let mut s = head;
                    for r in route {
                        s.push_str(" -> ");
                        s.push_str(&map.province(*r).name);
                    }
                    format!("{s} -> {}", place(to))
                }
                MainCommand::SupportHold { unit: v } => format!("{head} SUPPORT {}", unit(v)),
                MainCommand::SupportMove { unit: v, to } => {
                    format!("{head} SUPPORT {} -> {}", unit(v), place(to))
                }
                MainCommand::Convoy { unit: v, to } => {
                    format!("{head} CONVOY {} -> {}", unit(v), place(to))
                }
                other => format!(
                    "{head} {}",
                    format_order(map, &AnyCommand::Main(*u, other.clone()))
                ),
            }
        }
        AnyCommand::Retreat(u, c) => match c {
            RetreatCommand::Move { to } => format!("{} -> {}", unit(u), place(to)),
            RetreatCommand::Disband => format!("{} DISBAND", unit(u)),
        },
        AnyCommand::Adjust(c) => match c {
            AdjustCommand::Build { kind, at } => {
                format!("Build {}", format_unit_long(map, *kind, *at))
            }
            AdjustCommand::Remove { unit: u } => format!("Remove {}", unit(u)),
            AdjustCommand::Convert { unit: u, to } => {
                format!("{} BECOMES {}", unit(u), to.word())
            }
            AdjustCommand::Waive => "Build waived".to_string(),
        },
    }
}
