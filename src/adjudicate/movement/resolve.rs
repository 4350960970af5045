//! The resolver: yes/no decisions that depend on each other, with cycles.
//!
//! It knows nothing of Diplomacy. A set of [`Decisions`] numbered `0..n`
//! says how to settle one decision given the others (asking this resolver
//! for the ones it needs) and what to do with a cycle that has no single
//! consistent answer; the resolver caches answers, notices when a decision
//! depends on itself, and runs Kruijswijk's guess algorithm (DATC 5.F,
//! with the `recursion_hits` refinement): guess "no", then "yes"; if both
//! guesses give the same answer that is the answer, if not the cycle goes
//! to [`Decisions::backup_rule`].
//!
//! Keeping it apart means the rules of the movement phase (strengths, cut
//! support, convoy paths) live in one place and the guessing in another,
//! and a rule change cannot break the cycle handling unseen.

// State bits, one byte per decision.
const RESOLVED: u8 = 1;
const VISITED: u8 = 2;
const IN_CYCLE: u8 = 4;
const RESULT: u8 = 8;

/// The rule side of the resolver: what each decision means.
pub(super) trait Decisions {
    /// Settle decision `d` by the rules, asking `r` for the decisions it
    /// depends on (which may be guesses while a cycle is explored).
    fn decide(&self, r: &mut Resolver, d: usize) -> bool;

    /// The backup rule for a cycle whose decisions (`cycle`) have no single
    /// consistent answer, or two: for each member its settled answer, or
    /// `None` to leave it to be decided again once the others are settled.
    fn backup_rule(&self, cycle: &[usize]) -> Vec<Option<bool>>;
}

/// The memory of a [`Resolver`], kept between judgements.
#[derive(Default)]
pub(super) struct Scratch {
    state: Vec<u8>,
    cycle: Vec<u16>,
}

/// The state of the guess algorithm over decisions `0..n`.
pub(super) struct Resolver {
    state: Vec<u8>,
    /// The decisions found in the current dependency cycle, in order.
    cycle: Vec<u16>,
    recursion_hits: u32,
    guess_based: bool,
}

impl Resolver {
    /// A resolver for `n` decisions, none settled.
    #[cfg(test)]
    pub(super) fn new(n: usize) -> Resolver {
        Resolver::reusing(n, Scratch::default())
    }

    /// A resolver for `n` decisions, none settled, in the memory of an
    /// earlier one (see [`Resolver::scratch`]): a judge that runs many
    /// times allocates nothing here after its first judgement.
    pub(super) fn reusing(n: usize, mut s: Scratch) -> Resolver {
        s.state.clear();
        s.state.resize(n, 0);
        s.cycle.clear();
        Resolver {
            state: s.state,
            cycle: s.cycle,
            recursion_hits: 0,
            guess_based: false,
        }
    }

    /// The resolver's memory, for the next [`Resolver::reusing`].
    pub(super) fn scratch(self) -> Scratch {
        Scratch {
            state: self.state,
            cycle: self.cycle,
        }
    }

    /// The current answer of decision `d`: settled, or the guess it holds.
    pub(super) fn result(&self, d: usize) -> bool {
        self.state[d] & RESULT != 0
    }

    /// The answer of `d` if it is settled.
    pub(super) fn settled(&self, d: usize) -> Option<bool> {
        (self.state[d] & RESOLVED != 0).then(|| self.result(d))
    }

    fn set_result(&mut self, d: usize, r: bool) {
        if r {
            self.state[d] |= RESULT;
        } else {
            self.state[d] &= !RESULT;
        }
    }

    /// Settle decision `d` as `r`. Also for the caller that knows the
    /// answer of a decision that depends on no other without asking the
    /// rules (a move nobody opposes), before resolving the rest.
    pub(super) fn settle(&mut self, d: usize, r: bool) {
        self.set_result(d, r);
        self.state[d] |= RESOLVED;
    }

    fn truncate_cycle(&mut self, len: usize) {
        for i in len..self.cycle.len() {
            let m = self.cycle[i] as usize;
            self.state[m] &= !IN_CYCLE;
        }
        self.cycle.truncate(len);
    }

