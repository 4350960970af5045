//! Borders open only to the owner of some centres (`map::owner_borders`:
//! Imperial's Bosporus, open only to whoever owns Constantinople), where
//! the movement judge asks about them: a unit may not move across one
//! shut to its power, nor give support across it, nor be supported in a
//! move across it (DPjudge refuses all three when the order is given), nor
//! retreat across it.
//!
//! The judge is told which borders are shut to whom (`Prepared::closed`,
//! from the position's owners); with none, nothing here is asked.

use super::{Compiled, NONE};
use crate::adjudicate::Illegal;
use crate::map::{PowerId, ProvinceId, Unit, UnitKind};
use crate::orders::MainCommand;

impl Compiled<'_> {
    /// The centre `power` lacks to cross from `from` into `to`, if the
    /// border is shut to it.
    pub(super) fn closed_to(
        &self,
        power: PowerId,
        from: ProvinceId,
        to: ProvinceId,
    ) -> Option<ProvinceId> {
        self.hooks
            .closed
            .iter()
            .find(|c| c.power == power && c.from == from && c.to == to)
            .map(|c| c.centre)
    }

    /// Why unit `u` (standing as `unit`) may not carry out `c` across a
    /// border shut to its power, or to the power of the unit it supports.
    pub(super) fn check_owner_borders(
        &self,
        u: usize,
        unit: Unit,
        c: &MainCommand,
    ) -> Result<(), Illegal> {
        let here = ProvinceId(self.slot[u].prov);
        let shut = |power: PowerId, from: ProvinceId, to: ProvinceId| {
            self.closed_to(power, from, to)
                .map_or(Ok(()), |centre| Err(Illegal::OwnersOnly { to, centre }))
        };
        match c {
            // A move by convoy crosses no border of its own.
            MainCommand::Move {
                to,
                via_convoy: false,
                route,
            } if route.is_empty() => shut(unit.power, here, to.province),
            MainCommand::SupportHold { unit: t } => shut(unit.power, here, t.at.province),
            MainCommand::SupportMove { unit: t, to } => {
                shut(unit.power, here, to.province)?;
                // The move supported must be one its unit may make; an
                // army might yet go by convoy.
                let s = self.place[t.at.province.index()].unit;
                if s == NONE || s as usize == u {
                    return Ok(());
                }
                let mover = self.b.units[s as usize];
                if mover.kind == UnitKind::Army {
                    return Ok(());
                }
                shut(
                    mover.power,
                    ProvinceId(self.slot[s as usize].prov),
                    to.province,
                )
            }
            _ => Ok(()),
        }
    }
}
