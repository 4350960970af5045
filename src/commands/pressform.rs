//! Press as the three judges write it: whom a PRESS or BROADCAST line sends
//! to, and where the text under it ends. This one module decides both, so
//! that privacy does not depend on two readings agreeing: the command's
//! line is read here ([`Header::read`], then [`Header::resolve`] against
//! the game), and the mail's lines are cut here ([`block`]).
//!
//! Recipients are written as njudge and DPjudge players write them, and as
//! this judge always read them:
//! - names, adjectives and aliases, several words long where a power's name
//!   is (`PRESS TO Duke William`), in lists with commas, spaces or `and`
//!   (`PRESS TO France,Russia, austria`);
//! - initials run together (`PRESS TO FRG`), with `M` for the GM and `O`
//!   for the observers (njudge's special letters); a power's letter is
//!   [`crate::commands::power_letters`];
//! - `TO ALL`, `TO ALL BUT G` and njudge's `-G` (everybody but those), and
//!   DPjudge's `+FRG` for `TO FRG`;
//! - `GREY`, `GRAY`, `ANONYMOUS(LY)` for grey press, `WHITE`,
//!   `UNANONYMOUS(LY)` for signed press, DPjudge's `QUIET` (the judge never
//!   echoes press to its writer anyway).
//!
//! A word that reads both as a name and as initials (DPjudge reads `Fra`
//! as France, Russia and Austria; this judge always read it as France) is
//! refused with both readings named: press never goes to more people than
//! the writer can have meant. Fake press (njudge's and DPjudge's `FAKE`,
//! DPjudge's `FROM`) is refused: this judge sends press as it is.
//!
//! Where press ends: at a line whose first word is `ENDPRESS` or
//! `ENDBROADCAST` (either ends either, as on both judges), or that is
//! `END PRESS` / `END BROADCAST` alone; at `SIGNOFF` (`SIGN OFF`,
//! `SIGNOUT`) as the first word of a line, which also ends the reading of
//! the mail; at a command line that carries a password (a sign-on: it is
//! carried out, and its password goes to nobody); and at the end of the
//! mail. Nothing after the terminator is press.

use crate::map::PowerId;
use crate::variant::Variant;

/// Who a press line's list (after `TO`, `+`, `ALL BUT`, `-`) names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    /// A power (its player).
    Power(PowerId),
    /// The game's GM (`M`, `MASTER`, `GM`).
    Master,
    /// The game's observers (`O`, `OBSERVERS`).
    Observers,
}

/// Whom press goes to, resolved against the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Recipients {
    /// Every player and observer (BROADCAST, `TO ALL`).
    Everybody,
    /// Only these.
    Only(Vec<Target>),
    /// Every player and observer but these (`TO ALL BUT`, `-list`).
    AllBut(Vec<Target>),
}

/// How the list on a press line is meant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// No list given.
    Unsaid,
    /// `TO ALL`.
    All,
    /// `TO list`, `+list`, or a list alone.
    To,
    /// `TO ALL BUT list`, `-list`.
    AllBut,
}

/// A PRESS or BROADCAST line as written, before the game is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Header {
    mode: Mode,
    /// The words of the list, split at commas, as written.
    list: Vec<String>,
    /// `Some(true)` for grey, `Some(false)` for white, `None` unsaid.
    pub(crate) grey: Option<bool>,
}

/// Set how the list is meant, refusing a second, different way.
fn set_mode(h: &mut Header, m: Mode) -> Result<(), String> {
    if h.mode != Mode::Unsaid && h.mode != m {
        return Err(
            "the line names its readers twice (write one of TO list, TO ALL, or TO ALL BUT list)"
                .to_string(),
        );
    }
    h.mode = m;
    Ok(())
}

/// Whether `w` is `word` in any case.
fn is(w: &str, word: &str) -> bool {
    w.eq_ignore_ascii_case(word)
}

