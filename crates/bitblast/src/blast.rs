//! Translation of `smt` terms into AIG words, memoised per term.
//!
//! Every scalar term becomes a word: Bool one literal, `BitVec(w)` `w`
//! literals, a float its IEEE encoding (`exp + sig` bits), a rounding mode
//! the 3-bit index of [`RoundingMode::ALL`]. Array terms get no word: a
//! `Select` is resolved by read-over-write through stores, `ite`s and
//! constant arrays down to a base array, whose reads are fresh words tied
//! together by Ackermann constraints (equal indices, equal elements). So
//! arrays cost circuits proportional to their reads and writes, never to
//! the size of the index domain.
//!
//! Floating-point operators go through the exact circuits of [`crate::fp`].
//! What the blaster cannot translate exactly (FP operators without a
//! circuit there, array equality, reads of arrays that are neither variables nor built
//! from stores) becomes a fresh unconstrained word: an over-approximation.
//! Unsatisfiability stays exact; the solver must not trust a satisfying
//! assignment while any approximation exists (see [`Blaster::approximation`]).
//!
//! The traversal is iterative: a task stack of terms and array reads, where
//! each task either finishes or pushes the tasks it still depends on.

use rustc_hash::FxHashMap;
use smt::{BvValue, FpValue, Op, RoundingMode, Sort, TermId, TermKind, TermStore, Value};

use crate::aig::{Aig, Lit};
use crate::cnf::Limits;
use crate::fp;
use crate::words::{self, Word};

/// Widths above this make multipliers and dividers (quadratic circuits)
/// too large to be useful; such terms are approximated instead (reported
/// as an unsupported operator).
const MAX_QUADRATIC_WIDTH: usize = 1024;

/// Words wider than this are refused: a single such word would take
/// hundreds of megabytes, and every operation copies words.
const MAX_WORD_BITS: usize = 1 << 25;

/// The AIG may not grow beyond this many variables (about 4 GB).
const MAX_AIG_VARS: usize = 100_000_000;

/// Tasks between two looks at the solver limits (deadline, interrupt).
const TASKS_PER_LIMIT_CHECK: u32 = 4096;

/// Why floating-point terms without an exact circuit are approximated.
pub const FP_UNSUPPORTED: &str =
    "floating point: operator or format without an exact circuit (fp.rem of significands wider than x87's, huge formats)";

/// Interned index word of an array read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct IndexId(u32);

#[derive(Copy, Clone, Debug)]
enum Task {
    Term(TermId),
    /// The element of array term `.0` at index `.1`.
    Read(TermId, IndexId),
}

enum Step {
    Done(Word),
    Need(Vec<Task>),
    /// The term has no word at all (not even an approximation).
    Fail(String),
}

/// A base array's reads, in creation order.
#[derive(Default)]
struct BaseReads {
    reads: Vec<(IndexId, Word)>,
}

/// Counters for the statistics report.
#[derive(Copy, Clone, Debug, Default)]
pub struct BlastCounts {
    pub array_reads: u64,
    pub ackermann_constraints: u64,
    pub approximated_terms: u64,
}

/// The AIG under construction and everything memoised about terms.
#[derive(Default)]
pub struct Blaster {
    pub aig: Aig,
    words: FxHashMap<TermId, Word>,
    reads: FxHashMap<(TermId, IndexId), Word>,
    index_words: Vec<Word>,
    /// A term whose word is the index word (the first one seen).
    index_terms: Vec<TermId>,
    /// `word(x) - word(y)` for pairs of index bases `x < y` (see
    /// [`Blaster::indices_equal`]).
    base_differences: FxHashMap<(TermId, TermId), Word>,
    index_ids: FxHashMap<Word, IndexId>,
    base_reads: FxHashMap<TermId, BaseReads>,
    /// Array variables with reads, in first-read order (for models).
    array_vars: Vec<TermId>,
    /// Scalar variables with words, in first-seen order (for models).
    scalar_vars: Vec<TermId>,
    /// Facts of the encoding itself (Ackermann constraints, ranges of
    /// rounding-mode words) waiting to be asserted by the solver.
    pending_facts: Vec<Lit>,
    approximation: Option<String>,
    counts: BlastCounts,
}

fn bool_word(lit: Lit) -> Word {
    vec![lit]
}

/// Refuses sorts whose words would be unreasonably wide.
fn check_word_width(sort: Sort) -> Result<(), String> {
    match scalar_width(sort) {
        Some(width) if width > MAX_WORD_BITS => {
            Err(format!("formula too large: a {width}-bit value (limit {MAX_WORD_BITS} bits)"))
        }
        _ => Ok(()),
    }
}

