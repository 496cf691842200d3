//! Linking the C library models (crate `models`) into a program on demand.
//!
//! The program is lowered first on its own. When it calls a function it
//! does not define and a model defines, the model files are parsed (they
//! need no preprocessor), cut down to the definitions the program needs,
//! directly or through other models, and lowered together with the
//! program's units. So a function the program defines always wins over the
//! model, and models the program never calls do not appear in the IR.
//! Which model refers to which name is learnt once per data model by
//! lowering all models alone.

use crate::ast::{ExternalDecl, StorageClass, TranslationUnit};
use crate::diag::{Diagnostics, Severity};
use crate::{lex, parse, sema, Options};
use ir::{DataModel, Expr, ExprKind, InstrKind, Program, SourceFiles, SymbolKind};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::Path;
use std::sync::OnceLock;


/// Lowers `units` and links the models the program needs.
pub fn lower_with_models(
    units: Vec<TranslationUnit>,
    files: SourceFiles,
    opts: &Options,
    diags: &mut Diagnostics,
) -> Option<Program> {
    let program = sema::lower(&units, files.clone(), opts, diags)?;
    let Some(graph) = model_graph(opts.data_model) else {
        diags.warning(
            ir::Loc::NONE,
            "unsupported: the C library models do not compile; library calls stay nondeterministic",
        );
        return Some(program);
    };
    let needed = needed_names(&program, graph);
    if needed.is_empty() {
        return Some(program);
    }
    let renamed = declared_otherwise(&program, graph, &needed);
    let needed = needed
        .into_iter()
        .map(|name| if renamed.contains(&name) { opaque_model_name(&name) } else { name })
        .collect();
    let mut linked_diags = Diagnostics::default();
    let linked = link(units, files, opts, &needed, &renamed, &mut linked_diags);
    match linked {
        Some(mut linked) => {
            redirect_opaque_calls(&mut linked);
            crate::exit_handlers::run_handlers_at_exit(&mut linked);
            Some(linked)
        }
        None => {
            let first = linked_diags
                .list
                .iter()
                .find(|d| d.severity == Severity::Error);
            let reason = first.map_or_else(|| "no diagnostic".to_string(), |d| d.message.clone());
            diags.warning(ir::Loc::NONE, format!("unsupported: linking the C library models failed ({reason}); library calls stay nondeterministic"));
            Some(program)
        }
    }
}

/// The names of the body-less functions that some function body refers to
/// (calls them or takes their address).
pub fn referenced_bodiless(program: &Program) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for function in program.functions.values() {
        for instr in function.body.iter().flatten() {
            for expr in instr.kind.exprs() {
                for node in expr.walk() {
                    let ExprKind::Sym(sym) = node.kind else {
                        continue;
                    };
                    if let SymbolKind::Function(f) = program.symbols[sym].kind {
                        if program.functions[f].body.is_none() {
                            names.insert(program.functions[f].name.clone());
                        }
                    }
                }
            }
        }
    }
    names
}

/// The library's own objects the front end made the program refer to
/// (the standard streams' `FILE`s, see `sema::standard_stream`): globals
/// with a reserved `__tarsier_` name, which a model defines.
fn referenced_model_objects(program: &Program) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for function in program.functions.values() {
        for instr in function.body.iter().flatten() {
            for node in instr.kind.exprs().into_iter().flat_map(|e| e.walk()) {
                if let ExprKind::Sym(sym) = node.kind {
                    let symbol = &program.symbols[sym];
                    if symbol.kind == SymbolKind::Global && symbol.name.starts_with("__tarsier_") {
                        names.insert(symbol.name.clone());
                    }
                }
            }
        }
    }
    names
}

/// What the models define and which names each definition refers to.
struct ModelGraph {
    /// Model function or global name -> the function and global names its
    /// body or initializer refers to.
    refers_to: HashMap<String, BTreeSet<String>>,
    /// Model function name -> the shape of its type.
    shapes: HashMap<String, Vec<Shape>>,
    /// The models' types, and each model function's type among them.
    types: ir::TypeTable,
    function_types: HashMap<String, ir::TypeId>,
}

/// The type of the model function `name` (in the models' own type table),
/// for a call of `name` the program does not declare: `sema` gives it the
/// model's prototype, as GCC gives an undeclared library function its
/// built-in one.
pub(crate) fn model_function_type(model: DataModel, name: &str) -> Option<(&'static ir::TypeTable, ir::TypeId)> {
    let graph = model_graph(model)?;
    graph.function_types.get(name).map(|&ty| (&graph.types, ty))
}

