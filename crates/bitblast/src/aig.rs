//! And-inverter graph (AIG) with structural hashing: the single circuit
//! representation every bit-level encoding of the crate is built on.
//!
//! A literal is a `u32` holding `var << 1 | negated`. Variable 0 is the
//! constant, so `Lit::FALSE` is 0 and `Lit::TRUE` is 1. And-nodes are created
//! only through [`Aig::and`], which folds constants, applies the one- and
//! two-level simplification rules and looks the node up in the structural
//! hash table, so equal sub-circuits are shared. A node's fan-ins always have
//! smaller variable numbers than the node, which lets every algorithm walk
//! the graph in index order instead of recursing.

use rustc_hash::FxHashMap;

/// A variable of the AIG: the constant, an input, or an and-node.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(pub u32);

impl Var {
    /// The positive literal of this variable.
    pub fn lit(self) -> Lit {
        Lit(self.0 << 1)
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A possibly negated AIG variable.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(pub u32);

impl Lit {
    pub const FALSE: Lit = Lit(0);
    pub const TRUE: Lit = Lit(1);

    pub fn var(self) -> Var {
        Var(self.0 >> 1)
    }

    pub fn is_negated(self) -> bool {
        self.0 & 1 == 1
    }

    pub fn is_const(self) -> bool {
        self.0 <= 1
    }

    /// The constant literal for `value`.
    pub fn constant(value: bool) -> Lit {
        if value {
            Lit::TRUE
        } else {
            Lit::FALSE
        }
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

/// What a variable stands for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Const,
    Input,
    And(Lit, Lit),
}

/// The graph: nodes in creation order (fan-ins before fan-outs) plus the
/// structural hash table.
pub struct Aig {
    nodes: Vec<Node>,
    strash: FxHashMap<(Lit, Lit), Var>,
    num_inputs: usize,
}

impl Default for Aig {
    fn default() -> Self {
        Self::new()
    }
}

impl Aig {
    pub fn new() -> Aig {
        Aig { nodes: vec![Node::Const], strash: FxHashMap::default(), num_inputs: 0 }
    }

    /// Number of variables, including the constant.
    pub fn num_vars(&self) -> usize {
        self.nodes.len()
    }

    pub fn num_inputs(&self) -> usize {
        self.num_inputs
    }

    pub fn num_ands(&self) -> usize {
        self.nodes.len() - 1 - self.num_inputs
    }

    pub fn node(&self, var: Var) -> Node {
        self.nodes[var.index()]
    }

    /// A fresh unconstrained input.
    pub fn new_input(&mut self) -> Lit {
        let var = self.push(Node::Input);
        self.num_inputs += 1;
        var.lit()
    }

    fn push(&mut self, node: Node) -> Var {
        let index =
            u32::try_from(self.nodes.len()).ok().filter(|&i| i < u32::MAX >> 1).expect("AIG exceeds 2^31 variables");
        self.nodes.push(node);
        Var(index)
    }

    /// The fan-ins of `lit` when it is a non-negated and-node.
    fn positive_and(&self, lit: Lit) -> Option<(Lit, Lit)> {
        match self.nodes[lit.var().index()] {
            Node::And(a, b) if !lit.is_negated() => Some((a, b)),
            _ => None,
        }
    }

    /// The fan-ins of `lit` when it is a negated and-node.
    fn negated_and(&self, lit: Lit) -> Option<(Lit, Lit)> {
        match self.nodes[lit.var().index()] {
            Node::And(a, b) if lit.is_negated() => Some((a, b)),
            _ => None,
        }
    }

    /// Conjunction of two literals, simplified and structurally hashed.
    pub fn and(&mut self, a: Lit, b: Lit) -> Lit {
        let (mut a, mut b) = (a, b);
        // Each rewrite replaces an operand by one of its own fan-ins, whose
        // variable number is smaller, so the loop terminates.
        loop {
            match self.simplify_step(a, b) {
                Step::Done(lit) => return lit,
                Step::Rewrite(na, nb) => (a, b) = (na, nb),
                Step::Keep => break,
            }
        }
        let key = if a < b { (a, b) } else { (b, a) };
        if let Some(&var) = self.strash.get(&key) {
            return var.lit();
        }
        let var = self.push(Node::And(key.0, key.1));
        self.strash.insert(key, var);
        var.lit()
    }

    /// One application of the constant, one-level and two-level rules.
    fn simplify_step(&self, a: Lit, b: Lit) -> Step {
        if a == Lit::FALSE || b == Lit::FALSE || a == !b {
            return Step::Done(Lit::FALSE);
        }
        if a == Lit::TRUE || a == b {
            return Step::Done(b);
        }
        if b == Lit::TRUE {
            return Step::Done(a);
        }
        for (x, y) in [(a, b), (b, a)] {
            if let Some((y0, y1)) = self.positive_and(y) {
                // x & (x & z) = x & z;  x & (!x & z) = 0
                if x == y0 || x == y1 {
                    return Step::Done(y);
                }
                if x == !y0 || x == !y1 {
                    return Step::Done(Lit::FALSE);
                }
            }
            if let Some((y0, y1)) = self.negated_and(y) {
                // x & !(!x & z) = x;  x & !(x & z) = x & !z
                if x == !y0 || x == !y1 {
                    return Step::Done(x);
                }
                if x == y0 {
                    return Step::Rewrite(x, !y1);
                }
                if x == y1 {
                    return Step::Rewrite(x, !y0);
                }
            }
        }
        if let (Some((a0, a1)), Some((b0, b1))) = (self.positive_and(a), self.positive_and(b)) {
            // (p & q) & (!p & r) = 0
            if a0 == !b0 || a0 == !b1 || a1 == !b0 || a1 == !b1 {
                return Step::Done(Lit::FALSE);
            }
        }
        Step::Keep
    }

    pub fn or(&mut self, a: Lit, b: Lit) -> Lit {
        !self.and(!a, !b)
    }

    pub fn xor(&mut self, a: Lit, b: Lit) -> Lit {
        let both = self.and(a, b);
        let neither = self.and(!a, !b);
        self.and(!both, !neither)
    }

    pub fn xnor(&mut self, a: Lit, b: Lit) -> Lit {
        !self.xor(a, b)
    }

    pub fn implies(&mut self, a: Lit, b: Lit) -> Lit {
        self.or(!a, b)
    }

    /// `if cond { then } else { other }`.
    pub fn mux(&mut self, cond: Lit, then: Lit, other: Lit) -> Lit {
        if then == other {
            return then;
        }
        let take_then = self.and(cond, then);
        let take_other = self.and(!cond, other);
        self.or(take_then, take_other)
    }

    /// Conjunction of any number of literals (true when empty).
    pub fn and_all(&mut self, lits: impl IntoIterator<Item = Lit>) -> Lit {
        let mut acc = Lit::TRUE;
        for lit in lits {
            acc = self.and(acc, lit);
        }
        acc
    }

    /// Disjunction of any number of literals (false when empty).
    pub fn or_all(&mut self, lits: impl IntoIterator<Item = Lit>) -> Lit {
        let mut acc = Lit::FALSE;
        for lit in lits {
            acc = self.or(acc, lit);
        }
        acc
    }

    /// Values of every variable under an assignment of the inputs, in one
    /// pass in index order. `input_value` is asked once per input variable.
    pub fn simulate(&self, mut input_value: impl FnMut(Var) -> bool) -> Simulation {
        let mut values = Vec::with_capacity(self.nodes.len());
        for (index, node) in self.nodes.iter().enumerate() {
            let value = match *node {
                Node::Const => false,
                Node::Input => input_value(Var(index as u32)),
                Node::And(a, b) => lit_value(&values, a) && lit_value(&values, b),
            };
            values.push(value);
        }
        Simulation { values }
    }
}

enum Step {
    Done(Lit),
    Rewrite(Lit, Lit),
    Keep,
}

fn lit_value(values: &[bool], lit: Lit) -> bool {
    values[lit.var().index()] ^ lit.is_negated()
}

/// The value of every variable of an AIG under one input assignment.
pub struct Simulation {
    values: Vec<bool>,
}

impl Simulation {
    pub fn lit(&self, lit: Lit) -> bool {
        lit_value(&self.values, lit)
    }

    /// A word's value, least significant bit first, as an unsigned number
    /// (words wider than 128 bits are truncated).
    pub fn word_u128(&self, word: &[Lit]) -> u128 {
        word.iter().take(128).enumerate().fold(0, |acc, (i, &lit)| acc | (u128::from(self.lit(lit)) << i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_fold() {
        let mut aig = Aig::new();
        let x = aig.new_input();
        assert_eq!(aig.and(x, Lit::TRUE), x);
        assert_eq!(aig.and(Lit::TRUE, x), x);
        assert_eq!(aig.and(x, Lit::FALSE), Lit::FALSE);
        assert_eq!(aig.and(x, x), x);
        assert_eq!(aig.and(x, !x), Lit::FALSE);
        assert_eq!(aig.or(x, !x), Lit::TRUE);
        assert_eq!(aig.xor(x, x), Lit::FALSE);
        assert_eq!(aig.num_ands(), 0);
    }

    #[test]
    fn structural_hashing_shares_nodes() {
        let mut aig = Aig::new();
        let x = aig.new_input();
        let y = aig.new_input();
        let first = aig.and(x, y);
        let second = aig.and(y, x);
        assert_eq!(first, second);
        assert_eq!(aig.num_ands(), 1);
    }

    #[test]
    fn two_level_rules() {
        let mut aig = Aig::new();
        let x = aig.new_input();
        let y = aig.new_input();
        let xy = aig.and(x, y);
        let not_x_y = aig.and(!x, y);
        assert_eq!(aig.and(x, xy), xy, "idempotence");
        assert_eq!(aig.and(!x, xy), Lit::FALSE, "contradiction");
        assert_eq!(aig.and(x, !not_x_y), x, "subsumption");
        let x_not_y = aig.and(x, !y);
        assert_eq!(aig.and(x, !xy), x_not_y, "substitution");
        assert_eq!(aig.and(xy, not_x_y), Lit::FALSE, "two-node contradiction");
    }

    /// Every simplification must preserve the function: compare all gates
    /// over three inputs with their truth tables.
    #[test]
    fn gates_match_truth_tables() {
        let mut aig = Aig::new();
        let inputs = [aig.new_input(), aig.new_input(), aig.new_input()];
        let [a, b, c] = inputs;
        let ab = aig.and(a, b);
        let gates = [
            aig.and(a, !ab),
            aig.or(ab, c),
            aig.xor(a, b),
            aig.xnor(b, c),
            aig.mux(a, b, c),
            aig.implies(ab, c),
        ];
        for pattern in 0..8u32 {
            let bit = |i: usize| pattern >> i & 1 == 1;
            let sim = aig.simulate(|var| bit(var.index() - 1));
            let (va, vb, vc) = (bit(0), bit(1), bit(2));
            let expected = [
                va && !vb,
                (va && vb) || vc,
                va ^ vb,
                vb == vc,
                if va { vb } else { vc },
                !(va && vb) || vc,
            ];
            for (gate, want) in gates.iter().zip(expected) {
                assert_eq!(sim.lit(*gate), want, "pattern {pattern:03b}");
            }
        }
    }
}