/// Width of the word of a scalar sort; `None` for arrays.
fn scalar_width(sort: Sort) -> Option<usize> {
    match sort {
        Sort::Bool => Some(1),
        Sort::BitVec(w) => Some(w as usize),
        Sort::Float { exp, sig } => Some(exp as usize + sig as usize),
        Sort::RoundingMode => Some(3),
        Sort::Array(_) => None,
    }
}

/// The index of a rounding mode in `RoundingMode::ALL`: its word's value.
pub(crate) fn rounding_mode_index(rm: RoundingMode) -> usize {
    RoundingMode::ALL.iter().position(|&m| m == rm).expect("every mode is listed")
}

fn bv_bits(value: &BvValue) -> Word {
    words::from_bits((0..value.width()).map(|i| value.bit(i)))
}

/// The word of a scalar constant; `None` for array values.
pub(crate) fn constant_word(value: &Value) -> Option<Word> {
    Some(match value {
        Value::Bool(b) => bool_word(Lit::constant(*b)),
        Value::Bv(bv) => bv_bits(bv),
        Value::Fp(fp) => bv_bits(fp.bits()),
        Value::Rm(rm) => words::constant(rounding_mode_index(*rm) as u128, 3),
        Value::Array(_) => return None,
    })
}

/// The value of sort `sort` whose word has the bits `bits`.
pub fn value_from_bits(sort: Sort, bits: &[bool]) -> Option<Value> {
    Some(match sort {
        Sort::Bool => Value::Bool(bits[0]),
        Sort::BitVec(_) => Value::Bv(BvValue::from_bits_lsb_first(bits)),
        Sort::Float { exp, sig } => Value::Fp(FpValue::from_bits(exp, sig, BvValue::from_bits_lsb_first(bits))),
        Sort::RoundingMode => {
            let index = bits.iter().enumerate().fold(0, |acc, (i, &b)| acc | (usize::from(b) << i));
            Value::Rm(*RoundingMode::ALL.get(index)?)
        }
        Sort::Array(_) => return None,
    })
}

/// Float word layout (least significant first): trailing significand
/// (`sig - 1` bits), exponent (`exp` bits), sign.
fn float_is_nan(aig: &mut Aig, word: &[Lit], sig: usize) -> Lit {
    let (fraction, rest) = word.split_at(sig - 1);
    let exponent = &rest[..rest.len() - 1];
    let exponent_ones = words::reduce_and(aig, exponent);
    let fraction_nonzero = words::reduce_or(aig, fraction);
    aig.and(exponent_ones, fraction_nonzero)
}

/// SMT-LIB `=` on floats: every NaN equals every NaN, otherwise bits equal.
fn float_eq(aig: &mut Aig, a: &[Lit], b: &[Lit], sig: usize) -> Lit {
    let nan_a = float_is_nan(aig, a, sig);
    let nan_b = float_is_nan(aig, b, sig);
    let both_nan = aig.and(nan_a, nan_b);
    let same_bits = words::eq(aig, a, b);
    aig.or(both_nan, same_bits)
}

/// The IEEE encoding with NaNs replaced by the canonical NaN.
fn float_to_bits(aig: &mut Aig, a: &[Lit], sig: usize) -> Word {
    let nan = float_is_nan(aig, a, sig);
    let width = a.len();
    let canonical: Word = (0..width).map(|i| Lit::constant(i == sig - 2 || (i >= sig - 1 && i < width - 1))).collect();
    words::mux(aig, nan, &canonical, a)
}

impl Blaster {
    pub fn new() -> Blaster {
        Blaster::default()
    }

    /// The reason of the first approximation made, if any.
    pub fn approximation(&self) -> Option<&str> {
        self.approximation.as_deref()
    }

    pub fn counts(&self) -> BlastCounts {
        self.counts
    }

    /// Facts created since the last call, to be asserted permanently.
    pub fn take_pending_facts(&mut self) -> Vec<Lit> {
        std::mem::take(&mut self.pending_facts)
    }

    /// The literal of a Boolean term (see [`Blaster::blast`] for errors).
    pub fn blast_bool(&mut self, store: &TermStore, t: TermId, limits: &Limits) -> Result<Lit, String> {
        assert_eq!(store.sort(t), Sort::Bool, "Boolean term expected");
        Ok(self.blast(store, t, limits)?[0])
    }

