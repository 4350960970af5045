//! Reading `open-to-owner-of` (see `map::owner_borders`): each neighbour
//! named must be one the province borders, each centre a supply centre.

use super::{Builder, Edges, Geography, RawProvince, normalize_name};
use crate::map::{OwnerBorder, ProvinceId};

impl Geography {
    /// The borders open only to the owner of some centres.
    pub(super) fn owner_borders(
        &self,
        b: &mut Builder,
        table: &[RawProvince],
        edges: &Edges,
    ) -> Vec<OwnerBorder> {
        let mut out = Vec::new();
        for (i, rp) in table.iter().enumerate() {
            let Some(list) = &rp.open_to_owner_of else {
                continue;
            };
            let from = ProvinceId(i as u16);
            for (neighbour, centres) in list.get_ref() {
                let Some(&to) = self.ids.get(&normalize_name(neighbour)) else {
                    b.at(list, format!("unknown province `{neighbour}`"));
                    continue;
                };
                if !self.borders_between(edges, from, to) {
                    b.at(
                        list,
                        format!(
                            "`{}` opens its border to `{neighbour}` to some owners, but has none there",
                            rp.id.get_ref()
                        ),
                    );
                    continue;
                }
                if centres.is_empty() {
                    b.at(
                        list,
                        format!("the border to `{neighbour}` names no centre to own"),
                    );
                    continue;
                }
                let mut need = Vec::with_capacity(centres.len());
                for c in centres {
                    match self.ids.get(&normalize_name(c.get_ref())) {
                        Some(&p) if table[p.index()].supply_centre => need.push(p),
                        Some(_) => b.at(c, format!("`{}` is not a supply centre", c.get_ref())),
                        None => b.at(c, format!("unknown province `{}`", c.get_ref())),
                    }
                }
                if need.len() == centres.len() {
                    out.push(OwnerBorder {
                        from,
                        to,
                        centres: need,
                    });
                }
            }
        }
        out
    }
}
