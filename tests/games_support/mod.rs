//! Standard games put straight into a store, for the harnesses that need
//! many games running before the judge starts (the deadline burst, the
//! signed-mail throughput): made through the library in one transaction,
//! as CREATE and JOIN would leave them, without a mail each.
//!
//! A test that uses it also includes `support_judge` (for the bot).

#![allow(dead_code)]

use zinejudge::game::Position;
use zinejudge::game::record::{SeatStatus, Settings, Status};
use zinejudge::map::PowerId;
use zinejudge::testing::store::Store;
use zinejudge::testing::store::games::{self, GameRow};
use zinejudge::variant::Variant;

/// A player seated by [`populate`].
#[derive(Debug, Clone)]
pub struct Player {
    /// Mail address.
    pub address: String,
    /// Game name.
    pub game: String,
    /// Power name.
    pub power: String,
    /// Password.
    pub password: String,
    /// The bot's orders for the first phase, zine notation.
    pub orders: Vec<String>,
}

impl Player {
    /// A mail body as the player sends it: a SIGNON line and the orders,
    /// lines ended by `eol`.
    pub fn signed_orders(&self, eol: &str) -> String {
        format!(
            "SIGNON {} {} {}{eol}{}{eol}",
            self.power,
            self.game,
            self.password,
            self.orders.join(eol)
        )
    }
}

/// The standard variant.
pub fn standard() -> Variant {
    zinejudge::variant::builtin("standard")
        .expect("standard is shipped")
        .expect("standard loads")
}

/// Make `n` active standard games `g0`, `g1`, ... in the store at `path`
/// (a path for SQLite, or a `Location`; created if need be), every power played (by `address(game, power)`), with
/// `deadline` (Unix seconds). With `with_orders`, each power already holds
/// the bot's orders for Spring 1901. `distinct_passwords`: each player
/// its own (an argon2 hash each, about 26 ms); otherwise all share one.
pub fn populate(
    path: &(impl zinejudge::testing::store::AsLocation + ?Sized),
    n: usize,
    deadline: i64,
    with_orders: bool,
    distinct_passwords: bool,
    mut address: impl FnMut(usize, &str) -> String,
) -> Vec<Player> {
    let v = standard();
    let pos = Position::initial(&v);
    let stored = pos.stored(&v).expect("the initial position stores");
    let shared = zinejudge::testing::trust::password::hash("pw-shared").expect("hash");
    let gm_hash = zinejudge::testing::trust::password::hash("gm-secret").expect("hash");
    let now = deadline - 3600;
    let mut store = Store::open(path).expect("open the store");
    let tx = store.transaction().expect("transaction");
    let mut players = Vec::new();
    for i in 0..n {
        let game = format!("g{i}");
        let row = GameRow {
            name: game.clone(),
            variant: v.name.clone(),
            gm_address: format!("gm{i}@example.test"),
            gm_hash: gm_hash.clone(),
            status: Status::Active,
            settings: Settings::default(),
            position: stored.clone(),
            deadline: Some(deadline),
            reminded: true,
            grace_noticed: false,
            result: None,
            created_at: now,
        };
        assert!(games::create(&tx, &row, v.map.powers().len()).expect("create"));
        // Every address of these games came in as the judge's own would:
        // each confirmed (it wants the judge's mail).
        zinejudge::testing::store::confirm::set_confirmed(&tx, &row.gm_address, now)
            .expect("confirmed");
        for mut seat in games::seats(&tx, &game).expect("seats") {
            let p = PowerId(seat.power);
            let name = v.map.power(p).name.clone();
            let password = if distinct_passwords {
                format!("pw-{game}-{name}")
            } else {
                "pw-shared".to_string()
            };
            let hash = if distinct_passwords {
                zinejudge::testing::trust::password::hash(&password).expect("hash")
            } else {
                shared.clone()
            };
            let address = address(i, &name);
            zinejudge::testing::store::confirm::set_confirmed(&tx, &address, now)
                .expect("confirmed");
            seat.address = Some(address.clone());
            seat.hash = Some(hash);
            seat.status = SeatStatus::Playing;
            games::save_seat(&tx, &game, &seat).expect("seat");
            let orders = crate::support_judge::bot::orders(&v, &pos, p);
            if with_orders {
                let lines: Vec<String> = orders.iter().map(|o| format!("M|{o}")).collect();
                games::set_orders(&tx, &game, p.0, &lines).expect("orders");
            }
            players.push(Player {
                address,
                game: game.clone(),
                power: name,
                password,
                orders,
            });
        }
    }
    tx.commit().expect("commit");
    players
}