    /// The word of a scalar term. Fails, leaving the memo consistent, when
    /// a resource limit stops the translation: `limits`, the width of a
    /// single word, or the size of the AIG.
    pub fn blast(&mut self, store: &TermStore, root: TermId, limits: &Limits) -> Result<&Word, String> {
        let mut stack = vec![Task::Term(root)];
        let mut until_limit_check = TASKS_PER_LIMIT_CHECK;
        while let Some(&task) = stack.last() {
            if self.is_done(task) {
                stack.pop();
                continue;
            }
            until_limit_check -= 1;
            if until_limit_check == 0 {
                until_limit_check = TASKS_PER_LIMIT_CHECK;
                self.check_resources(limits)?;
            }
            if let Task::Term(t) = task {
                check_word_width(store.sort(t))?;
            }
            match self.step(store, task) {
                Step::Done(word) => {
                    self.record(task, word);
                    stack.pop();
                }
                Step::Need(tasks) => stack.extend(tasks),
                Step::Fail(reason) => return Err(reason),
            }
        }
        self.check_resources(limits)?;
        Ok(&self.words[&root])
    }

    fn check_resources(&self, limits: &Limits) -> Result<(), String> {
        if let Some(why) = limits.exceeded() {
            return Err(format!("bit-blasting stopped: {why}"));
        }
        if self.aig.num_vars() > MAX_AIG_VARS {
            return Err(format!("formula too large: the circuit exceeds {MAX_AIG_VARS} nodes"));
        }
        Ok(())
    }

    /// Words of the scalar variables seen so far.
    pub fn scalar_vars(&self) -> impl Iterator<Item = (TermId, &Word)> {
        self.scalar_vars.iter().map(|&v| (v, &self.words[&v]))
    }

    /// Reads of each array variable seen so far: (index word, element word).
    pub fn array_var_reads(&self) -> impl Iterator<Item = (TermId, Vec<(&Word, &Word)>)> {
        self.array_vars.iter().map(|&array| {
            let reads = &self.base_reads[&array].reads;
            (array, reads.iter().map(|(index, elem)| (&self.index_words[index.0 as usize], elem)).collect())
        })
    }

    fn is_done(&self, task: Task) -> bool {
        match task {
            Task::Term(t) => self.words.contains_key(&t),
            Task::Read(array, index) => self.reads.contains_key(&(array, index)),
        }
    }

    fn record(&mut self, task: Task, word: Word) {
        match task {
            Task::Term(t) => self.words.insert(t, word),
            Task::Read(array, index) => self.reads.insert((array, index), word),
        };
    }

    fn step(&mut self, store: &TermStore, task: Task) -> Step {
        match task {
            Task::Term(t) => self.term_step(store, t),
            Task::Read(array, index) => self.read_step(store, array, index),
        }
    }

    /// The tasks among `tasks` that are not done yet.
    fn missing(&self, tasks: impl IntoIterator<Item = Task>) -> Vec<Task> {
        tasks.into_iter().filter(|&task| !self.is_done(task)).collect()
    }

    fn term_step(&mut self, store: &TermStore, t: TermId) -> Step {
        let sort = store.sort(t);
        let Some(width) = scalar_width(sort) else {
            return Step::Fail("unsupported: array-valued term where a scalar is needed".to_string());
        };
        match store.kind(t) {
            TermKind::Const(value) => match constant_word(value) {
                Some(word) => Step::Done(word),
                None => Step::Fail("unsupported: array constant where a scalar is needed".to_string()),
            },
            TermKind::Var(_) => {
                let word = self.fresh_word(sort, width);
                self.scalar_vars.push(t);
                Step::Done(word)
            }
            TermKind::App { op: Op::Select, args } => self.select_step(args[0], args[1]),
            TermKind::App { op: Op::Eq | Op::Distinct, args } if scalar_width(store.sort(args[0])).is_none() => {
                Step::Done(self.approximate(store, t, "equality between arrays"))
            }
            TermKind::App { op, args } => {
                let missing = self.missing(args.iter().map(|&a| Task::Term(a)));
                if !missing.is_empty() {
                    return Step::Need(missing);
                }
                let arg_words: Vec<Word> = args.iter().map(|a| self.words[a].clone()).collect();
                let arg_sort = args.first().map(|&a| store.sort(a));
                let word = apply(&mut self.aig, *op, arg_sort, &arg_words).or_else(|| {
                    let arg_sorts: Vec<Sort> = args.iter().map(|&a| store.sort(a)).collect();
                    fp::apply(&mut self.aig, *op, sort, &arg_sorts, &arg_words)
                });
                match word {
                    Some(word) => Step::Done(word),
                    None => {
                        let reason = unsupported_reason(store, sort, args);
                        Step::Done(self.approximate(store, t, &reason))
                    }
                }
            }
        }
    }