/// What a calling convention sees of one type in a function type (the
/// result, each parameter, then the variadic and prototype flags).
#[derive(Clone, PartialEq, Eq, Debug)]
enum Shape {
    Void,
    Int { bits: u32, signed: bool },
    Pointer,
    /// A struct or union by its tag (none when anonymous) and its fields'
    /// names, bit-field widths and shapes, as C compares them across
    /// translation units (C11 6.2.7p1): the program's and the models'
    /// composite ids differ.
    Composite { union: bool, tag: Option<String>, fields: Vec<(String, Option<u32>, Shape)> },
    Array(Box<Shape>, String),
    Other(String),
    Flag(bool),
}

/// The shape of function type `ty`; empty for a type that is no function.
fn function_shape(types: &ir::TypeTable, ty: ir::TypeId) -> Vec<Shape> {
    let ir::Type::Function(sig) = types.get(ty) else {
        return Vec::new();
    };
    let of = |t: ir::TypeId| type_shape(types, t);
    let mut shape: Vec<Shape> = std::iter::once(sig.ret).chain(sig.params.iter().copied()).map(of).collect();
    shape.extend([Shape::Flag(sig.variadic), Shape::Flag(sig.unprototyped)]);
    shape
}

fn type_shape(types: &ir::TypeTable, ty: ir::TypeId) -> Shape {
    match types.get(ty) {
        ir::Type::Void => Shape::Void,
        ir::Type::Bool => Shape::Int { bits: 1, signed: false },
        &ir::Type::Int { bits, signed } => Shape::Int { bits, signed },
        ir::Type::Pointer(_) => Shape::Pointer,
        &ir::Type::Composite(id) => {
            let composite = &types.composites[id];
            Shape::Composite {
                union: composite.kind == ir::CompositeKind::Union,
                tag: (!composite.name.starts_with("__anon")).then(|| composite.name.clone()),
                fields: composite.fields.iter().map(|f| (f.name.clone(), f.bit_width, type_shape(types, f.ty))).collect(),
            }
        }
        &ir::Type::Array(element, len) => Shape::Array(Box::new(type_shape(types, element)), format!("{len:?}")),
        other => Shape::Other(format!("{other:?}")),
    }
}

/// The `needed` model functions that the program declares with another
/// type than the model's (its own `unsigned strlen(const char *)`, or an
/// implicit `int strtol()`). Their models are linked under the opaque name,
/// so the declarations do not conflict, and calls are redirected with
/// conversions where the two types agree on the calling convention.
fn declared_otherwise(program: &Program, graph: &ModelGraph, needed: &HashSet<String>) -> HashSet<String> {
    program
        .functions
        .values()
        .filter(|f| f.body.is_none() && needed.contains(&f.name))
        .filter(|f| {
            let model = graph.shapes.get(&f.name);
            model.is_some_and(|shape| *shape != function_shape(&program.types, f.ty))
        })
        .map(|f| f.name.clone())
        .collect()
}

/// The model graph for `model`, computed once; `None` if the models do not
/// compile (a bug of the models, reported as a warning by the caller).
fn model_graph(model: DataModel) -> Option<&'static ModelGraph> {
    static ILP32: OnceLock<Option<ModelGraph>> = OnceLock::new();
    static LP64: OnceLock<Option<ModelGraph>> = OnceLock::new();
    let cell = match model {
        DataModel::ILP32 => &ILP32,
        DataModel::LP64 => &LP64,
    };
    cell.get_or_init(|| build_graph(model, &mut Diagnostics::default()))
        .as_ref()
}

