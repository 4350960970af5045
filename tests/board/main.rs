//! The board: DATC files, the variants' maps and rules played phase by phase,
//! notation, positions, the offline commands and the DPjudge importer.
//!
//! One test binary for many files (each file a module), so the suite links
//! a few binaries instead of one per file.

#[path = "../support_play/mod.rs"]
mod support_play;

mod cli_closed_stdout;
mod cli_errors;
mod cli_render;
mod cli_variants_folder;
mod datc_abstraction;
mod datc_files;
mod datc_text;
mod datc_v3;
mod differential;
mod import_dpjudge;
mod import_dpjudge_owner_borders;
mod import_dpjudge_ports;
mod import_dpjudge_readings;
mod mail_lines;
mod orders_notation;
mod orders_roundtrip;
mod outcome_causes;
mod parser_robustness;
mod positions_roundtrip;
mod report_snapshots;
mod rule_border_marks;
mod rule_dormant;
mod rule_home_builds;
mod rule_owner_borders;
mod store_files;
mod variant_1000ad_map;
mod variant_1066_map;
mod variant_1700ad_map;
mod variant_abstraction2_af;
mod variant_abstraction2_map;
mod variant_ardri_map;
mod variant_boxes;
mod variant_example;