impl Header {
    /// Read the words after `PRESS` (`broadcast`: after `BROADCAST`, which
    /// without a list is to everybody). `Err` says why the line is not a
    /// press line the judge takes.
    pub(crate) fn read(words: &[String], broadcast: bool) -> Result<Header, String> {
        // Commas split as spaces do (`France,Russia, austria`).
        let words: Vec<String> = words
            .iter()
            .flat_map(|w| w.split(','))
            .map(|w| w.trim_end_matches(['.', ':', ';']).to_string())
            .filter(|w| !w.is_empty())
            .collect();
        let mut h = Header {
            mode: Mode::Unsaid,
            list: Vec::new(),
            grey: None,
        };
        let mut i = 0;
        while i < words.len() {
            let w = words[i].as_str();
            let next = words.get(i + 1).map(String::as_str);
            if is(w, "to") {
                if next.is_some_and(|n| is(n, "all")) {
                    if words.get(i + 2).is_some_and(|n| is(n, "but")) {
                        set_mode(&mut h, Mode::AllBut)?;
                        i += 3;
                    } else {
                        set_mode(&mut h, Mode::All)?;
                        i += 2;
                    }
                } else {
                    set_mode(&mut h, Mode::To)?;
                    i += 1;
                }
                continue;
            }
            if is(w, "all") {
                if next.is_some_and(|n| is(n, "but")) {
                    set_mode(&mut h, Mode::AllBut)?;
                    i += 2;
                } else {
                    set_mode(&mut h, Mode::All)?;
                    i += 1;
                }
                continue;
            }
            if let Some(rest) = w.strip_prefix('+') {
                set_mode(&mut h, Mode::To)?;
                if !rest.is_empty() {
                    h.list.push(rest.to_string());
                }
                i += 1;
                continue;
            }
            if let Some(rest) = w.strip_prefix('-') {
                set_mode(&mut h, Mode::AllBut)?;
                if !rest.is_empty() {
                    h.list.push(rest.to_string());
                }
                i += 1;
                continue;
            }
            let upper = w.to_ascii_uppercase();
            match upper.as_str() {
                "GREY" | "GRAY" | "ANONYMOUS" | "ANONYMOUSLY" => {
                    if h.grey == Some(false) {
                        return Err("the line asks for white and grey press at once".into());
                    }
                    h.grey = Some(true);
                }
                "WHITE" | "UNANONYMOUS" | "UNANONYMOUSLY" => {
                    if h.grey == Some(true) {
                        return Err("the line asks for white and grey press at once".into());
                    }
                    h.grey = Some(false);
                }
                // DPjudge: no copy to the writer; this judge sends none.
                "QUIET" => {}
                "FAKE" | "FROM" => {
                    return Err(format!(
                        "this judge sends press as it is, from its writer to its readers: \
                         there is no fake press ({upper} ...); leave it out"
                    ));
                }
                _ => {
                    if h.mode == Mode::All {
                        return Err(format!(
                            "`{}` after TO ALL: write TO ALL BUT {} to leave someone out",
                            crate::mail::header_text(w, 40),
                            crate::mail::header_text(w, 40)
                        ));
                    }
                    if h.mode == Mode::Unsaid {
                        h.mode = Mode::To;
                    }
                    h.list.push(w.to_string());
                }
            }
            i += 1;
        }
        match h.mode {
            Mode::Unsaid if broadcast => h.mode = Mode::All,
            Mode::Unsaid => {
                return Err(
                    "PRESS TO whom? Write PRESS TO England France (or initials: PRESS TO EF), \
                     PRESS TO ALL BUT Germany, or BROADCAST"
                        .into(),
                );
            }
            Mode::To | Mode::AllBut if h.list.is_empty() => {
                return Err("the list of readers is empty".into());
            }
            _ => {}
        }
        Ok(h)
    }

    /// Whom the press goes to in a game of `v`.
    pub(crate) fn resolve(&self, v: &Variant) -> Result<Recipients, String> {
        match self.mode {
            Mode::All | Mode::Unsaid => Ok(Recipients::Everybody),
            Mode::To => Ok(Recipients::Only(targets(v, &self.list)?)),
            Mode::AllBut => {
                let t = targets(v, &self.list)?;
                if t.contains(&Target::Master) {
                    return Err(
                        "the GM reads all press in this judge's games: it cannot be left out"
                            .into(),
                    );
                }
                Ok(Recipients::AllBut(t))
            }
        }
    }
}