fn build_graph(model: DataModel, diags: &mut Diagnostics) -> Option<ModelGraph> {
    let mut files = SourceFiles::default();
    let units = parse_models(model, &HashSet::new(), &mut files, diags)?;
    // Lowering needs an entry function; any model serves.
    let entry = Some("strlen".to_string());
    let opts = Options {
        data_model: model,
        library_models: false,
        entry,
        ..Options::default()
    };
    let program = sema::lower(&units, files, &opts, diags)?;
    // A body that fails to lower is left body-less with its errors held back.
    let defined = units
        .iter()
        .flat_map(|u| &u.items)
        .filter_map(|item| match item {
            ExternalDecl::Function(f) => f.declarator.name.as_deref(),
            _ => None,
        });
    for name in defined {
        if program
            .function(name)
            .is_none_or(|f| program.functions[f].body.is_none())
        {
            diags.error(ir::Loc::NONE, format!("model `{name}` does not lower"));
            return None;
        }
    }
    let shapes = program
        .functions
        .values()
        .filter(|f| f.body.is_some())
        .map(|f| (f.name.clone(), function_shape(&program.types, f.ty)))
        .collect();
    let function_types = program.functions.values().filter(|f| f.body.is_some()).map(|f| (f.name.clone(), f.ty)).collect();
    let mut refers_to: HashMap<String, BTreeSet<String>> = HashMap::new();
    for (id, function) in program.functions.iter() {
        let Some(body) = &function.body else { continue };
        let is_init = program.init == Some(id);
        for instr in body {
            let exprs = instr.kind.exprs();
            // Global initializers live in the init function: a global refers
            // to what the assignments to it read.
            let owner = match (&instr.kind, is_init) {
                (InstrKind::Assign(lhs, _), true) => match root_symbol(lhs) {
                    Some(root) => program.symbols[root].name.clone(),
                    None => continue,
                },
                (_, true) => continue,
                _ => function.name.clone(),
            };
            let names = refers_to.entry(owner).or_default();
            for node in exprs.iter().flat_map(|e| e.walk()) {
                if let ExprKind::Sym(sym) = node.kind {
                    let symbol = &program.symbols[sym];
                    if matches!(symbol.kind, SymbolKind::Function(_) | SymbolKind::Global) {
                        names.insert(symbol.name.clone());
                    }
                }
            }
        }
    }
    Some(ModelGraph { refers_to, shapes, types: program.types.clone(), function_types })
}

/// The variable an lvalue is part of.
fn root_symbol(lvalue: &Expr) -> Option<ir::SymbolId> {
    lvalue.walk().find_map(|node| match node.kind {
        ExprKind::Sym(sym) => Some(sym),
        _ => None,
    })
}

/// Models a model needs although its body does not refer to them: the
/// front end inserts the calls (see `crate::exit_handlers`).
const COMPANIONS: &[(&str, &str)] = &[
    ("atexit", crate::exit_handlers::EXIT_MODEL),
    (crate::sema::REGISTER_DESTRUCTORS, crate::exit_handlers::EXIT_MODEL),
];

/// The model names the program needs: the models of the body-less functions
/// it refers to and, transitively, what those refer to (including
/// declarations of non-model functions such as the verification
/// intrinsics) or their companions need. Empty when no model is called.
fn needed_names(program: &Program, graph: &ModelGraph) -> HashSet<String> {
    let mut pending: Vec<String> = referenced_bodiless(program)
        .into_iter()
        .map(|name| match opaque_model_name(&name) {
            model if graph.refers_to.contains_key(&model) => model,
            _ => name,
        })
        .chain(referenced_model_objects(program))
        .filter(|name| graph.refers_to.contains_key(name))
        .collect();
    let defined: HashSet<&str> = program
        .functions
        .values()
        .filter(|f| f.body.is_some())
        .map(|f| f.name.as_str())
        .collect();
    let mut needed = HashSet::new();
    while let Some(name) = pending.pop() {
        if defined.contains(name.as_str()) || !needed.insert(name.clone()) {
            continue;
        }
        let companions = COMPANIONS.iter().filter(|(model, _)| *model == name);
        pending.extend(companions.map(|(_, companion)| companion.to_string()));
        pending.extend(graph.refers_to.get(&name).into_iter().flatten().cloned());
    }
    needed
}

/// The name of the model of `name` written over library types the model
/// cannot spell (glibc's anonymous unions, such as `pthread_mutex_t`): it
/// takes `void *` or its own view of the object, and calls of `name` are
/// redirected to it with their pointer arguments converted.
fn opaque_model_name(name: &str) -> String {
    format!("__tarsier_opaque_{name}")
}

