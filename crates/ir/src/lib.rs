//! tarsier's intermediate representation: a whole-program, GOTO-style IR.
//!
//! A [`Program`] holds interned [`Type`]s, a symbol table, and functions whose
//! bodies are flat lists of [`Instr`]s with explicit jump targets. Expressions
//! are typed and side-effect free; every instruction carries its source
//! location. The IR knows no C syntax: the front end (`cfront`) lowers C into
//! it, and every later stage (analysis, symex, the interpreter) reads it.
//!
//! Besides the data types (`types`, `expr`, `instr`, `program`, `loc`,
//! `entity`) the crate owns the utilities every stage shares: `layout`
//! (sizes, alignments and integer ranges per data model), `libm` (the
//! inexact math functions and the host library's values of them), `print` (the
//! `--show-ir` text), `validate` (well-formedness checks with precise
//! messages), `visit` (non-recursive expression walks), `build` (adding
//! symbols and functions consistently), `varargs` (where a call's extra
//! arguments live), `external` (which body-less functions are the
//! program's environment, and what they may write) and `interp` (the concrete
//! interpreter that replays counterexamples).

pub mod build;
pub mod entity;
pub mod expr;
pub mod external;
pub mod format;
pub mod instr;
pub mod interp;
pub mod intrinsics;
pub mod layout;
pub mod libm;
pub mod loc;
pub mod print;
pub mod program;
pub mod rounding;
pub mod types;
pub mod validate;
pub mod varargs;
pub mod visit;

pub use entity::{EntityRef, PrimaryMap};
pub use expr::{BinOp, Expr, ExprKind, UnOp};
pub use instr::{Instr, InstrIdx, InstrKind, Property, PropertyClass, Quantifier};
pub use loc::{FileId, Loc, SourceFiles, LIBRARY_MODEL_DIR};
pub use program::{DataModel, EvaluationOrder, FuncId, Function, Label, LoopUnwind, Program, Symbol, SymbolId, SymbolKind};
pub use rounding::{RoundingMode, ROUNDING_MODE_VARIABLE};
pub use types::{ArrayLen, Composite, CompositeId, CompositeKind, Field, FloatFormat, FnSig, Type, TypeId, TypeTable};
pub use validate::validate;