/// The targets a list of words names, every word accounted for.
fn targets(v: &Variant, words: &[String]) -> Result<Vec<Target>, String> {
    let letters = crate::commands::power_letters(v);
    let mut out: Vec<Target> = Vec::new();
    let push = |t: Target, out: &mut Vec<Target>| {
        if !out.contains(&t) {
            out.push(t);
        }
    };
    let mut k = 0;
    while k < words.len() {
        // The longest run of words that is a power's name (`Duke William`,
        // `Magyars and Polacks`).
        let named = (1..=(words.len() - k).min(4)).rev().find_map(|n| {
            v.map
                .lookup_power(&words[k..k + n].join(" "))
                .map(|p| (p, n))
        });
        let w = words[k].as_str();
        let as_initials = initials(&letters, w);
        if let Some((p, n)) = named {
            // A word that is also initials of other powers: both readings
            // named, nothing sent.
            if n == 1
                && w.chars().count() >= 2
                && let Some(list) = &as_initials
                && list.iter().any(|t| *t != Target::Power(p))
            {
                return Err(ambiguous(v, w, p, list));
            }
            push(Target::Power(p), &mut out);
            k += n;
            continue;
        }
        let upper = w.to_ascii_uppercase();
        match upper.as_str() {
            "AND" | "&" => {}
            // `GM` is also njudge's initials of a G power and the Master:
            // where a power's letter is G, both readings are named and
            // nothing is sent.
            "GM" if as_initials
                .as_ref()
                .is_some_and(|l| l.iter().any(|t| matches!(t, Target::Power(_)))) =>
            {
                let names: Vec<String> = as_initials
                    .iter()
                    .flatten()
                    .map(|t| target_name(v, *t))
                    .collect();
                return Err(format!(
                    "`{}` could be the GM or the initials of {}: write PRESS TO M for the \
                     GM alone, PRESS TO G M for both (nothing was sent)",
                    crate::mail::header_text(w, 40),
                    names.join(", ")
                ));
            }
            "MASTER" | "GM" | "GAMEMASTER" | "MODERATOR" => push(Target::Master, &mut out),
            "OBSERVER" | "OBSERVERS" => push(Target::Observers, &mut out),
            _ => match as_initials {
                Some(list) => {
                    // A word of three letters or more that begins a power's
                    // name (`Ger` where it is no alias, `Engl`) is refused:
                    // the writer may mean the power. Two letters (`FR`,
                    // `IT`) are initials, as on njudge.
                    if w.chars().count() >= 3
                        && let Some(p) = begins_name(v, w)
                    {
                        return Err(ambiguous(v, w, p, &list));
                    }
                    for t in list {
                        push(t, &mut out);
                    }
                }
                None => {
                    let shown: String = letters
                        .iter()
                        .zip(v.map.power_ids())
                        .map(|(c, p)| format!("{c} {}", v.map.power(p).name))
                        .collect::<Vec<_>>()
                        .join(", ");
                    return Err(format!(
                        "no power `{}` in this game (its powers: {shown}; M is the GM, O the \
                         observers)",
                        crate::mail::header_text(w, 40)
                    ));
                }
            },
        }
        k += 1;
    }
    if out.is_empty() {
        return Err("the list of readers is empty".into());
    }
    Ok(out)
}

/// `w` read as initials run together, if every letter is a power's letter,
/// `M` or `O`.
fn initials(letters: &[char], w: &str) -> Option<Vec<Target>> {
    if w.is_empty() || !w.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    w.chars()
        .map(|c| {
            let c = c.to_ascii_uppercase();
            match c {
                'M' => Some(Target::Master),
                'O' => Some(Target::Observers),
                c => letters
                    .iter()
                    .position(|l| *l == c)
                    .map(|i| Target::Power(PowerId(i as u8))),
            }
        })
        .collect()
}

