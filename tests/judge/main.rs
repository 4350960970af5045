//! The judge behind the mail: commands and orders answered by the real processor
//! and an in-memory store, with a clock the tests move.
//!
//! One test binary for many files (each file a module), so the suite links
//! a few binaries instead of one per file.

#[path = "../picture_support/mod.rs"]
mod picture_support;
#[path = "../support_judge/mod.rs"]
mod support_judge;
#[path = "../support_play/mod.rs"]
mod support_play;

mod cli_adjudicate;
mod commands_each;
mod commands_game;
mod commands_lifecycle;
mod commands_replies;
mod every_line;
mod every_line_property;
mod games_by_mail;
mod identity;
mod import_dpjudge_calendar;
mod import_dpjudge_dummies;
mod import_dpjudge_press;
mod newcomer;
mod other_judges;
mod other_judges_cases;
mod other_judges_corpus;
mod other_judges_table;
mod picture;
mod press_property;
mod report_views;
mod rule_alternatives;
mod rule_dummies;
mod rule_new_homes;
mod rule_owner_borders;
mod rule_partisans;
mod rule_remote_builds;
mod signon_cache;
mod store_judge;
mod trust;
mod variant_1000ad_rules;
mod variant_1066_hidden;
mod variant_1066_rules;
mod variant_1700ad_impulses;
mod variant_1700ad_replies;
mod variant_abstraction2_mail;
mod variant_abstraction2_rules;
mod variant_ardri_rules;
mod variants_kept;