    /// The answer of decision `d`, settling it (and what it depends on)
    /// when it is not yet.
    pub(super) fn resolve<D: Decisions + ?Sized>(&mut self, rules: &D, d: usize) -> bool {
        let s = self.state[d];
        if s & RESOLVED != 0 {
            return s & RESULT != 0;
        }
        if s & IN_CYCLE != 0 {
            self.guess_based = true;
            return s & RESULT != 0;
        }
        if s & VISITED != 0 {
            self.cycle.push(d as u16);
            self.state[d] |= IN_CYCLE;
            self.guess_based = true;
            self.recursion_hits += 1;
            return s & RESULT != 0;
        }
        self.state[d] |= VISITED;
        let old_cycle_len = self.cycle.len();
        let old_guess_based = self.guess_based;
        self.guess_based = false;
        let old_hits = self.recursion_hits;
        self.set_result(d, false);
        let first = rules.decide(self, d);
        if !self.guess_based {
            self.guess_based = old_guess_based;
            self.settle(d, first);
            self.state[d] &= !VISITED;
            return first;
        }
        if self.state[d] & IN_CYCLE != 0 {
            self.recursion_hits -= 1;
        }
        if self.recursion_hits == old_hits {
            // This decision is the ancestor of the whole cycle: try the
            // other guess.
            self.truncate_cycle(old_cycle_len);
            self.set_result(d, true);
            let second = rules.decide(self, d);
            if first == second {
                self.truncate_cycle(old_cycle_len);
                self.guess_based = old_guess_based;
                self.settle(d, first);
                self.state[d] &= !VISITED;
                return first;
            }
            // No single answer: the backup rule.
            let members: Vec<usize> = self.cycle[old_cycle_len..]
                .iter()
                .map(|&m| m as usize)
                .collect();
            for (&m, answer) in members.iter().zip(rules.backup_rule(&members)) {
                if let Some(a) = answer {
                    self.settle(m, a);
                }
            }
            self.truncate_cycle(old_cycle_len);
            self.guess_based = old_guess_based;
            self.state[d] &= !VISITED;
            return self.resolve(rules, d);
        }
        if self.state[d] & IN_CYCLE == 0 {
            self.cycle.push(d as u16);
            self.state[d] |= IN_CYCLE;
        }
        self.set_result(d, first);
        self.state[d] &= !VISITED;
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decisions given as plain functions of each other, to check the
    /// resolver without any Diplomacy.
    struct Table {
        rule: Vec<fn(&mut Resolver, &Table) -> bool>,
        backup: Vec<Option<bool>>,
    }

    impl Decisions for Table {
        fn decide(&self, r: &mut Resolver, d: usize) -> bool {
            (self.rule[d])(r, self)
        }
        fn backup_rule(&self, cycle: &[usize]) -> Vec<Option<bool>> {
            cycle.iter().map(|&m| self.backup[m]).collect()
        }
    }

    #[test]
    fn a_chain_without_cycles_settles_each_decision_once() {
        let t = Table {
            rule: vec![|r, t| !r.resolve(t, 1), |r, t| r.resolve(t, 2), |_, _| true],
            backup: vec![None; 3],
        };
        let mut r = Resolver::new(3);
        assert!(!r.resolve(&t, 0));
        assert_eq!(r.settled(1), Some(true));
        assert_eq!(r.settled(2), Some(true));
    }

    #[test]
    fn a_cycle_with_one_consistent_answer_takes_it() {
        // 0 = 1 and 2; 1 = 0 or 2; 2 = false: only "no" fits.
        let t = Table {
            rule: vec![
                |r, t| r.resolve(t, 1) && r.resolve(t, 2),
                |r, t| r.resolve(t, 0) || r.resolve(t, 2),
                |_, _| false,
            ],
            backup: vec![Some(true); 3],
        };
        let mut r = Resolver::new(3);
        assert!(!r.resolve(&t, 0));
        assert!(!r.resolve(&t, 1));
    }

    #[test]
    fn a_cycle_with_two_answers_goes_to_the_backup_rule() {
        // 0 = 1, 1 = 0: "yes" and "no" both fit (circular movement).
        let t = Table {
            rule: vec![|r, t| r.resolve(t, 1), |r, t| r.resolve(t, 0)],
            backup: vec![Some(true), Some(true)],
        };
        let mut r = Resolver::new(2);
        assert!(r.resolve(&t, 0));
        assert_eq!(r.settled(1), Some(true));
    }

    #[test]
    fn a_cycle_with_no_answer_goes_to_the_backup_rule_and_the_rest_is_decided_again() {
        // 0 = not 1, 1 = 0: no answer fits (a paradox). The backup rule
        // settles 1 as "no"; 0 is decided again from it.
        let t = Table {
            rule: vec![|r, t| !r.resolve(t, 1), |r, t| r.resolve(t, 0)],
            backup: vec![None, Some(false)],
        };
        let mut r = Resolver::new(2);
        assert!(r.resolve(&t, 0));
        assert_eq!(r.settled(1), Some(false));
    }
}