/// A power whose name, adjective or alias begins with `w`, if any.
fn begins_name(v: &Variant, w: &str) -> Option<PowerId> {
    let w = w.to_ascii_lowercase();
    let mut hits: Vec<(&String, PowerId)> = v
        .map
        .power_names
        .iter()
        .filter(|(n, _)| n.starts_with(&w))
        .map(|(n, p)| (n, *p))
        .collect();
    // The same answer whatever order the map keeps its names in.
    hits.sort();
    hits.first().map(|(_, p)| *p)
}

/// The refusal of a word that reads two ways.
fn ambiguous(v: &Variant, w: &str, p: PowerId, list: &[Target]) -> String {
    let names: Vec<String> = list.iter().map(|t| target_name(v, *t)).collect();
    let spaced: Vec<String> = w
        .chars()
        .map(|c| c.to_ascii_uppercase().to_string())
        .collect();
    format!(
        "`{}` could be {} or the initials of {}: write PRESS TO {} for the one, \
         PRESS TO {} for the others (nothing was sent)",
        crate::mail::header_text(w, 40),
        v.map.power(p).name,
        names.join(", "),
        v.map.power(p).name,
        spaced.join(" ")
    )
}

/// A target as the reply and the readers see it.
pub(crate) fn target_name(v: &Variant, t: Target) -> String {
    match t {
        Target::Power(p) => v.map.power(p).name.clone(),
        Target::Master => "the GM".to_string(),
        Target::Observers => "the observers".to_string(),
    }
}

/// How the text of a press (or diary) block ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ending {
    /// At ENDPRESS or ENDBROADCAST (that line is taken; `rest` is what
    /// followed the word on it, not read).
    EndPress {
        /// The line's number.
        line: usize,
        /// Text after the terminator on its line, if any.
        rest: Option<String>,
    },
    /// At a SIGNOFF line (not taken: it is carried out, and ends the mail).
    SignOff,
    /// At a command line carrying a password (not taken: it is carried
    /// out).
    SignOn,
    /// At the end of the mail.
    EndOfMail,
}

/// The first word of a line as a command word: any case, a colon or full
/// stop after it.
fn word(w: &str) -> String {
    w.trim_end_matches([':', '.', ',', '!'])
        .to_ascii_uppercase()
}

/// Whether `line` ends press by ENDPRESS or ENDBROADCAST; if so, what
/// follows the terminator on the line.
pub(crate) fn ends_press(line: &str) -> Option<Option<String>> {
    let t = line.trim();
    let mut words = t.split_whitespace();
    let first = word(words.next()?);
    let rest_after = |n: usize| {
        let r: Vec<&str> = t.split_whitespace().skip(n).collect();
        (!r.is_empty()).then(|| r.join(" "))
    };
    if matches!(first.as_str(), "ENDPRESS" | "ENDBROADCAST") {
        return Some(rest_after(1));
    }
    // `END PRESS`, `END BROADCAST`: as two words only alone on their line,
    // so that "End press freedom!" stays press.
    if first == "END" {
        let second = word(words.next()?);
        if matches!(second.as_str(), "PRESS" | "BROADCAST") && words.next().is_none() {
            return Some(None);
        }
    }
    None
}

/// Whether `line` starts with SIGNOFF (`SIGN OFF`, `SIGNOUT`), which ends
/// press and the reading of the mail.
pub(crate) fn is_signoff(line: &str) -> bool {
    let mut words = line.split_whitespace().map(word);
    match words.next().as_deref() {
        Some("SIGNOFF" | "SIGNOUT") => true,
        Some("SIGN") => matches!(words.next().as_deref(), Some("OFF" | "OUT")),
        _ => false,
    }
}