    fn select_step(&mut self, array: TermId, index: TermId) -> Step {
        if !self.words.contains_key(&index) {
            return Step::Need(vec![Task::Term(index)]);
        }
        let index_id = self.intern_index(self.words[&index].clone(), index);
        match self.reads.get(&(array, index_id)) {
            Some(word) => Step::Done(word.clone()),
            None => Step::Need(vec![Task::Read(array, index_id)]),
        }
    }

    fn intern_index(&mut self, word: Word, term: TermId) -> IndexId {
        if let Some(&id) = self.index_ids.get(&word) {
            return id;
        }
        let id = IndexId(self.index_words.len() as u32);
        self.index_words.push(word.clone());
        self.index_terms.push(term);
        self.index_ids.insert(word, id);
        id
    }

    /// Read-over-write: the element of `array` at `index`.
    fn read_step(&mut self, store: &TermStore, array: TermId, index: IndexId) -> Step {
        match store.kind(array) {
            TermKind::App { op: Op::Store, args } => {
                let (inner, position, value) = (args[0], args[1], args[2]);
                let missing = self.missing([Task::Term(position), Task::Term(value), Task::Read(inner, index)]);
                if !missing.is_empty() {
                    return Step::Need(missing);
                }
                let hit = self.indices_equal(store, position, self.index_terms[index.0 as usize]);
                let word = words::mux(&mut self.aig, hit, &self.words[&value], &self.reads[&(inner, index)]);
                Step::Done(word)
            }
            TermKind::App { op: Op::ConstArray(_), args } => {
                let value = args[0];
                match self.words.get(&value) {
                    Some(word) => Step::Done(word.clone()),
                    None => Step::Need(vec![Task::Term(value)]),
                }
            }
            TermKind::App { op: Op::Ite, args } => {
                let (cond, then, other) = (args[0], args[1], args[2]);
                let missing = self.missing([Task::Term(cond), Task::Read(then, index), Task::Read(other, index)]);
                if !missing.is_empty() {
                    return Step::Need(missing);
                }
                let cond = self.words[&cond][0];
                let word = words::mux(&mut self.aig, cond, &self.reads[&(then, index)], &self.reads[&(other, index)]);
                Step::Done(word)
            }
            TermKind::Var(_) => self.base_read(store, array, index),
            _ => {
                self.note_approximation(
                    store,
                    array,
                    "read of an array that is neither a variable nor built by stores",
                );
                self.base_read(store, array, index)
            }
        }
    }

    /// A fresh element for a read of a base array, equal to every earlier
    /// read of the same array at an equal index (Ackermann's reduction).
    fn base_read(&mut self, store: &TermStore, array: TermId, index: IndexId) -> Step {
        let (_, elem_sort) = store.sorts().array_parts(store.sort(array)).expect("array sort");
        let Some(width) = scalar_width(elem_sort) else {
            return Step::Fail("unsupported: reads of arrays of arrays".to_string());
        };
        let elem = self.fresh_word(elem_sort, width);
        let is_new_base = !self.base_reads.contains_key(&array);
        if is_new_base && store.as_var(array).is_some() {
            self.array_vars.push(array);
        }
        let earlier = std::mem::take(&mut self.base_reads.entry(array).or_default().reads);
        for (other_index, other_elem) in &earlier {
            let same_index =
                self.indices_equal(store, self.index_terms[index.0 as usize], self.index_terms[other_index.0 as usize]);
            // Reads at indices that can never be equal (distinct constants,
            // one base at distinct offsets) need no constraint, and building
            // the element equality first would cost a circuit per pair.
            if same_index == Lit::FALSE {
                continue;
            }
            let same_elem = words::eq(&mut self.aig, &elem, other_elem);
            let fact = self.aig.implies(same_index, same_elem);
            if fact != Lit::TRUE {
                self.pending_facts.push(fact);
                self.counts.ackermann_constraints += 1;
            }
        }
        let reads = &mut self.base_reads.get_mut(&array).expect("entry created above").reads;
        *reads = earlier;
        reads.push((index, elem.clone()));
        self.counts.array_reads += 1;
        Step::Done(elem)
    }