/// Makes calls of body-less functions that have an opaque model call the
/// model instead, converting the arguments and the result the way the
/// calling convention does: pointers to pointers, integers to integers of
/// the same width, and an integer result to a narrower or equally wide
/// declared one (the caller reads the low part of the register). A call
/// that does not fit the model otherwise (another arity, other types) is
/// left alone.
fn redirect_opaque_calls(program: &mut Program) {
    let mut redirect = HashMap::new();
    for function in program.functions.values() {
        if function.body.is_none() {
            let model = opaque_model_name(&function.name);
            if let Some(m) = program.function(&model).filter(|&m| program.functions[m].body.is_some()) {
                redirect.insert(function.symbol, m);
            }
        }
    }
    let function_ids: Vec<ir::FuncId> = program.functions.iter().map(|(id, _)| id).collect();
    for id in function_ids {
        let Some(body) = program.functions[id].body.take() else { continue };
        let body = redirect_in_body(program, id, body, &redirect);
        program.functions[id].body = Some(body);
    }
}

/// `body` of function `owner` with its calls redirected to the models.
fn redirect_in_body(
    program: &mut Program,
    owner: ir::FuncId,
    body: Vec<ir::Instr>,
    redirect: &HashMap<ir::SymbolId, ir::FuncId>,
) -> Vec<ir::Instr> {
    let mut out = Vec::with_capacity(body.len());
    let mut new_index = Vec::with_capacity(body.len() + 1);
    for instr in body {
        new_index.push(ir::InstrIdx(out.len() as u32));
        match redirected_call(program, owner, &instr, redirect) {
            Some(replacement) => out.extend(replacement),
            None => out.push(instr),
        }
    }
    new_index.push(ir::InstrIdx(out.len() as u32));
    ir::instr::retarget(&mut out, &new_index);
    for label in program.labels.iter_mut().filter(|l| l.function == owner) {
        label.at = new_index[label.at.0 as usize];
    }
    out
}

/// The instructions that replace `instr` when it is a call to redirect.
fn redirected_call(
    program: &mut Program,
    owner: ir::FuncId,
    instr: &ir::Instr,
    redirect: &HashMap<ir::SymbolId, ir::FuncId>,
) -> Option<Vec<ir::Instr>> {
    let InstrKind::Call { lhs, callee, args } = &instr.kind else { return None };
    let ExprKind::Sym(sym) = callee.kind else { return None };
    let model = *redirect.get(&sym)?;
    let model_sym = program.functions[model].symbol;
    let model_ty = program.symbols[model_sym].ty;
    let ir::Type::Function(sig) = program.types.get(program.functions[model].ty).clone() else {
        return None;
    };
    let types = &program.types;
    let int_bits = |t: ir::TypeId| match types.get(t) {
        &ir::Type::Int { bits, .. } => Some(bits),
        _ => None,
    };
    let fits = |from: ir::TypeId, to: ir::TypeId| {
        from == to
            || (types.is_pointer(from) && types.is_pointer(to))
            || int_bits(from).is_some_and(|bits| int_bits(to) == Some(bits))
    };
    let result_fits = lhs.as_ref().is_none_or(|l| {
        l.ty == sig.ret || int_bits(l.ty).zip(int_bits(sig.ret)).is_some_and(|(declared, model)| declared <= model)
    });
    if args.len() != sig.params.len() || !result_fits || !args.iter().zip(&sig.params).all(|(a, &p)| fits(a.ty, p)) {
        return None;
    }
    let args = args
        .iter()
        .zip(&sig.params)
        .map(|(arg, &param)| if arg.ty == param { arg.clone() } else { Expr::cast(arg.clone(), param) })
        .collect();
    let callee = Expr::sym(model_sym, model_ty);
    let call = |lhs| ir::Instr::new(InstrKind::Call { lhs, callee: callee.clone(), args: Vec::clone(&args) }, instr.loc);
    match lhs {
        Some(lhs) if lhs.ty != sig.ret => {
            let name = format!("{}_result", opaque_model_name(&program.symbols[sym].name));
            let result = program.add_local(owner, &name, sig.ret, instr.loc);
            let result_expr = Expr::sym(result, sig.ret);
            Some(vec![
                ir::Instr::new(InstrKind::Decl(result), instr.loc),
                call(Some(result_expr.clone())),
                ir::Instr::new(InstrKind::Assign(lhs.clone(), Expr::cast(result_expr, lhs.ty)), instr.loc),
                ir::Instr::new(InstrKind::Dead(result), instr.loc),
            ])
        }
        lhs => Some(vec![call(lhs.clone())]),
    }
}

