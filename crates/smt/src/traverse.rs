//! Whole-DAG utilities: post-order walks, the variables a term depends on,
//! and substitution (rebuilding a term with some subterms replaced, e.g.
//! renaming the state variables of one time frame into the next).
//!
//! All walks use explicit stacks and visit each shared node once, so they
//! are linear in the DAG size and safe on terms millions of nodes deep.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::term::{TermId, TermKind, TermStore, VarId};

/// Every node reachable from `roots`, children before parents, each once.
pub fn post_order(store: &TermStore, roots: &[TermId]) -> Vec<TermId> {
    let mut order = Vec::new();
    let mut seen = FxHashSet::default();
    let mut stack: Vec<(TermId, bool)> = roots.iter().rev().map(|&r| (r, false)).collect();
    while let Some((t, children_done)) = stack.pop() {
        if children_done {
            order.push(t);
            continue;
        }
        if !seen.insert(t) {
            continue;
        }
        stack.push((t, true));
        stack.extend(
            store
                .args(t)
                .iter()
                .rev()
                .filter(|a| !seen.contains(a))
                .map(|&a| (a, false)),
        );
    }
    order
}

/// The variables reachable from `roots`, in first-visit order.
pub fn free_vars(store: &TermStore, roots: &[TermId]) -> Vec<VarId> {
    post_order(store, roots)
        .into_iter()
        .filter_map(|t| store.as_var(t))
        .collect()
}

/// `roots` with every occurrence of a key of `replacement` replaced by its
/// value (which must have the same sort). Replacement is simultaneous (a
/// replacement's value is not itself rewritten) and rebuilt terms go through
/// the rewriter, so constants substituted for variables fold away.
///
/// # Panics
/// If a replacement changes a sort (a bug in the caller).
pub fn substitute(
    store: &mut TermStore,
    roots: &[TermId],
    replacement: &FxHashMap<TermId, TermId>,
) -> Vec<TermId> {
    for (&from, &to) in replacement {
        assert_eq!(
            store.sort(from),
            store.sort(to),
            "substitution must preserve sorts"
        );
    }
    let mut image: FxHashMap<TermId, TermId> = FxHashMap::default();
    let mut stack: Vec<(TermId, bool)> = roots.iter().map(|&r| (r, false)).collect();
    while let Some((t, children_done)) = stack.pop() {
        if image.contains_key(&t) {
            continue;
        }
        if let Some(&to) = replacement.get(&t) {
            image.insert(t, to);
            continue;
        }
        let TermKind::App { op, args } = store.kind(t) else {
            image.insert(t, t);
            continue;
        };
        if !children_done {
            stack.push((t, true));
            stack.extend(
                args.iter()
                    .filter(|a| !image.contains_key(a))
                    .map(|&a| (a, false)),
            );
            continue;
        }
        let (op, args) = (*op, args.clone());
        let new_args: Vec<TermId> = args.iter().map(|a| image[a]).collect();
        let rebuilt = if new_args[..] == args[..] {
            t
        } else {
            store.mk(op, &new_args)
        };
        image.insert(t, rebuilt);
    }
    roots.iter().map(|r| image[r]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bv::BvValue;
    use crate::eval::{eval, Model};
    use crate::sort::Sort;
    use crate::testing::Generator;
    use crate::value::Value;

    #[test]
    fn post_order_visits_children_first_and_shared_nodes_once() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::BitVec(8));
        let y = s.var("y", Sort::BitVec(8));
        let sum = s.bv_add(x, y);
        let product = s.bv_mul(sum, sum);
        let order = post_order(&s, &[product, sum]);
        assert_eq!(order, vec![x, y, sum, product]);
        assert_eq!(
            free_vars(&s, &[product]),
            vec![s.as_var(x).unwrap(), s.as_var(y).unwrap()]
        );
    }

    #[test]
    fn substitution_agrees_with_evaluation_under_the_substituted_values() {
        let mut g = Generator::new(21);
        for _ in 0..300 {
            let sort = g.random_sort();
            let e = g.expr(sort, 4);
            let t = g.build(&e);
            let model = g.random_model();
            // Replace every variable by its model value: the result is the
            // term's value (when it folds to a constant, which every scalar
            // operator the generator uses does).
            let mut replacement = FxHashMap::default();
            for v in g.vars.clone() {
                let value = model.get(g.store.as_var(v).unwrap()).unwrap().clone();
                replacement.insert(v, g.store.constant(value));
            }
            let substituted = substitute(&mut g.store, &[t], &replacement)[0];
            let expected = eval(&g.store, t, &model).unwrap();
            let actual = eval(&g.store, substituted, &Model::new()).expect("no variables left");
            assert!(
                crate::testing::semantically_equal(&expected, &actual),
                "{expected} vs {actual}"
            );
            if !matches!(sort, Sort::Array(_)) {
                assert!(
                    g.store.const_value(substituted).is_some(),
                    "scalar terms fold to constants: {}",
                    crate::smtlib::to_smtlib2(&g.store, &[substituted], "ALL")
                );
            }
        }
    }

    #[test]
    fn renaming_deep_terms_is_iterative() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::BitVec(16));
        let x_next = s.var("x'", Sort::BitVec(16));
        let three = s.bv_u64(16, 3);
        let mut t = x;
        for _ in 0..200_000 {
            t = s.bv_mul(t, three);
            t = s.bv_xor(t, x);
        }
        let renamed = substitute(&mut s, &[t], &FxHashMap::from_iter([(x, x_next)]))[0];
        assert_eq!(free_vars(&s, &[renamed]), vec![s.as_var(x_next).unwrap()]);
        let mut m = Model::new();
        m.set(s.as_var(x).unwrap(), Value::Bv(BvValue::from_u64(16, 77)));
        m.set(
            s.as_var(x_next).unwrap(),
            Value::Bv(BvValue::from_u64(16, 77)),
        );
        assert_eq!(eval(&s, t, &m), eval(&s, renamed, &m));
    }
}