    /// Whether two (blasted) index terms are equal. Addresses are mostly
    /// `base + constant`: with one base the answer is a constant, with two
    /// bases it is one comparison of their (shared) difference with a
    /// constant, much smaller than comparing two adder outputs.
    fn indices_equal(&mut self, store: &TermStore, a: TermId, b: TermId) -> Lit {
        let (Some((base_a, offset_a)), Some((base_b, offset_b))) =
            (base_and_offset(store, a), base_and_offset(store, b))
        else {
            // Float indices compare as values (every NaN is one index).
            let float_sig = store.sort(a).float_format().map(|(_, sig)| sig as usize);
            return equal(&mut self.aig, float_sig, &self.words[&a], &self.words[&b]);
        };
        if base_a == base_b {
            return Lit::constant(offset_a == offset_b);
        }
        // base_a + offset_a = base_b + offset_b  <=>  base_a - base_b = offset_b - offset_a
        let (low, high, target) = if base_a < base_b {
            (base_a, base_b, offset_b.sub(&offset_a))
        } else {
            (base_b, base_a, offset_a.sub(&offset_b))
        };
        if !self.base_differences.contains_key(&(low, high)) {
            let difference = words::sub(&mut self.aig, &self.words[&low], &self.words[&high]);
            self.base_differences.insert((low, high), difference);
        }
        words::eq(&mut self.aig, &self.base_differences[&(low, high)], &bv_bits(&target))
    }

    /// Fresh inputs for a value of `sort`, with the range constraint of
    /// rounding modes (only five of the eight codes are modes).
    fn fresh_word(&mut self, sort: Sort, width: usize) -> Word {
        let word = words::inputs(&mut self.aig, width);
        if sort == Sort::RoundingMode {
            let mode_count = words::constant(RoundingMode::ALL.len() as u128, width);
            let in_range = words::ult(&mut self.aig, &word, &mode_count);
            self.pending_facts.push(in_range);
        }
        word
    }

    fn note_approximation(&mut self, store: &TermStore, t: TermId, reason: &str) {
        self.counts.approximated_terms += 1;
        if self.approximation.is_none() {
            let what = match store.op(t) {
                Some(op) => format!("{op:?}"),
                None => "term".to_string(),
            };
            self.approximation = Some(format!("{reason} ({what})"));
        }
    }

    /// An unconstrained word standing for the scalar term `t`, recorded as
    /// an approximation.
    fn approximate(&mut self, store: &TermStore, t: TermId, reason: &str) -> Word {
        self.note_approximation(store, t, reason);
        let sort = store.sort(t);
        let width = scalar_width(sort).expect("only scalar terms are approximated");
        self.fresh_word(sort, width)
    }
}

/// A bit-vector term as `base + offset` with a symbolic base: `x + c` (in
/// either argument order) or `x` itself with offset 0. `None` for constants.
fn base_and_offset(store: &TermStore, t: TermId) -> Option<(TermId, BvValue)> {
    let width = store.sort(t).bv_width()?;
    if store.const_value(t).is_some() {
        return None;
    }
    if store.op(t) == Some(Op::BvAdd) {
        let args = store.args(t);
        for (x, c) in [(args[0], args[1]), (args[1], args[0])] {
            if let (Some(offset), None) = (store.as_bv_const(c), store.const_value(x)) {
                return Some((x, offset.clone()));
            }
        }
    }
    Some((t, BvValue::zero(width)))
}

/// Why `apply` had no circuit for a term of sort `sort` over `args`.
fn unsupported_reason(store: &TermStore, sort: Sort, args: &[TermId]) -> String {
    let mut sorts = std::iter::once(sort).chain(args.iter().map(|&a| store.sort(a)));
    if sorts.any(|s| matches!(s, Sort::Float { .. } | Sort::RoundingMode)) {
        return FP_UNSUPPORTED.to_string();
    }
    match args.first().and_then(|&a| store.sort(a).bv_width()) {
        Some(width) if width as usize > MAX_QUADRATIC_WIDTH => {
            format!("multiplication or division of {width}-bit operands (limit {MAX_QUADRATIC_WIDTH} bits)")
        }
        _ => "operator not supported by the bit-blaster".to_string(),
    }
}