/// The text of a block (press, diary) that starts at `lines[from]`: its
/// lines, the index of the first line after it that is still to be read,
/// and how it ended. `carries_password` tells a command line that holds a
/// password (a sign-on), which ends the block so that it is carried out
/// and its password goes to nobody: the command table's to say.
pub(crate) fn block<'l>(
    lines: &[(usize, &'l str)],
    from: usize,
    carries_password: &dyn Fn(&str) -> bool,
) -> (Vec<&'l str>, usize, Ending) {
    let mut text = Vec::new();
    let mut j = from;
    while j < lines.len() {
        let (n, l) = lines[j];
        if let Some(rest) = ends_press(l) {
            return (text, j + 1, Ending::EndPress { line: n, rest });
        }
        if is_signoff(l) {
            return (text, j, Ending::SignOff);
        }
        if carries_password(l) {
            return (text, j, Ending::SignOn);
        }
        text.push(l);
        j += 1;
    }
    (text, j, Ending::EndOfMail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    fn std() -> Variant {
        crate::variant::builtin("standard").unwrap().unwrap()
    }

    fn to(line: &str) -> Result<Recipients, String> {
        Header::read(&words(line), false)?.resolve(&std())
    }

    fn p(i: u8) -> Target {
        Target::Power(PowerId(i))
    }

    #[test]
    fn every_way_of_naming_readers() {
        // A E F G I R T
        assert_eq!(to("TO FRG"), Ok(Recipients::Only(vec![p(2), p(5), p(3)])));
        assert_eq!(
            to("TO France,Russia, austria"),
            Ok(Recipients::Only(vec![p(2), p(5), p(0)]))
        );
        assert_eq!(to("TO ALL BUT G"), Ok(Recipients::AllBut(vec![p(3)])));
        assert_eq!(to("-G"), Ok(Recipients::AllBut(vec![p(3)])));
        assert_eq!(to("+FR"), Ok(Recipients::Only(vec![p(2), p(5)])));
        assert_eq!(to("TO M"), Ok(Recipients::Only(vec![Target::Master])));
        assert_eq!(
            to("TO England and France"),
            Ok(Recipients::Only(vec![p(1), p(2)]))
        );
        assert_eq!(to("TO ALL"), Ok(Recipients::Everybody));
        let h = Header::read(&words("GREY TO AF"), false).unwrap();
        assert_eq!(h.grey, Some(true));
        assert_eq!(h.resolve(&std()), Ok(Recipients::Only(vec![p(0), p(2)])));
        assert_eq!(
            Header::read(&[], true).unwrap().resolve(&std()),
            Ok(Recipients::Everybody)
        );
        assert!(Header::read(&[], false).is_err());
        assert!(to("TO A FAKE BROADCAST").is_err());
        assert!(to("FROM G TO A").is_err());
        // Two readings: refused, both named.
        let e = to("TO Fra").unwrap_err();
        assert!(e.contains("France") && e.contains("Russia"), "{e}");
        assert_eq!(to("TO It"), Ok(Recipients::Only(vec![p(4), p(6)])));
        assert!(to("TO Ger").is_err());
        assert!(to("TO Turkey").is_ok());
        assert!(to("TO X").unwrap_err().contains("no power `X`"));
    }

    #[test]
    fn press_ends_at_each_terminator() {
        let signon = |l: &str| l.starts_with("SIGNON");
        let lines: Vec<(usize, &str)> = vec![
            (1, "PRESS TO G"),
            (2, "hello"),
            (3, "End press freedom!"),
            (4, "ENDBROADCAST thanks"),
            (5, "A Lon-Yor"),
        ];
        let (text, next, end) = block(&lines, 1, &signon);
        assert_eq!(text, ["hello", "End press freedom!"]);
        assert_eq!(next, 4);
        assert_eq!(
            end,
            Ending::EndPress {
                line: 4,
                rest: Some("thanks".into())
            }
        );
        let lines: Vec<(usize, &str)> = vec![(1, "x"), (2, "Sign off"), (3, "y")];
        assert_eq!(block(&lines, 0, &signon), (vec!["x"], 1, Ending::SignOff));
        let lines: Vec<(usize, &str)> = vec![(1, "x"), (2, "SIGNON Fg sesame-long")];
        assert_eq!(block(&lines, 0, &signon), (vec!["x"], 1, Ending::SignOn));
        let lines: Vec<(usize, &str)> = vec![(1, "x")];
        assert_eq!(block(&lines, 0, &signon), (vec!["x"], 1, Ending::EndOfMail));
    }
}