/// Parses every model file, prefixed with the data model's prelude, with
/// the `renamed` functions under their opaque names.
fn parse_models(
    model: DataModel,
    renamed: &HashSet<String>,
    files: &mut SourceFiles,
    diags: &mut Diagnostics,
) -> Option<Vec<TranslationUnit>> {
    let mut units = Vec::new();
    for (name, text) in models::UNITS {
        let path = Path::new(ir::LIBRARY_MODEL_DIR).join(name);
        let mut source = format!("{}{text}", models::prelude(model));
        if !renamed.is_empty() {
            source = rename_identifiers(&source, &path, renamed, diags)?;
        }
        let tokens = lex::tokenize(&source, &path, files, diags)?;
        units.push(parse::parse(&tokens, diags)?);
    }
    Some(units)
}

/// `source` with every identifier token in `renamed` replaced by its
/// opaque model name.
fn rename_identifiers(source: &str, path: &Path, renamed: &HashSet<String>, diags: &mut Diagnostics) -> Option<String> {
    let tokens = lex::tokenize(source, path, &mut SourceFiles::default(), diags)?;
    let mut out = String::with_capacity(source.len());
    let mut copied = 0;
    for token in tokens.list.iter().filter(|t| t.kind == lex::TokKind::Ident) {
        let text = tokens.text(token);
        if renamed.contains(text) {
            out.push_str(&source[copied..token.start as usize]);
            out.push_str(&opaque_model_name(text));
            copied = token.end as usize;
        }
    }
    out.push_str(&source[copied..]);
    Some(out)
}

/// Lowers the program's units with the `needed` parts of the models, the
/// `renamed` ones under their opaque names.
fn link(
    mut units: Vec<TranslationUnit>,
    mut files: SourceFiles,
    opts: &Options,
    needed: &HashSet<String>,
    renamed: &HashSet<String>,
    diags: &mut Diagnostics,
) -> Option<Program> {
    let models = parse_models(opts.data_model, renamed, &mut files, diags)?;
    units.extend(
        models
            .into_iter()
            .map(|unit| keep_needed(unit, needed))
            .filter(|unit| defines_something(unit, needed)),
    );
    sema::lower(&units, files, opts, diags)
}

/// `unit` without the definitions and declarations of names not `needed`
/// (type definitions and struct, union and enum declarations stay).
fn keep_needed(unit: TranslationUnit, needed: &HashSet<String>) -> TranslationUnit {
    let is_needed = |name: &Option<String>| name.as_ref().is_some_and(|n| needed.contains(n));
    let items = unit
        .items
        .into_iter()
        .filter(|item| match item {
            ExternalDecl::Function(f) => is_needed(&f.declarator.name),
            // Type definitions stay: typedefs, and tags or enumeration
            // constants declared without an object.
            ExternalDecl::Declaration(d) => {
                d.specs.storage == Some(StorageClass::Typedef)
                    || d.declarators.is_empty()
                    || d.declarators.iter().any(|i| is_needed(&i.declarator.name))
            }
            ExternalDecl::StaticAssert(_) | ExternalDecl::Asm(..) => true,
        })
        .collect();
    TranslationUnit { items }
}

/// Whether `unit` still defines a function, or a `needed` object (the
/// standard streams' `FILE`s may be all a program needs of stdio.c).
fn defines_something(unit: &TranslationUnit, needed: &HashSet<String>) -> bool {
    unit.items.iter().any(|item| match item {
        ExternalDecl::Function(_) => true,
        ExternalDecl::Declaration(d) => {
            d.specs.storage.is_none()
                && d.declarators.iter().any(|i| i.declarator.name.as_ref().is_some_and(|n| needed.contains(n)))
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_compile_in_both_data_models() {
        for model in [DataModel::ILP32, DataModel::LP64] {
            let mut diags = Diagnostics::default();
            let graph = build_graph(model, &mut diags);
            let errors: Vec<_> = diags
                .list
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .map(|d| &d.message)
                .collect();
            assert!(
                graph.is_some() && errors.is_empty(),
                "{model:?}: {errors:?}"
            );
        }
    }

    #[test]
    fn graph_follows_calls_and_initializers() {
        let graph = model_graph(DataModel::LP64).expect("models compile");
        assert!(graph.refers_to["strcat"].contains("strcpy"));
        assert!(graph.refers_to["strcat"].contains("strlen"));
        assert!(graph.refers_to["__ctype_b_loc"].contains("__tarsier_ctype_b_entry"));
        assert!(graph.refers_to["__tarsier_ctype_b_entry"].contains("__tarsier_ctype_b"));
    }
}