/// The word of `op` applied to argument words; `arg_sort` is the sort of
/// the first argument. `None` when the operator has no circuit here, or
/// when it is quadratic and too wide.
fn apply(aig: &mut Aig, op: Op, arg_sort: Option<Sort>, args: &[Word]) -> Option<Word> {
    use Op::*;
    let a = || &args[0];
    let b = || &args[1];
    let bit = |lit: Lit| Some(bool_word(lit));
    let float_sig = arg_sort.and_then(Sort::float_format).map(|(_, sig)| sig as usize);
    let quadratic = || (args[0].len() <= MAX_QUADRATIC_WIDTH).then_some(());
    match op {
        Not => bit(!a()[0]),
        And => bit(aig.and_all(args.iter().map(|w| w[0]))),
        Or => bit(aig.or_all(args.iter().map(|w| w[0]))),
        Xor => bit(args.iter().fold(Lit::FALSE, |acc, w| aig.xor(acc, w[0]))),
        Implies => bit(aig.implies(a()[0], b()[0])),
        Ite => Some(words::mux(aig, a()[0], b(), &args[2])),
        Eq => {
            let equalities: Vec<Lit> = args[1..].iter().map(|other| equal(aig, float_sig, a(), other)).collect();
            bit(aig.and_all(equalities))
        }
        Distinct => {
            let mut all_differ = Lit::TRUE;
            for (i, x) in args.iter().enumerate() {
                for y in &args[i + 1..] {
                    let same = equal(aig, float_sig, x, y);
                    all_differ = aig.and(all_differ, !same);
                }
            }
            bit(all_differ)
        }
        BvNot => Some(words::not(a())),
        BvNeg => Some(words::neg(aig, a())),
        BvAnd => Some(words::and(aig, a(), b())),
        BvOr => Some(words::or(aig, a(), b())),
        BvXor => Some(words::xor(aig, a(), b())),
        BvAdd => Some(words::add(aig, a(), b())),
        BvSub => Some(words::sub(aig, a(), b())),
        BvMul => quadratic().map(|()| words::mul(aig, a(), b())),
        BvUdiv => quadratic().map(|()| words::udiv(aig, a(), b())),
        BvUrem => quadratic().map(|()| words::urem(aig, a(), b())),
        BvSdiv => quadratic().map(|()| words::sdiv(aig, a(), b())),
        BvSrem => quadratic().map(|()| words::srem(aig, a(), b())),
        BvSmod => quadratic().map(|()| words::smod(aig, a(), b())),
        BvShl => Some(words::shl(aig, a(), b())),
        BvLshr => Some(words::lshr(aig, a(), b())),
        BvAshr => Some(words::ashr(aig, a(), b())),
        BvUlt => bit(words::ult(aig, a(), b())),
        BvUle => bit(words::ule(aig, a(), b())),
        BvUgt => bit(words::ult(aig, b(), a())),
        BvUge => bit(words::ule(aig, b(), a())),
        BvSlt => bit(words::slt(aig, a(), b())),
        BvSle => bit(words::sle(aig, a(), b())),
        BvSgt => bit(words::slt(aig, b(), a())),
        BvSge => bit(words::sle(aig, b(), a())),
        Concat => Some(words::concat(a(), b())),
        Extract { hi, lo } => Some(words::extract(a(), hi as usize, lo as usize)),
        ZeroExtend(extra) => Some(words::zero_extend(a(), extra as usize)),
        SignExtend(extra) => Some(words::sign_extend(a(), extra as usize)),
        RotateLeft(amount) => Some(words::rotate_left_const(a(), amount as usize)),
        RotateRight(amount) => Some(words::rotate_right_const(a(), amount as usize)),
        BvUaddOverflow => bit(words::uadd_overflow(aig, a(), b())),
        BvSaddOverflow => bit(words::sadd_overflow(aig, a(), b())),
        BvUsubOverflow => bit(words::usub_overflow(aig, a(), b())),
        BvSsubOverflow => bit(words::ssub_overflow(aig, a(), b())),
        BvUmulOverflow => quadratic().map(|()| bool_word(words::umul_overflow(aig, a(), b()))),
        BvSmulOverflow => quadratic().map(|()| bool_word(words::smul_overflow(aig, a(), b()))),
        BvSdivOverflow => bit(words::sdiv_overflow(aig, a(), b())),
        FpFromBits { .. } => Some(a().clone()),
        FpToBits => Some(float_to_bits(aig, a(), float_sig.expect("float argument"))),
        _ => None,
    }
}

/// Equality of two words of one scalar sort (floats by SMT-LIB `=`).
fn equal(aig: &mut Aig, float_sig: Option<usize>, a: &[Lit], b: &[Lit]) -> Lit {
    match float_sig {
        Some(sig) => float_eq(aig, a, b, sig),
        None => words::eq(aig, a, b),
    }
}
